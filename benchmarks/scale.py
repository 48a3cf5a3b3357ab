"""Do the busiest pages and the timeout sweep keep their cost with a large database?
(A benchmark, not a test.)

    python -m benchmarks.scale [--finished 100000] [--active 5000] [--users 2000] [--keep]

Needs PostgreSQL. It uses its own database, ``durak_scale`` (dropped and re-created;
``SCALE_DATABASE_URL`` to change it), with Celery eager (no broker needed).

1. A small database made through the services as the site makes it: the measured player
   ``scale-me`` has one finished game, one running game (a day a move), so has
   ``scale-steady``, and there is one open game in the lobby. Measured there ("empty"): the lobby (with the player's games), "my
   games" through the API (``/api/games/?mine=true``), the player's profile, the HTMX poll of
   the running game (unchanged: 204; and changed: the table) and one timeout sweep
   (``games.tasks.sweep_deadlines``, with nothing due): queries and median time.
2. Bulk-filled ("full"): ``--users`` players, ``--finished`` finished and ``--active`` running
   two-player games cloned from real engine playouts (each with its move log, seats, stats
   rows, rating history, counted-game row and notifications); ``scale-me`` sits in 1 % of the
   finished games and 20 of the running ones, ``scale-steady`` in none (its pages show the
   cost of the database's size alone). Then ``ANALYZE`` and the same measurements.
3. For each measured query of the full database: ``EXPLAIN (ANALYZE, BUFFERS)``.

Target: the same number of queries, and at most 2x the empty database's time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("SCALE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_scale")
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "true",
        "DATABASE_URL": DATABASE_URL,
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "EMAIL_URL": "dummymail://",
        "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "WARNING",
    }
)
#: Runs per measurement (after two warm-up runs); the median is reported.
RUNS = 15
#: Time ratio allowed between the full and the empty database.
TIME_TARGET = 2.0
#: Engine playouts the bulk games are cloned from.
TEMPLATES = 24


def fresh_database() -> None:
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    server = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


# --- the small database, through the services ---------------------------------------------------


def baseline() -> dict[str, Any]:
    """The measured player's games, made the way the site makes them."""
    from accounts.models import User
    from games import services
    from games.models import Game
    from tests.factories import SHORT_DEAL, play_moves

    me = User.objects.create_user("scale-me", "me@example.com", "scale-password-1")
    you = User.objects.create_user("scale-you", "you@example.com", "scale-password-1")
    host = User.objects.create_user("scale-host", "host@example.com", "scale-password-1")
    finished = services.game_create(creator=me, preset="classic", num_players=2, deal=SHORT_DEAL)
    services.game_join(user=you, game_id=finished.pk)
    finished = play_moves(finished, [me, you], 10)
    assert finished.status == Game.Status.FINISHED
    active = services.game_create(creator=you, preset="classic", num_players=2, move_time=timedelta(days=1))
    services.game_join(user=me, game_id=active.pk)
    services.game_create(creator=host, preset="classic", num_players=2)  # the lobby's open game
    # A player whose games the bulk fill leaves alone: their pages show what the size of the
    # database alone costs ("me" also has fifty times more games of their own when full).
    steady = User.objects.create_user("scale-steady", "steady@example.com", "scale-password-1")
    done = services.game_create(creator=steady, preset="classic", num_players=2, deal=SHORT_DEAL)
    services.game_join(user=you, game_id=done.pk)
    assert play_moves(done, [steady, you], 10).status == Game.Status.FINISHED
    running = services.game_create(
        creator=steady, preset="classic", num_players=2, move_time=timedelta(days=1)
    )
    services.game_join(user=you, game_id=running.pk)
    return {"me": me, "steady": steady, "active": Game.objects.get(pk=active.pk)}


# --- measuring ---------------------------------------------------------------------------------------


