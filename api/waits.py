"""The API's long poll, ``GET /api/games/{id}/wait/?version=n``, as an asynchronous view.

A waiting request holds no worker and no database connection, and reads nothing while it waits:
it hears the game's channel through the live pages' fan-out (``durak_site.live.hearing``: the
process's one Redis subscription, or the socket folder without Redis), as a page's stream does,
and wakes when an event says the game is past ``n``. It reads the database once as it starts
(its checks and the version, read only once it hears the channel, so a move committed in
between still wakes it) and once as it ends (the answer; or, when no event came, the version
once more, so a move whose event was dropped is still answered and not a 204).

Where the fan-out cannot carry every process's events (no ``LIVE_REDIS_URL`` and no socket
folder, Redis unreachable, a synchronous server) or it is lost during the wait, the wait polls
the database instead, for the rest of its time: every wait of the process shares one reading of
the versions of all the games waited on, one query per ``WAIT_POLL_SECONDS`` (:class:`Watch`).
Either way the answer keeps the endpoint's contract: the game as soon as (within a beat, when
polling) its version is not ``n``, a 204 only after ``API_WAIT_SECONDS`` with no change.
(The thread Django runs the synchronous middleware in stays parked meanwhile, asleep.)

Everything else is the API's own: :class:`GameWaitView` is a DRF view that is never
dispatched for a ``GET``; its checks (the API's authentication, permission and throttle
classes), its error bodies (``api.exceptions``), its content negotiation and its answer
(``get``, the game as ``GET /api/games/{id}/`` shows it) run in the request's thread, before
and after the wait. Its schema is the endpoint's schema.

A user holds at most ``API_WAITS_PER_USER`` waits at once (:class:`WaitSlots`): across every
web process through Redis when ``CACHE_URL`` is set, else per process. One more is refused
with the API's 429 ``throttled`` body; a wait that already has its answer (the version has
moved) takes no slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
import math
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from durak_site import live
from durak_site.cache import redis_name
from games import selectors
from games.models import Game

from .serializers import GameDetailSerializer
from .views import caller, errors, game_detail_data

logger = logging.getLogger(__name__)

#: How often the process reads the versions of the games its requests wait on, when they poll.
WAIT_POLL_SECONDS = 0.25
#: How long a wait gives the process's Redis subscription to come up before it polls instead
#: (each wait's start is delayed this much while Redis is down).
HEAR_WITHIN_SECONDS = 0.5
#: How many of a process's waits use the database at once (``DATABASE_POOL_SIZE`` is 10).
DATABASE_TURNS = 4
#: A slot whose release never came (its process was killed) stops counting this long after
#: the longest wait would have ended.
SLOT_GRACE_SECONDS = 30.0


class WaitQuery(serializers.Serializer[Any]):
    version = serializers.IntegerField(min_value=0, help_text="The version you have.")


class GameWaitView(APIView):
    """The wait's checks, errors, schema and answer; :func:`game_wait` does the waiting."""

    @extend_schema(
        parameters=[WaitQuery],
        responses={
            200: GameDetailSerializer,
            204: OpenApiResponse(description="Nothing changed within the wait; ask again."),
            **errors(400, 404),
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        """Long poll: answers as soon as the game's version differs from ``version``.

        Holds the request at most ``API_WAIT_SECONDS``, then answers 204. A user may hold
        ``API_WAITS_PER_USER`` waits at once; one more is refused (429).
        """
        return Response(game_detail_data(request, game_id))


def watched_version(request: Request, game_id: int) -> int:
    """The version of a game the caller may see (``games.selectors.game_visible_to``); else the
    ``GameNotFound`` of a missing game: 404 at once, never a 204 after the wait."""
    return selectors.game_version_for_viewer(
        game_id=game_id, user=request.user, shared_game_ids=selectors.share_link_game_ids(request.session)
    )


def versions_of(game_ids: list[int]) -> dict[int, int]:
    """The current version of each of the games that still exist (one query)."""
    try:
        return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))
    finally:
        hand_back_connections()


