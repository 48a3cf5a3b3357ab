"""Many long polls held on one web process (a benchmark, not a test).

    python -m benchmarks.waits [--waiters 200] [--workers 1] [--idle-seconds 20] [--redis-db 9]

Needs PostgreSQL and Redis (as the tests do). It re-creates a ``durak_waits`` database
(``WAITS_DATABASE_URL`` to change it), serves the site as the README's production section says
(gunicorn with uvicorn workers, ``DEBUG`` off, ``CACHE_URL`` on Redis database ``--redis-db``)
and opens ``--waiters`` API long polls (``/api/games/<id>/wait/``, ``--arrivals`` new ones a
second; eight per user, the most a user may hold; half on each of two running games). Once the
server holds them all (every user's wait slots are taken, in Redis), it times ``/healthz``
``--probes`` times one after the other, reads the web process's threads and memory, counts the
statements the server runs over ``--idle-seconds`` while the waits sit idle (its backends'
``query_start`` in ``pg_stat_activity``, sampled every 10 ms), then makes a move in one game and
times how long its waiters take to see it. The waits of the other game are still held at the
end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import gunicorn, login_session, logs_folder, prepare  # noqa: E402
from benchmarks.servers import site_env as served_env  # noqa: E402

DATABASE_URL = os.environ.get("WAITS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_waits")
PER_USER = 8


def site_env(*, redis_db: int) -> dict[str, str]:
    return served_env(
        database_url=DATABASE_URL,
        redis_db=redis_db,
        CELERY_TASK_ALWAYS_EAGER="true",  # this process's move: no worker needed
        API_WAIT_SECONDS="300",
    )


def setup_site(waiters: int) -> tuple[list[Any], list[Any], list[str]]:
    """Two running games (with their players) and the session keys of the waiting users."""
    from accounts.models import User
    from games import services

    users = User.objects.bulk_create(
        User(username=f"waits-{n}", email=f"waits-{n}@example.com", password="!unusable")
        for n in range(-(-waiters // PER_USER) + 4)
    )
    games: list[Any] = []
    for first, second in ((users[0], users[1]), (users[2], users[3])):
        game = services.game_create(creator=first, preset="classic", num_players=2, seed=len(games) + 1)
        services.game_join(user=second, game_id=game.pk)
        game.refresh_from_db()
        games.append(game)
    return games, users[4:], [login_session(user) for user in users[4:]]


def make_a_move(game_id: int) -> int:
    """The first legal action of the player the engine waits for; the new version."""
    from games import services
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    assert game.state is not None
    engine = game.engine()
    player = engine.waiting_for()[0]
    user = game.seats.get(position=player).user
    services.make_move(
        user=user, game_id=game_id, action=engine.legal_json(player)[0], expected_version=game.version
    )
    return Game.objects.get(pk=game_id).version


def statements_while(seconds: float, *, every: float = 0.01) -> int:
    """How many statements the site's connections to the database run over ``seconds``: each
    client backend's ``query_start`` in ``pg_stat_activity`` (live, unlike the statistics, and
    without autovacuum's transactions) sampled every ``every`` seconds, each change one statement
    (a lower bound: two statements of one backend between samples count once)."""
    import psycopg

    seen: dict[int, Any] = {}
    changes = 0
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        ends = time.monotonic() + seconds
        first = True
        while time.monotonic() < ends:
            rows = conn.execute(
                "SELECT pid, query_start FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchall()
            for pid, started in rows:
                if not first and seen.get(pid) != started:
                    changes += 1
                seen[pid] = started
            first = False
            time.sleep(every)
    return changes


def process_status(pid: int) -> str:
    """Threads and resident memory of the server's worker processes (children of ``pid``)."""
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    parts = []
    for child in children:
        fields = dict(
            line.split(":", 1)
            for line in Path(f"/proc/{child}/status").read_text().splitlines()
            if ":" in line
        )
        parts.append(
            f"worker {child}: {fields['Threads'].strip()} threads, {fields['VmRSS'].strip()} resident"
        )
    return "; ".join(parts)


