"""Tournaments at scale, played by computers through the site's own services (not a test):

    python -m benchmarks.tournament_run                      # 512-player Swiss, 9 rounds;
                                                             # 200 players at tables of 4, 5 rounds
    python -m benchmarks.tournament_run --swiss 64 --swiss-rounds 6 --tables 0 --moves 0

Each tournament is created, every player registers (``tournament_register``), and beat's step
(``services.sweep``) starts it. Each round's games are then played by the rule-of-thumb computer
(``games.bots.make_bot("rules")``) moving for every seat through ``games.services.make_move``,
the path a person's move takes; with ``--moves N`` a game is played for N moves and then the
player it waits for resigns (``player_resign``: the write path's end of a game), so that nine
rounds of 256 games run in minutes; ``--moves 0`` plays every game to its end.

For each round it reports: the CPU time of the pairing alone (``tournaments.pairing``), the
wall time and the statements of the step that opens the round (pairing, 256 games created and
dealt, their notifications), and, once the round's last game has ended, how many sweeps it took
to open the next one (the issue's goal: one). The after-commit task a game's end queues is not
consumed here (no worker runs), so the sweep alone opens each round.

Uses its own database (``durak_bench``, created and migrated if missing;
``BENCH_DATABASE_URL`` to change it) and Redis database 5 (cleared at the end).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

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
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "EMAIL_URL": "dummymail://",
        "LOG_LEVEL": "WARNING",
    }
)


def setup() -> None:
    from benchmarks.timeouts import setup_django

    setup_django()


class Timed:
    """Wraps a pairing function of ``tournaments.pairing`` and keeps its CPU time per call."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.took: list[float] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return self.function(*args, **kwargs)
        finally:
            self.took.append(time.process_time() - start)


def players(prefix: str, count: int) -> list[Any]:
    from accounts.models import User
    from games.models import Game
    from tournaments.models import Tournament

    # The last run's rows, in the order their protections allow.
    Tournament.objects.filter(name__startswith="bench ").delete()
    Game.objects.filter(seats__user__username__startswith=prefix).delete()
    User.objects.filter(username__startswith=prefix).delete()
    User.objects.bulk_create(
        [User(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", password="!") for n in range(count)]
    )
    return list(User.objects.filter(username__startswith=prefix).order_by("pk"))


def play(game_id: int, moves: int, bot: Any) -> int:
    """Play one game for ``moves`` moves (0: to its end) with ``bot`` moving for every seat;
    then the seat it waits for resigns. Returns the moves made."""
    from games import services
    from games.bots import public_log
    from games.exceptions import GameError
    from games.models import Game, Seat

    made = 0
    while True:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return made
        seat = (
            Seat.objects.filter(game=game, awaiting_move=True)
            .select_related("user")
            .order_by("position")
            .first()
        )
        assert seat is not None and game.state is not None
        if moves and made >= moves:
            services.player_resign(user=seat.user, game_id=game_id)
            return made
        view = game.engine().view(seat.position)
        action = bot.choose(view, public_log(game))
        try:
            services.make_move(user=seat.user, game_id=game_id, action=action, expected_version=game.version)
        except GameError:
            continue  # the game moved on (a throw-in window closed): read it again
        made += 1


def run(label: str, count: int, moves: int, **fields: Any) -> None:
    from django.db import connection
    from django.utils import timezone

    from games.bots import make_bot
    from games.models import Game
    from tournaments import pairing, services
    from tournaments.models import Tournament

    users = players(f"bench-{label}-", count)
    t = services.tournament_create(
        creator=users[0],
        name=f"bench {label}",
        preset="classic",
        move_time=timedelta(days=1),
        starts_at=timezone.now() + timedelta(minutes=5),
        max_players=count,
        **fields,
    )
    start = time.perf_counter()
    for user in users:
        services.tournament_register(user=user, tournament_id=t.pk)
    print(f"\n{label}: {count} players registered in {time.perf_counter() - start:.1f} s")
    timed = {name: Timed(getattr(pairing, name)) for name in ("swiss_round", "table_round")}
    for name, wrapper in timed.items():
        setattr(pairing, name, wrapper)
    bot = make_bot("rules")
    print("round  pair ms  open s  statements  per game  games  play s  moves/game  sweeps to next")

    def step(now: Any) -> tuple[float, float, int]:
        """One sweep as beat runs it: (pairing CPU ms, wall s, statements)."""
        calls = sum(len(w.took) for w in timed.values())
        statements = [0]

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            statements[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            started = time.perf_counter()
            services.sweep(now=now)
            took = time.perf_counter() - started
        paired = [w.took[-1] for w in timed.values() if w.took]
        pair_ms = max(paired) * 1000 if sum(len(w.took) for w in timed.values()) > calls else 0.0
        return pair_ms, took, statements[0]

    try:
        opening = step(t.starts_at)
        t.refresh_from_db()
        while t.status == Tournament.Status.RUNNING:
            number = t.round_number
            games = list(
                Game.objects.filter(
                    tournament_table__round__tournament=t, tournament_table__round__number=number
                ).values_list("pk", flat=True)
            )
            started = time.perf_counter()
            made = [play(game, moves, bot) for game in games]
            played = time.perf_counter() - started
            # The round's last game has ended: beat's sweeps, counted until the next round opens
            # (or the tournament finishes).
            sweeps, following = 0, (0.0, 0.0, 0)
            while t.round_number == number and t.status == Tournament.Status.RUNNING and sweeps < 5:
                sweeps += 1
                following = step(timezone.now())
                t.refresh_from_db()
            pair_ms, opened, statements = opening
            print(
                f"{number:5}  {pair_ms:7.1f}  {opened:6.2f}  {statements:10}  {statements / max(len(games), 1):8.1f}"
                f"  {len(games):5}  {played:6.1f}  {statistics.mean(made) if made else 0:10.1f}  {sweeps:14}"
            )
            opening = following
        print(f"{label}: {t.status} after {t.round_number} round(s); closing sweep {opening[1]:.2f} s")
    finally:
        for name, wrapper in timed.items():
            setattr(pairing, name, wrapper.function)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--swiss", type=int, default=512)
    parser.add_argument("--swiss-rounds", type=int, default=9)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--table-rounds", type=int, default=5)
    parser.add_argument(
        "--moves", type=int, default=4, help="moves a game before a resignation (0: to the end)"
    )
    args = parser.parse_args()
    setup()
    import redis

    if args.swiss:
        run("swiss", args.swiss, args.moves, format="swiss", rounds=args.swiss_rounds)
    if args.tables:
        run(
            "tables",
            args.tables,
            args.moves,
            format="tables",
            table_size=args.table_size,
            rounds=args.table_rounds,
        )
    redis.Redis.from_url(BROKER_URL).flushdb()


if __name__ == "__main__":
    main()
