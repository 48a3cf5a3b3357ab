"""The friends page, the blocked players' page and the buttons of both and of a profile.

Thin: ``accounts.relations`` decides (and words its refusals); each POST answers with a
redirect back and a message, so the buttons work without JavaScript (with htmx: the same, by
``HX-Redirect``). A user name or request that names nothing is the message of a refusal, not
an error page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import relations
from accounts.models import Friendship, User

from . import selectors


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _back(request: HttpRequest, default: str = "club:friends") -> HttpResponse:
    """Back to the page the button was on (``next``, if it is this site's), else ``default``."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ) or not target.startswith("/"):
        target = reverse(default)
    if getattr(request, "htmx", False):
        return HttpResponse(status=204, headers={"HX-Redirect": target})
    return redirect(target)


def _named(request: HttpRequest) -> User | None:
    """The active person the form names (``username``), or None with the message said."""
    name = request.POST.get("username", "").strip()
    person = (
        User.objects.filter(username__iexact=name, is_active=True).first() if 0 < len(name) <= 150 else None
    )
    if person is None:
        messages.error(request, _("There is no player called %(name)s.") % {"name": name[:150] or "—"})
    return person


@require_GET
@login_required
def friends(request: HttpRequest) -> HttpResponse:
    page = selectors.friends_page(_user(request))
    return render(request, "club/friends.html", {"page": page})


@require_GET
@login_required
def blocked(request: HttpRequest) -> HttpResponse:
    return render(request, "club/blocked.html", {"blocks": selectors.blocked_players(_user(request))})


def _answer(request: HttpRequest, change: Callable[[], str]) -> HttpResponse:
    """Do ``change``, say what it did (or why not), and go back."""
    try:
        done = change()
    except relations.RelationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)
    return _back(request)


@require_POST
@login_required
def request_send(request: HttpRequest) -> HttpResponse:
    person = _named(request)
    if person is None:
        return _back(request)
    me = _user(request)

    def send() -> str:
        made = relations.friend_request_send(sender=me, recipient=person)
        if isinstance(made, Friendship):
            return _("You and %(name)s are friends.") % {"name": person.name}
        return _("Friend request sent to %(name)s.") % {"name": person.name}

    return _answer(request, send)


def _request_change(
    request: HttpRequest, request_id: int, change: Callable[..., object], said: str
) -> HttpResponse:
    me = _user(request)

    def do() -> str:
        change(user=me, request_id=request_id)
        return said

    return _answer(request, do)


@require_POST
@login_required
def request_accept(request: HttpRequest, request_id: int) -> HttpResponse:
    return _request_change(request, request_id, relations.friend_request_accept, _("You are friends now."))


@require_POST
@login_required
def request_decline(request: HttpRequest, request_id: int) -> HttpResponse:
    return _request_change(request, request_id, relations.friend_request_decline, _("Request declined."))


@require_POST
@login_required
def request_cancel(request: HttpRequest, request_id: int) -> HttpResponse:
    return _request_change(request, request_id, relations.friend_request_cancel, _("Request cancelled."))


def _about_someone(request: HttpRequest, change: Callable[[User, User], str]) -> HttpResponse:
    if "username" not in request.POST:
        return HttpResponseBadRequest(_("Name a player."))
    person = _named(request)
    if person is None:
        return _back(request)
    me = _user(request)
    return _answer(request, lambda: change(me, person))


@require_POST
@login_required
def friend_remove(request: HttpRequest) -> HttpResponse:
    def remove(me: User, person: User) -> str:
        relations.friend_remove(user=me, other=person)
        return _("%(name)s is no longer your friend.") % {"name": person.name}

    return _about_someone(request, remove)


@require_POST
@login_required
def block(request: HttpRequest) -> HttpResponse:
    def block(me: User, person: User) -> str:
        relations.block(blocker=me, blocked=person)
        return _("You blocked %(name)s. They are not told.") % {"name": person.name}

    return _about_someone(request, block)


@require_POST
@login_required
def unblock(request: HttpRequest) -> HttpResponse:
    def unblock(me: User, person: User) -> str:
        relations.unblock(blocker=me, blocked=person)
        return _("You unblocked %(name)s.") % {"name": person.name}

    return _about_someone(request, unblock)
