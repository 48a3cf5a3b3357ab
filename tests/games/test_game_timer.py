"""The game's timers in a row of their own (``GameTimer``, migration ``0014_game_timer``): the
database keeps the copy whatever writes the game, the sweeps find games through it, and the game
row indexes nothing a move changes, so its update can stay in place (HOT)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services, write
from games.models import Game, GameTimer
from tests.factories import GameFactory, play_moves, started_game

pytestmark = pytest.mark.django_db


def timer_of(game: Game) -> tuple[object, object] | None:
    row = GameTimer.objects.filter(game_id=game.pk).values_list("deadline", "claim_warn_at").first()
    return None if row is None else tuple(row)


def test_the_timer_follows_every_move_of_a_clocked_game() -> None:
    game, users = started_game(move_time=timedelta(hours=5))
    for _ in range(12):
        game = play_moves(game, users, 1)
        expected = (game.deadline, game.claim_warn_at)
        assert timer_of(game) == (expected if any(expected) else None)
    assert game.deadline is not None


def test_the_timer_follows_a_game_without_a_clock_through_its_claim_warning() -> None:
    game, users = started_game()
    game = play_moves(game, users, 3)
    assert game.deadline is None and game.claim_warn_at is not None
    assert timer_of(game) == (None, game.claim_warn_at)


def test_any_writer_of_the_game_keeps_the_timer_and_clearing_both_removes_it() -> None:
    game, _users = started_game(move_time=timedelta(hours=5))
    later = timezone.now() + timedelta(days=3)
    Game.objects.filter(pk=game.pk).update(deadline=later)  # a queryset update, no save()
    assert timer_of(game) == (later, None)
    Game.objects.filter(pk=game.pk).update(deadline=None, claim_warn_at=later)
    assert timer_of(game) == (None, later)
    Game.objects.filter(pk=game.pk).update(claim_warn_at=None)
    assert timer_of(game) is None
    open_game = GameFactory()  # inserted with neither: no row
    assert timer_of(open_game) is None


def test_the_sweep_finds_an_overdue_game_through_the_timer_and_only_an_overdue_one() -> None:
    overdue, _ = started_game(move_time=timedelta(hours=5))
    running, _ = started_game(move_time=timedelta(hours=5))
    past = timezone.now() - timedelta(minutes=1)
    overdue.seats.filter(awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk=overdue.pk).update(deadline=past)
    assert services.count_expired() == 1
    assert services.sweep_expired() == 1
    overdue.refresh_from_db()
    running.refresh_from_db()
    assert overdue.status == Game.Status.FINISHED
    assert running.status == Game.Status.ACTIVE
    assert timer_of(overdue) is None  # finished: nothing left to wake it for


def test_no_index_of_the_game_row_covers_a_column_a_move_changes() -> None:
    """``status`` aside (a game's start and end, not its moves), an indexed column among those a
    move writes would rule out every move's heap-only update."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT DISTINCT a.attname
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indrelid
            JOIN pg_attribute a ON a.attrelid = c.oid
            WHERE c.relname = 'games_game'
              AND (a.attnum = ANY(i.indkey)
                   OR pg_get_expr(i.indpred, i.indrelid) LIKE '%' || a.attname || '%')
              AND a.attnum > 0
            """
        )
        indexed = {name for (name,) in cursor.fetchall()}
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_game'")
        (options,) = cursor.fetchone()
    assert indexed & set(write.MOVE_FIELDS) == {"status"}, indexed
    assert "fillfactor=80" in (options or [])