def hand_back_connections() -> None:
    """Let go of this thread's database connections between the steps of a wait, so none is
    held while it waits: back to the pool (``DATABASE_POOL``), or closed if obsolete, as at
    the end of a request. One inside a transaction (a test's) is left alone."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


# --- Hearing the move ------------------------------------------------------------------------


class Heard(enum.Enum):
    MOVED = "moved"  # an event says the game is past the version waited on
    NOTHING = "nothing"  # no such event before the wait's end
    DEAF = "deaf"  # the fan-out was lost (or said what cannot be read): events may be missed


def _version_in(event: Any, game_id: int) -> int | None:
    """The version a game event announces (``games.versions``), or None if it says none."""
    try:
        data = json.loads(event.data)
    except (TypeError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("game") != game_id:
        return None
    version = data.get("version")
    return version if type(version) is int else None


async def hear_move(heard: live.Hearing, game_id: int, known: int, give_up: float) -> Heard:
    """Wait on the game's channel until an event announces a version past ``known``, or the
    loop's clock reaches ``give_up``. An older event (sent before the version was read) is not
    news; an event that announces no version makes the wait look for itself (DEAF)."""
    loop = asyncio.get_running_loop()
    while not heard.lost:
        left = give_up - loop.time()
        if left <= 0:
            return Heard.NOTHING
        try:
            async with asyncio.timeout(left):
                events = await heard.next_events()
        except TimeoutError:
            return Heard.NOTHING
        for event in events:
            if event.type != "game":
                continue
            version = _version_in(event, game_id)
            if version is None:
                return Heard.DEAF
            if version > known:
                return Heard.MOVED
    return Heard.DEAF


def _hearing(
    request: HttpRequest, game_id: int
) -> contextlib.AbstractAsyncContextManager[live.Hearing | None]:
    """The game's channel heard through the process's fan-out, or None (the wait polls): a
    synchronous server runs each request on an event loop of its own, which the process's
    subscription cannot follow."""
    if not isinstance(request, ASGIRequest):
        return contextlib.nullcontext()
    return live.hearing([live.game_channel(game_id)], within=HEAR_WITHIN_SECONDS)


async def moved_on(
    here: Watch, heard: live.Hearing | None, game_id: int, known: int, give_up: float
) -> bool | None:
    """Whether the game moved past ``known`` before ``give_up``: True, False, or None (no event
    came: not known, to be read). Heard on the fan-out; polled while there is none, or once it
    is lost, for the rest of the wait."""
    if heard is not None:
        news = await hear_move(heard, game_id, known, give_up)
        if news is Heard.MOVED:
            return True
        if news is Heard.NOTHING:
            return None
        logger.info("wait on game %s: the live fan-out was lost, polling for the rest", game_id)
    return await here.changed(game_id, known, give_up)


# --- The shared reading (the fallback: polling) ---------------------------------------------


@dataclass
class Reading:
    tick: int
    game_ids: frozenset[int]
    versions: asyncio.Future[dict[int, int]]


@dataclass
class Watch:
    """The games the waits of one event loop are watching, and their latest reading.

    Waits wake on the same beat (multiples of ``WAIT_POLL_SECONDS`` of the loop's clock), so
    the first one awake reads the versions of every watched game for all of them, in its own
    request's thread and context; the others await that reading.
    """

    watchers: Counter[int] = field(default_factory=Counter)
    latest: Reading | None = None
    #: Turns at the database for checking a new wait and answering a woken one: a wave of
    #: wakes queues here, on the loop, and leaves the pool's other connections to the other
    #: requests (the shared reading needs no turn).
    turns: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(DATABASE_TURNS))
    waits: int = 0  # the loop's waits in progress

    async def version(self, game_id: int, tick: int) -> int | None:
        """The game's version read on beat ``tick`` (None: the game is gone)."""
        while True:
            reading = self.latest
            if reading is None or reading.tick != tick or game_id not in reading.game_ids:
                break
            await asyncio.wait([reading.versions])
            if not reading.versions.cancelled():
                return reading.versions.result().get(game_id)  # or raises its reader's error
        reading = Reading(tick, frozenset(self.watchers), asyncio.get_running_loop().create_future())
        self.latest = reading
        try:
            versions = await sync_to_async(versions_of)(sorted(reading.game_ids))
        except Exception as error:  # a lost database: every wait sharing this reading answers 503
            reading.versions.set_exception(error)
            reading.versions.exception()  # retrieved, whether or not another wait shares it
            raise
        except BaseException:  # this request was cancelled: another wait reads instead
            reading.versions.cancel()
            if self.latest is reading:
                self.latest = None
            raise
        reading.versions.set_result(versions)
        return versions.get(game_id)

    async def changed(self, game_id: int, known: int, give_up: float) -> bool:
        """Wait until the game's version is not ``known`` (True) or the loop's clock reaches
        ``give_up`` (False)."""
        loop = asyncio.get_running_loop()
        self.watchers[game_id] += 1
        try:
            while (now := loop.time()) < give_up:
                next_beat = (math.floor(now / WAIT_POLL_SECONDS) + 1) * WAIT_POLL_SECONDS
                await asyncio.sleep(min(next_beat, give_up) - now)
                tick = math.floor(loop.time() / WAIT_POLL_SECONDS)
                if await self.version(game_id, tick) != known:
                    return True
            return False
        finally:
            self.watchers[game_id] -= 1
            if not self.watchers[game_id]:
                del self.watchers[game_id]


#: Each running event loop's watch (uvicorn: one loop a process; a sync server: one a request),
#: kept while a wait of the loop is in progress.
_watches: dict[asyncio.AbstractEventLoop, Watch] = {}
_watches_lock = threading.Lock()


@contextlib.asynccontextmanager
async def loop_watch() -> AsyncIterator[Watch]:
    """The running loop's watch, for the length of one wait."""
    loop = asyncio.get_running_loop()
    with _watches_lock:
        found = _watches.setdefault(loop, Watch())
        found.waits += 1
    try:
        yield found
    finally:
        with _watches_lock:
            found.waits -= 1
            if not found.waits and _watches.get(loop) is found:
                del _watches[loop]


# --- Slots: waits per user ------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    user_id: int
    token: str
    shared: bool  # counted in Redis, not in this process


class WaitSlots:
    """Counts each user's waits: in a Redis sorted set per user when ``CACHE_URL`` is set
    (every web process sees the same count; a slot a killed process never gave back stops
    counting after ``API_WAIT_SECONDS + SLOT_GRACE_SECONDS``), else in this process. With
    Redis unreachable a wait is counted in the process, as without it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._local: Counter[int] = Counter()
        self._clients: dict[str, redis.Redis] = {}

    def _redis(self) -> redis.Redis | None:
        url = settings.CACHE_URL
        if not url:
            return None
        with self._lock:
            client = self._clients.get(url)
            if client is None:
                # Many request threads at once take turns on a few connections.
                pool = redis.BlockingConnectionPool.from_url(
                    url, max_connections=20, timeout=2.0, socket_timeout=0.5, socket_connect_timeout=0.5
                )
                client = redis.Redis(connection_pool=pool)
                self._clients[url] = client
            return client

    @staticmethod
    def _key(user_id: int) -> str:
        return redis_name(f"api-waits:{user_id}")

    def take(self, user_id: int) -> Slot | None:
        """A slot for one more wait of the user, or None if they hold the most already."""
        limit = settings.API_WAITS_PER_USER
        token = uuid.uuid4().hex
        client = self._redis()
        if client is not None:
            now = time.time()
            stale = settings.API_WAIT_SECONDS + SLOT_GRACE_SECONDS
            key = self._key(user_id)
            try:
                pipe = client.pipeline()
                pipe.zremrangebyscore(key, "-inf", now - stale)
                pipe.zadd(key, {token: now})
                pipe.zcard(key)
                pipe.expire(key, math.ceil(stale))
                held = int(pipe.execute()[2])
                if held <= limit:
                    return Slot(user_id, token, shared=True)
                client.zrem(key, token)
                return None
            except redis.RedisError as error:
                logger.warning("wait slots unavailable in Redis, counted in this process: %s", error)
        with self._lock:
            if self._local[user_id] >= limit:
                return None
            self._local[user_id] += 1
        return Slot(user_id, token, shared=False)

    def give_back(self, slot: Slot) -> None:
        if slot.shared:
            client = self._redis()
            try:
                if client is not None:
                    client.zrem(self._key(slot.user_id), slot.token)
            except redis.RedisError as error:
                logger.warning("wait slot not given back to Redis (it expires): %s", error)
            return
        with self._lock:
            self._local[slot.user_id] -= 1
            if self._local[slot.user_id] <= 0:
                del self._local[slot.user_id]


slots = WaitSlots()


# --- The view -------------------------------------------------------------------------------


@dataclass
class Waiting:
    """A request whose checks passed and whose game is still at the version it names."""

    view: GameWaitView
    request: Request
    game_id: int
    known: int
    slot: Slot


def _drf_view(request: HttpRequest, game_id: int) -> GameWaitView:
    """The DRF view set up as its ``dispatch`` would, without dispatching it."""
    view = GameWaitView()
    view.setup(request, game_id=game_id)
    view.args, view.kwargs = (), {"game_id": game_id}
    view.request = view.initialize_request(request, game_id=game_id)
    view.headers = view.default_response_headers
    return view


def _render(view: GameWaitView, response: Response) -> HttpResponse:
    response = view.finalize_response(view.request, response, game_id=view.kwargs["game_id"])
    response.render()
    return response


def _check(view: GameWaitView, game_id: int) -> Waiting | Response:
    view.initial(view.request, game_id=game_id)
    query = WaitQuery(data=view.request.query_params)
    query.is_valid(raise_exception=True)
    known: int = query.validated_data["version"]
    if watched_version(view.request, game_id) != known:
        return view.get(view.request, game_id)
    slot = slots.take(caller(view.request).pk)
    if slot is None:
        raise Throttled()
    return Waiting(view, view.request, game_id, known, slot)


def begin(request: HttpRequest, game_id: int) -> Waiting | HttpResponse:
    """Check the request (authentication, permission, throttles, query, access) and answer
    at once if there is nothing to wait for; else take one of the user's wait slots."""
    view = _drf_view(request, game_id)
    try:
        try:
            checked = _check(view, game_id)
        except Exception as error:
            checked = view.handle_exception(error)  # re-raises what is no API error (a lost database)
        return checked if isinstance(checked, Waiting) else _render(view, checked)
    finally:
        hand_back_connections()


def end(waiting: Waiting, moved: bool | None) -> HttpResponse:
    """The wait's answer: the game (as the caller may see it) if it moved on, else 204.
    ``moved`` None: not known (no event came), the version is read once to know."""
    view = waiting.view
    try:
        try:
            if moved is None:
                moved = versions_of([waiting.game_id]).get(waiting.game_id) != waiting.known
            if moved:
                response = view.get(waiting.request, waiting.game_id)
            else:
                response = Response(status=status.HTTP_204_NO_CONTENT)
        except Exception as error:
            response = view.handle_exception(error)
        return _render(view, response)
    finally:
        hand_back_connections()


@csrf_exempt  # as every DRF view: SessionAuthentication checks the CSRF token of unsafe methods
async def game_wait(request: HttpRequest, game_id: int) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):  # 405, or the OPTIONS answer: DRF's own
        response: HttpResponse = await sync_to_async(GameWaitView.as_view())(request, game_id=game_id)
        return response
    # Heard first, read after: a move committed once the version is read is heard.
    async with loop_watch() as here, _hearing(request, game_id) as heard:
        async with here.turns:
            begun = await sync_to_async(begin)(request, game_id)
        if isinstance(begun, HttpResponse):
            return begun
        try:
            give_up = asyncio.get_running_loop().time() + settings.API_WAIT_SECONDS
            moved = await moved_on(here, heard, game_id, begun.known, give_up)
            async with here.turns:
                answer: HttpResponse = await sync_to_async(end)(begun, moved)
            return answer
        finally:
            await sync_to_async(slots.give_back)(begun.slot)


# drf-spectacular lists a URL whose callback names a DRF view class: the endpoint's schema is
# GameWaitView's.
game_wait.cls = GameWaitView  # type: ignore[attr-defined]
game_wait.initkwargs = {}  # type: ignore[attr-defined]
