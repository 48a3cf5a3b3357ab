"""Live pages: one server-sent-events stream per tab, fanned out across processes through Redis.

A page (``static/js/live.js``) opens one ``EventSource`` on ``/live/?channel=...`` for the
channels its elements name, and refreshes an element when an event says it is out of date.
Events say only *that* something changed, never what: "game G is now at version N", "a message
in this chat", "your bell: N unread". The page then asks the view it always asked (the table
poll, the chat log), which answers ``204`` when it already has the news. What may read which
channel is decided by the channel manager (``EVENTSTREAM_CHANNELMANAGER_CLASS``,
``durak_site.channels.ChannelManager``); what is sent, by the services that change things, after they
commit (:func:`send_on_commit`).

django-eventstream streams (its listener manager, ``stream`` loop, keep-alives and SSE
encoding), with two parts of its own here:

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

Without ``LIVE_REDIS_URL`` (the embedded ``dev.py serve``: no ``CACHE_URL``) events go straight
to the listeners of the process that sent them: the stream works for what the web process does
(people's moves, chat, the bell), and since the worker's changes (computer players, timeouts)
cannot reach it, pages keep polling every ``GAME_POLL_SECONDS`` as well (``data-live-fanout``).

A stream holds no database connection and no worker: the channels are checked once, in the
request's thread, whose connections are then handed back; the stream waits on the event loop.
Under WSGI (pytest-django's live server) there is no stream: the view answers ``204``, which
tells ``EventSource`` to stop, and the page polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Collection, Mapping
from typing import Any, Protocol
from urllib.parse import urlsplit

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections, transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django_eventstream.event import Event
from django_eventstream.eventrequest import EventRequest
from django_eventstream.utils import add_default_headers, get_channelmanager
from django_eventstream.views import Listener, get_listener_manager, stream

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
#: What every stream of a process is told when the fan-out is lost (``live.js`` then polls).
UNAVAILABLE = {"condition": "unavailable", "text": "The live stream was interrupted.", "extra": {}}


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
        if settings.LIVE_REDIS_URL:
            _publisher.publish(json.dumps({"channel": channel, "type": kind, "data": encoded}))
        else:
            get_listener_manager().add_to_queues(channel, Event(channel, kind, encoded))
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

    async def ready(self) -> bool:
        """Whether events reach this process now (subscribing first, if need be)."""
        if not settings.LIVE_REDIS_URL:
            return True
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._task is None or self._task.done():
            self._loop = loop
            self._subscribed = asyncio.Event()
            self._task = loop.create_task(self._run(self._subscribed))
        assert self._subscribed is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), SUBSCRIBE_WAIT_SECONDS)
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
    """One message from Redis to the process's listeners of its channel (malformed: dropped)."""
    try:
        message = json.loads(raw)
        channel, kind, data = message["channel"], message["type"], message["data"]
    except (ValueError, KeyError, TypeError):
        logger.warning("live stream: a malformed message dropped")
        return
    if isinstance(channel, str) and isinstance(kind, str) and isinstance(data, str):
        get_listener_manager().add_to_queues(channel, Event(channel, kind, data))


def end_all_streams() -> None:
    """End every stream of this process with a ``stream-error`` (their pages then poll)."""
    manager = get_listener_manager()
    with manager.lock:
        listeners = {listener for group in manager.listeners_by_channel.values() for listener in group}
        for listener in listeners:
            listener.error = UNAVAILABLE
    for listener in listeners:
        with contextlib.suppress(RuntimeError):  # a loop already closed: nothing left to wake
            listener.wake_threadsafe()


# --- The stream -------------------------------------------------------------------------------


class Viewer(Protocol):
    """Who a stream is for, with what they may read: what the channel manager's
    ``can_read_channel`` is given for the stream's life (``durak_site.channels.Viewer``)."""

    pk: int | str
    readable: frozenset[str]


class ViewerChannelManager(Protocol):
    def viewer_for(self, request: HttpRequest, channels: Collection[str]) -> Viewer: ...


def _hand_back_connections() -> None:
    """Close this thread's database connections (to the pool, with ``DATABASE_POOL``): a stream
    must hold none while it waits. One inside a transaction (a test's) is left alone."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _prepare(request: HttpRequest) -> EventRequest | HttpResponse:
    """In the request's thread: the channels asked for, refused unless every one may be read."""
    try:
        channels = set(request.GET.getlist("channel"))
        if not channels or len(channels) > MAX_CHANNELS:
            return HttpResponse(
                f"Ask for 1 to {MAX_CHANNELS} channels.\n", status=400, content_type="text/plain"
            )
        manager: ViewerChannelManager = get_channelmanager()
        viewer = manager.viewer_for(request, channels)
    finally:
        _hand_back_connections()
    refused = sorted(channels - viewer.readable)
    if refused:
        # As the site answers a game the visitor may not see: what a missing one gets, a 404.
        return HttpResponse(
            "No such channel: {}\n".format(", ".join(refused)), status=404, content_type="text/plain"
        )
    event_request = EventRequest()
    event_request.channels = channels
    event_request.channel_last_ids = {}
    event_request.is_next = False
    event_request.is_recover = False
    event_request.user = viewer  # what get_events hands the channel manager's can_read_channel
    return event_request


async def _ending_on_error(body: AsyncGenerator[str]) -> AsyncIterator[str]:
    """django-eventstream's stream, ended after it sent a ``stream-error`` (it would go on)."""
    try:
        async for chunk in body:
            yield chunk
            if "event: stream-error" in chunk:
                break
    finally:
        await body.aclose()  # its listener leaves the listener manager


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
    listener = Listener()
    listener.user_id = prepared.user.pk
    listener.channels = prepared.channels
    response = StreamingHttpResponse(
        _ending_on_error(stream(prepared, listener)), content_type="text/event-stream"
    )
    add_default_headers(response, request=request)
    return response


# --- The page's side --------------------------------------------------------------------------


def page(request: HttpRequest) -> dict[str, Any]:
    """``live`` for ``templates/base.html``'s ``<body>``: where the stream is, the user's channel,
    how often to poll while it is down, and whether it hears the whole site (else: poll anyway)."""
    user = getattr(request, "user", None)
    return {
        "live": {
            "url": reverse("live"),
            "channels": user_channel(user.pk) if user is not None and user.is_authenticated else "",
            "poll_seconds": settings.GAME_POLL_SECONDS,
            "fanout": "redis" if settings.LIVE_REDIS_URL else "local",
        }
    }
