"""A load test against the site served as in production (a benchmark, not a test).

    python -m benchmarks.load --players 20 --seconds 45 --workers 4     # issue 20's table
    python -m benchmarks.load --players 80 --target-rate 150 --seconds 30
    python -m benchmarks.load --players 80 --find-max --seconds 150

Needs PostgreSQL and Redis (as the tests do). It starts, on 127.0.0.1 only:

- a fresh database (dropped and re-created, migrated): ``--database``, else
  ``LOAD_DATABASE_URL``, else ``durak_load``; and static files collected, as the README's
  production section says;
- the README's production server, gunicorn with ``--workers`` uvicorn workers (ASGI), ``DEBUG``
  off and a random ``SECRET_KEY``; the application is ``benchmarks.timed_asgi``, which times
  each request inside the server;
- a Celery worker on Redis database ``--redis-db`` (flushed first; default ``TEST_REDIS_DB``
  or 9): every move queues its tasks (turn hook, timeout ETA, notifications) there.

Then ``--players`` players play ``--players / 2`` two-player games at once for ``--seconds``
(and at most ``--max-requests`` requests), each from its own asyncio task over httpx. In every
game seat 0 plays through the REST API (token auth: ``wait/?version=n`` to poll, ``actions/``
to move) and seat 1 through the pages (session cookie and CSRF token: the HTMX poll
``/games/<id>/poll/?version=n`` and the move form ``/games/<id>/move/``); both read their
legal actions from the API's ``legal_actions`` and play a random one. A finished game is
followed by the next one of the same pair (created through the API, joined through the page).
Meanwhile ``--trivial`` tasks ask ``/healthz``, a view that touches no database, every
``--poll`` seconds on the same server.

Three ways to pace the moves:

- by default a player moves the moment it has a legal action and otherwise polls every
  ``--poll`` seconds (+-50 %), as a page without its live stream does (issue 20's baseline);
- ``--target-rate R``: the moves are spread at R a second over all games (a schedule the
  players take their turns from, at most 0.1 s of backlog); a player who waits is woken by the
  other's move, as the live stream's event wakes a page, and then fetches the changed table
  (``--poll`` stays the fallback). The count starts once every pair plays its first game
  (at most 30 s of warm-up) and 2 s more, and each step's first 2 s are not counted. Passed when
  at least 90 % of R was sent (a move refused as stale, 409, took its slot too: both players
  may act at once) with the played move's p95 (end to end) at most ``--p95-ms`` (100); the
  rate reported is the moves played;
- ``--find-max``: the same, the rate raised step by step (``--start-rate``, times
  ``--rate-step`` each ``--step-seconds``) until a step fails or ``--seconds`` are spent (a
  first step that fails is tried again at half the rate); the answer is the highest rate that
  passed. Give it enough games (``--players 80``): a game
  carries only a few moves a second.

The report: throughput and p50/p95/p99 latency per request kind, measured twice: by the clients
(what a player waits, including the time a request queues for a free worker) and inside the
server (``benchmarks.timed_asgi``: what each request costs the server); then issue 20's table:
the trivial view, the move, the API move, the changed and the unchanged table poll, each with
its p50 inside the server and its multiple of the trivial view's (targets 8x, 6x, 6x), the moves
a second sustained and the move's p95 end to end (target 150 a second at p95 <= 100 ms); when
paced, each step's offered and played rate and the move's p50 and p95 end to end, and with
``--find-max`` issue 20's table again for the best step alone; the errors (target 0), and
``manage.py check_replays`` over every game played (all must pass). The exit status is
non-zero on an error or a failed replay.

To measure an older tree with these same tools (a before-and-after pair on one machine):
``git archive <commit> | tar -x -C /tmp/before; cp benchmarks/*.py /tmp/before/benchmarks/``,
then in ``/tmp/before`` ``python -m durak_site.catalogues`` and the same command.

Settings that differ from a real deployment, and why: the HTTPS switches are off (plain HTTP
on 127.0.0.1); the API throttles are lifted (every client comes from one address, which the
per-IP rate would otherwise refuse within a second); ``API_WAIT_SECONDS=0``, so the API's long
poll answers at once (the run measures what a poll costs, not how long it waits). Games have a
120 s move clock, so every move also queues a timeout task. The clients share the machine's
CPUs with the server (their own CPU time is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import (  # noqa: E402
    celery_worker,
    gunicorn,
    login_session,
    logs_folder,
    prepare,
)
from benchmarks.servers import site_env as served_env  # noqa: E402

DATABASE_URL = os.environ.get("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_load")
MOVE_SECONDS = 120
#: Issue 20's targets: p50 inside the server as a multiple of the trivial view's p50.
TARGETS = {"move 200": 8.0, "move api 200": 6.0, "poll 200": 6.0}
#: Issue 20's throughput target: moves a second at a move p95 (end to end) of at most 100 ms.
RATE_TARGET = 150.0
#: A paced step passes when this share of the offered rate was sent.
RATE_SHARE = 0.9
MOVE_KINDS = ("move", "move api")


def site_env(*, database_url: str, redis_db: int) -> dict[str, str]:
    """The environment of the server, the worker and this process (for the ORM)."""
    return served_env(database_url=database_url, redis_db=redis_db, API_WAIT_SECONDS="0")


def setup_site(players: int) -> list[Player]:
    """The players: users with a token (API seats) or a logged-in session (page seats)."""
    from accounts.models import ApiToken, User

    users = User.objects.bulk_create(
        User(username=f"load-{n}", email=f"load-{n}@example.com", password="!unusable")
        for n in range(players)
    )
    result: list[Player] = []
    for index, user in enumerate(users):
        if index % 2 == 0:
            _token, secret = ApiToken.objects.create(user=user, name="load test")
            result.append(Player(name=user.username, api=True, token=secret))
        else:
            result.append(Player(name=user.username, api=False, session=login_session(user)))
    return result


# --- the clients -----------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    seconds: float
    status: int  # 0: no answer (connection error, timeout)
    began: float  # time.monotonic() when it was sent


class Pacer:
    """A schedule of moves at ``rate`` a second shared by all players: each move waits for
    the next free slot. A slot nobody took in time is lost after ``BACKLOG`` seconds, so a
    lull is not made up for by a burst."""

    BACKLOG = 0.1

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.next = time.monotonic()

    async def slot(self) -> None:
        now = time.monotonic()
        self.next = max(self.next, now - self.BACKLOG)
        at = self.next
        self.next += 1 / self.rate
        if at > now:
            await asyncio.sleep(at - now)


@dataclass
class Run:
    deadline: float
    max_requests: int
    pacer: Pacer | None = None
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0  # a move against a version the other player had just moved on from
    game_ids: set[int] = field(default_factory=set)
    finished: int = 0
    seated: int = 0  # pairs playing their first game

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.deadline or len(self.samples) >= self.max_requests


@dataclass
class Player:
    name: str
    api: bool
    token: str = ""
    session: str = ""
    client: Any = None
    csrf: str = ""

    async def request(self, run: Run, kind: str, method: str, url: str, **kwargs: Any) -> Any:
        import httpx

        began = time.monotonic()
        started = time.perf_counter()
        try:
            response = await self.client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            run.samples.append(Sample(kind, time.perf_counter() - started, 0, began))
            run.errors.append(f"{kind} {method} {url}: {type(error).__name__} {error}")
            return None
        run.samples.append(Sample(kind, time.perf_counter() - started, response.status_code, began))
        return response


def expect(run: Run, response: Any, *ok: int) -> bool:
    if response is None:
        return False
    if response.status_code in ok:
        return True
    run.errors.append(
        f"{response.request.method} {response.request.url.path}: {response.status_code} {response.text[:200]!r}"
    )
    return False


async def read(run: Run, player: Player, game_id: int) -> dict[str, Any] | None:
    response = await player.request(run, "read", "GET", f"/api/games/{game_id}/")
    return response.json() if expect(run, response, 200) else None


async def poll(run: Run, player: Player, game: dict[str, Any]) -> dict[str, Any] | None:
    """The game again once its version moved; ``game`` itself while it has not."""
    game_id, version = game["id"], game["version"]
    if player.api:
        response = await player.request(
            run, "poll api", "GET", f"/api/games/{game_id}/wait/?version={version}"
        )
        if not expect(run, response, 200, 204):
            return None
        return game if response.status_code == 204 else response.json()
    response = await player.request(
        run, "poll", "GET", f"/games/{game_id}/poll/?version={version}", headers={"HX-Request": "true"}
    )
    if not expect(run, response, 200, 204):
        return None
    return game if response.status_code == 204 else await read(run, player, game_id)


async def move(
    run: Run, player: Player, game: dict[str, Any], action: dict[str, Any]
) -> tuple[dict[str, Any] | None, bool]:
    """The game after the move, and whether the move was played."""
    game_id, version = game["id"], game["version"]
    if player.api:
        response = await player.request(
            run,
            "move api",
            "POST",
            f"/api/games/{game_id}/actions/",
            json={"action": action, "expected_version": version},
        )
    else:
        response = await player.request(
            run,
            "move",
            "POST",
            f"/games/{game_id}/move/",
            data={"action": json.dumps(action), "expected_version": str(version)},
            headers={"HX-Request": "true", "X-CSRFToken": player.csrf},
        )
    if response is not None and response.status_code == 409:
        # Both players may act at once (a throw-in while the defender beats): the slower
        # one finds the version moved on, as the site intends. Not an error.
        run.conflicts += 1
        return await read(run, player, game_id), False
    if not expect(run, response, 200):
        return None, False
    return (response.json() if player.api else await read(run, player, game_id)), True


async def play(
    run: Run,
    player: Player,
    game_id: int,
    poll_seconds: float,
    rng: random.Random,
    woken: asyncio.Event,
    others: list[asyncio.Event],
) -> None:
    game = await read(run, player, game_id)
    holding = False  # a paced slot taken and not yet used
    while game is not None and game["status"] in ("open", "active") and not run.over:
        if game["legal_actions"]:
            if run.pacer is not None and not holding:
                await run.pacer.slot()
            holding = False
            if run.pacer is not None and woken.is_set():
                # The other moved while this one waited for its slot: a page has heard so
                # and redraws before it acts, with the slot it has.
                woken.clear()
                game, holding = await poll(run, player, game), True
                continue
            game, played = await move(run, player, game, rng.choice(game["legal_actions"]))
            if played and run.pacer is not None:
                for other in others:  # the live stream's event on the other pages
                    other.set()
        else:
            holding = False  # nothing to play: a slot held is lost
            pause = poll_seconds * rng.uniform(0.5, 1.5)
            if run.pacer is None:
                await asyncio.sleep(pause)
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), pause)
                woken.clear()
            game = await poll(run, player, game)
    if game is not None and game["status"] == "finished" and player.api:
        run.finished += 1


async def pair(run: Run, api: Player, page: Player, poll_seconds: float, rng: random.Random) -> None:
    """One pair plays game after game until the run is over."""
    response = await page.request(run, "setup", "GET", "/")  # the lobby: sets the CSRF cookie
    if not expect(run, response, 200):
        return
    page.csrf = page.client.cookies.get("csrftoken", "")
    first = True
    while not run.over:
        body = {
            "preset": "classic",
            "options": {},
            "players": 2,
            "time_control": {"kind": "live", "seconds": MOVE_SECONDS, "pause_weekends": False},
        }
        response = await api.request(run, "setup", "POST", "/api/games/", json=body)
        if not expect(run, response, 201):
            return
        game_id = response.json()["id"]
        run.game_ids.add(game_id)
        response = await page.request(
            run, "setup", "POST", f"/games/{game_id}/join/", headers={"X-CSRFToken": page.csrf}
        )
        if not expect(run, response, 302):
            return
        if first:
            run.seated, first = run.seated + 1, False
        api_woken, page_woken = asyncio.Event(), asyncio.Event()
        await asyncio.gather(
            play(run, api, game_id, poll_seconds, rng, api_woken, [page_woken]),
            play(run, page, game_id, poll_seconds, rng, page_woken, [api_woken]),
        )


async def trivial(run: Run, client: Any, poll_seconds: float, rng: random.Random) -> None:
    player = Player(name="healthz", api=False, client=client)
    while not run.over:
        await asyncio.sleep(poll_seconds * rng.uniform(0.5, 1.5))
        expect(run, await player.request(run, "trivial", "GET", "/healthz"), 200)


async def drive(base: str, players: list[Player], args: argparse.Namespace, schedule: Schedule) -> Run:
    import httpx

    run = Run(
        deadline=time.monotonic() + schedule.seconds + (schedule.WARMUP if schedule.rate else 0),
        max_requests=args.max_requests,
        pacer=Pacer(schedule.rate) if schedule.rate else None,
    )
    rng = random.Random(args.seed)
    clients = []
    # Idle connections dropped before the server's keep-alive (gunicorn's 2 s) closes them, so
    # no request is sent on a connection the server is closing at that moment.
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None, keepalive_expiry=1.0)
    for player in players:
        headers = {"Authorization": f"Token {player.token}"} if player.api else {}
        cookies = {} if player.api else {"sessionid": player.session}
        player.client = httpx.AsyncClient(
            base_url=base, headers=headers, cookies=cookies, timeout=30.0, limits=limits
        )
        clients.append(player.client)
    checker = httpx.AsyncClient(base_url=base, timeout=30.0, limits=limits)
    clients.append(checker)
    try:
        await asyncio.gather(
            *(
                pair(run, players[n], players[n + 1], args.poll, random.Random(rng.random()))
                for n in range(0, len(players) - 1, 2)
            ),
            *(trivial(run, checker, args.poll, random.Random(rng.random())) for _ in range(args.trivial)),
            schedule.steer(run, pairs=len(players) // 2),
        )
    finally:
        for client in clients:
            await client.aclose()
    return run


# --- the schedule of paced runs ----------------------------------------------------------------------


@dataclass
class Step:
    rate: float  # offered moves a second
    began: float
    ended: float
    cpu_seconds: float  # the clients' own CPU time in the step

    def moves(self, run: Run, statuses: tuple[int, ...] = (200,)) -> list[Sample]:
        return [
            sample
            for sample in run.samples
            if sample.kind in MOVE_KINDS
            and sample.status in statuses
            and self.began <= sample.began < self.ended
        ]

    def played(self, run: Run) -> float:
        return len(self.moves(run)) / (self.ended - self.began)

    def sent(self, run: Run) -> float:
        """Moves sent a second, those refused as stale (409) included: each took its slot."""
        return len(self.moves(run, (200, 409))) / (self.ended - self.began)

    def p95_ms(self, run: Run) -> float:
        moves = [sample.seconds for sample in self.moves(run)]
        return percentile(moves, 0.95) * 1000 if moves else float("inf")

    def passed(self, run: Run, p95_ms: float) -> bool:
        return self.sent(run) >= RATE_SHARE * self.rate and self.p95_ms(run) <= p95_ms

    def line(self, run: Run, p95_ms: float) -> str:
        moves = [sample.seconds for sample in self.moves(run)]
        p50 = statistics.median(moves) * 1000 if moves else float("nan")
        verdict = "ok" if self.passed(run, p95_ms) else "MISSED"
        return (
            f"| {self.rate:.1f}/s | {self.sent(run):.1f}/s | {self.played(run):.1f}/s | {p50:.1f} ms | {self.p95_ms(run):.1f} ms "
            f"| {self.cpu_seconds / (self.ended - self.began):.2f} | {verdict} |"
        )


@dataclass
class Schedule:
    """How a run is paced: not at all (``rate`` 0), at one rate for the whole run, or
    (``find_max``) from ``rate`` up by ``factor`` each step until a step fails; a first step that
    fails is retried at half the rate (down to ``MIN_RATE``). ``seconds``: the paced time, at
    most."""

    seconds: float
    rate: float
    step_seconds: float
    p95_ms: float
    find_max: bool = False
    factor: float = 1.25
    steps: list[Step] = field(default_factory=list)
    settle: float = 2.0  # seconds at the start of each step that are not counted
    #: Seconds at most before the first paced step, while the pairs open their first games.
    WARMUP: ClassVar[float] = 30.0
    MIN_RATE: ClassVar[float] = 1.0

    @classmethod
    def of(cls, args: argparse.Namespace) -> Schedule:
        if args.find_max:
            return cls(args.seconds, args.start_rate, args.step_seconds, args.p95_ms, True, args.rate_step)
        return cls(args.seconds, args.target_rate, args.seconds, args.p95_ms)

    async def steer(self, run: Run, *, pairs: int) -> None:
        if run.pacer is None:
            return
        # Not measured: until every pair plays (at most WARMUP seconds), then ``settle``.
        warm_by = time.monotonic() + self.WARMUP
        while run.seated < pairs and time.monotonic() < warm_by and not run.over:
            await asyncio.sleep(0.1)
        await asyncio.sleep(self.settle)
        run.deadline = time.monotonic() + self.seconds
        rate = self.rate
        while not run.over and time.monotonic() + self.step_seconds <= run.deadline + 0.5:
            step = await self.step(run, rate)
            if not self.find_max:
                break
            if step.passed(run, self.p95_ms):
                rate *= self.factor
            elif not self.best(run) and rate / 2 >= self.MIN_RATE:
                rate /= 2  # nothing passed yet: look lower
            else:
                break
        run.deadline = time.monotonic()  # the players stop with the last step

    async def step(self, run: Run, rate: float) -> Step:
        assert run.pacer is not None
        run.pacer.rate = rate
        start, cpu = time.monotonic(), time.process_time()
        end = min(start + self.step_seconds, run.deadline)
        while time.monotonic() < end and not run.over:
            await asyncio.sleep(0.1)
        step = Step(rate, start + self.settle, time.monotonic(), time.process_time() - cpu)
        self.steps.append(step)
        print(
            f"  step at {rate:.1f} moves/s offered: {step.sent(run):.1f}/s sent, {step.played(run):.1f}/s played",
            flush=True,
        )
        return step

    def best(self, run: Run) -> Step | None:
        """The passed step that played the most moves a second (``--find-max``)."""
        passed = [step for step in self.steps if step.passed(run, self.p95_ms)]
        return max(passed, key=lambda step: step.played(run)) if self.find_max and passed else None

    def report(self, run: Run) -> None:
        if not self.steps:
            return
        print()
        print(
            f"paced moves (a step passes at >= {RATE_SHARE:.0%} of the offered rate, move p95 <= {self.p95_ms:g} ms):"
        )
        print()
        print(
            "| offered | sent (409s too) | played | move p50 (end to end) | move p95 (end to end) "
            "| clients' CPU (cores) | |"
        )
        print("|---|---|---|---|---|---|---|")
        for step in self.steps:
            print(step.line(run, self.p95_ms))
        if self.find_max:
            if best := self.best(run):
                print(
                    f"\nhighest rate played with the move p95 <= {self.p95_ms:g} ms: {best.played(run):.1f} moves/s "
                    f"(offered {best.rate:.1f}/s; p95 {best.p95_ms(run):.1f} ms); target >= {RATE_TARGET:g}/s: "
                    f"{'ok' if best.played(run) >= RATE_TARGET else 'MISSED'}"
                )
            else:
                print(f"\nno step passed (the lowest offered {min(step.rate for step in self.steps):.1f}/s)")
            last = self.steps[-1]
            if not last.passed(run, self.p95_ms) and last.p95_ms(run) <= self.p95_ms:
                print("  (the last step sent too few moves at a good p95: more --players may carry more)")


# --- the report --------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def client_side(run: Run, seconds: float) -> None:
    by_kind: dict[str, list[float]] = defaultdict(list)
    for sample in run.samples:
        by_kind[sample.kind].append(sample.seconds)
        if sample.kind in MOVE_KINDS:
            by_kind["move (both)"].append(sample.seconds)
    print("as the clients saw it (end to end):")
    print(f"{'request':<14}{'count':>8}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for kind in ("trivial", "poll", "poll api", "move", "move api", "move (both)", "read", "setup"):
        values = by_kind.get(kind)
        if values:
            print(
                f"{kind:<14}{len(values):>8}{len(values) / seconds:>9.1f}"
                f"{statistics.median(values) * 1000:>9.1f}{percentile(values, 0.95) * 1000:>9.1f}"
                f"{percentile(values, 0.99) * 1000:>9.1f}"
            )
    print(f"all requests: {len(run.samples)} in {seconds:.1f} s = {len(run.samples) / seconds:.1f}/s")


#: The request kinds by path, for the server's access log.
PATH_KINDS = [
    (re.compile(r"^/healthz$"), "trivial"),
    (re.compile(r"^/games/\d+/poll/$"), "poll"),
    (re.compile(r"^/api/games/\d+/wait/$"), "poll api"),
    (re.compile(r"^/games/\d+/move/$"), "move"),
    (re.compile(r"^/api/games/\d+/actions/$"), "move api"),
    (re.compile(r"^/api/games/\d+/$"), "read"),
]


def server_timed(lines: Iterable[str], window: tuple[float, float] | None = None) -> dict[str, list[float]]:
    """The same kinds, timed inside the server (``benchmarks.timed_asgi``: from the request to
    the answer's last byte): what a request costs, without the time it waited in the backlog.
    A poll is also counted as changed (200: the new table) or unchanged (204, from the
    version alone), a move as played (200). ``window``: only the requests begun in it
    (``time.monotonic()``, the same clock in every process)."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    for line in lines:
        parts = line.split()
        if len(parts) not in (4, 5):
            continue
        if window is not None and not (len(parts) == 5 and window[0] <= float(parts[4]) < window[1]):
            continue
        kind = next((kind for pattern, kind in PATH_KINDS if pattern.match(parts[1])), "setup")
        seconds = int(parts[3]) / 1e6
        by_kind[kind].append(seconds)
        if kind in ("poll", "poll api"):
            by_kind[f"{kind} {parts[2]}"].append(seconds)
        if kind in MOVE_KINDS:
            by_kind["move (both)"].append(seconds)
            if parts[2] == "200":
                by_kind[f"{kind} 200"].append(seconds)
    return by_kind


def server_side(by_kind: dict[str, list[float]]) -> None:
    if not by_kind.get("trivial"):
        print("inside the server: no trivial request was timed")
        return
    base = statistics.median(by_kind["trivial"])
    print("inside the server (benchmarks.timed_asgi's request time):")
    print(f"{'request':<14}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'p50 / trivial':>15}")
    kinds = ["trivial", "poll", "poll 204", "poll 200", "poll api", "poll api 204", "poll api 200"]
    for kind in [*kinds, "move", "move api", "move (both)", "read", "setup"]:
        values = by_kind.get(kind)
        if values:
            print(
                f"{kind:<14}{len(values):>8}{statistics.median(values) * 1000:>9.1f}"
                f"{percentile(values, 0.95) * 1000:>9.1f}{percentile(values, 0.99) * 1000:>9.1f}"
                f"{statistics.median(values) / base:>14.2f}x"
            )


#: Issue 20's table: (label, the server-side kind).
ISSUE_ROWS = [
    ("trivial view (`/healthz`)", "trivial"),
    ("move (page form)", "move 200"),
    ("API move (no template)", "move api 200"),
    ("changed table poll (200)", "poll 200"),
    ("unchanged poll (204)", "poll 204"),
]


def issue_table(inside: dict[str, list[float]], moves: list[float], seconds: float, title: str) -> list[str]:
    """Print issue 20's table (``moves``: the played moves' times end to end, in ``seconds``);
    return the targets missed."""
    missed: list[str] = []
    trivial = inside.get("trivial")
    if not trivial:
        return missed
    base = statistics.median(trivial)
    print()
    print(f"issue 20's table, {title} (p50 inside the server; moves counted when played, 200):")
    print()
    print("| request | count | p50 | x the trivial view | target |")
    print("|---|---|---|---|---|")
    for label, kind in ISSUE_ROWS:
        values = inside.get(kind)
        if not values:
            print(f"| {label} | 0 | | | |")
            continue
        ratio = statistics.median(values) / base
        target = TARGETS.get(kind)
        verdict = ""
        if target is not None:
            verdict = f"<= {target:g}x " + ("ok" if ratio <= target else "MISSED")
            if ratio > target:
                missed.append(kind)
        print(
            f"| {label} | {len(values)} | {statistics.median(values) * 1000:.1f} ms | {ratio:.1f}x | {verdict} |"
        )
    p95 = f"{percentile(moves, 0.95) * 1000:.1f} ms" if moves else "none"
    print()
    print(
        f"moves sustained: {len(moves) / seconds:.1f}/s ({len(moves)} played in {seconds:.1f} s); "
        f"the move's p95 end to end (page and API): {p95}"
    )
    print(f"(target: >= {RATE_TARGET:g} moves/s at a p95 <= 100 ms, found with --find-max)")
    return missed


def check_replays(game_ids: set[int]) -> bool:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    try:
        call_command("check_replays", *sorted(game_ids))
    except (CommandError, SystemExit) as error:
        print(f"check_replays FAILED: {error}")
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40, help="an even number: two per game")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="how long the players play (--find-max: at most)"
    )
    parser.add_argument("--max-requests", type=int, default=200_000, help="stop after this many")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn's uvicorn worker processes")
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument(
        "--poll",
        type=float,
        default=2.0,
        help="seconds between a player's polls (+-50%%; the page's default is 2)",
    )
    parser.add_argument("--trivial", type=int, default=4, help="tasks asking /healthz, each every --poll")
    parser.add_argument(
        "--target-rate", type=float, default=0.0, help="moves a second, spread over all games"
    )
    parser.add_argument("--find-max", action="store_true", help="raise the rate until the move p95 fails")
    parser.add_argument("--start-rate", type=float, default=20.0, help="--find-max's first rate")
    parser.add_argument(
        "--rate-step", type=float, default=1.25, help="--find-max: each step's rate times this"
    )
    parser.add_argument("--step-seconds", type=float, default=15.0, help="--find-max: how long each step")
    parser.add_argument("--p95-ms", type=float, default=100.0, help="the move's p95 a paced step may have")
    parser.add_argument("--database", default=DATABASE_URL, help="the database to re-create (a URL)")
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number, at least 2")
    if args.find_max and args.target_rate:
        parser.error("--find-max or --target-rate, not both")
    if args.find_max and (args.rate_step <= 1 or args.step_seconds <= 2 or args.start_rate <= 0):
        parser.error("--find-max needs --rate-step > 1, --step-seconds > 2 and --start-rate > 0")
    schedule = Schedule.of(args)

    env = site_env(database_url=args.database, redis_db=args.redis_db)
    prepare(env, static_files=True)
    players = setup_site(args.players)
    logs = logs_folder("load")
    access_log = logs / "access.log"
    access_log.unlink(missing_ok=True)
    served = {**env, "BENCHMARK_ACCESS_LOG": str(access_log)}
    with (
        gunicorn(
            application="benchmarks.timed_asgi:application",
            workers=args.workers,
            env=served,
            log=logs / "gunicorn.log",
            up_within=30,
        ) as server,
        celery_worker(concurrency=args.celery_concurrency, env=env, log=logs / "worker.log"),
    ):
        load = os.getloadavg()
        pacing = (
            f"rates from {schedule.rate:g}/s up, {args.step_seconds:g} s a step"
            if schedule.find_max
            else f"moves paced at {schedule.rate:g}/s"
            if schedule.rate
            else f"poll every {args.poll:g} s"
        )
        print(
            f"{args.players} players in {args.players // 2} games for {schedule.seconds:g} s: gunicorn "
            f"{args.workers} uvicorn workers, Celery worker x{args.celery_concurrency}, {pacing}; "
            f"load average before {load[0]:.2f} on {os.cpu_count()} CPUs",
            flush=True,
        )
        started, cpu = time.monotonic(), time.process_time()
        run = asyncio.run(drive(server.base, players, args, schedule))
        elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
        load = os.getloadavg()
        print(
            f"load average at the end: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min); "
            f"the clients' own CPU: {cpu:.1f} s ({cpu / elapsed:.2f} of a core)"
        )
    client_side(run, elapsed)
    timed = access_log.read_text().splitlines()
    server_side(server_timed(timed))
    played = [sample.seconds for sample in run.samples if sample.kind in MOVE_KINDS and sample.status == 200]
    issue_table(server_timed(timed), played, elapsed, "the whole run")
    schedule.report(run)
    if best := schedule.best(run):
        window = (best.began, best.ended)
        moves = [sample.seconds for sample in best.moves(run)]
        title = f"the step at {best.rate:.1f} moves/s offered"
        issue_table(server_timed(timed, window), moves, best.ended - best.began, title)
    print(f"errors: {len(run.errors)} (target 0); stale-version conflicts: {run.conflicts}")
    for error in run.errors[:10]:
        print("  ", error)
    print(f"games: {len(run.game_ids)} played, {run.finished} finished")
    replays_ok = check_replays(run.game_ids)
    if run.errors or not replays_ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
