"""``games.services.make_move`` in-process on a real PostgreSQL database (a benchmark, not a test).

    python -m benchmarks.make_move [--moves 1000] [--games 10] [--players 2 4] [--clock both]
                                   [--database URL] [--redis-db 9] [--json] [--sql]

Needs PostgreSQL and Redis (as the tests do). It re-creates a database of its own (``--database``;
else ``MAKE_MOVE_DATABASE_URL``; else ``DATABASE_URL``'s server with ``_make_move`` added to its
name, e.g. ``durak_h7_make_move``), migrates it, and runs the site's production settings
(``DEBUG`` off) in this process, with the broker and the shared cache on Redis database
``--redis-db`` (flushed before and after; no Celery worker runs, so a move's tasks are queued, as
the web process queues them, and never run).

For each configuration (``--players`` 2 and 4, ``--clock`` off and on: a 120 s move clock, so
every move also arms a timeout), it opens ``--games`` games through the services, then plays
``--moves`` random legal moves round-robin over them: each time the engine's ``legal_actions``
of a player ``waiting_for()`` names, through ``services.make_move(user=, game_id=, action=,
expected_version=)`` (the public API only), replacing each game that ends by a new one. Each
call is timed with ``time.perf_counter`` (commit and on-commit work included: the call is the
whole transaction), and its queries are counted with ``connection.execute_wrapper``. Reading
the game's state to choose the next move is not timed. The first ``--warmup`` moves of each
configuration are not counted.

It prints a markdown table (p50, p95, p99 and mean in ms, the mean of this process's CPU time in
the call, which a loaded machine inflates less, and queries per move at the median and at most)
for each configuration and for all of them, the commit measured (and whether the apps' files
differ from it), and issue 20's target (p50 <= 5 ms); ``--json`` prints the same as JSON
instead. ``--sql`` also prints the statements of the move with the most queries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import flush_redis, prepare  # noqa: E402
from benchmarks.servers import site_env as served_env  # noqa: E402

CLOCK = timedelta(seconds=120)
#: The code a move runs, whose uncommitted changes the report names.
APPS = ("durak", "games", "notifications", "stats", "accounts")
#: Issue 20's target for the median call.
TARGET_P50_MS = 5.0


def default_database() -> str:
    if url := os.environ.get("MAKE_MOVE_DATABASE_URL"):
        return url
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak")
    if not base.startswith("postgres"):
        raise SystemExit("make_move needs PostgreSQL: give --database postgres://...")
    return base.split("?", 1)[0] + "_make_move"


class Counter:
    """The statements run on the connection (an execute wrapper); the SQL kept on request."""

    def __init__(self, keep_sql: bool) -> None:
        self.count = 0
        self.keep_sql = keep_sql
        self.sql: list[str] = []

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        if self.keep_sql:
            self.sql.append(sql)
        return execute(sql, params, many, context)

    def reset(self) -> None:
        self.count = 0
        self.sql = []


@dataclass
class Result:
    players: int
    clock: bool
    moves: int = 0
    games_finished: int = 0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    p99_ms: float = 0.0
    mean_ms: float = 0.0
    cpu_mean_ms: float = 0.0  # this process's CPU time in the call (PostgreSQL's own not included)
    queries_p50: float = 0.0
    queries_max: int = 0
    refused: int = 0  # make_move raised (should stay 0: every action is a legal one)
    times: list[float] = field(default_factory=list, repr=False)
    cpu: list[float] = field(default_factory=list, repr=False)
    queries: list[int] = field(default_factory=list, repr=False)
    worst_sql: list[str] = field(default_factory=list, repr=False)

    def summarise(self) -> None:
        self.moves = len(self.times)
        if not self.times:
            return
        ms = [seconds * 1000 for seconds in self.times]
        self.p50_ms = statistics.median(ms)
        self.p95_ms = percentile(ms, 0.95)
        self.p99_ms = percentile(ms, 0.99)
        self.mean_ms = statistics.fmean(ms)
        self.cpu_mean_ms = statistics.fmean(self.cpu) * 1000
        self.queries_p50 = statistics.median(self.queries)
        self.queries_max = max(self.queries)

    @property
    def label(self) -> str:
        if not self.players:
            return "all"
        return f"{self.players} players, {'120 s clock' if self.clock else 'no clock'}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


@contextmanager
def counting(counter: Counter) -> Iterator[None]:
    from django.db import connection

    with connection.execute_wrapper(counter):
        yield


class Table:
    """One game being played: its id and its seats' users by position."""

    def __init__(self, game_id: int, users: dict[int, Any]) -> None:
        self.game_id = game_id
        self.users = users


