"""Waits hold no worker: the API's long poll under the production server (ASGI).

The site runs as the README says to run it (gunicorn with a uvicorn worker, here one process),
against the test database. 200 long polls are held at once on that one process, and meanwhile
``/healthz`` and a move answer as if nothing were waiting; the move wakes exactly the waits on
its game. Each user holds at most ``API_WAITS_PER_USER`` (8) waits: across processes through
Redis (``CACHE_URL``), else counted in the process; one more is the API's 429.

A wait hears its game's live channel (the Redis fan-out): a move made by another process wakes
it, nothing is read from the database while it waits (every backend of the test database is
watched in ``pg_stat_activity``), a move committed just after its version was read still wakes
it, and when the fan-out is lost or down it polls the database instead.
"""

import asyncio
import os
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import httpx
import psycopg
import pytest
import redis
from django.conf import LazySettings

from accounts.models import User
from durak_site import live
from durak_site.cache import redis_name
from games import services
from games.models import Game
from tests.celery_processes import REDIS_HOST, REDIS_PORT, _redis_db
from tests.factories import LONGER_DEAL, UserFactory, started_game

from .conftest import Site, database_url_of_tests, login_session

#: Long enough that no wait ends by itself while the test runs.
WAIT_SECONDS = "300"
#: A request that a held wait would delay (under sync workers: by the whole wait) must answer
#: well within this, even on a loaded machine.
PROMPT_SECONDS = 10.0
PER_USER = 8
RATES = {"API_RATE_USER": "100000/min", "API_RATE_IP": "100000/min"}


def auth_headers(site: Site, user: User, *, session: bool) -> dict[str, str]:
    """Headers of ``user``: the session cookie of a browser, or an API token."""
    if session:
        return {"Cookie": f"sessionid={login_session(user)}"}
    with site.api_client(user) as api:
        return {"Authorization": api.headers["Authorization"]}


def async_client(site: Site) -> httpx.AsyncClient:
    # One connection per held wait: no pool limit.
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=50)
    return httpx.AsyncClient(base_url=site.url, timeout=httpx.Timeout(120.0), limits=limits)


