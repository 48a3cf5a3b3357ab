"""Are a move's updates of the game and seat rows in place (HOT)? (A benchmark, not a test.)

    python -m benchmarks.hot_updates [--games 20] [--at-once 10] [--players 2 4] [--clock both]
                                     [--schema before seats after] [--fillfactor N] [--seed 1]

PostgreSQL updates a row "heap-only" (HOT: the new version in the same page, no index touched,
the old one pruned without VACUUM) only if (a) its page has room for the new version and (b) no
column that an index mentions (its keys or its ``WHERE``) changed. Every move rewrites the
game's row (``state``, ``version``, ``deadline``, ...) and its seats' (``awaiting_move``,
``deadline``, ...): ``games.write``.

For each ``--schema`` it migrates the games app to it ("before": the migration before
``0013_hot_updates``, the indexes and fillfactor as they were; "seats": ``0013_hot_updates``,
the seats' indexes and fillfactor; "after": the latest, with ``0014_game_timer``'s game row:
its deadline and claim warning indexed in ``games_gametimer``), sets
``--fillfactor`` on ``games_game`` and ``games_seat`` if given (``--fillfactor 100`` with
``after``: the index changes alone), empties the game tables (TRUNCATE: fresh pages, so the
fillfactor holds from the first row), turns their autovacuum off for the run (so the dead rows
counted are those the moves left, as PostgreSQL would see them before its next autovacuum),
and plays ``--games`` games to their end, ``--at-once`` at a time round-robin (the rows of
games played at once share pages, as on the site), each move a random legal action of a
player the engine waits for, through ``games.services.make_move`` (the path of a person's
move). Game ``i`` has ``--players[i % n]`` players and, with ``--clock both``, a 120 s move
clock every other game. Then it flushes the statistics (``pg_stat_force_next_flush()``),
reads ``pg_stat_user_tables`` for ``games_game``, ``games_seat`` and ``games_move`` (and the
game's TOAST table) from a second connection until two reads agree, and prints, per table, the
updates, how many were HOT, the dead row versions left, the autovacuums (0: it was off) and
the table's size.

Uses its own database (``durak_hot_bench``, created and migrated if missing;
``HOT_BENCH_DATABASE_URL`` to change it) and Redis database 11 for the broker
(``HOT_BENCH_BROKER_URL``; no worker runs, so a clocked move's timeout task is queued and never
run; flushed at the end).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("HOT_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_hot_bench")
BROKER_URL = os.environ.get("HOT_BENCH_BROKER_URL", "redis://127.0.0.1:6379/11")
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "true",
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": BROKER_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "EMAIL_URL": "dummymail://",
        "LOG_LEVEL": "WARNING",
    }
)

CLOCK = timedelta(seconds=120)
TABLES = ("games_game", "games_seat", "games_move")
#: Reported as well where the schema has it: the game's timers (``0014_game_timer``), emptied
#: with the games (its foreign key: ``TRUNCATE ... CASCADE``).
REPORTED = (*TABLES, "games_gametimer")
#: The tables whose fillfactor ``--fillfactor`` sets.
FILLED = ("games_game", "games_seat")
#: The games app's migration for each ``--schema`` (None: the latest).
TARGETS = {"before": "0012_rated", "seats": "0013_hot_updates", "after": None}
BEFORE = TARGETS["before"]


@dataclass
class Counts:
    updates: int
    hot: int
    dead: int
    autovacuums: int
    inserts: int
    bytes: int
    index_bytes: int


def setup() -> None:
    """Create the database if missing, set Django up, migrate."""
    import django
    import psycopg
    from django.core.management import call_command

    server, name = DATABASE_URL.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    django.setup()
    call_command("migrate", verbosity=0)


def stats(connection: Any) -> dict[str, Counts]:
    """The tables' counters as PostgreSQL has them flushed, read on ``connection`` (a psycopg
    connection of its own, autocommit) until two reads a moment apart agree."""

    sql = """
        SELECT c.relname, s.n_tup_upd, s.n_tup_hot_upd, s.n_dead_tup, s.autovacuum_count,
               s.n_tup_ins, pg_table_size(c.oid), pg_indexes_size(c.oid)
        FROM pg_class c JOIN pg_stat_all_tables s ON s.relid = c.oid
        WHERE c.relname = ANY(%(names)s)
        UNION ALL
        SELECT c.relname || ' (TOAST)', s.n_tup_upd, s.n_tup_hot_upd, s.n_dead_tup, s.autovacuum_count,
               s.n_tup_ins, pg_relation_size(c.reltoastrelid), 0
        FROM pg_class c JOIN pg_stat_all_tables s ON s.relid = c.reltoastrelid
        WHERE c.relname = 'games_game'
    """
    last: dict[str, Counts] | None = None
    for _ in range(20):
        connection.execute("SELECT pg_stat_clear_snapshot()")
        rows = connection.execute(sql, {"names": list(REPORTED)}).fetchall()
        now = {name: Counts(*values) for name, *values in rows}
        if now == last:
            return now
        last = now
        time.sleep(0.5)
    assert last is not None
    return last


def flush_own_stats() -> None:
    """Have this process's backend publish its pending statistics now: PostgreSQL 15 flushes
    them when the backend goes idle, at most once a second, unless told to."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT 1")


