"""Presence: who is online, from when each player last loaded a page or called the API.

``User.last_active_at`` is written at most once per ``TOUCH_RESOLUTION`` per player, by one
UPDATE and only when the value the request loaded anyway is older: a request adds no read, and
a player clicking around adds one write a minute. Pages (``PresenceMiddleware``) record it for
a user they loaded anyway (a poll answered from the cache loads nobody and stays query-free);
the API's token authentication calls :func:`touch` itself (``api.authentication``).

A player is *online* when that moment is within ``ONLINE_WINDOW``. Others are shown only that
(online, or the day of the last visit): never the minute, so the column tells nobody when a
player looked at a game.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import DatabaseError
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.functional import empty

from . import auth_cache
from .models import User

logger = logging.getLogger(__name__)

#: ``last_active_at`` is written at most this often per player.
TOUCH_RESOLUTION = timedelta(minutes=1)
#: Seen this recently: online.
ONLINE_WINDOW = timedelta(minutes=5)


def touch(user: User, *, now: datetime | None = None) -> bool:
    """Note that ``user`` is active now: one UPDATE if their ``last_active_at`` (as loaded) is
    older than ``TOUCH_RESOLUTION``, nothing otherwise. Returns whether it wrote.

    The UPDATE also matches only a stale row, so two requests of one player at once write once
    in effect; it changes no key and is its own statement (autocommit), so it waits for no lock
    of another path for longer than that path's short write (docs/locking.md).
    """
    now = now or timezone.now()
    seen = user.last_active_at
    if seen is not None and now - seen < TOUCH_RESOLUTION:
        return False
    stale = Q(last_active_at__isnull=True) | Q(last_active_at__lt=now - TOUCH_RESOLUTION)
    User.objects.filter(stale, pk=user.pk).update(last_active_at=now)
    user.last_active_at = now
    auth_cache.forget_user(user.pk)  # the kept row is behind now (one read a minute, not every request)
    return True


def is_online(user: User, *, now: datetime | None = None) -> bool:
    """Whether ``user`` (a person, not a computer player) was active within ``ONLINE_WINDOW``."""
    seen = user.last_active_at
    if user.is_bot or seen is None:
        return False
    return seen >= (now or timezone.now()) - ONLINE_WINDOW


def online_users(*, now: datetime | None = None) -> QuerySet[User]:
    """The people online, most recently active first (``user_last_active_idx``)."""
    since = (now or timezone.now()) - ONLINE_WINDOW
    return User.objects.filter(last_active_at__gte=since, is_active=True, is_bot=False).order_by(
        "-last_active_at", "pk"
    )


class PresenceMiddleware:
    """After each page, :func:`touch` the signed-in user if the page loaded them anyway (after
    ``AuthenticationMiddleware``). A request that never looked at the user (a cached poll, a
    static file) loads nobody for this."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.streaming:
            # A live stream handed its database connection back before it waits (durak_site.live);
            # a write here would take one for the stream's whole life. Its page counted already.
            return response
        user = getattr(request, "user", None)
        if user is None or getattr(user, "_wrapped", None) is empty:
            return response
        real = getattr(user, "_wrapped", user)
        if isinstance(real, User) and real.is_active and not real.is_bot:
            try:
                touch(real)
            except DatabaseError as error:  # the page itself went well: presence can wait
                logger.warning("presence of user %s not recorded: %s", real.pk, error)
        return response