async def until(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"timed out after {timeout}s waiting for {what}"
        await asyncio.sleep(0.1)


async def timed(request: Any) -> tuple[httpx.Response, float]:
    began = time.monotonic()
    response = await request
    return response, time.monotonic() - began


def redis_url() -> str:
    """This test process's Redis database (its keys and pub/sub channel under its namespace)."""
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/{_redis_db(os.environ.get('PYTEST_XDIST_WORKER', 'master'))}"


def held_slots(client: redis.Redis, users: list[Any]) -> int:
    return sum(int(client.zcard(redis_name(f"api-waits:{user.pk}"))) for user in users)


def run_in_a_loop_of_its_own(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run`` in a thread of its own: a browser test's sync Playwright may have left an
    event loop running in this one."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as error:  # re-raised in the test's thread
            failure.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def test_200_waits_on_one_process_hold_no_worker_and_a_move_wakes_its_own(site: Site) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "master")
    redis_url = f"redis://{REDIS_HOST}:{REDIS_PORT}/{_redis_db(worker)}"
    shared = redis.Redis.from_url(redis_url)  # the slots are under this run's REDIS_NAMESPACE
    game, players = started_game(deal=LONGER_DEAL)
    other, _ = started_game(deal=LONGER_DEAL)
    watchers = [UserFactory() for _ in range(25)]  # 25 x 8 waits: 4 on each game, every slot
    headers = [auth_headers(site, user, session=index % 2 == 1) for index, user in enumerate(watchers)]
    mover = auth_headers(site, players[0], session=False)
    site.start(CACHE_URL=redis_url, API_WAIT_SECONDS=WAIT_SECONDS, **RATES)

    async def scenario() -> None:
        async with async_client(site) as client:
            waits: dict[int, list[asyncio.Task[httpx.Response]]] = {game.pk: [], other.pk: []}
            for header in headers:
                for watched in (game, other):
                    for _ in range(PER_USER // 2):
                        url = f"/api/games/{watched.pk}/wait/?version={watched.version}"
                        waits[watched.pk].append(asyncio.create_task(client.get(url, headers=header)))
            every = waits[game.pk] + waits[other.pk]
            try:

                async def all_held() -> bool:
                    assert not any(task.done() for task in every), [t.result() for t in every if t.done()][:3]
                    return await asyncio.to_thread(held_slots, shared, watchers) == len(every)

                await until(all_held, 90, "the server to hold all 200 waits")

                health, health_seconds = await timed(client.get("/healthz"))
                assert health.status_code == 200 and health.text == "ok"
                assert health_seconds < PROMPT_SECONDS, f"/healthz took {health_seconds:.1f}s"

                refused = await client.get(
                    f"/api/games/{other.pk}/wait/?version={other.version}", headers=headers[0]
                )
                assert refused.status_code == 429, refused.text
                assert refused.json()["code"] == "throttled"
                assert not any(task.done() for task in every)

                attack = {"expected_version": game.version, "action": {"type": "attack", "cards": ["6S"]}}
                moved, move_seconds = await timed(
                    client.post(f"/api/games/{game.pk}/actions/", json=attack, headers=mover)
                )
                assert moved.status_code == 200, moved.text
                assert move_seconds < PROMPT_SECONDS, f"the move took {move_seconds:.1f}s"

                woken = await asyncio.wait_for(asyncio.gather(*waits[game.pk]), timeout=60)
                for answer in woken:
                    assert answer.status_code == 200, answer.text
                    assert answer.json()["version"] == game.version + 1
                    assert answer.json()["view"]["table"] == [["6S", None]]
                assert not any(task.done() for task in waits[other.pk])  # the other game did not move
                await until(
                    lambda: asyncio.to_thread(lambda: held_slots(shared, watchers) == len(waits[other.pk])),
                    30,
                    "the woken waits to give their slots back",
                )
            finally:
                for task in every:
                    task.cancel()
                await asyncio.gather(*every, return_exceptions=True)

    run_in_a_loop_of_its_own(scenario)


def test_without_redis_each_process_counts_a_users_waits(site: Site) -> None:
    game, players = started_game(deal=LONGER_DEAL)
    watcher = UserFactory()
    header = auth_headers(site, watcher, session=False)
    mover = auth_headers(site, players[0], session=False)
    site.start(API_WAIT_SECONDS=WAIT_SECONDS, **RATES)
    url = f"/api/games/{game.pk}/wait/?version={game.version}"

    async def refused_one_of(client: httpx.AsyncClient, count: int) -> list[asyncio.Task[httpx.Response]]:
        """``count`` waits at once: the one past the limit is refused, the others stay held."""
        tasks = [asyncio.create_task(client.get(url, headers=header)) for _ in range(count)]
        done, held = await asyncio.wait(tasks, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        assert len(done) == 1, "no wait was refused"
        refused = done.pop().result()
        assert refused.status_code == 429 and refused.json()["code"] == "throttled", refused.text
        await asyncio.sleep(1)
        assert not any(task.done() for task in held)
        return list(held)

    async def scenario() -> None:
        async with async_client(site) as client:
            held = await refused_one_of(client, PER_USER + 1)
            try:
                attack = {"expected_version": game.version, "action": {"type": "attack", "cards": ["6S"]}}
                moved = await client.post(f"/api/games/{game.pk}/actions/", json=attack, headers=mover)
                assert moved.status_code == 200, moved.text
                for answer in await asyncio.wait_for(asyncio.gather(*held), timeout=60):
                    assert answer.status_code == 200 and answer.json()["version"] == game.version + 1
            finally:
                for task in held:
                    task.cancel()
            # Their slots are free again: a user waiting on the new version gets all of them.
            nonlocal url
            url = f"/api/games/{game.pk}/wait/?version={game.version + 1}"
            again = await refused_one_of(client, PER_USER + 1)
            for task in again:
                task.cancel()
            await asyncio.gather(*again, return_exceptions=True)

    run_in_a_loop_of_its_own(scenario)


def test_the_waits_errors_are_the_apis_under_asgi(site: Site) -> None:
    game, players = started_game(deal=LONGER_DEAL)
    header = auth_headers(site, players[1], session=True)
    token = auth_headers(site, players[1], session=False)
    site.start()
    wait = f"/api/games/{game.pk}/wait/"
    with httpx.Client(base_url=site.url, timeout=30) as client:
        for headers, code in (
            ({}, "not_authenticated"),
            ({"Cookie": "sessionid=not-a-session"}, "not_authenticated"),
            ({"Authorization": "Token not-a-token"}, "authentication_failed"),
        ):
            refused = client.get(f"{wait}?version={game.version}", headers=headers)
            assert refused.status_code == 401 and refused.json()["code"] == code, refused.text
        invalid = client.get(f"{wait}?version=x", headers=header)
        assert invalid.status_code == 400 and invalid.json()["code"] == "invalid", invalid.text
        assert "version" in invalid.json()["errors"]
        missing = client.get(f"/api/games/{game.pk + 1000}/wait/?version=0", headers=header)
        assert missing.status_code == 404 and missing.json()["code"] == "game_not_found", missing.text
        russian = client.get(
            f"/api/games/{game.pk + 1000}/wait/?version=0", headers={**header, "Accept-Language": "ru"}
        )
        assert (
            russian.json()["code"] == "game_not_found"
            and russian.json()["detail"] != missing.json()["detail"]
        )
        posted = client.post(f"{wait}?version={game.version}", headers=token)  # a session's: CSRF first
        assert posted.status_code == 405 and posted.json()["code"] == "method_not_allowed", posted.text
        at_once = client.get(f"{wait}?version={game.version - 1}", headers=header)
        assert at_once.status_code == 200 and at_once.json()["version"] == game.version


# --- Waiting on the live fan-out --------------------------------------------------------------

ATTACK = {"type": "attack", "cards": ["6S"]}


def attack_in(game: Game, players: list[User]) -> None:
    """The first attack of ``LONGER_DEAL``, by seat 0, made in this process (its own publisher)."""
    services.make_move(user=players[0], game_id=game.pk, action=ATTACK, expected_version=game.version)


def subscribed(client: redis.Redis) -> bool:
    """Whether the site's fan-out is subscribed (listed and past its SUBSCRIBE), by the name it
    gives itself under this run's ``REDIS_NAMESPACE``."""
    return any(
        entry.get("name") == live.fanout_name() and int(entry.get("sub", 0)) >= 1
        for entry in client.client_list()
    )


class Activity:
    """Every other backend of the test database as ``pg_stat_activity`` shows it, read on a
    connection of its own: a statement anywhere (a new connection included) changes what
    :meth:`read` returns. Backend status is live, not the lagging statistics."""

    def __init__(self, database_url: str) -> None:
        self.connection = psycopg.connect(database_url, autocommit=True)

    def read(self) -> dict[int, Any]:
        rows = self.connection.execute(
            "SELECT pid, query_start FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type = 'client backend'"
        ).fetchall()
        return dict(rows)

    def close(self) -> None:
        self.connection.close()


def started_with_the_fanout(site: Site, settings: LazySettings, **extra: str) -> redis.Redis:
    """The site started with ``CACHE_URL`` (so the fan-out's ``LIVE_REDIS_URL``) on this test's
    Redis, which this process publishes to as well."""
    settings.LIVE_REDIS_URL = redis_url()
    settings.LIVE_REDIS_CHANNEL = ""
    site.start(CACHE_URL=redis_url(), API_WAIT_SECONDS=WAIT_SECONDS, **RATES, **extra)
    return redis.Redis.from_url(redis_url())


async def warmed_up(
    client: httpx.AsyncClient, shared: redis.Redis, url: str, user: User, header: Any
) -> None:
    """Open one wait, so that the fresh process subscribes, and end it once it has and is held:
    the waits opened after it hear the fan-out from their start (a wait that does not find the
    subscription up within ``HEAR_WITHIN_SECONDS`` polls instead). Its slot is back after."""
    first = asyncio.create_task(client.get(url, headers=header))
    try:
        await until(
            lambda: asyncio.to_thread(lambda: subscribed(shared) and held_slots(shared, [user]) == 1),
            60,
            "the site to subscribe and hold the first wait",
        )
    finally:
        first.cancel()
        await asyncio.gather(first, return_exceptions=True)
    await until(lambda: asyncio.to_thread(lambda: held_slots(shared, [user]) == 0), 60, "its slot")


@pytest.mark.parametrize("fanout", [True, False], ids=["heard", "polled"])
def test_a_wait_reads_nothing_while_it_waits_and_wakes_on_another_process_move(
    site: Site, settings: LazySettings, fanout: bool
) -> None:
    """Ten waits held for several seconds: on the fan-out no backend of the database runs a
    statement meanwhile; polled (no fan-out: the control that shows the watch sees a poll), the
    database is read. Either way this process's move wakes every wait with the caller's own view,
    as ``GET /api/games/{id}/`` shows it to them."""
    game, players = started_game(deal=LONGER_DEAL)
    spectator = UserFactory()
    callers: list[User] = [players[1], spectator]
    headers = [auth_headers(site, user, session=False) for user in callers]
    if fanout:
        shared = started_with_the_fanout(site, settings)
    else:
        site.start(API_WAIT_SECONDS=WAIT_SECONDS, **RATES)  # no CACHE_URL: no Redis at all
    url = f"/api/games/{game.pk}/wait/?version={game.version}"
    activity = Activity(database_url_of_tests())

    async def scenario() -> None:
        async with async_client(site) as client:
            if fanout:
                await warmed_up(client, shared, url, callers[0], headers[0])
            waits = [
                asyncio.create_task(client.get(url, headers=header)) for header in headers for _ in range(5)
            ]
            try:
                if fanout:
                    await until(
                        lambda: asyncio.to_thread(lambda: held_slots(shared, callers) == len(waits)),
                        60,
                        "the waits to be held",
                    )
                await asyncio.sleep(2)  # past every wait's start, its connections handed back
                assert not any(task.done() for task in waits)
                before = await asyncio.to_thread(activity.read)
                await asyncio.sleep(3)  # 12 beats of the poll
                after = await asyncio.to_thread(activity.read)
                if fanout:
                    assert after == before, "the database was read while the waits waited"
                else:
                    assert after != before, "the poll was not seen: this watch could not fail"
                assert not any(task.done() for task in waits)

                began = time.monotonic()
                await asyncio.to_thread(attack_in, game, players)
                woken = await asyncio.wait_for(asyncio.gather(*waits), timeout=60)
                assert time.monotonic() - began < PROMPT_SECONDS
                for index, answer in enumerate(woken):
                    assert answer.status_code == 200, answer.text
                    assert answer.json()["version"] == game.version + 1
                    shown = await client.get(f"/api/games/{game.pk}/", headers=headers[index // 5])
                    assert answer.json() == shown.json()
                assert woken[0].json()["view"]["hand"] != []  # the player's own hand
                assert "hand" not in woken[-1].json()["view"] or not woken[-1].json()["view"]["hand"]
            finally:
                for task in waits:
                    task.cancel()
                await asyncio.gather(*waits, return_exceptions=True)

    try:
        run_in_a_loop_of_its_own(scenario)
    finally:
        activity.close()


def test_a_wait_whose_subscription_is_lost_polls_for_the_rest(site: Site, settings: LazySettings) -> None:
    """The fan-out's connection is killed while a wait is held, and the move's event is never
    published (this process's publisher points at a dead Redis): only the wait's poll, from the
    moment the subscription was lost, can see the move."""
    game, players = started_game(deal=LONGER_DEAL)
    header = auth_headers(site, players[1], session=False)
    shared = started_with_the_fanout(site, settings)
    url = f"/api/games/{game.pk}/wait/?version={game.version}"

    async def scenario() -> None:
        async with async_client(site) as client:
            await warmed_up(client, shared, url, players[1], header)
            wait = asyncio.create_task(client.get(url, headers=header))
            try:
                await until(
                    lambda: asyncio.to_thread(lambda: held_slots(shared, [players[1]]) == 1), 60, "the wait"
                )
                await asyncio.sleep(0.5)
                fanouts = [entry for entry in shared.client_list() if entry.get("name") == live.fanout_name()]
                assert len(fanouts) == 1, fanouts
                shared.client_kill_filter(_id=fanouts[0]["id"])
                await asyncio.sleep(1)  # the site hears its loss
                settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
                await asyncio.to_thread(attack_in, game, players)
                answer = await asyncio.wait_for(wait, timeout=PROMPT_SECONDS)
                assert answer.status_code == 200, answer.text
                assert answer.json()["version"] == game.version + 1
            finally:
                wait.cancel()
                await asyncio.gather(wait, return_exceptions=True)

    run_in_a_loop_of_its_own(scenario)


def test_with_the_live_redis_down_a_wait_polls(site: Site) -> None:
    game, players = started_game(deal=LONGER_DEAL)
    header = auth_headers(site, players[1], session=False)
    mover = auth_headers(site, players[0], session=False)
    site.start(LIVE_REDIS_URL="redis://127.0.0.1:1/0", API_WAIT_SECONDS=WAIT_SECONDS, **RATES)

    async def scenario() -> None:
        async with async_client(site) as client:
            wait = asyncio.create_task(
                client.get(f"/api/games/{game.pk}/wait/?version={game.version}", headers=header)
            )
            try:
                await asyncio.sleep(2)
                assert not wait.done(), wait.result().text
                attack = {"expected_version": game.version, "action": ATTACK}
                moved = await client.post(f"/api/games/{game.pk}/actions/", json=attack, headers=mover)
                assert moved.status_code == 200, moved.text
                answer = await asyncio.wait_for(wait, timeout=PROMPT_SECONDS)
                assert answer.status_code == 200 and answer.json()["version"] == game.version + 1, answer.text
            finally:
                wait.cancel()
                await asyncio.gather(wait, return_exceptions=True)

    run_in_a_loop_of_its_own(scenario)


def test_a_move_committed_just_after_the_wait_read_the_version_wakes_it(
    site: Site, settings: LazySettings, tmp_path: Any
) -> None:
    """The site holds the wait between its reading of the version and its waiting
    (``held_wait.py``); the move is committed and published then. Waits never poll here (the
    fan-out is up, ``API_WAIT_SECONDS`` is 300): only a wait that was hearing the channel before
    it read the version hears that move."""
    game, players = started_game(deal=LONGER_DEAL)
    header = auth_headers(site, players[1], session=False)
    read, go = tmp_path / "read", tmp_path / "go"
    shared = started_with_the_fanout(
        site,
        settings,
        app="tests.faults.held_wait:application",
        HELD_WAIT_READ=str(read),
        HELD_WAIT_GO=str(go),
    )
    url = f"/api/games/{game.pk}/wait/?version={game.version}"

    async def scenario() -> None:
        async with async_client(site) as client:
            go.touch()  # the warm-up's wait is not held
            await warmed_up(client, shared, url, players[1], header)
            go.unlink()
            read.unlink(missing_ok=True)
            wait = asyncio.create_task(client.get(url, headers=header))
            try:
                await until(lambda: asyncio.to_thread(read.exists), 60, "the wait to read the version")
                await asyncio.to_thread(attack_in, game, players)  # committed, then published
                go.touch()
                answer = await asyncio.wait_for(wait, timeout=PROMPT_SECONDS)
                assert answer.status_code == 200, answer.text
                assert answer.json()["version"] == game.version + 1
            finally:
                wait.cancel()
                await asyncio.gather(wait, return_exceptions=True)

    run_in_a_loop_of_its_own(scenario)