class Captured:
    """Every statement run, with its parameters (a connection execute wrapper)."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, Any]] = []

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements.append((sql, params))
        return execute(sql, params, many, context)


def measurements(fixture: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    from django.test import Client

    from games import tasks

    me, steady, game = fixture["me"], fixture["steady"], fixture["active"]
    client = Client()
    client.force_login(me)
    steady_client = Client()
    steady_client.force_login(steady)

    def get(url: str, status: int, *, as_steady: bool = False, **headers: str) -> Callable[[], Any]:
        def run() -> Any:
            response = (steady_client if as_steady else client).get(url, headers=headers)
            assert response.status_code == status, (url, response.status_code)
            return response

        return run

    return {
        "lobby (with my games)": get("/", 200),
        "my games (API ?mine=true)": get("/api/games/?mine=true", 200),
        "profile": get(f"/players/{me.username}/", 200),
        "poll, unchanged (204)": get(
            f"/games/{game.pk}/poll/?version={game.version}", 204, hx_request="true"
        ),
        "poll, changed (table)": get(f"/games/{game.pk}/poll/?version=0", 200, hx_request="true"),
        "timeout sweep (none due)": tasks.sweep_deadlines,
        "steady: lobby": get("/", 200, as_steady=True),
        "steady: my games (API)": get("/api/games/?mine=true", 200, as_steady=True),
        "steady: profile": get(f"/players/{steady.username}/", 200, as_steady=True),
    }


def measure(fixture: dict[str, Any]) -> dict[str, tuple[int, float, list[tuple[str, Any]]]]:
    """Per measurement: queries, median seconds, the statements of one run."""
    from django.db import connection

    results = {}
    for label, run in measurements(fixture).items():
        run()
        run()
        captured = Captured()
        with connection.execute_wrapper(captured):
            run()
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            run()
            times.append(time.perf_counter() - started)
        queries = [s for s in captured.statements if not s[0].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
        results[label] = (len(queries), statistics.median(times), queries)
    return results


def explain(sql: str, params: Any) -> str:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        transaction.set_rollback(True)  # EXPLAIN ANALYZE of an UPDATE runs it
    return plan


def database_ms(statements: list[tuple[str, Any]]) -> float:
    """The sum of the SELECTs' execution times in EXPLAIN ANALYZE: the database's share of a
    view, steadier than the view's wall time on a busy machine."""
    total = 0.0
    for sql, params in statements:
        if sql.startswith("SELECT"):
            line = explain(sql, params).splitlines()[-1]
            total += float(line.removeprefix("Execution Time: ").removesuffix(" ms"))
    return total


def interpolated(sql: str, params: Any) -> str:
    from django.db import connection

    return str(connection.ops.compose_sql(sql, params))  # type: ignore[attr-defined]  # PostgreSQL's


# --- the bulk fill ------------------------------------------------------------------------------------


def playouts(count: int, *, finished: bool, rng: random.Random, first_seed: int) -> list[dict[str, Any]]:
    """Two-player classic games played by random legal actions with the engine: to the end,
    or stopped part-way (``finished=False``). What ``services._start`` and ``make_move`` store."""
    from django.utils import timezone

    import durak
    from games.fairness import deal_hash
    from stats import ledger

    rules = durak.Rules.preset("classic")
    result: list[dict[str, Any]] = []
    seed = first_seed
    while len(result) < count:
        seed += 1
        dealer = seed % 2
        engine = durak.Game.new(rules, 2, seed, dealer=dealer, first_game=True)
        stop_at = None if finished else rng.randint(3, 30)
        moves: list[tuple[int, int, dict[str, Any], list[Any]]] = []
        while not engine.over and len(moves) < 600 and (stop_at is None or len(moves) < stop_at):
            player = engine.waiting_for()[0]
            action = dict(rng.choice(engine.legal_json(player)))
            action["player"] = player
            engine.apply(action)
            moves.append((len(moves) + 1, player, action, list(engine.events)))
        # Random play drags on; games of people are rarely longer than 70 moves.
        if engine.over != finished or len(moves) > 70:
            continue
        outcome: dict[int, tuple[str, int | None]] = {}
        if finished:
            record = ledger.game_record(
                game_id=0, preset="classic", finished_at=timezone.now(), engine=engine, users={0: 0, 1: 0}
            )
            for seat in record.seats:
                result_ = "draw" if seat.draw else "fool" if seat.lost else "out" if seat.place else "won"
                outcome[seat.position] = (result_, seat.place)
        result.append(
            {
                "seed": seed,
                "dealer": dealer,
                "rules": rules.to_dict(),
                "state": engine.to_dict(),
                "seed_hash": deal_hash(
                    rules=rules.to_dict(), players=2, seed=seed, dealer=dealer, first_game=True, deal=None
                ),
                "moves": moves,
                "waiting": set(engine.waiting_for()) if not finished else set(),
                "outcome": outcome,
            }
        )
    return result


