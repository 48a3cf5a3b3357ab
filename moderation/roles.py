"""Who is a moderator: an active staff account in the Moderators group (or a superuser); and
the guard of every staff page, the admin's and the others (``moderator_required``)."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from .models import MODERATORS_GROUP

#: The group's permissions, as migration 0002 gives them (app label, codename): reading,
#: and the moderation actions; no add, change or delete of any row.
PERMISSIONS = [
    ("accounts", "view_user"),
    ("games", "view_game"),
    ("games", "view_seat"),
    ("games", "view_move"),
    ("chat", "view_chatmessage"),
    ("moderation", "view_report"),
    ("moderation", "view_sanction"),
    ("moderation", "view_auditentry"),
    ("moderation", "hide_message"),
    ("moderation", "mute_user"),
    ("moderation", "suspend_user"),
    ("moderation", "abort_game"),
    ("moderation", "settle_game"),
    ("moderation", "handle_report"),
]


def is_moderator(user: Any) -> bool:
    if not (getattr(user, "is_authenticated", False) and user.is_active and user.is_staff):
        return False
    if user.is_superuser:
        return True
    return bool(user.groups.filter(name=MODERATORS_GROUP).exists())


def refuse_non_moderators(request: HttpRequest) -> HttpResponse | None:
    """None for a moderator; an anonymous visitor is sent to the site's log-in; anyone else,
    staff or not, is refused (403)."""
    if is_moderator(request.user):
        return None
    if request.user.is_authenticated:
        raise PermissionDenied(_("Only moderators may use these pages."))
    return redirect_to_login(request.get_full_path(), reverse("account_login"))


def moderator_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a staff page outside the admin: the moderators', exactly as the admin decides
    (``is_staff`` alone, as with Django's ``staff_member_required``, lets nobody in)."""

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return refuse_non_moderators(request) or view(request, *args, **kwargs)

    return guarded


def moderators_group() -> Group:
    """The group, made by migration ``moderation.0002`` (and again after a database flush)."""
    return Group.objects.get(name=MODERATORS_GROUP)


def ensure_moderators_group(**kwargs: Any) -> None:
    """post_migrate: the group exists with its permissions, also after a flush (which empties
    the tables that migration 0002 filled, e.g. between transactional tests)."""
    group, created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    if created:
        for app_label, codename in PERMISSIONS:
            group.permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
