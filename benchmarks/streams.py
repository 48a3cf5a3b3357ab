"""Many idle live streams on one web process: what each costs (a benchmark, not a test).

    python -m benchmarks.streams [--streams 5000] [--per-address 20] [--probes 200] [--redis-db 9]

Needs PostgreSQL and Redis (as the tests do). It re-creates a ``durak_streams`` database
(``STREAMS_DATABASE_URL`` to change it) and serves the site as the README's production section
says (gunicorn with one uvicorn worker, ``DEBUG`` off, ``CACHE_URL`` on Redis database
``--redis-db``, which the live stream's fan-out and its caps use too), on 127.0.0.1 only. Then it
opens ``--streams`` anonymous spectators' streams of one public game (``/live/?channel=game-<id>
&channel=game-<id>-chat-spectators``), ``--per-address`` from each loopback address
(127.0.1.1, 127.0.1.2, …: under the per-address cap, ``LIVE_STREAMS_PER_ADDRESS``), with plain
sockets (a client of 5,000 streams on the same two CPUs must cost little). Before and while they
are open it reads the worker's resident memory and threads (``/proc/<pid>/status``) and times
``/healthz`` ``--probes`` times one after the other (a new connection each, as a load balancer's
check); then it makes one move and times its event to every stream, opens one user's eight
streams (the most they may hold) and ends their rights from this process (as a new password
would: ``live.end_streams_on_commit``), timing each stream's end, closes them all and reads the
worker 5 s and 30 s later.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import HOST, gunicorn, login_session, logs_folder, prepare  # noqa: E402
from benchmarks.servers import site_env as served_env  # noqa: E402

DATABASE_URL = os.environ.get("STREAMS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_streams")
#: How many streams are being opened at once (a crowd arriving, not one instant).
OPENING = 100


def site_env(*, redis_db: int) -> dict[str, str]:
    return served_env(database_url=DATABASE_URL, redis_db=redis_db, GAME_POLL_SECONDS="60")


def setup() -> tuple[int, int, str]:
    """One running public game of two players: its id; and a third user's pk and session."""
    from accounts.models import User
    from games import services

    users = [User.objects.create_user(f"streams-{n}", f"streams-{n}@example.com", None) for n in range(3)]
    game = services.game_create(creator=users[0], preset="classic", num_players=2, seed=1)
    services.game_join(user=users[1], game_id=game.pk)
    return int(game.pk), int(users[2].pk), login_session(users[2])


def revoke(user_id: int) -> None:
    """What a new password, a suspension... of the user sends (autocommit: at once)."""
    from durak_site import live

    live.end_streams_on_commit(user_id=user_id)


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
    return int(Game.objects.get(pk=game_id).version)


def worker_pid(master: int) -> int:
    children = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    assert len(children) == 1, children
    return int(children[0])


def worker_status(pid: int) -> tuple[int, int]:
    """(threads, resident KiB) of the web process."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(fields["Threads"]), int(fields["VmRSS"].split()[0])


def address(index: int, per_address: int) -> str:
    """The loopback address of stream ``index``: 127.0.1.1 for the first ``per_address``, …"""
    number = index // per_address
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


@dataclass
class Stream:
    """One spectator's stream over a plain socket: when it opened, and the events it heard."""

    port: int
    path: str
    local: str
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    heard: list[tuple[float, str]] = field(default_factory=list)
    status: str = ""
    cookie: str = ""
    task: asyncio.Task[None] | None = None

    async def run(self, gate: asyncio.Semaphore) -> None:
        writer = None
        try:
            async with gate:
                reader, writer = await asyncio.open_connection(HOST, self.port, local_addr=(self.local, 0))
                cookie = f"Cookie: sessionid={self.cookie}\r\n" if self.cookie else ""
                writer.write(
                    f"GET {self.path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n{cookie}\r\n".encode()
                )
                await writer.drain()
                self.status = (await reader.readline()).decode().strip()
                while (await reader.readline()) not in (b"\r\n", b""):
                    pass  # the headers
                while line := await reader.readline():
                    if line.startswith(b"event: stream-open"):
                        break
                self.opened.set()
            while line := await reader.readline():
                if b"data:" in line or b"event:" in line:
                    self.heard.append((time.monotonic(), line.decode()))
        except OSError as error:
            self.status = self.status or f"error: {error}"
        finally:
            self.ended.set()
            self.opened.set()
            if writer is not None:
                writer.close()


async def healthz_times(port: int, probes: int) -> list[float]:
    times = []
    for _ in range(probes):
        sent = time.monotonic()
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
        answer = await reader.read()
        times.append(time.monotonic() - sent)
        writer.close()
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    return sorted(times)


def describe(times: list[float]) -> str:
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return f"p50 {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"


