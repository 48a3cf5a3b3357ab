"""Live pages: one server-sent-events stream per tab, fanned out across processes through Redis.

A page (``static/js/live.js``) opens one ``EventSource`` on ``/live/?channel=...`` for the
channels its elements name, and refreshes an element when an event says it is out of date.
Events say only *that* something changed, never what: "game G is now at version N", "a message
in this chat", "your bell: N unread". The page then asks the view it always asked (the table
poll, the chat log), which answers ``204`` when it already has the news. What may read which
channel is decided by the channel manager (``EVENTSTREAM_CHANNELMANAGER_CLASS``,
``durak_site.channels.ChannelManager``); what is sent, by the services that change things, after they
commit (:func:`send_on_commit`). The whole design, with what each stream costs and what ends
one: ``docs/live-streams.md``.

django-eventstream's listener manager holds each channel's listeners and queues their events,
and its SSE encoding writes them; the rest is here:

- **The fan-out.** :func:`send` publishes on one Redis pub/sub channel (``LIVE_REDIS_URL``,
  ``LIVE_REDIS_CHANNEL``); every web process subscribes once (:class:`Fanout`) and hands each
  event to its local listeners. django-eventstream's own Redis listener (``EVENTSTREAM_REDIS``)
  is not used: it listens on one fixed channel name for every site and database sharing the
  Redis server, and after a lost connection it never listens again, so open pages would wait
  forever. This one reconnects, and while it cannot it ends the process's streams and refuses new
  ones (503), so the pages poll instead of waiting for news that cannot come.
- **No storage, no replay.** Every event is idempotent news of a version, so a page that
  reconnects asks once with the version it has (``stream-open`` in ``live.js``) instead of
  replaying missed events from django-eventstream's event table: no row per event is written.
- **Rights end streams.** A stream's channels are checked once, when it opens; whatever takes a
  right away (a log-out, a new password, a suspension, a seat given up...) calls
  :func:`end_streams_on_commit`, which after the commit sends a control message on the same
  pub/sub channel: every process ends its matching streams (``stream-error`` ``revoked``), and
  the page opens again and is answered by its new rights. A stream also ends after
  ``LIVE_STREAM_MAX_SECONDS``, so a right taken away some other way (an admin's edit, an expired
  session) lasts no longer than that.
- **Caps.** A user holds at most ``LIVE_STREAMS_PER_USER`` streams and an address
  ``LIVE_STREAMS_PER_ADDRESS``, counted in Redis across the processes (:class:`_Caps`); a new
  one over a cap ends the oldest (``superseded``: that page polls, and opens its stream again
  when it is shown again).
- **Our own stream loop** (:func:`_run`), not django-eventstream's ``stream``: that one reads
  its storage through ``sync_to_async`` in the request's thread-sensitive context, which keeps
  one thread alive per open stream. Here a stream first lets go of its request's thread
  (:func:`_release_request_thread`), then waits on the event loop only.

Without ``LIVE_REDIS_URL`` (the embedded ``dev.py serve``: no ``CACHE_URL``) events go straight
to the listeners of the process that sent them, and through a folder of Unix datagram sockets
(``LIVE_SOCKET_DIR``, :mod:`durak_site.live_sockets`) to the other processes' of the machine: the
worker's changes (computer players, timeouts, the Play-now sweep) reach the web process's
streams as they would through Redis. With no such folder they cannot, and pages keep polling
every ``GAME_POLL_SECONDS`` as well (``data-live-fanout="local"``). The caps are then counted in
the process.

A stream holds no database connection, no worker and no thread: the channels are checked once,
in the request's thread, whose connections are then handed back; the stream waits on the event
loop. Under WSGI (pytest-django's live server) there is no stream: the view answers ``204``,
which tells ``EventSource`` to stop, and the page polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import random
import re
import threading
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

import redis
import redis.asyncio
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections, transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django_eventstream.event import Event
from django_eventstream.utils import (
    add_default_headers,
    get_channelmanager,
    sse_encode_error,
    sse_encode_event,
)
from django_eventstream.views import Listener, get_listener_manager

from durak_site import live_sockets
from durak_site.addresses import client_address
from durak_site.cache import redis_name

logger = logging.getLogger(__name__)

#: The most channels one stream may ask for: a page's own (its game, its chat, the user's bell)
#: plus the games of the lobby's "My games" list.
MAX_CHANNELS = 60
#: How long a stream request waits for the process's Redis subscription before it is refused.
SUBSCRIBE_WAIT_SECONDS = 2.0
#: After a failed publish, the next ones are dropped this long (no move waits for a dead Redis).
PUBLISH_PAUSE_SECONDS = 5.0
#: The fan-out's pauses between attempts to subscribe again: doubling up to the last.
RESUBSCRIBE_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)
#: The subscription's name in Redis's ``CLIENT LIST``, under ``REDIS_NAMESPACE`` (:func:`fanout_name`).
FANOUT_NAME = "durak-live-fanout"
#: How often an idle stream says it is alive (``live.js`` gives up on one silent for 50 s).
KEEP_ALIVE_SECONDS = 20.0
#: How long a process remembers a revocation, for a stream whose rights were read just before it
#: arrived and that is only now starting (longer than reading them could take).
REVOCATIONS_KEPT_SECONDS = 60.0
#: The pub/sub "channel" of control messages (ending streams): no page may read a channel of
#: that name (``durak_site.channels`` allows only the names above).
CONTROL = "control"

# What a stream is told when it ends (``stream-error``): never why beyond the condition, and
# nothing of anyone else. ``live.js`` opens it again after a moment, except when superseded.
#: The process lost its fan-out (``live.js`` polls meanwhile).
UNAVAILABLE = {"condition": "unavailable", "text": "The live stream was interrupted.", "extra": {}}
#: Its rights changed: opened again, it is answered by the new ones.
REVOKED = {"condition": "revoked", "text": "The live stream must be opened again.", "extra": {}}
#: Older than ``LIVE_STREAM_MAX_SECONDS``: opened again, its rights are read anew.
EXPIRED = {"condition": "expired", "text": "The live stream must be opened again.", "extra": {}}
#: Events came faster than it was sent them (some were dropped): opened again, the page catches up.
OVERFLOWED = {"condition": "overflow", "text": "The live stream must be opened again.", "extra": {}}
#: A newer stream of the same user or address went over a cap: the page polls from now on.
SUPERSEDED = {"condition": "superseded", "text": "Too many live streams: this one was closed.", "extra": {}}


# --- Channel names ----------------------------------------------------------------------------

LOBBY = "lobby"


def game_channel(game_id: int) -> str:
    """Versions of one game: ``{"game": id, "version": n}``."""
    return f"game-{game_id}"


def chat_channel(game_id: int, chat: str) -> str:
    """News of one of a game's chats (``chat``: ``players`` or ``spectators``):
    ``{"game": id, "chat": chat}``."""
    return f"game-{game_id}-chat-{chat}"


def rematch_channel(game_id: int) -> str:
    """News of a finished game's offer of a rematch (``series``): ``{"game": id}``."""
    return f"game-{game_id}-rematch"