def open_game(users: list[Any], players: int, clock: bool, rng: random.Random) -> Table:
    from games import services
    from games.models import Seat

    creator, *others = rng.sample(users, players)
    game = services.game_create(
        creator=creator,
        preset="classic",
        num_players=players,
        seed=rng.randrange(2**62),
        move_time=CLOCK if clock else None,
    )
    for user in others:
        services.game_join(user=user, game_id=game.pk)
    by_id = {user.pk: user for user in users}
    seats = Seat.objects.filter(game_id=game.pk).values_list("position", "user_id")
    return Table(game.pk, {position: by_id[user_id] for position, user_id in seats})


def next_move(table: Table, rng: random.Random) -> tuple[Any, dict[str, Any], int] | None:
    """(the user to move, a random legal action, the version) or None: the game is over."""
    from games.models import Game

    stored = Game.objects.only("status", "state", "version").get(pk=table.game_id)
    if stored.status != Game.Status.ACTIVE or stored.state is None:
        return None
    engine = stored.engine()
    waiting = engine.waiting_for()
    if not waiting:
        return None
    player = rng.choice(waiting)
    action = dict(rng.choice(engine.legal_json(player)))
    return table.users[player], action, int(stored.version)


def measure(
    *, users: list[Any], players: int, clock: bool, args: argparse.Namespace, rng: random.Random
) -> Result:
    from games import exceptions, services

    result = Result(players=players, clock=clock)
    counter = Counter(keep_sql=args.sql)
    tables = [open_game(users, players, clock, rng) for _ in range(args.games)]
    played = 0
    turn = 0
    while played < args.warmup + args.moves:
        index = turn % len(tables)
        turn += 1
        move = next_move(tables[index], rng)
        if move is None:
            result.games_finished += 1
            tables[index] = open_game(users, players, clock, rng)
            continue
        user, action, version = move
        counter.reset()
        with counting(counter):
            began, cpu = time.perf_counter(), time.process_time()
            try:
                services.make_move(
                    user=user, game_id=tables[index].game_id, action=action, expected_version=version
                )
            except exceptions.GameError as error:
                result.refused += 1
                print(f"refused ({type(error).__name__}): {error}", file=sys.stderr)
                continue
            finally:
                elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
        played += 1
        if played > args.warmup:
            result.times.append(elapsed)
            result.cpu.append(cpu)
            result.queries.append(counter.count)
            if args.sql and counter.count >= max(result.queries):
                result.worst_sql = list(counter.sql)
    result.summarise()
    return result


def tree() -> dict[str, Any]:
    """The commit measured, and which of the apps' files differ from it (others may be editing)."""

    def git(*words: str) -> str:
        return subprocess.run(["git", *words], cwd=ROOT, capture_output=True, text=True).stdout.rstrip()

    changed = [line[3:] for line in git("status", "--porcelain", "--", *APPS).splitlines()]
    return {
        "commit": git("rev-parse", "--short", "HEAD") or "(not a git checkout)",
        "subject": git("log", "-1", "--format=%s"),
        "changed": changed,
    }


