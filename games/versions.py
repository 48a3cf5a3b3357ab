"""Each game's version, shared through the cache, so a poll that finds nothing new needs no database.

The database is the truth; the cache only lets the table poll of a public game answer "nothing
changed" (204) without a query (a private game's poll asks the database who may see it). After
every commit that moves a game on, :func:`publish` writes the new version
(``transaction.on_commit``); :func:`cached` reads it. A cached version is trusted only for a short
time (``GAME_VERSION_CACHE_SECONDS``): if a write is ever lost (the cache was down) or two
commits' writes land out of order, a player sees the change at most that much later, never
a wrong table, since everything but the 204 is read from the database. With the setting at 0
(the default unless a shared cache is configured: a per-process cache would go stale across the
web and worker processes) the poll always asks the database.

:func:`publish` also tells the pages that show the game (``durak_site.live``): "game G is now
at version N" on the game's channel, after the cache holds N (a page that hears it and polls at
once must not get the old version's 204 from the cache), and "the lobby changed" when a public
game is open or has just stopped being open. Fail-soft: an outage there is logged, never raised.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from durak_site import live

from .models import Game

logger = logging.getLogger(__name__)

#: A game never changes between public and private, so that fact is kept for a day.
PUBLIC_SECONDS = 24 * 3600


def _key(game_id: int) -> str:
    return f"game-version:{game_id}"


def _public_key(game_id: int) -> str:
    return f"game-public:{game_id}"


def cached(game_id: int) -> int | None:
    """The version last published for the game, or None (off, unknown, or the cache is down)."""
    if not settings.GAME_VERSION_CACHE_SECONDS:
        return None
    version = cache.get(_key(game_id))  # a cache that is down misses (durak_site.cache)
    return version if isinstance(version, int) else None


def publish(game_id: int, version: int) -> None:
    """Publish ``version`` for the game once the current transaction commits: in the cache,
    then to its live channel (and the lobby's, see :func:`_lobby_may_have_changed`)."""
    transaction.on_commit(lambda: published(game_id, version))


def published(game_id: int, version: int) -> None:
    """What :func:`publish` does after the commit, for a caller that runs its own list of
    after-commit effects (``games.write``): the cache, then the live channels."""
    if settings.GAME_VERSION_CACHE_SECONDS:
        _cache(game_id, version)
    _announce(game_id, version)


def _cache(game_id: int, version: int) -> None:
    cache.set(_key(game_id), version, timeout=settings.GAME_VERSION_CACHE_SECONDS)
    if cache.get(_public_key(game_id)) is None:
        # Only a public game's cached version answers a poll (anyone may poll it): learn
        # which this is once, here, rather than on a poll.
        private = Game.objects.filter(pk=game_id).values_list("private", flat=True).first()
        if private is not None:
            _remember_public(game_id, not private)


def _announce(game_id: int, version: int) -> None:
    live.send(live.game_channel(game_id), "game", {"game": game_id, "version": version})
    try:
        lobby = _lobby_may_have_changed(game_id)
    except Exception:  # the change is committed: a failed look-up only costs the lobby its news
        logger.exception("lobby news of game %s not sent", game_id)
        return
    if lobby:
        live.send(live.LOBBY, "lobby", {"game": game_id})


def _unlisted_key(game_id: int) -> str:
    return f"game-unlisted:{game_id}"


def _lobby_may_have_changed(game_id: int) -> bool:
    """Whether the lobby's list of open games may show this change: the game is public and
    open, or public and no longer open (it started or was cancelled: it leaves the list). A game
    never becomes open again nor changes between public and private, so once it is seen
    private or past open that is remembered (in any cache, even a process's own) and the
    moves after it cost no query."""
    if cache.get(_unlisted_key(game_id)):
        return False
    row = Game.objects.filter(pk=game_id).values_list("private", "status").first()
    if row is None:
        return False
    private, status = row
    if private or status != Game.Status.OPEN:
        cache.set(_unlisted_key(game_id), True, timeout=PUBLIC_SECONDS)
    return not private


def cached_public(game_id: int) -> bool:
    """Whether the game is known to be public (False: private, or not known)."""
    if not settings.GAME_VERSION_CACHE_SECONDS:
        return False
    return cache.get(_public_key(game_id)) is True


def _remember_public(game_id: int, public: bool) -> None:
    if settings.GAME_VERSION_CACHE_SECONDS:
        cache.set(_public_key(game_id), public, timeout=PUBLIC_SECONDS)