def tournament_channel(tournament_id: int) -> str:
    """News of one tournament (a registration, a round opened, a game of it ended, its end):
    ``{"tournament": id, "version": n}``."""
    return f"tournament-{tournament_id}"


def user_channel(user_id: int) -> str:
    """One user's bell: ``{"unread": n, "waiting": m}``."""
    return f"user-{user_id}"


# --- Sending ----------------------------------------------------------------------------------


def fanout_name() -> str:
    """The name this site's fan-out connections give themselves in Redis (``CLIENT LIST``): apart
    from another site's, or another test run's, on the same server."""
    return redis_name(FANOUT_NAME)


def pubsub_channel() -> str:
    """The Redis pub/sub channel of this site: ``LIVE_REDIS_CHANNEL``, else one per Redis
    database under ``REDIS_NAMESPACE`` (pub/sub ignores databases, so two sites or test runs on
    one server would hear each other's events)."""
    if settings.LIVE_REDIS_CHANNEL:
        return str(settings.LIVE_REDIS_CHANNEL)
    database = urlsplit(settings.LIVE_REDIS_URL).path.strip("/") or "0"
    return redis_name(f"durak-live:{database}")


class _Publisher:
    """The process's Redis client for publishing, with a pause after a failure. The pause
    belongs to the Redis that failed: another ``LIVE_REDIS_URL`` starts with none."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._client: redis.Redis | None = None
        self._url = ""
        self._paused_until = 0.0

    def publish(self, message: str) -> None:
        client = self._get()
        if client is None:
            return
        try:
            client.publish(pubsub_channel(), message)
        except (redis.RedisError, OSError) as error:
            with self._lock:
                self._paused_until = time.monotonic() + PUBLISH_PAUSE_SECONDS
            logger.warning(
                "live stream unavailable, events dropped for %ss (pages poll): %s",
                PUBLISH_PAUSE_SECONDS,
                error,
            )

    def _get(self) -> redis.Redis | None:
        """The client for ``LIVE_REDIS_URL``, or None while a failure of that Redis pauses."""
        with self._lock:
            if self._client is None or self._url != settings.LIVE_REDIS_URL:
                self._url = settings.LIVE_REDIS_URL
                self._paused_until = 0.0
                self._client = redis.Redis.from_url(
                    self._url, socket_connect_timeout=0.5, socket_timeout=0.5, health_check_interval=30
                )
            if time.monotonic() < self._paused_until:
                return None
            return self._client


_publisher = _Publisher()


def send(channel: str, kind: str, data: Mapping[str, Any]) -> None:
    """Send one event to the channel's listeners in every web process, now. Never raises: the
    change it reports is committed, and a page that misses the event catches up when its stream
    comes back (or by polling meanwhile)."""
    try:
        encoded = json.dumps(dict(data), separators=(",", ":"))
        message = json.dumps({"channel": channel, "type": kind, "data": encoded})
        if settings.LIVE_REDIS_URL:
            _publisher.publish(message)
        else:
            get_listener_manager().add_to_queues(channel, Event(channel, kind, encoded))
            live_sockets.publish(message)  # the other processes' streams, if any listen
    except Exception:
        logger.exception("live event %s on %s not sent", kind, channel)


def send_on_commit(
    channel: str, kind: str, data: Mapping[str, Any] | Callable[[], Mapping[str, Any]]
) -> None:
    """:func:`send` once the current transaction commits (never if it rolls back). ``data`` may
    be a function, called then: a count read after the commit is the committed count."""

    def run() -> None:
        try:
            payload = data() if callable(data) else data
        except Exception:
            logger.exception("live event %s on %s not sent", kind, channel)
            return
        send(channel, kind, payload)

    transaction.on_commit(run)


def chat_changed_on_commit(game_id: int, chat: str) -> None:
    """Tell the readers of one of a game's chats that its log changed (a post, a message hidden):
    their pages fetch it; the event carries no text."""
    send_on_commit(chat_channel(game_id, chat), "chat", {"game": game_id, "chat": chat})


# --- The fan-out: one Redis subscription per web process ---------------------------------------


class Fanout:
    """Hands the events published on Redis to this process's listeners.

    Started by the first stream of the process, on its event loop; from then on subscribed as
    long as Redis answers. When the subscription is lost every local stream ends with a
    ``stream-error`` (the pages poll and come back), and it subscribes again after a pause.
    """

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscribed: asyncio.Event | None = None

    async def ready(self, within: float = SUBSCRIBE_WAIT_SECONDS) -> bool:
        """Whether events reach this process now (subscribing first, if need be, for at most
        ``within`` seconds)."""
        if not settings.LIVE_REDIS_URL:
            # Without Redis: the other processes' events come through the socket folder, when
            # there is one (a socket that cannot be bound refuses the stream: the page polls).
            return live_sockets.folder() is None or live_sockets.inbox.open(deliver)
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._task is None or self._task.done():
            self._loop = loop
            self._subscribed = asyncio.Event()
            self._task = loop.create_task(self._run(self._subscribed))
        assert self._subscribed is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), within)
        return self._subscribed.is_set()

    async def _run(self, subscribed: asyncio.Event) -> None:
        attempt = 0
        while True:
            client = redis.asyncio.Redis.from_url(
                settings.LIVE_REDIS_URL,
                socket_connect_timeout=1.0,
                socket_keepalive=True,
                client_name=fanout_name(),
            )
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(pubsub_channel())
                    subscribed.set()
                    attempt = 0
                    logger.info("live stream: subscribed to %s", pubsub_channel())
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            deliver(message["data"])
            except (redis.RedisError, OSError) as error:
                logger.warning("live stream: lost Redis (%s); its pages poll until it is back", error)
            finally:
                subscribed.clear()
                end_all_streams()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(RESUBSCRIBE_SECONDS[min(attempt, len(RESUBSCRIBE_SECONDS) - 1)])
            attempt += 1


_fanout = Fanout()


def deliver(raw: bytes | str) -> None:
    """One message from Redis to the process's listeners of its channel, or a control message
    to the streams it ends (malformed: dropped)."""
    try:
        message = json.loads(raw)
        channel, kind, data = message["channel"], message["type"], message["data"]
    except (ValueError, KeyError, TypeError):
        logger.warning("live stream: a malformed message dropped")
        return
    if not (isinstance(channel, str) and isinstance(kind, str) and isinstance(data, str)):
        return
    if channel == CONTROL:
        _control(kind, data)
    else:
        get_listener_manager().add_to_queues(channel, Event(channel, kind, data))


def _control(kind: str, data: str) -> None:
    try:
        revocation = Revocation.decode(data)
    except (ValueError, KeyError, TypeError):
        logger.warning("live stream: a malformed control message dropped")
        return
    if kind == "end":
        _open_streams.end(revocation, REVOKED, remember=True)
    elif kind == "supersede":
        _open_streams.end(revocation, SUPERSEDED, remember=False)


def end_all_streams() -> None:
    """End every stream of this process with a ``stream-error`` (their pages then poll), and tell
    every :class:`Hearing` that it may miss events from now on."""
    for stream in _open_streams.all():
        stream.end(UNAVAILABLE)
    _hearings.lose_all()


# --- Hearing events without a stream ---------------------------------------------------------


class Hearing(Listener):  # type: ignore[misc]
    """A listener of this process on some channels for code that awaits their events itself on
    the event loop (the API's long poll, ``api.waits``) rather than streaming them to a page.

    Its channels' events queue as a stream's do (django-eventstream's listener manager); await
    :meth:`next_events`. When this process stops hearing the others (the Redis subscription is
    lost) :attr:`lost` turns true and it wakes: from then on an event may be missed, and the
    waiter must look for itself."""

    aevent: asyncio.Event
    channel_items: dict[str, list[Event]]
    overflow: bool

    def __init__(self, channels: Collection[str]) -> None:
        super().__init__()
        self.channels = set(channels)
        self.loop = asyncio.get_running_loop()
        self.lost = False

    def lose(self) -> None:
        """Mark it lost and wake it, from any thread."""
        with get_listener_manager().lock:
            self.lost = True
        with contextlib.suppress(RuntimeError):  # a loop already closed: nothing left to wake
            self.wake_threadsafe()

    async def next_events(self) -> list[Event]:
        """The events queued since the last call, once there is one (or it is :attr:`lost`:
        then perhaps none). A caller bounds the wait with ``asyncio.timeout``."""
        await self.aevent.wait()
        with get_listener_manager().lock:
            queued, self.channel_items = self.channel_items, {}
            self.overflow = False  # the events kept tell as much: each is news of a version
            self.aevent.clear()
        return [event for events in queued.values() for event in events]


class _Hearings:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hearings: set[Hearing] = set()

    def add(self, hearing: Hearing) -> None:
        with self._lock:
            self._hearings.add(hearing)

    def remove(self, hearing: Hearing) -> None:
        with self._lock:
            self._hearings.discard(hearing)

    def lose_all(self) -> None:
        with self._lock:
            lost = list(self._hearings)
        for hearing in lost:
            hearing.lose()


_hearings = _Hearings()


@contextlib.asynccontextmanager
async def hearing(channels: Collection[str], *, within: float) -> AsyncIterator[Hearing | None]:
    """Hear the events of ``channels`` sent by any process of the site, from now until the block
    ends; None when they cannot all reach this one now: the fan-out is ``local`` (:func:`fanout`),
    or this process is not subscribed to Redis within ``within`` seconds (nor bound to the
    socket folder). Events sent after this is entered are heard (or it is :attr:`Hearing.lost`),
    so a waiter reads what it waits on only after entering it. On the event loop of an ASGI
    request only (a synchronous server runs each request on a loop of its own, which the
    process's subscription cannot follow)."""
    if fanout() == "local" or not await _fanout.ready(within):
        yield None
        return
    heard = Hearing(channels)
    manager = get_listener_manager()
    # No await between ready() and here: the subscription cannot be lost in between unheard.
    _hearings.add(heard)
    manager.add_listener(heard)
    try:
        yield heard
    finally:
        manager.remove_listener(heard)
        _hearings.remove(heard)


# --- Ending streams ---------------------------------------------------------------------------


def session_digest(session_key: str | None) -> str:
    """What stands for a session in a stream and a control message (never the key itself)."""
    if not session_key:
        return ""
    return hashlib.sha256(f"durak-live-session:{session_key}".encode()).hexdigest()[:32]


_GAME_ID = re.compile(r"game-([0-9]{1,18})(?:-|$)")


def games_of(channels: Iterable[str]) -> frozenset[int]:
    """The games whose channels (:func:`game_channel`, :func:`chat_channel`, ...) are among ``channels``."""
    return frozenset(int(found[1]) for channel in channels if (found := _GAME_ID.match(channel)))


@dataclass(frozen=True)
class Revocation:
    """Which streams end: those of ``user`` (a user's pk), of ``session`` (:func:`session_digest`)
    and with a channel of ``game``, each given narrowing it; or exactly the ``streams`` named."""

    user: int | None = None
    session: str = ""
    game: int | None = None
    streams: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.user is None and not self.session and not self.streams:
            raise ValueError("a revocation names a user, a session or streams")

    def matches(self, stream: Stream) -> bool:
        return (
            (not self.streams or stream.id in self.streams)
            and (self.user is None or stream.user_id == self.user)
            and (not self.session or stream.session == self.session)
            and (self.game is None or self.game in stream.games)
        )

    def encode(self) -> str:
        return json.dumps(
            {"user": self.user, "session": self.session, "game": self.game, "streams": sorted(self.streams)},
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, data: str) -> Revocation:
        fields = json.loads(data)
        user, game, session, streams = fields["user"], fields["game"], fields["session"], fields["streams"]
        if not (
            (user is None or type(user) is int)
            and (game is None or type(game) is int)
            and isinstance(session, str)
            and isinstance(streams, list)
            and all(isinstance(stream, str) for stream in streams)
        ):
            raise ValueError("not a revocation")
        return cls(user=user, session=session, game=game, streams=frozenset(streams))


def _publish_control(kind: str, revocation: Revocation) -> None:
    message = json.dumps({"channel": CONTROL, "type": kind, "data": revocation.encode()})
    if settings.LIVE_REDIS_URL:
        _publisher.publish(message)
    else:
        _control(kind, revocation.encode())
        live_sockets.publish(message)


def end_streams(revocation: Revocation) -> None:
    """End the streams ``revocation`` names in every web process, now (each gets a
    ``stream-error``; their pages open them again and are answered by their new rights). Never
    raises. With the live Redis down the processes have ended their streams already
    (:class:`Fanout`), and refuse new ones until they hear it again."""
    try:
        _publish_control("end", revocation)
    except Exception:
        logger.exception("live streams of %s not ended", revocation)


def end_streams_on_commit(
    *, user_id: int | None = None, session_key: str | None = None, game_id: int | None = None
) -> None:
    """Once the current transaction commits (never if it rolls back), end the open streams of
    ``user_id``, or of the session ``session_key`` (a log-out); ``game_id`` narrows either to the
    streams with a channel of that game. For whatever takes a right away: after the commit, so
    a page that opens again reads the new rights, and no row lock is held while it publishes."""
    revocation = Revocation(user=user_id, session=session_digest(session_key), game=game_id)
    transaction.on_commit(lambda: end_streams(revocation))


class _OpenStreams:
    """This process's open streams, by id, and the revocations it heard lately.

    A stream whose rights were read before a revocation arrived, but that starts only after it
    (its request was in its thread meanwhile), is ended as it starts: :meth:`add` looks at the
    revocations heard since the stream's rights were read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: dict[str, Stream] = {}
        self._heard: deque[tuple[float, Revocation]] = deque()

    def add(self, stream: Stream) -> None:
        with self._lock:
            self._streams[stream.id] = stream
            self._forget(time.monotonic())
            revoked = any(
                at >= stream.read_at and revocation.matches(stream) for at, revocation in self._heard
            )
        if revoked:
            stream.end(REVOKED)

    def remove(self, stream: Stream) -> None:
        with self._lock:
            self._streams.pop(stream.id, None)

    def all(self) -> list[Stream]:
        with self._lock:
            return list(self._streams.values())

    def end(self, revocation: Revocation, error: Mapping[str, Any], *, remember: bool) -> int:
        """End the open streams ``revocation`` matches with ``error``; how many. ``remember``:
        also those that start soon with rights read before now."""
        now = time.monotonic()
        with self._lock:
            if remember:
                self._heard.append((now, revocation))
            self._forget(now)
            if revocation.streams:
                ended = [self._streams[id_] for id_ in revocation.streams if id_ in self._streams]
                ended = [stream for stream in ended if revocation.matches(stream)]
            else:
                ended = [stream for stream in self._streams.values() if revocation.matches(stream)]
        for stream in ended:
            stream.end(error)
        return len(ended)

    def _forget(self, now: float) -> None:
        while self._heard and self._heard[0][0] < now - REVOCATIONS_KEPT_SECONDS:
            self._heard.popleft()


_open_streams = _OpenStreams()


# --- Caps -------------------------------------------------------------------------------------


def _cap(name: str) -> int | None:
    cap = int(getattr(settings, name))
    return cap if cap > 0 else None


class _Caps:
    """Counts each user's and each address's open streams: in a Redis sorted set each (a
    stream's id, scored by when it opened) with ``LIVE_REDIS_URL`` so that every web process
    counts the same, else in this process. :meth:`admit` returns the streams a new one pushes
    over a cap, the oldest first; the caller ends them. A stream whose process was killed never
    leaves its set: it is counted until it is the oldest and pushed out (which ends nothing), and
    dropped once older than ``LIVE_STREAM_MAX_SECONDS``, when it would have ended anyway."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local: dict[str, dict[str, float]] = {}
        self._clients: dict[tuple[int, str], redis.asyncio.Redis] = {}

    @staticmethod
    def keys(stream: Stream) -> list[tuple[str, int]]:
        """(the set's name, its cap) of each count ``stream`` is in."""
        keys = []
        per_user, per_address = _cap("LIVE_STREAMS_PER_USER"), _cap("LIVE_STREAMS_PER_ADDRESS")
        if per_user is not None and isinstance(stream.user_id, int):
            keys.append((redis_name(f"live-streams:user:{stream.user_id}"), per_user))
        if per_address is not None and stream.address:
            keys.append((redis_name(f"live-streams:address:{stream.address}"), per_address))
        return keys

    def _redis(self) -> redis.asyncio.Redis | None:
        url = settings.LIVE_REDIS_URL
        if not url:
            return None
        key = (id(asyncio.get_running_loop()), url)
        client = self._clients.get(key)
        if client is None:
            client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=1.0, socket_timeout=1.0)
            self._clients = {key: client}  # one loop per web process: an old one's client is no use
        return client

    async def admit(self, stream: Stream) -> list[str]:
        """Count ``stream`` in; the ids of the streams it pushes over a cap, to be ended."""
        keys = self.keys(stream)
        if not keys:
            return []
        client = self._redis()
        if client is None:
            return self._admit_here(stream, keys)
        now = time.time()
        lifetime = float(settings.LIVE_STREAM_MAX_SECONDS) + KEEP_ALIVE_SECONDS
        async with client.pipeline(transaction=True) as pipe:
            for key, _limit in keys:
                pipe.zremrangebyscore(key, "-inf", now - lifetime)
                pipe.zadd(key, {stream.id: now})
                pipe.zrange(key, 0, -1)
                pipe.expire(key, math.ceil(lifetime))
            answers = await pipe.execute()
        over: list[str] = []
        for index, (_key, cap) in enumerate(keys):
            members = [member.decode() for member in answers[index * 4 + 2]]
            over += [member for member in members[: max(0, len(members) - cap)] if member != stream.id]
        over = list(dict.fromkeys(over))
        if over:
            async with client.pipeline(transaction=False) as pipe:
                for key, _limit in keys:
                    pipe.zrem(key, *over)
                await pipe.execute()
        return over

    def _admit_here(self, stream: Stream, keys: list[tuple[str, int]]) -> list[str]:
        over: list[str] = []
        with self._lock:
            for key, cap in keys:
                held = self._local.setdefault(key, {})
                held[stream.id] = time.time()
                while len(held) > cap:
                    oldest = next(iter(held))
                    del held[oldest]
                    over.append(oldest)
        return list(dict.fromkeys(over))

    async def release(self, stream: Stream) -> None:
        """Count ``stream`` out (it ended). Never raises: a stream left counted is pushed out
        or dropped later."""
        keys = self.keys(stream)
        if not keys:
            return
        with self._lock:
            for key, _limit in keys:
                held = self._local.get(key)
                if held is not None:
                    held.pop(stream.id, None)
                    if not held:
                        del self._local[key]
        client = self._redis()
        if client is None:
            return
        try:
            async with client.pipeline(transaction=False) as pipe:
                for key, _limit in keys:
                    pipe.zrem(key, stream.id)
                await pipe.execute()
        except (redis.RedisError, OSError) as error:
            logger.warning("live stream not counted out in Redis (it is pushed out later): %s", error)

    async def supersede(self, ids: list[str]) -> None:
        """End the streams ``ids``, wherever they are (the oldest of a user or address)."""
        revocation = Revocation(streams=frozenset(ids))
        client = self._redis()
        if client is None:
            _control("supersede", revocation.encode())
            return
        message = json.dumps({"channel": CONTROL, "type": "supersede", "data": revocation.encode()})
        await client.publish(pubsub_channel(), message)


_caps = _Caps()


# --- The stream -------------------------------------------------------------------------------


class Viewer(Protocol):
    """Who a stream is for, with what they may read (``durak_site.channels.Viewer``)."""

    pk: int | str
    readable: frozenset[str]


class ViewerChannelManager(Protocol):
    def viewer_for(self, request: HttpRequest, channels: Collection[str]) -> Viewer: ...


@dataclass(frozen=True)
class Opening:
    """A stream about to open: its channels (all readable), whom for, from which session and
    address, and when its rights were read (``time.monotonic()``, before reading them)."""

    channels: frozenset[str]
    user_id: int | str
    session: str
    address: str
    read_at: float


class Stream(Listener):  # type: ignore[misc]
    """One open stream: django-eventstream's listener (its channels' queues, ``aevent`` to wake
    it, ``error`` to end it) with what says which revocations and caps it falls under."""

    # django-eventstream's, set by Listener.__init__ (under the listener manager's lock after).
    aevent: asyncio.Event
    channel_items: dict[str, list[Event]]
    overflow: bool
    error: Mapping[str, Any] | str

    def __init__(self, opening: Opening) -> None:
        super().__init__()
        self.id = uuid.uuid4().hex
        self.user_id = opening.user_id
        self.channels = set(opening.channels)
        self.games = games_of(opening.channels)
        self.session = opening.session
        self.address = opening.address
        self.read_at = opening.read_at
        self.loop = asyncio.get_running_loop()

    def end(self, error: Mapping[str, Any]) -> None:
        """End it with ``error`` (the first reason given stays), from any thread."""
        with get_listener_manager().lock:
            if not self.error:
                self.error = dict(error)
        with contextlib.suppress(RuntimeError):  # a loop already closed: nothing left to wake
            self.wake_threadsafe()


def _hand_back_connections() -> None:
    """Close this thread's database connections (to the pool, with ``DATABASE_POOL``): a stream
    must hold none while it waits. One inside a transaction (a test's) is left alone."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _prepare(request: HttpRequest) -> Opening | HttpResponse:
    """In the request's thread: the channels asked for, refused unless every one may be read."""
    read_at = time.monotonic()
    try:
        channels = set(request.GET.getlist("channel"))
        if not channels or len(channels) > MAX_CHANNELS:
            return HttpResponse(
                f"Ask for 1 to {MAX_CHANNELS} channels.\n", status=400, content_type="text/plain"
            )
        manager: ViewerChannelManager = get_channelmanager()
        viewer = manager.viewer_for(request, channels)
        session = session_digest(request.session.session_key)
    finally:
        _hand_back_connections()
    refused = sorted(channels - viewer.readable)
    if refused:
        # As the site answers a game the visitor may not see: what a missing one gets, a 404.
        return HttpResponse(
            "No such channel: {}\n".format(", ".join(refused)), status=404, content_type="text/plain"
        )
    return Opening(
        channels=frozenset(channels),
        user_id=viewer.pk,
        session=session,
        address=client_address(request),  # behind a trusted proxy: the client's
        read_at=read_at,
    )


def _release_request_thread() -> None:
    """Let the thread Django ran this request's synchronous code in (its middleware, the
    channels' check) go: an idle stream must not keep one alive.

    Django's ASGI handler runs each request in a ``ThreadSensitiveContext``, and asgiref gives
    that context a thread of its own the first time synchronous code runs in it (a synchronous
    middleware, a signal's receiver); the thread lives until the request ends, asleep. For a
    stream that would be one thread per open tab. Once the response is being sent, the view and
    every middleware are done with the thread: shut it down (it exits when idle). Synchronous
    code that runs in the request later (Django's ``response.close()`` at its end) gets a new
    thread, which ends with the request as usual."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None:
        return
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)


async def _run(stream: Stream) -> AsyncIterator[str]:
    """The stream's body: ``stream-open``, then each event as it comes (a keep-alive every
    ``KEEP_ALIVE_SECONDS`` meanwhile), until a ``stream-error`` ends it (or the client goes)."""
    _release_request_thread()
    manager = get_listener_manager()
    released = False
    _open_streams.add(stream)
    manager.add_listener(stream)
    try:
        try:
            over = await _caps.admit(stream)
            if over:
                await _caps.supersede(over)
        except (redis.RedisError, OSError) as error:
            logger.warning("live stream refused: its caps are not counted (%s)", error)
            released = True  # counted nowhere
            yield sse_encode_error(UNAVAILABLE["condition"], UNAVAILABLE["text"])
            return
        # A comment of 2 KiB first: some browsers and proxies hold a stream's start back.
        yield ":" + " " * 2048 + "\n\nevent: stream-open\ndata:\n\n"
        lifetime = float(settings.LIVE_STREAM_MAX_SECONDS) * random.uniform(0.9, 1.0)  # not all at once
        ends_at = time.monotonic() + lifetime
        while True:
            left = ends_at - time.monotonic()
            if left <= 0:
                stream.end(EXPIRED)
            else:
                try:
                    async with asyncio.timeout(min(KEEP_ALIVE_SECONDS, left)):
                        await stream.aevent.wait()
                except TimeoutError:
                    if left > KEEP_ALIVE_SECONDS:
                        yield "event: keep-alive\ndata:\n\n"
                    continue
            with manager.lock:
                queued, stream.channel_items = stream.channel_items, {}
                overflow, stream.overflow = stream.overflow, False
                ending = stream.error or None
                stream.aevent.clear()
            body = "".join(
                sse_encode_event(item.type, item.data) for items in queued.values() for item in items
            )
            if overflow and ending is None:
                ending = OVERFLOWED  # an event was dropped: the page opens again and catches up
            if isinstance(ending, Mapping):
                yield body + sse_encode_error(ending["condition"], ending["text"])
                return
            if body:
                yield body
    finally:
        manager.remove_listener(stream)
        _open_streams.remove(stream)
        if not released:
            # Its own task: a stream whose client went is being cancelled.
            task = asyncio.get_running_loop().create_task(_caps.release(stream))
            _releasing.add(task)
            task.add_done_callback(_releasing.discard)


#: The tasks counting ended streams out (referenced until done: the loop keeps only weak ones).
_releasing: set[asyncio.Task[None]] = set()


async def events(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    """``GET /live/?channel=a&channel=b``: the page's stream (``text/event-stream``).

    ``404`` if any channel may not be read (as for a game that does not exist), ``400`` for no
    or too many channels, ``204`` under WSGI (no stream there: the page polls), ``503`` while
    this process cannot hear Redis.
    """
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
    prepared = await sync_to_async(_prepare)(request)
    if isinstance(prepared, HttpResponse):
        return prepared
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    if not await _fanout.ready():
        return HttpResponse(
            "The live stream is unavailable; the page polls.\n", status=503, content_type="text/plain"
        )
    # The stream is counted and listens only once its body is sent (:func:`_run`): a response
    # that never starts (its client went first) leaves nothing behind.
    response = StreamingHttpResponse(_run(Stream(prepared)), content_type="text/event-stream")
    add_default_headers(response, request=request)
    return response


# --- The page's side --------------------------------------------------------------------------


def fanout() -> str:
    """How events reach this process's streams: ``redis``, ``sockets`` (the other processes'
    through :mod:`durak_site.live_sockets`) or ``local`` (only this process's own: the page polls
    as well)."""
    if settings.LIVE_REDIS_URL:
        return "redis"
    return "sockets" if live_sockets.folder() is not None else "local"


def page(request: HttpRequest) -> dict[str, Any]:
    """``live`` for ``templates/base.html``'s ``<body>``: where the stream is, the user's channel,
    how often to poll while it is down, and whether it hears the whole site (else: poll anyway)."""
    user = getattr(request, "user", None)
    return {
        "live": {
            "url": reverse("live"),
            "channels": user_channel(user.pk) if user is not None and user.is_authenticated else "",
            "poll_seconds": settings.GAME_POLL_SECONDS,
            "fanout": fanout(),
        }
    }