def markdown(
    results: list[Result], everything: Result, where: dict[str, Any], args: argparse.Namespace
) -> None:
    load = os.getloadavg()
    changed = (
        f"; {len(where['changed'])} files of {', '.join(APPS)} differ from it" if where["changed"] else ""
    )
    print(
        f"`services.make_move` in-process at {where['commit']} ({where['subject']}){changed}; "
        f"{args.moves} moves a configuration over {args.games} games each, after {args.warmup} "
        f"warm-up moves; load average {load[0]:.2f} on {os.cpu_count()} CPUs"
    )
    print()
    print(
        "| games | moves | p50 ms | p95 ms | p99 ms | mean ms | CPU mean ms | queries p50 | queries max "
        "| games finished |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for result in [*results, everything]:
        print(
            f"| {result.label} | {result.moves} | {result.p50_ms:.2f} | {result.p95_ms:.2f} | {result.p99_ms:.2f} "
            f"| {result.mean_ms:.2f} | {result.cpu_mean_ms:.2f} | {result.queries_p50:g} | {result.queries_max} | {result.games_finished} |"
        )
    print()
    verdict = "ok" if everything.p50_ms <= TARGET_P50_MS else "MISSED"
    print(f"target: p50 <= {TARGET_P50_MS:g} ms over all moves: {everything.p50_ms:.2f} ms, {verdict}")
    refused = sum(result.refused for result in results)
    if refused:
        print(f"moves refused: {refused} (each a bug: every action was a legal one)")
    if args.sql:
        worst = max(results, key=lambda result: result.queries_max)
        print(f"\nthe statements of the move with the most queries ({worst.label}, {len(worst.worst_sql)}):")
        for sql in worst.worst_sql:
            print("  ", sql[:300])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1000, help="timed moves per configuration")
    parser.add_argument("--warmup", type=int, default=20, help="moves per configuration not counted")
    parser.add_argument("--games", type=int, default=10, help="games played round-robin at once")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=range(2, 7))
    parser.add_argument("--clock", choices=("off", "on", "both"), default="both")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--database", default=None, help="the database to re-create (a URL)")
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument(
        "--sql", action="store_true", help="print the statements of the move with the most queries"
    )
    args = parser.parse_args()
    if args.users < max(args.players):
        parser.error("--users must be at least the largest --players")
    database = args.database or default_database()

    prepare(served_env(database_url=database, redis_db=args.redis_db))
    from accounts.models import User

    users = list(
        User.objects.bulk_create(
            User(username=f"bench-{n}", email=f"bench-{n}@example.com", password="!unusable")
            for n in range(args.users)
        )
    )
    rng = random.Random(args.seed)
    clocks = {"off": [False], "on": [True], "both": [False, True]}[args.clock]
    results = []
    try:
        for players in args.players:
            for clock in clocks:
                results.append(measure(users=users, players=players, clock=clock, args=args, rng=rng))
                if not args.json:
                    print(f"  measured {results[-1].label}", file=sys.stderr)
    finally:
        flush_redis(args.redis_db)
    everything = Result(players=0, clock=False)
    for result in results:
        everything.times += result.times
        everything.cpu += result.cpu
        everything.queries += result.queries
        everything.games_finished += result.games_finished
        everything.refused += result.refused
    everything.summarise()
    where = tree()
    if args.json:
        rows = [
            {k: v for k, v in asdict(result).items() if k not in ("times", "cpu", "queries", "worst_sql")}
            for result in results
        ]
        total = {
            k: v
            for k, v in asdict(everything).items()
            if k not in ("times", "cpu", "queries", "worst_sql", "players", "clock")
        }
        print(
            json.dumps(
                {
                    **where,
                    "database": database.rsplit("/", 1)[1],
                    "moves_per_configuration": args.moves,
                    "games": args.games,
                    "load_average": os.getloadavg()[0],
                    "configurations": rows,
                    "all": total,
                    "target_p50_ms": TARGET_P50_MS,
                },
                indent=2,
            )
        )
    else:
        markdown(results, everything, where, args)
    if any(result.refused for result in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
