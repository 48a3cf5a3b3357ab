"""Live pages: how soon a move reaches the other player's page, and what idle streams cost (a
benchmark, not a test).

    python -m benchmarks.live [--moves 60] [--streams 1000] [--workers 1] [--redis-db 9]

Needs PostgreSQL and Redis (as the tests do). It re-creates a ``durak_live`` database
(``LIVE_DATABASE_URL`` to change it) and serves the site as the README's production section says
(gunicorn with uvicorn workers, ``DEBUG`` off, ``CACHE_URL`` on Redis database ``--redis-db``,
which the live stream's fan-out uses too), on 127.0.0.1 only. Then:

1. **A move to the other page.** Two players, each with a page's stream open
   (``/live/?channel=game-<id>``), play games to the end, one move at a time through the page's
   form (``POST /games/<id>/move/`` as htmx sends it). For each move: from the mover's answer to
   the other player's stream bringing the new version, and to the other page's table fetched as
   ``live.js`` then fetches it (``/poll/?version=<old>``): p50 and p95 (target: p50 150 ms).
2. **Idle streams.** ``--streams`` spectators' streams of one game on one process: its resident
   memory before and after (the difference per stream), then one move, and how long until every
   stream has its event.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import gunicorn, login_session, logs_folder, prepare  # noqa: E402
from benchmarks.waits import site_env as waits_env  # noqa: E402

DATABASE_URL = os.environ.get("LIVE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_live")
VERSION = re.compile(r'"version":(\d+)')


def site_env(*, redis_db: int) -> dict[str, str]:
    """``benchmarks.waits``' environment (moves made here are eager, the long poll holds) on
    this benchmark's own database."""
    return {**waits_env(redis_db=redis_db), "DATABASE_URL": DATABASE_URL, "GAME_POLL_SECONDS": "60"}


def setup() -> tuple[list[Any], list[str]]:
    """Two players and their session keys."""
    from accounts.models import User

    users = [User.objects.create_user(f"live-{n}", f"live-{n}@example.com", None) for n in range(2)]
    return users, [login_session(user) for user in users]


def new_game(users: list[Any], seed: int) -> int:
    from games import services

    game = services.game_create(creator=users[0], preset="classic", num_players=2, seed=seed)
    services.game_join(user=users[1], game_id=game.pk)
    return int(game.pk)


def next_move(game_id: int) -> tuple[int, int, str] | None:
    """(the seat to move, the version, the action as the page's form sends it), or None: over."""
    import json

    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE or game.state is None:
        return None
    engine = game.engine()
    player = engine.waiting_for()[0]
    return player, game.version, json.dumps(engine.legal_json(player)[0])


def process_rss_kib(pid: int) -> int:
    """Resident memory of the server's worker process (the one child of gunicorn's ``pid``)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    total = 0
    for child in children:
        for line in Path(f"/proc/{child}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


class Stream:
    """One page's stream: the versions it heard, each with when (monotonic)."""

    def __init__(self, client: Any, url: str, headers: dict[str, str]) -> None:
        self.heard: dict[int, float] = {}
        self.opened = asyncio.Event()
        self.task = asyncio.create_task(self._read(client, url, headers))

    async def _read(self, client: Any, url: str, headers: dict[str, str]) -> None:
        async with client.stream("GET", url, headers=headers) as answer:
            if answer.status_code != 200:
                raise SystemExit(f"stream refused: {answer.status_code}")
            async for line in answer.aiter_lines():
                if line == "event: stream-open":
                    self.opened.set()
                elif found := VERSION.search(line):
                    self.heard.setdefault(int(found[1]), time.monotonic())

    async def until(self, version: int, timeout: float = 60.0) -> float:
        deadline = time.monotonic() + timeout
        while version not in self.heard:
            if time.monotonic() > deadline:
                raise SystemExit(f"version {version} never arrived")
            await asyncio.sleep(0.001)
        return self.heard[version]


