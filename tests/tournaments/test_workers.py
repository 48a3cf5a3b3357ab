"""Tournaments run by a real Celery worker and beat (subprocesses, Redis, the test database):
two beats at once, and a worker killed while it opens a round."""

from datetime import timedelta

import psycopg
from django.db import connection, transaction
from django.utils import timezone

from games.models import Game
from tests.celery_processes import CeleryEnv, celery_env, wait_until
from tournaments.models import Round, Table, Tournament

from .helpers import finish, round_games, tournament, with_players

__all__ = ["celery_env"]  # the fixture, imported for the tests below

#: How long a test waits for what it expects before it fails (a loaded 2-core machine).
PATIENCE = 90


def round_number(t: Tournament) -> int:
    t.refresh_from_db()
    return t.round_number


def test_two_beats_run_a_tournament_to_its_end_one_round_at_a_time(celery_env: CeleryEnv) -> None:
    t = tournament(rounds=3, starts_at=timezone.now() + timedelta(seconds=3))
    with_players(t, 6)
    celery_env.start_worker(concurrency=4)
    celery_env.start_beat("beat1")
    celery_env.start_beat("beat2")
    for number in (1, 2, 3):
        wait_until(lambda: round_number(t) == number, PATIENCE, f"round {number} opened")  # noqa: B023
        games = round_games(t, number)
        assert len(games) == 3
        for game in games:
            finish(game)  # each end queues the step after its commit; the sweeps are the net
    wait_until(
        lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED, PATIENCE, "the end"
    )
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1, 2, 3]
    assert Table.objects.filter(round__tournament=t).count() == 9
    assert Game.objects.count() == 9
    assert "Task tournaments.tasks.advance_tournament[" in celery_env.log("worker")
    assert "Task tournaments.tasks.sweep_tournaments[" in celery_env.log("worker")


def test_a_worker_killed_while_it_opens_a_round_leaves_nothing_and_the_next_does_it_once(
    celery_env: CeleryEnv,
) -> None:
    t = tournament(rounds=2, starts_at=timezone.now() + timedelta(seconds=1))
    with_players(t, 8)
    # Hold the seats table: the worker's step creates the round and its first game, then waits
    # for this lock with its transaction open. It is killed there.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE games_seat IN EXCLUSIVE MODE")
        first = celery_env.start_worker("worker1", concurrency=1)
        celery_env.start_beat()

        def waiting_for_the_lock() -> bool:
            # Another connection: this transaction would keep reading one snapshot of the view.
            with psycopg.connect(celery_env.env["DATABASE_URL"], autocommit=True) as other:
                row = other.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND query ILIKE '%games_seat%'"
                ).fetchone()
            return bool(row and row[0])

        wait_until(waiting_for_the_lock, PATIENCE, "the worker's step waiting inside its transaction")
        celery_env.kill(first)
    # The killed step's transaction is gone with its connection: no round, no game.
    wait_until(lambda: not waiting_for_the_lock(), PATIENCE, "the killed step's transaction gone")
    assert not Round.objects.filter(tournament=t).exists()
    assert not Game.objects.exists()
    celery_env.start_worker("worker2")
    wait_until(lambda: round_number(t) == 1, PATIENCE, "round 1 opened by the next worker")
    assert Round.objects.filter(tournament=t).count() == 1
    assert Game.objects.count() == Table.objects.filter(round__tournament=t).count() == 4
    for game in round_games(t, 1):
        assert game.status == Game.Status.ACTIVE and game.seats.count() == 2
