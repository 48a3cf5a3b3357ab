"""How late do timeouts fire, and how long does one sweep take? (A benchmark, not a test.)

    python3 benchmarks/timeouts.py [--games 240] [--window 20] [--active 10000]
                                   [--embedded-games 20] [--only embedded|redis]

0. Embedded defaults (``--only embedded`` needs nothing else): ``python3 dev.py serve``'s
   worker and beat (the Procfile's commands) on SQLite and kombu's ``filesystem://``
   transport, in a temporary folder; ``--embedded-games`` games started together whose
   deadlines fall in the same second, each with the ETA task and notifications its start
   queues. Lateness = when the timeout's move was written minus the deadline.

The rest needs PostgreSQL and Redis (as the tests do). It uses its own database
(``durak_bench``, created and migrated if missing; ``BENCH_DATABASE_URL`` to change it) and
Redis database 5.

1. Lateness: ``--games`` games whose deadlines all fall within ``--window`` seconds of
   the same minute, with a real Celery worker and beat (subprocesses, the settings'
   DatabaseScheduler, sweep every ``TIMEOUT_SWEEP_SECONDS``, 5 s by default). Nobody
   touches the games; for each, lateness = when the timeout's move was written minus the
   deadline. Reports median, 95th percentile and worst, three times: with an ETA task per
   deadline (what a move queues); with none (every ETA message lost: each sweep re-queues the
   deadlines due before the next one); and with none and that re-arming off
   (``TIMEOUT_SWEEP_REARM=false``: the sweep's catch-up alone, as when the broker also loses
   what the sweeps queued). Each game has its own two players, as on the site (games sharing
   players would queue on their stats rows).
2. Sweep: ``--active`` running games with future deadlines (and 0 or 100 of them due),
   timing ``services.sweep_expired()`` in this process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_bench")
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/5")
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "true",
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": BROKER_URL,
        "EMAIL_URL": "dummymail://",
        "LOG_LEVEL": "WARNING",
    }
)


def ensure_database() -> None:
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    server = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    import django

    ensure_database()
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def clear() -> None:
    from django_celery_beat.models import PeriodicTask

    from games.models import Game

    Game.objects.all().delete()
    PeriodicTask.objects.all().delete()


def make_games(count: int, deadlines: list[datetime], *, pairs: int = 1) -> list[int]:
    """``count`` running two-player games (one stacked deal, bulk-inserted), player 0 to move
    with the given deadlines; game ``i`` is played by the ``i % pairs``-th of ``pairs`` pairs."""
    from django.db import transaction

    from accounts.models import User
    from games import services
    from games.models import Game, Seat
    from tests.factories import LONGER_DEAL

    alice, _ = User.objects.get_or_create(username="bench-alice", defaults={"email": "a@example.com"})
    bob, _ = User.objects.get_or_create(username="bench-bob", defaults={"email": "b@example.com"})
    template = services.game_create(creator=alice, preset="classic", num_players=2, deal=LONGER_DEAL)
    engine = services.initial_engine(template)
    rules, state = template.rules, engine.to_dict()
    template.delete()
    User.objects.bulk_create(
        [User(username=f"bench-{n}", email=f"bench-{n}@example.com") for n in range(2 * pairs)],
        ignore_conflicts=True,
    )
    by_name = {user.username: user for user in User.objects.filter(username__startswith="bench-")}
    players = [(by_name[f"bench-{2 * n}"], by_name[f"bench-{2 * n + 1}"]) for n in range(pairs)]
    if pairs == 1:
        players = [(alice, bob)]
    ids: list[int] = []
    with transaction.atomic():
        for start in range(0, count, 1000):
            chunk = deadlines[start : start + 1000]
            games = Game.objects.bulk_create(
                Game(
                    preset="classic",
                    rules=rules,
                    num_players=2,
                    status=Game.Status.ACTIVE,
                    creator=alice,
                    seed=1,
                    deal=LONGER_DEAL,
                    state=state,
                    version=1,
                    move_time=timedelta(minutes=10),
                    deadline=deadline,
                )
                for deadline in chunk
            )
            Seat.objects.bulk_create(
                seat
                for index, (game, deadline) in enumerate(zip(games, chunk, strict=True), start)
                for seat in (
                    Seat(
                        game=game,
                        user=players[index % pairs][0],
                        position=0,
                        awaiting_move=True,
                        deadline=deadline,
                        turn_started_at=deadline - timedelta(minutes=10),
                    ),
                    Seat(game=game, user=players[index % pairs][1], position=1),
                )
            )
            ids += [game.pk for game in games]
    return ids


def celery(*args: str, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "durak_site", *args],
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def lateness(games: int, window: float, *, eta: bool, rearm: bool = True) -> None:
    import redis
    from django.utils import timezone

    from games import tasks
    from games.models import Game, Move

    clear()
    redis.Redis.from_url(BROKER_URL).flushdb()
    logs = ROOT / ".celery" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    worker = celery(
        "worker",
        "--pool=threads",
        "--concurrency=4",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=WARNING",
        log=logs / "worker.log",
        env={"TIMEOUT_SWEEP_REARM": str(rearm).lower()},
    )
    beat = celery("beat", "--loglevel=WARNING", f"--pidfile={logs / 'beat.pid'}", log=logs / "beat.log")
    try:
        time.sleep(4)  # both up
        first = timezone.now() + timedelta(seconds=10)
        deadlines = [first + timedelta(seconds=window * i / games) for i in range(games)]
        ids = make_games(games, deadlines, pairs=games)
        # As a move's commit would: an ETA task for each deadline (all within the horizon).
        for game_id, deadline in zip(ids, deadlines, strict=True):
            if eta:
                tasks.apply_timeout.apply_async((game_id, 1), eta=deadline)
        end = time.monotonic() + window + 60
        while time.monotonic() < end:
            done = Move.objects.filter(game_id__in=ids, position__isnull=True).count()
            if done >= games:
                break
            time.sleep(0.5)
        late = []
        for game_id, deadline in zip(ids, deadlines, strict=True):
            move = Move.objects.filter(game_id=game_id, position__isnull=True).first()
            late.append((move.created_at - deadline).total_seconds() if move else float("inf"))
        late.sort()
        missing = sum(1 for value in late if value == float("inf"))
        mode = (
            "ETA tasks + sweep"
            if eta
            else "every ETA lost, re-armed by the sweep"
            if rearm
            else "sweep catch-up only"
        )
        print(
            f"lateness over {games} deadlines within {window:g} s, {mode} (sweep every "
            f"{os.environ.get('TIMEOUT_SWEEP_SECONDS', '5')} s, worker: 4 threads):"
        )
        print(
            f"  median {statistics.median(late):.3f} s, p95 {late[int(0.95 * (games - 1))]:.3f} s, "
            f"worst {late[-1]:.3f} s, early {sum(1 for v in late if v < 0)}, missing {missing}"
        )
        assert Game.objects.filter(pk__in=ids, status=Game.Status.FINISHED).count() == games - missing
    finally:
        for process in (worker, beat):
            os.killpg(process.pid, 9)
            process.wait()


def embedded(games: int) -> None:
    from tests.embedded_processes import EmbeddedSite

    with tempfile.TemporaryDirectory(prefix="durak-embedded-") as folder:
        site = EmbeddedSite.make(Path(folder))
        try:
            site.start("worker")
            site.start("beat")
            deadlines = site.start_games_due_together(games)
            ids = list(deadlines)
            end = time.monotonic() + 120
            while time.monotonic() < end and len(site.timeouts_applied(ids)) < games:
                time.sleep(0.5)
            applied = site.timeouts_applied(ids)
        finally:
            site.stop_all()
    late = sorted((applied[i] - deadlines[i]).total_seconds() if i in applied else float("inf") for i in ids)
    spread = (max(deadlines.values()) - min(deadlines.values())).total_seconds()
    print(
        f"embedded defaults (SQLite + filesystem://, the Procfile's worker and beat, sweep every "
        f"{os.environ.get('TIMEOUT_SWEEP_SECONDS', '5')} s): {games} games due within {spread:.2f} s:"
    )
    print(
        f"  median {statistics.median(late):.3f} s, p95 {late[int(0.95 * (games - 1))]:.3f} s, "
        f"worst {late[-1]:.3f} s, early {sum(1 for v in late if v < 0)}, "
        f"missing {sum(1 for v in late if v == float('inf'))}"
    )


def sweep(active: int) -> None:
    from django.utils import timezone

    from games import services

    clear()
    future = timezone.now() + timedelta(hours=1)
    make_games(active, [future] * active)
    for due in (0, 100):
        if due:
            past = timezone.now() - timedelta(seconds=1)
            make_games(due, [past] * due)
        runs = []
        for _ in range(5 if not due else 1):
            started = time.perf_counter()
            applied = services.sweep_expired()
            runs.append(time.perf_counter() - started)
        print(
            f"one sweep over {active + due} running games, {due} due: "
            f"{statistics.median(runs) * 1000:.1f} ms (applied {applied})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="PostgreSQL: BENCH_DATABASE_URL (default durak_bench); Redis: BENCH_BROKER_URL "
        "(default redis://127.0.0.1:6379/5, flushed).",
    )
    parser.add_argument("--games", type=int, default=240, help="deadlines for the Redis runs (default 240)")
    parser.add_argument("--window", type=float, default=20.0, help="seconds they fall within (default 20)")
    parser.add_argument("--active", type=int, default=10_000, help="running games the sweep is timed over")
    parser.add_argument("--embedded-games", type=int, default=20, help="games due at once, embedded run")
    parser.add_argument("--only", choices=["embedded", "redis"], help="run one of the two parts")
    args = parser.parse_args()
    if args.only != "redis":
        embedded(args.embedded_games)
    if args.only == "embedded":
        return
    setup_django()
    lateness(args.games, args.window, eta=True)
    lateness(args.games, args.window, eta=False)  # as if every ETA message were lost
    lateness(args.games, args.window, eta=False, rearm=False)  # ... and every one the sweeps queue
    sweep(args.active)
    clear()


if __name__ == "__main__":
    main()
