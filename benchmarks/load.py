"""A load test against the site served as in production (a benchmark, not a test).

    python -m benchmarks.load --players 40 --seconds 60 [--workers 4] [--poll 2]

Needs PostgreSQL and Redis (as the tests do). It starts, on 127.0.0.1 only:

- a fresh database ``durak_load`` (dropped and re-created, migrated; ``LOAD_DATABASE_URL``
  to change it) and static files collected, as the README's production section says;
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
Meanwhile a few tasks ask ``/healthz``, a view that touches no database, on the same server.

The report: throughput and p50/p95/p99 latency per request kind, the ratios of the poll and
the move to ``/healthz`` (targets: poll at most 1.5x, move at most 4x, at the median), the
errors (target 0), and ``manage.py check_replays`` over every game played (all must pass).
The latencies are measured twice: by the clients (what a player waits, including the time a
request queues for a free worker, which a saturated server adds to every kind alike), and
inside the server (``benchmarks.timed_asgi``: what each request costs the server). The exit
status is non-zero on an error, a failed replay or a missed target of the clients' ratios.

Settings that differ from a real deployment, and why: the HTTPS switches are off (plain HTTP
on 127.0.0.1); the API throttles are lifted (every client comes from one address, which the
per-IP rate would otherwise refuse within a second); ``API_WAIT_SECONDS=0``, so the API's long
poll answers at once (the run measures what a poll costs, not how long it waits). Games have a
120 s move clock, so every move also queues a timeout task.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_load")
HOST = "127.0.0.1"
MOVE_SECONDS = 120
#: Targets, as ratios of the median latency to /healthz's median in the same run.
TARGETS = {"poll": 1.5, "move": 4.0}


def site_env(*, redis_db: int) -> dict[str, str]:
    """The environment of the server, the worker and this process (for the ORM)."""
    return {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{redis_db}",
        # The shared cache of the production section (flushed with the broker's database below).
        "CACHE_URL": f"redis://127.0.0.1:6379/{redis_db}",
        "EMAIL_URL": "dummymail://",
        "ALLOWED_HOSTS": HOST,
        "LOG_LEVEL": "WARNING",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "API_RATE_USER": "1000000/min",
        "API_RATE_IP": "1000000/min",
        "API_WAIT_SECONDS": "0",
    }


def fresh_database() -> None:
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    server = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def setup_site(players: int) -> list[Player]:
    """Migrate, collect static files, and make the players: users with a token (API seats) or
    a logged-in session (page seats)."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import ApiToken, User

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
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
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "moderation.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            assert session.session_key is not None
            result.append(Player(name=user.username, api=False, session=session.session_key))
    return result


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start(args: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as a whole at the end
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# --- the clients -----------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    seconds: float
    status: int  # 0: no answer (connection error, timeout)


@dataclass
class Run:
    deadline: float
    max_requests: int
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    conflicts: int = 0  # a move against a version the other player had just moved on from
    game_ids: set[int] = field(default_factory=set)
    finished: int = 0

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

        started = time.perf_counter()
        try:
            response = await self.client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            run.samples.append(Sample(kind, time.perf_counter() - started, 0))
            run.errors.append(f"{kind} {method} {url}: {type(error).__name__} {error}")
            return None
        run.samples.append(Sample(kind, time.perf_counter() - started, response.status_code))
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
) -> dict[str, Any] | None:
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
        return await read(run, player, game_id)
    if not expect(run, response, 200):
        return None
    return response.json() if player.api else await read(run, player, game_id)


async def play(run: Run, player: Player, game_id: int, poll_seconds: float, rng: random.Random) -> None:
    game = await read(run, player, game_id)
    while game is not None and game["status"] in ("open", "active") and not run.over:
        if game["legal_actions"]:
            game = await move(run, player, game, rng.choice(game["legal_actions"]))
        else:
            await asyncio.sleep(poll_seconds * rng.uniform(0.5, 1.5))
            game = await poll(run, player, game)
    if game is not None and game["status"] == "finished" and player.api:
        run.finished += 1


