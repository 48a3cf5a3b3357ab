"""Who is a moderator: an active staff account in the Moderators group (or a superuser)."""

from typing import Any

from django.contrib.auth.models import Group, Permission

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