def schema(target: str, fillfactor: int | None) -> dict[str, str]:
    """Migrate the games app to ``target`` ("before"/"after"), set ``fillfactor`` if given,
    empty the game tables, turn their autovacuum off; returns each table's reloptions."""
    from django.core.management import call_command
    from django.db import connection

    # Only the games app moves: no other app's migration depends on these.
    call_command("migrate", "games", *filter(None, [TARGETS[target]]), verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(TABLES)} CASCADE")
        for table in TABLES:
            if fillfactor is not None and table in FILLED:
                cursor.execute(f"ALTER TABLE {table} SET (fillfactor = {int(fillfactor)})")
            cursor.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
        cursor.execute(
            "SELECT relname, coalesce(array_to_string(reloptions, ', '), '') FROM pg_class "
            "WHERE relname = ANY(%s)",
            [list(TABLES)],
        )
        options = dict(cursor.fetchall())
    return options


def restore() -> None:
    """Autovacuum back on; the games app's latest migration, with its own fillfactor (not
    ``--fillfactor``'s)."""
    from django.core.management import call_command
    from django.db import connection

    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"ALTER TABLE {table} RESET (autovacuum_enabled)")
    call_command("migrate", "games", BEFORE, verbosity=0)
    call_command("migrate", verbosity=0)


def open_game(users: list[Any], players: int, clock: bool, rng: random.Random) -> tuple[int, dict[int, Any]]:
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
    return game.pk, {position: by_id[user_id] for position, user_id in seats}


def step(game_id: int, users: dict[int, Any], rng: random.Random) -> bool:
    """One random legal move in the game; False once it is over."""
    from games import services
    from games.exceptions import GameError
    from games.models import Game

    stored = Game.objects.only("status", "state", "version").get(pk=game_id)
    if stored.status != Game.Status.ACTIVE or stored.state is None:
        return False
    engine = stored.engine()
    waiting = engine.waiting_for()
    if not waiting:
        return False
    player = rng.choice(waiting)
    action = dict(rng.choice(engine.legal_json(player)))
    try:
        services.make_move(
            user=users[player], game_id=game_id, action=action, expected_version=stored.version
        )
    except GameError as error:
        raise SystemExit(f"game {game_id}: a legal move was refused: {error}") from error
    return True