async def drive(port: int, args: argparse.Namespace, game_id: int, user: tuple[int, str]) -> None:
    pid = args.worker_pid
    threads, rss = worker_status(pid)
    print(f"web process {pid} before: {threads} threads, {rss / 1024:.1f} MiB resident")
    print(
        f"/healthz before, {args.probes} one after the other: {describe(await healthz_times(port, args.probes))}"
    )

    path = f"/live/?channel=game-{game_id}&channel=game-{game_id}-chat-spectators"
    gate = asyncio.Semaphore(OPENING)
    streams = [Stream(port, path, address(index, args.per_address)) for index in range(args.streams)]
    began = time.monotonic()
    for stream in streams:
        stream.task = asyncio.create_task(stream.run(gate))
    await asyncio.wait_for(asyncio.gather(*(stream.opened.wait() for stream in streams)), 600)
    refused = [stream for stream in streams if stream.ended.is_set()]
    print(
        f"{args.streams - len(refused)} of {args.streams} streams open after {time.monotonic() - began:.1f} s "
        f"from {-(-args.streams // args.per_address)} addresses"
        + (f"; not opened: {refused[0].status!r} and {len(refused) - 1} more" if refused else "")
    )
    await asyncio.sleep(5)  # the process settles (its request threads, if any, are idle now)
    threads, rss_open = worker_status(pid)
    opened = args.streams - len(refused)
    print(
        f"web process with them: {threads} threads, {rss_open / 1024:.1f} MiB resident: "
        f"{(rss_open - rss) / max(1, opened):.1f} KiB a stream"
    )
    print(
        f"/healthz while they are open, {args.probes} one after the other: "
        f"{describe(await healthz_times(port, args.probes))}"
    )
    for stream in streams:
        stream.heard.clear()
    sent = time.monotonic()
    version = await asyncio.to_thread(make_a_move, game_id)
    wanted = f'"version":{version}'
    deadline = time.monotonic() + 120
    arrivals: list[float] = []
    for stream in streams:
        if stream.ended.is_set():
            continue
        while not any(wanted in text for _at, text in stream.heard):
            if time.monotonic() > deadline or stream.ended.is_set():
                break
            await asyncio.sleep(0.01)
        arrivals += [at - sent for at, text in stream.heard if wanted in text][:1]
    if arrivals:
        print(
            f"one move: its event reached {len(arrivals)} streams after p50 "
            f"{statistics.median(arrivals) * 1000:.0f} ms, the last after {max(arrivals) * 1000:.0f} ms"
        )
    ended_early = sum(stream.ended.is_set() for stream in streams) - len(refused)
    # One user's eight tabs (the most they may hold), among the thousands: their rights end.
    user_id, session = user
    tabs = [Stream(port, f"/live/?channel=user-{user_id}", HOST, cookie=session) for _ in range(8)]
    for tab in tabs:
        tab.task = asyncio.create_task(tab.run(gate))
    await asyncio.wait_for(asyncio.gather(*(tab.opened.wait() for tab in tabs)), 60)
    assert not any(tab.ended.is_set() for tab in tabs), [tab.status for tab in tabs]
    sent = time.monotonic()
    await asyncio.to_thread(revoke, user_id)
    await asyncio.wait_for(asyncio.gather(*(tab.ended.wait() for tab in tabs)), 60)
    revoked = [at - sent for tab in tabs for at, text in tab.heard if '"revoked"' in text]
    print(
        f"one user's rights ended: {len(revoked)} of their {len(tabs)} streams ended (revoked) after "
        f"p50 {statistics.median(revoked) * 1000:.0f} ms, the last after {max(revoked) * 1000:.0f} ms"
    )
    print(f"streams the server ended meanwhile: {ended_early}")
    for stream in streams:
        assert stream.task is not None
        stream.task.cancel()
    await asyncio.gather(*(stream.task for stream in streams if stream.task), return_exceptions=True)
    # Django ends each request in a thread (``response.close()``, ``request_finished``), so
    # closing them all at once makes threads for a moment: read the process 5 s and 30 s on.
    waited = 0
    for then in (5, 30):
        await asyncio.sleep(then - waited)
        waited = then
        threads, rss_after = worker_status(pid)
        print(
            f"web process {then} s after they closed: {threads} threads, {rss_after / 1024:.1f} MiB resident"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--per-address", type=int, default=20, help="streams from each loopback address")
    parser.add_argument("--probes", type=int, default=200, help="/healthz requests before and while open")
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    args = parser.parse_args()

    # Each stream is a socket here and in the server (which inherits the limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.streams * 2 + 1000
    if hard != resource.RLIM_INFINITY and hard < wanted:
        sys.exit(f"the open-files limit is {hard}; {wanted} are needed (ulimit -Hn)")
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))

    env = site_env(redis_db=args.redis_db)
    prepare(env)
    game_id, user_id, session = setup()
    logs = logs_folder("streams")
    with gunicorn(
        application="durak_site.asgi:application", workers=1, env=env, log=logs / "gunicorn.log"
    ) as server:
        args.worker_pid = worker_pid(server.pid)
        load = os.getloadavg()
        print(f"1 uvicorn worker; load average before {load[0]:.2f} on {os.cpu_count()} CPUs")
        port = int(server.base.rsplit(":", 1)[1])
        asyncio.run(drive(port, args, game_id, (user_id, session)))
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