async def move_to_the_other_page(
    base: str, args: argparse.Namespace, users: list[Any], sessions: list[str]
) -> None:
    import httpx

    to_event: list[float] = []
    to_table: list[float] = []
    from_sent: list[float] = []
    seed = 0
    limits = httpx.Limits(max_connections=None)
    clients = [
        httpx.AsyncClient(base_url=base, timeout=60, limits=limits, cookies={"sessionid": session})
        for session in sessions
    ]
    try:
        while len(to_event) < args.moves:
            seed += 1
            game_id = await asyncio.to_thread(new_game, users, seed)
            pages = []
            for client in clients:
                page = await client.get(f"/games/{game_id}/")
                assert page.status_code == 200
                token = client.cookies["csrftoken"]
                pages.append({"X-CSRFToken": token, "HX-Request": "true"})
            streams = [Stream(client, f"/live/?channel=game-{game_id}", {}) for client in clients]
            await asyncio.gather(*(stream.opened.wait() for stream in streams))
            while len(to_event) < args.moves and (move := await asyncio.to_thread(next_move, game_id)):
                mover, version, action = move
                other = 1 - mover
                sent = time.monotonic()
                answer = await clients[mover].post(
                    f"/games/{game_id}/move/",
                    data={"action": action, "expected_version": str(version)},
                    headers=pages[mover],
                )
                answered = time.monotonic()
                assert answer.status_code == 200, answer.text[:300]
                heard = await streams[other].until(version + 1)
                table = await clients[other].get(
                    f"/games/{game_id}/poll/?version={version}", headers=pages[other]
                )
                fetched = time.monotonic()
                assert table.status_code == 200 and f'data-version="{version + 1}"' in table.text
                to_event.append(heard - answered)
                to_table.append(fetched - answered)
                from_sent.append(fetched - sent)
            for stream in streams:
                stream.task.cancel()
            await asyncio.gather(*(stream.task for stream in streams), return_exceptions=True)
    finally:
        for client in clients:
            await client.aclose()
    for name, values in (
        ("the mover's answer to the event on the other page's stream", to_event),
        ("the mover's answer to the other page's new table", to_table),
        ("the move sent to the other page's new table", from_sent),
    ):
        print(
            f"a move, from {name} ({len(values)} moves): "
            f"p50 {statistics.median(values) * 1000:.1f} ms, p95 {percentile(values, 0.95) * 1000:.1f} ms, "
            f"max {max(values) * 1000:.1f} ms (negative: it came before the mover's own answer)"
        )


async def idle_streams(base: str, args: argparse.Namespace, users: list[Any], sessions: list[str]) -> None:
    import httpx

    game_id = await asyncio.to_thread(new_game, users, 1000)
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    async with httpx.AsyncClient(
        base_url=base, timeout=httpx.Timeout(60.0, read=None), limits=limits
    ) as client:
        await client.get("/healthz")
        await asyncio.sleep(1)
        before = process_rss_kib(args.server_pid)
        began = time.monotonic()
        streams = []
        for index in range(args.streams):
            if index and not index % 50:
                await asyncio.sleep(0.05)  # spectators arrive over a moment
            streams.append(
                Stream(client, f"/live/?channel=game-{game_id}&channel=game-{game_id}-chat-spectators", {})
            )
        await asyncio.wait_for(asyncio.gather(*(stream.opened.wait() for stream in streams)), 300)
        print(f"{args.streams} idle spectators' streams open after {time.monotonic() - began:.1f} s")
        await asyncio.sleep(3)
        after = process_rss_kib(args.server_pid)
        print(
            f"web process memory: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB with them: "
            f"{(after - before) / args.streams:.1f} KiB a stream"
        )
        move = await asyncio.to_thread(next_move, game_id)
        assert move is not None
        mover, version, action = move
        mover_client = httpx.AsyncClient(base_url=base, timeout=60, cookies={"sessionid": sessions[mover]})
        async with mover_client:
            await mover_client.get(f"/games/{game_id}/")
            headers = {"X-CSRFToken": mover_client.cookies["csrftoken"], "HX-Request": "true"}
            sent = time.monotonic()
            answer = await mover_client.post(
                f"/games/{game_id}/move/",
                data={"action": action, "expected_version": str(version)},
                headers=headers,
            )
            answered = time.monotonic()
            assert answer.status_code == 200, answer.text[:300]
        arrivals = [await stream.until(version + 1) - sent for stream in streams]
        print(
            f"one move (answered after {(answered - sent) * 1000:.0f} ms): its event reached all {len(arrivals)} "
            f"streams after p50 {statistics.median(arrivals) * 1000:.0f} ms, the last after {max(arrivals) * 1000:.0f} ms"
        )
        for stream in streams:
            stream.task.cancel()
        await asyncio.gather(*(stream.task for stream in streams), return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1, help="gunicorn's uvicorn worker processes")
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    args = parser.parse_args()

    env = site_env(redis_db=args.redis_db)
    prepare(env, static_files=True)
    users, sessions = setup()
    logs = logs_folder("live")
    with gunicorn(
        application="durak_site.asgi:application", workers=args.workers, env=env, log=logs / "gunicorn.log"
    ) as server:
        args.server_pid = server.pid
        load = os.getloadavg()
        print(f"{args.workers} uvicorn worker(s); load average before {load[0]:.2f} on {os.cpu_count()} CPUs")
        asyncio.run(move_to_the_other_page(server.base, args, users, sessions))
        if args.streams:
            asyncio.run(idle_streams(server.base, args, users, sessions))
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