def play(args: argparse.Namespace, users: list[Any]) -> tuple[int, int]:
    """Play ``args.games`` games to their end; returns (games, moves)."""
    rng = random.Random(args.seed)
    clocks = {"off": [False], "on": [True], "both": [False, True]}[args.clock]
    opened = 0

    def new() -> tuple[int, dict[int, Any]]:
        nonlocal opened
        players = args.players[opened % len(args.players)]
        clock = clocks[opened % len(clocks)]
        opened += 1
        return open_game(users, players, clock, rng)

    playing = [new() for _ in range(min(args.at_once, args.games))]
    moves = 0
    while playing:
        for table in list(playing):
            if step(*table, rng):
                moves += 1
                continue
            playing.remove(table)
            if opened < args.games:
                playing.append(new())
    return opened, moves


def report(label: str, options: dict[str, str], games: int, moves: int, delta: dict[str, Counts]) -> None:
    print(f"\n{label}: {games} games, {moves} moves")
    shown = "; ".join(f"{table}: {options.get(table) or '-'}" for table in TABLES)
    print(f"reloptions: {shown}")
    print()
    print(
        "| table | updates | HOT | HOT % | updates/move | dead rows left | autovacuums | size KiB | indexes KiB |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, counts in delta.items():
        if name.endswith("(TOAST)"):
            print(
                f"| {name} | {counts.inserts} rows written | | | {counts.inserts / max(moves, 1):.2f} "
                f"| {counts.dead} | {counts.autovacuums} | {counts.bytes / 1024:,.0f} | |"
            )
            continue
        share = f"{100 * counts.hot / counts.updates:.0f}" if counts.updates else "-"
        print(
            f"| {name} | {counts.updates:,} | {counts.hot:,} | {share} | {counts.updates / max(moves, 1):.2f} "
            f"| {counts.dead:,} | {counts.autovacuums} | {counts.bytes / 1024:,.0f} "
            f"| {counts.index_bytes / 1024:,.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played to their end")
    parser.add_argument("--at-once", type=int, default=10, help="games played round-robin at once")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=range(2, 7))
    parser.add_argument("--clock", choices=("off", "on", "both"), default="both")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--schema", nargs="+", choices=tuple(TARGETS), default=list(TARGETS))
    parser.add_argument(
        "--fillfactor",
        type=int,
        default=None,
        help="set on games_game and games_seat (10-100) after migrating",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.fillfactor is not None and not 10 <= args.fillfactor <= 100:
        parser.error("--fillfactor is 10 to 100")
    if args.users < max(args.players):
        parser.error("--users must be at least the largest --players")

    import psycopg

    setup()
    from accounts.models import User

    names = [f"hot-bench-{n}" for n in range(args.users)]
    User.objects.bulk_create(
        [User(username=name, email=f"{name}@example.com", password="!") for name in names],
        ignore_conflicts=True,  # the last run's players (their games go with the TRUNCATE)
    )
    users = list(User.objects.filter(username__in=names).order_by("pk"))
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    load = os.getloadavg()[0]
    print(f"games.services.make_move at {commit}, load average {load:.2f} on {os.cpu_count()} CPUs")
    try:
        with psycopg.connect(DATABASE_URL, autocommit=True) as reader:
            for target in args.schema:
                options = schema(target, args.fillfactor)
                flush_own_stats()
                before = stats(reader)
                started = time.perf_counter()
                games, moves = play(args, users)
                took = time.perf_counter() - started
                flush_own_stats()
                after = stats(reader)
                delta = {
                    name: Counts(
                        updates=now.updates - before[name].updates,
                        hot=now.hot - before[name].hot,
                        dead=now.dead,  # TRUNCATE left none
                        autovacuums=now.autovacuums - before[name].autovacuums,
                        inserts=now.inserts - before[name].inserts,
                        bytes=now.bytes,
                        index_bytes=now.index_bytes,
                    )
                    for name, now in after.items()
                }
                fill = f", fillfactor {args.fillfactor}" if args.fillfactor is not None else ""
                report(f"{target}{fill} ({took:.0f} s)", options, games, moves, delta)
    finally:
        restore()
        import redis

        redis.Redis.from_url(BROKER_URL).flushdb()


if __name__ == "__main__":
    main()