async def pair(run: Run, api: Player, page: Player, poll_seconds: float, rng: random.Random) -> None:
    """One pair plays game after game until the run is over."""
    response = await page.request(run, "setup", "GET", "/")  # the lobby: sets the CSRF cookie
    if not expect(run, response, 200):
        return
    page.csrf = page.client.cookies.get("csrftoken", "")
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
        await asyncio.gather(
            play(run, api, game_id, poll_seconds, rng), play(run, page, game_id, poll_seconds, rng)
        )


async def trivial(run: Run, client: Any, poll_seconds: float, rng: random.Random) -> None:
    player = Player(name="healthz", api=False, client=client)
    while not run.over:
        await asyncio.sleep(poll_seconds * rng.uniform(0.5, 1.5))
        expect(run, await player.request(run, "trivial", "GET", "/healthz"), 200)


async def drive(base: str, players: list[Player], args: argparse.Namespace) -> Run:
    import httpx

    run = Run(deadline=time.monotonic() + args.seconds, max_requests=args.max_requests)
    rng = random.Random(args.seed)
    clients = []
    for player in players:
        headers = {"Authorization": f"Token {player.token}"} if player.api else {}
        cookies = {} if player.api else {"sessionid": player.session}
        player.client = httpx.AsyncClient(base_url=base, headers=headers, cookies=cookies, timeout=30.0)
        clients.append(player.client)
    checker = httpx.AsyncClient(base_url=base, timeout=30.0)
    clients.append(checker)
    try:
        await asyncio.gather(
            *(
                pair(run, players[n], players[n + 1], args.poll, random.Random(rng.random()))
                for n in range(0, len(players) - 1, 2)
            ),
            *(trivial(run, checker, args.poll, random.Random(rng.random())) for _ in range(args.trivial)),
        )
    finally:
        for client in clients:
            await client.aclose()
    return run