async def drive(
    base: str, args: argparse.Namespace, games: list[Any], users: list[Any], sessions: list[str]
) -> None:
    import httpx
    import redis

    shared = redis.Redis.from_url(f"redis://127.0.0.1:6379/{args.redis_db}")

    def held() -> int:
        from durak_site.cache import redis_name

        return sum(int(shared.zcard(redis_name(f"api-waits:{user.pk}"))) for user in users)

    limits = httpx.Limits(max_connections=None, max_keepalive_connections=20)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(600.0), limits=limits) as client:
        tasks: dict[int, list[asyncio.Task[Any]]] = {game.pk: [] for game in games}
        began = time.monotonic()
        for index in range(args.waiters):
            if index and not index % 50:  # clients arrive over a moment, not in one instant
                await asyncio.sleep(50 / args.arrivals)
            game = games[index % 2]
            cookie = {"Cookie": f"sessionid={sessions[index // PER_USER]}"}
            url = f"/api/games/{game.pk}/wait/?version={game.version}"
            tasks[game.pk].append(asyncio.create_task(client.get(url, headers=cookie)))
        every = [task for waiting in tasks.values() for task in waiting]
        while (count := await asyncio.to_thread(held)) < args.waiters:
            finished = [task for task in every if task.done()]
            if finished:
                sys.exit(f"a wait answered early: {finished[0].result()}")
            if time.monotonic() - began > 300:
                sys.exit(f"only {count} of {args.waiters} waits held after 300 s")
            await asyncio.sleep(0.2)
        print(f"{args.waiters} waits held after {time.monotonic() - began:.1f} s")
        print(process_status(args.server_pid))

        latencies = []
        for _ in range(args.probes):
            sent = time.monotonic()
            response = await client.get("/healthz")
            latencies.append(time.monotonic() - sent)
            assert response.status_code == 200
        latencies.sort()
        print(
            f"/healthz while they are held, {args.probes} one after the other: p50 "
            f"{statistics.median(latencies) * 1000:.1f} ms, p95 {latencies[int(len(latencies) * 0.95) - 1] * 1000:.1f} ms, "
            f"max {latencies[-1] * 1000:.1f} ms"
        )

        await asyncio.sleep(2)  # the probes' requests are over
        idle = await asyncio.to_thread(statements_while, args.idle_seconds)
        print(
            f"database statements while the {args.waiters} waits sit idle for {args.idle_seconds:.0f} s: "
            f"{idle}, {idle / args.idle_seconds:.1f} a second"
        )
        if any(task.done() for task in every):
            sys.exit("a wait answered while idle")

        moved = games[0]
        sent = time.monotonic()
        version = await asyncio.to_thread(make_a_move, moved.pk)
        woken = []
        for task in asyncio.as_completed(tasks[moved.pk]):
            answer = await task
            assert answer.status_code == 200 and answer.json()["version"] == version, answer.text[:200]
            woken.append(time.monotonic() - sent)
        print(
            f"a move in one game: its {len(woken)} waiters answered with the new version after "
            f"p50 {statistics.median(woken) * 1000:.0f} ms, the last after {woken[-1] * 1000:.0f} ms"
        )
        still = sum(not task.done() for task in tasks[games[1].pk])
        print(f"the other game's waits still held: {still} of {len(tasks[games[1].pk])}")
        for task in every:
            task.cancel()
        await asyncio.gather(*every, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiters", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1, help="gunicorn's uvicorn worker processes")
    parser.add_argument("--arrivals", type=float, default=250.0, help="new waits a second, opening them")
    parser.add_argument("--probes", type=int, default=50, help="/healthz requests while the waits are held")
    parser.add_argument(
        "--idle-seconds", type=float, default=20.0, help="how long the database is watched while they wait"
    )
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    args = parser.parse_args()

    env = site_env(redis_db=args.redis_db)
    prepare(env)
    games, users, sessions = setup_site(args.waiters)
    logs = logs_folder("waits")
    with gunicorn(
        application="durak_site.asgi:application", workers=args.workers, env=env, log=logs / "gunicorn.log"
    ) as server:
        args.server_pid = server.pid
        load = os.getloadavg()
        print(
            f"{args.waiters} waits on {args.workers} uvicorn worker(s); "
            f"load average before {load[0]:.2f} on {os.cpu_count()} CPUs"
        )
        asyncio.run(drive(server.base, args, games, users, sessions))
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