def fill(*, users: int, finished: int, active: int, rng: random.Random) -> None:
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Seat
    from notifications.models import Kind, Notification

    started = time.perf_counter()
    me = User.objects.get(username="scale-me")
    User.objects.bulk_create(
        User(username=f"scale-{n}", email=f"scale-{n}@example.com", password="!") for n in range(users)
    )
    others = list(User.objects.filter(username__regex=r"^scale-\d+$").values_list("pk", flat=True))
    done = playouts(TEMPLATES, finished=True, rng=rng, first_seed=1)
    running = playouts(TEMPLATES, finished=False, rng=rng, first_seed=1_000_000)
    first_new = (Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    now = timezone.now()

    def pair(with_me: bool) -> tuple[int, int]:
        a, b = rng.sample(others, 2)
        return (me.pk, b) if with_me else (a, b)

    chunk = 5000
    with transaction.atomic():
        for kind, total in (("finished", finished), ("active", active)):
            templates = done if kind == "finished" else running
            for begin in range(0, total, chunk):
                rows = []
                for index in range(begin, min(total, begin + chunk)):
                    template = templates[index % len(templates)]
                    with_me = (index % 100 == 7) if kind == "finished" else index < 20
                    players = pair(with_me)
                    if kind == "finished":
                        end = now - timedelta(seconds=rng.randint(3600, 2 * 365 * 86400))
                        start, deadline = end - timedelta(minutes=rng.randint(5, 60)), None
                    else:
                        end = None
                        start = now - timedelta(hours=rng.randint(1, 240))
                        deadline = now + timedelta(hours=rng.uniform(5, 23))
                    game = Game(
                        preset="classic",
                        rules=template["rules"],
                        num_players=2,
                        status=Game.Status.FINISHED if kind == "finished" else Game.Status.ACTIVE,
                        creator_id=players[0],
                        started_at=start,
                        finished_at=end,
                        version=len(template["moves"]) + 1,
                        seed=template["seed"],
                        dealer=template["dealer"],
                        seed_hash=template["seed_hash"],
                        state=template["state"],
                        move_time=timedelta(days=1) if kind == "active" or index % 3 else None,
                        deadline=deadline,
                        invite_token=f"t{kind[0]}{index}",
                    )
                    rows.append((game, template, players, deadline))
                games = Game.objects.bulk_create([row[0] for row in rows])
                seats, notes = [], []
                for game, (_, template, players, deadline) in zip(games, rows, strict=True):
                    for position, user_id in enumerate(players):
                        waiting = position in template["waiting"]
                        result, place = template["outcome"].get(position, ("", None))
                        seats.append(
                            Seat(
                                game=game,
                                user_id=user_id,
                                position=position,
                                awaiting_move=waiting,
                                result=result,
                                place=place,
                                turn_started_at=deadline - timedelta(days=1)
                                if waiting and deadline
                                else None,
                                deadline=deadline if waiting else None,
                                warn_at=deadline - timedelta(days=0.2) if waiting and deadline else None,
                                last_seen_at=game.started_at,
                            )
                        )
                        notes.append(
                            Notification(
                                user_id=user_id,
                                kind=Kind.GAME_FINISHED if kind == "finished" else Kind.GAME_STARTED,
                                game=game,
                                text=f"Game {game.pk} {'is over' if kind == 'finished' else 'has started'}.",
                                read_at=game.finished_at or game.started_at,
                            )
                        )
                Seat.objects.bulk_create(seats)
                Notification.objects.bulk_create(notes)
        print(f"  games, seats, notifications: {time.perf_counter() - started:.0f} s", flush=True)
        with connection.cursor() as cursor:
            # Timestamps as if the games had been played over two years (auto_now set them to now).
            cursor.execute(
                "UPDATE games_game SET created_at = started_at - interval '2 minutes', "
                "updated_at = coalesce(finished_at, started_at) WHERE id >= %s",
                [first_new],
            )
            # The move logs: each game gets its template's moves, 20 s apart.
            cursor.execute(
                "CREATE TEMP TABLE scale_moves (seed bigint, seq int, position int, action jsonb, events jsonb)"
            )
            import json

            cursor.executemany(
                "INSERT INTO scale_moves VALUES (%s, %s, %s, %s, %s)",
                [
                    (template["seed"], seq, position, json.dumps(action), json.dumps(events))
                    for template in done + running
                    for seq, position, action, events in template["moves"]
                ],
            )
            cursor.execute(
                "INSERT INTO games_move (game_id, seq, position, action, events, created_at) "
                "SELECT g.id, m.seq, m.position, m.action, m.events, g.started_at + m.seq * interval '20 seconds' "
                "FROM games_game g JOIN scale_moves m ON m.seed = g.seed WHERE g.id >= %s",
                [first_new],
            )
            print(f"  moves: {cursor.rowcount} rows, {time.perf_counter() - started:.0f} s", flush=True)
            finished_seats = (
                "FROM games_seat s JOIN games_game g ON g.id = s.game_id "
                "WHERE g.id >= %(first)s AND g.status = 'finished'"
            )
            params = {"first": first_new}
            cursor.execute(
                "INSERT INTO stats_countedgame (game_id, mode, counted_at) "
                "SELECT id, 'throw_in', finished_at FROM games_game WHERE id >= %(first)s AND status = 'finished'",
                params,
            )
            # The rating history: one row per player and game, over all sizes and over two-player games.
            cursor.execute(
                "INSERT INTO stats_ratingchange (user_id, game_id, mode, players, mu, sigma, ordinal, delta, at) "
                "SELECT s.user_id, s.game_id, 'throw_in', p.players, 25 + random() * 5, 6, 7 + random() * 5, "
                "random() - 0.5, g.finished_at "
                f"{finished_seats.replace('WHERE', 'CROSS JOIN (VALUES (0), (2)) AS p(players) WHERE')}",
                params,
            )
            for scope, key in (("all", "''"), ("preset", "'classic'"), ("players", "'2'")):
                cursor.execute(
                    "INSERT INTO stats_playerstats (user_id, scope, key, games, fools, draws, went_out, "
                    "place_total, current_streak, best_streak, last_game_at) "
                    f"SELECT s.user_id, '{scope}', {key}, count(*), count(*) FILTER (WHERE s.result = 'fool'), "
                    "count(*) FILTER (WHERE s.result = 'draw'), count(s.place), coalesce(sum(s.place), 0), 0, 3, "
                    f"max(g.finished_at) {finished_seats} GROUP BY s.user_id "
                    "ON CONFLICT (user_id, scope, key) DO UPDATE SET games = stats_playerstats.games + excluded.games, "
                    "fools = stats_playerstats.fools + excluded.fools",
                    params,
                )
            cursor.execute(
                "INSERT INTO stats_rating (user_id, mode, players, mu, sigma, ordinal, games, updated_at) "
                "SELECT s.user_id, 'throw_in', p.players, 27, 5, 12 + random(), count(*), max(g.finished_at) "
                f"{finished_seats.replace('WHERE', 'CROSS JOIN (VALUES (0), (2)) AS p(players) WHERE')} "
                "GROUP BY s.user_id, p.players ON CONFLICT (user_id, mode, players) DO NOTHING",
                params,
            )
            cursor.execute(
                "INSERT INTO stats_pairstats (low_id, high_id, games, low_fools, high_fools, draws, low_ahead, "
                "high_ahead, last_game_at) "
                "SELECT least(a.user_id, b.user_id), greatest(a.user_id, b.user_id), count(*), 0, 0, 0, 0, 0, "
                "max(g.finished_at) FROM games_seat a JOIN games_seat b ON b.game_id = a.game_id AND "
                "b.position > a.position JOIN games_game g ON g.id = a.game_id "
                "WHERE g.id >= %(first)s AND g.status = 'finished' GROUP BY 1, 2 "
                "ON CONFLICT (low_id, high_id) DO UPDATE SET games = stats_pairstats.games + excluded.games",
                params,
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"  stats rows, ANALYZE: {time.perf_counter() - started:.0f} s", flush=True)


def counts() -> str:
    from games.models import Game, Move, Seat
    from notifications.models import Notification
    from stats.models import RatingChange

    return (
        f"{Game.objects.filter(status='finished').count()} finished games, "
        f"{Game.objects.filter(status='active').count()} running, {Seat.objects.count()} seats, "
        f"{Move.objects.count()} moves, {RatingChange.objects.count()} rating changes, "
        f"{Notification.objects.count()} notifications"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=5_000)
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--quick", action="store_true", help="a tenth of the games and players (a trial)")
    parser.add_argument(
        "--reuse", action="store_true", help="measure a database kept by --keep again (after a migration)"
    )
    parser.add_argument("--no-plans", action="store_true", help="skip the EXPLAIN ANALYZE plans")
    args = parser.parse_args()
    if args.quick:
        args.finished, args.active, args.users = args.finished // 10, args.active // 10, args.users // 10

    if not args.reuse:
        fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if args.reuse:
        from accounts.models import User
        from games.models import Game

        me = User.objects.get(username="scale-me")
        fixture = {
            "me": me,
            "steady": User.objects.get(username="scale-steady"),
            "active": Game.objects.filter(seats__user=me, status="active").order_by("pk")[0],
        }
        with_few = {}
    else:
        fixture = baseline()
        with_few = measure(fixture)
        few_db = {label: database_ms(statements) for label, (_, _, statements) in with_few.items()}
        print(f"empty: {counts()}")
        print(f"filling: {args.finished} finished and {args.active} running games, {args.users} players ...")
        fill(users=args.users, finished=args.finished, active=args.active, rng=random.Random(args.seed))
    print(f"full: {counts()}")
    with_many = measure(fixture)
    many_db = {label: database_ms(statements) for label, (_, _, statements) in with_many.items()}
    if args.reuse:
        with_few = {label: (0, float("nan"), []) for label in with_many}
        few_db = {label: float("nan") for label in with_many}
    load = os.getloadavg()
    print(f"\nmedian of {RUNS} runs; load average {load[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'':<28}{'queries':>10}{'':>6}{'ms':>16}{'':>12}")
    print(f"{'':<28}{'empty':>8}{'full':>8}{'empty':>10}{'full':>10}{'ratio':>8}")
    failed = []
    for label, (queries, seconds, _) in with_few.items():
        queries_full, seconds_full, _ = with_many[label]
        ratio = seconds_full / seconds
        ok = queries == queries_full and ratio <= TIME_TARGET
        if not ok:
            failed.append(label)
        print(
            f"{label:<28}{queries:>8}{queries_full:>8}{seconds * 1000:>10.1f}{seconds_full * 1000:>10.1f}"
            f"{ratio:>7.2f}x {'ok' if ok else 'MISSED'}"
        )
    print("\ndatabase time: the sum of the SELECTs' EXPLAIN ANALYZE execution times, ms")
    print(f"{'':<28}{'empty':>10}{'full':>10}")
    for label in with_many:
        print(f"{label:<28}{few_db[label]:>10.2f}{many_db[label]:>10.2f}")
    if not args.no_plans:
        for label, (_, _, statements) in with_many.items():
            print(f"\n### {label}")
            for sql, params in statements:
                if not sql.startswith("SELECT") or 'FROM "django_session"' in sql:
                    continue
                print(f"\n{interpolated(sql, params)}\n")
                print(explain(sql, params))
    if not args.keep and not args.reuse:
        from django.db import connections

        connections.close_all()
        fresh_database()
    if failed:
        sys.exit(f"missed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