# --- the report --------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(run: Run, seconds: float) -> dict[str, float]:
    by_kind: dict[str, list[float]] = defaultdict(list)
    for sample in run.samples:
        by_kind[sample.kind].append(sample.seconds)
        if sample.kind in ("move api", "move"):
            by_kind["move (both)"].append(sample.seconds)
    print(f"{'request':<14}{'count':>8}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    medians = {}
    for kind in ("trivial", "poll", "poll api", "move", "move api", "move (both)", "read", "setup"):
        values = by_kind.get(kind)
        if not values:
            continue
        medians[kind] = statistics.median(values)
        print(
            f"{kind:<14}{len(values):>8}{len(values) / seconds:>9.1f}"
            f"{medians[kind] * 1000:>9.1f}{percentile(values, 0.95) * 1000:>9.1f}"
            f"{percentile(values, 0.99) * 1000:>9.1f}"
        )
    print(f"all requests: {len(run.samples)} in {seconds:.1f} s = {len(run.samples) / seconds:.1f}/s")
    base = medians.get("trivial")
    ratios = {}
    if base:
        for label, kind, target in (
            ("poll (page, HTMX)", "poll", TARGETS["poll"]),
            ("poll (API wait/)", "poll api", TARGETS["poll"]),
            ("move (page + API)", "move (both)", TARGETS["move"]),
        ):
            if kind in medians:
                ratios[kind] = medians[kind] / base
                verdict = "ok" if ratios[kind] <= target else "MISSED"
                print(f"{label:<20} / trivial, p50: {ratios[kind]:.2f}x (target <= {target}x) {verdict}")
        for kind in ("poll", "poll api", "move (both)"):
            if kind in by_kind and by_kind.get("trivial"):
                p95 = percentile(by_kind[kind], 0.95) / percentile(by_kind["trivial"], 0.95)
                print(f"{kind:<20} / trivial, p95: {p95:.2f}x")
    print(f"errors: {len(run.errors)} (target 0); stale-version conflicts: {run.conflicts}")
    for error in run.errors[:10]:
        print("  ", error)
    print(f"games: {len(run.game_ids)} played, {run.finished} finished")
    return ratios


#: The request kinds by path, for the server's access log.
PATH_KINDS = [
    (re.compile(r"^/healthz$"), "trivial"),
    (re.compile(r"^/games/\d+/poll/$"), "poll"),
    (re.compile(r"^/api/games/\d+/wait/$"), "poll api"),
    (re.compile(r"^/games/\d+/move/$"), "move"),
    (re.compile(r"^/api/games/\d+/actions/$"), "move api"),
    (re.compile(r"^/api/games/\d+/$"), "read"),
]


def server_side(access_log: Path) -> None:
    """The same kinds, timed inside the server (``benchmarks.timed_asgi``: from the request to
    the answer's last byte): what a request costs, without the time it waited in the backlog."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    for line in access_log.read_text().splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        kind = next((kind for pattern, kind in PATH_KINDS if pattern.match(parts[1])), "setup")
        by_kind[kind].append(int(parts[3]) / 1e6)
        if kind in ("poll", "poll api"):  # unchanged (204, from the version alone) or changed (200)
            by_kind[f"{kind} {parts[2]}"].append(int(parts[3]) / 1e6)
        if kind in ("move", "move api"):
            by_kind["move (both)"].append(int(parts[3]) / 1e6)
    if not by_kind.get("trivial"):
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
    for label, kind, target in (
        ("poll (page, HTMX)", "poll", TARGETS["poll"]),
        ("poll (API wait/)", "poll api", TARGETS["poll"]),
        ("move (page + API)", "move (both)", TARGETS["move"]),
    ):
        if by_kind.get(kind):
            ratio = statistics.median(by_kind[kind]) / base
            verdict = "ok" if ratio <= target else "MISSED"
            print(
                f"{label:<20} / trivial inside the server, p50: {ratio:.2f}x (target <= {target}x) {verdict}"
            )


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
    parser.add_argument("--seconds", type=float, default=60.0)
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
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number, at least 2")

    env = site_env(redis_db=args.redis_db)
    os.environ.update(env)
    import redis

    redis.Redis.from_url(env["CELERY_BROKER_URL"]).flushdb()
    fresh_database()
    players = setup_site(args.players)
    from django.db import connections

    connections.close_all()

    logs = ROOT / ".celery" / "load"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "access.log").unlink(missing_ok=True)
    port = free_port()
    server = start(
        [
            "gunicorn",
            "benchmarks.timed_asgi:application",
            "--worker-class=uvicorn_worker.UvicornWorker",
            f"--workers={args.workers}",
            f"--bind={HOST}:{port}",
            "--timeout=60",
        ],
        env={**env, "BENCHMARK_ACCESS_LOG": str(logs / "access.log")},
        log=logs / "gunicorn.log",
    )
    worker = start(
        [
            "celery",
            "-A",
            "durak_site",
            "worker",
            f"--concurrency={args.celery_concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
        ],
        env=env,
        log=logs / "worker.log",
    )
    try:
        import httpx

        base = f"http://{HOST}:{port}"
        up_by = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > up_by or server.poll() is not None:
                sys.exit(f"gunicorn did not come up; see {logs / 'gunicorn.log'}")
            time.sleep(0.2)
        load = os.getloadavg()
        print(
            f"{args.players} players in {args.players // 2} games for {args.seconds:g} s: gunicorn "
            f"{args.workers} uvicorn workers, Celery worker x{args.celery_concurrency}, poll every "
            f"{args.poll:g} s; load average before {load[0]:.2f} on {os.cpu_count()} CPUs"
        )
        started = time.monotonic()
        run = asyncio.run(drive(base, players, args))
        elapsed = time.monotonic() - started
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min)")
    finally:
        stop(server)
        stop(worker)
    ratios = report(run, elapsed)
    server_side(logs / "access.log")
    replays_ok = check_replays(run.game_ids)
    missed = [kind for kind, ratio in ratios.items() if ratio > TARGETS["move" if "move" in kind else "poll"]]
    if run.errors or not replays_ok or missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
