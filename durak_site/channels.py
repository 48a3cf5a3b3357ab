"""Who may read which live channel (``durak_site.live``): django-eventstream's channel manager.

- ``game-<id>`` (versions of a game): whoever may see the game, ``selectors.game_visible_to``
  (share links included), the one place that is decided.
- ``game-<id>-chat-players`` / ``game-<id>-chat-spectators``: only the chat the viewer reads
  (``chat.services.channel_for``): a spectator never learns when the players chat, nor a player
  when the spectators do. Both of a game the viewer may see, else neither.
- ``game-<id>-rematch`` (a finished game's offer of a rematch changed): as ``game-<id>``.
- ``user-<id>``: that user alone.
- ``lobby`` (a public open game changed): everyone.
- ``tournament-<id>`` (a tournament's page changed): everyone, as its page, if it exists (one
  query for all the tournaments named).

Anything else, and every channel of a game that does not exist, is refused like a game the
viewer may not see: the same answer, so an id confirms nothing.

The answer is read once, when a stream opens. What takes a right away ends the streams it
concerns (``live.end_streams_on_commit``: a log-out, a new password, a suspension, a seat taken
or given up, a moderator's role removed), and each ends within ``LIVE_STREAM_MAX_SECONDS``
anyway; opened again, it is answered here anew.

It lives here, above the apps, because it answers for several of them: games and their chats
(chat sits above games), users and the lobby.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Container
from dataclasses import dataclass
from typing import Any

from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django_eventstream.channelmanager import ChannelManagerBase

from chat.models import ChatMessage
from chat.services import channel_for
from games import selectors
from games.models import Game
from tournaments.models import Tournament

from . import live

_GAME = re.compile(
    r"game-(?P<game>[1-9][0-9]{0,17})(?:-chat-(?P<chat>players|spectators)|(?P<rematch>-rematch))?"
)
_USER = re.compile(r"user-(?P<user>[1-9][0-9]{0,17})")
_TOURNAMENT = re.compile(r"tournament-(?P<tournament>[1-9][0-9]{0,17})")


@dataclass(frozen=True)
class Viewer:
    """Whom a stream is for (``pk``: the user's, or ``"anonymous"``) and the channels they may
    read, decided once when the stream opens (:meth:`ChannelManager.viewer_for`), for as long as
    the stream lasts (it is ended when they change: ``durak_site.live``)."""

    pk: int | str
    readable: frozenset[str]


def readable_channels(
    *, channels: Collection[str], user: Any, shared_game_ids: Container[int]
) -> frozenset[str]:
    """Those of ``channels`` that ``user`` (with the share links ``shared_game_ids``) may read.

    One query for the games named, and for the private ones among them one each for their
    seats and invitations (what ``game_visible_to`` reads); a player's chat channel reads the
    seats of a public game too.
    """
    authenticated = bool(getattr(user, "is_authenticated", False))
    wanted: dict[str, tuple[int, str | None]] = {}
    tournaments: dict[str, int] = {}
    allowed: set[str] = set()
    for channel in channels:
        if channel == live.LOBBY:
            allowed.add(channel)
        elif user_match := _USER.fullmatch(channel):
            if authenticated and int(user_match["user"]) == user.pk:
                allowed.add(channel)
        elif game_match := _GAME.fullmatch(channel):
            wanted[channel] = (int(game_match["game"]), game_match["chat"])
        elif tournament_match := _TOURNAMENT.fullmatch(channel):
            tournaments[channel] = int(tournament_match["tournament"])
    if tournaments:
        # A tournament's page is everyone's (tournaments.views): so is its channel.
        existing = set(
            Tournament.objects.filter(pk__in=set(tournaments.values())).values_list("pk", flat=True)
        )
        allowed.update(channel for channel, pk in tournaments.items() if pk in existing)
    if not wanted:
        return frozenset(allowed)
    games = {
        game.pk: game
        for game in Game.objects.filter(pk__in={game_id for game_id, _chat in wanted.values()}).only(
            "pk", "private", "creator_id"
        )
    }
    private = [game for game in games.values() if game.private]
    prefetch_related_objects(private, "seats", "invitations")
    chatting = [game for game in games.values() if not game.private and authenticated]
    if any(chat is not None for _game_id, chat in wanted.values()):
        prefetch_related_objects(chatting, "seats")
    for channel, (game_id, chat) in wanted.items():
        game = games.get(game_id)
        if game is None or not selectors.game_visible_to(
            game=game, user=user, shared_game_ids=shared_game_ids
        ):
            continue
        if chat is None or chat == (
            channel_for(game=game, user=user) if authenticated else ChatMessage.Channel.SPECTATORS
        ):
            allowed.add(channel)
    return frozenset(allowed)


class ChannelManager(ChannelManagerBase):  # type: ignore[misc]
    """``EVENTSTREAM_CHANNELMANAGER_CLASS``. The decision is taken once per stream, with the
    request (share links live in its session): ``viewer_for``. ``can_read_channel`` (what
    django-eventstream's own views would ask) gives the same answer, without a query for a
    :class:`Viewer`."""

    def get_channels_for_request(self, request: HttpRequest, view_kwargs: dict[str, Any]) -> set[str]:
        return set(request.GET.getlist("channel"))

    def viewer_for(self, request: HttpRequest, channels: Collection[str]) -> Viewer:
        user = request.user
        return Viewer(
            pk=user.pk if user.is_authenticated else "anonymous",
            readable=readable_channels(
                channels=channels, user=user, shared_game_ids=selectors.share_link_game_ids(request.session)
            ),
        )

    def can_read_channel(self, user: Any, channel: str) -> bool:
        if isinstance(user, Viewer):
            return channel in user.readable
        return channel in readable_channels(channels=[channel], user=user, shared_game_ids=())

    def is_channel_reliable(self, channel: str) -> bool:
        # No event storage: a page that reconnects asks once with the version it has.
        return False
