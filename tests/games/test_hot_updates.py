"""A move's seat updates are in place (HOT) unless an indexed column really changes (issue 32).

PostgreSQL writes an update heap-only (the new row version in the same page, no index entry, the
old version pruned without VACUUM) only if the page has room and no column an index mentions
(its keys or its ``WHERE``) changed. ``games_seat`` keeps room in its pages (``fillfactor``), and
has no index on ``deadline``, which a clocked move changes in every seat it waits for; its
``awaiting_move`` keeps the header's index, so a seat whose turn flips is updated the slow way.

The counters are the session's own for its open transaction (``pg_stat_xact_user_tables``:
nothing to flush, no other session's work counted), so the test is exact on a loaded machine.
The figures over whole games are ``benchmarks/hot_updates.py``'s.
"""

from datetime import timedelta

import pytest
from django.db import connection

from games import services
from games.models import Game, Seat
from tests.factories import started_game

pytestmark = pytest.mark.django_db

#: Every index of the seat table, as PostgreSQL has it: one more is one more entry for each
#: update that is not HOT, and one on a column a move changes makes those updates not HOT.
SEAT_INDEXES = {
    "games_seat_pkey": "CREATE UNIQUE INDEX games_seat_pkey ON public.games_seat USING btree (id)",
    "seat_unique_position": "CREATE UNIQUE INDEX seat_unique_position ON public.games_seat "
    'USING btree (game_id, "position")',
    "seat_unique_user": "CREATE UNIQUE INDEX seat_unique_user ON public.games_seat USING btree (game_id, user_id)",
    "seat_my_games_idx": "CREATE INDEX seat_my_games_idx ON public.games_seat USING btree (user_id, awaiting_move DESC)",
    "seat_user_game_idx": "CREATE INDEX seat_user_game_idx ON public.games_seat USING btree (user_id, game_id)",
    "seat_warn_idx": "CREATE INDEX seat_warn_idx ON public.games_seat USING btree (warn_at) "
    "WHERE (warn_at IS NOT NULL)",
}


def _indexes(table: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return dict(cursor.fetchall())


def _counters(table: str) -> tuple[int, int]:
    """(rows updated, of which HOT) in this session's open transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = %s", [table]
        )
        row = cursor.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def test_the_seat_table_leaves_room_in_its_pages() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'games_seat'")
        (options,) = cursor.fetchone()
    assert "fillfactor=80" in options


def test_the_seat_indexes_are_these_and_no_index_has_the_deadline() -> None:
    indexes = _indexes("games_seat")
    assert indexes == SEAT_INDEXES
    assert not any("deadline" in definition for definition in indexes.values())


def test_a_seats_lookups_by_game_and_by_user_still_have_an_index() -> None:
    # The dropped foreign-key indexes' queries (a game's seats, a player's seats, the cascade of
    # a game's deletion, the protection of a user's) use an index that leads with their column.
    leading = {
        definition.split("(", 1)[1].split(",")[0].split(")")[0]
        for definition in _indexes("games_seat").values()
    }
    assert {"game_id", "user_id"} <= leading


def test_a_move_updates_the_seats_in_place_unless_their_turn_flips() -> None:
    game, users = started_game(move_time=timedelta(seconds=120))  # a live clock: deadlines move
    updated = hot = flipped = 0
    for _ in range(12):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.state is not None
        engine = game.engine()
        player = engine.waiting_for()[0]
        waited = dict(Seat.objects.filter(game=game).values_list("pk", "awaiting_move"))
        before = _counters("games_seat")
        services.make_move(
            user=users[player],
            game_id=game.pk,
            action=engine.legal_json(player)[0],
            expected_version=game.version,
        )
        after = _counters("games_seat")
        now = dict(Seat.objects.filter(game=game).values_list("pk", "awaiting_move"))
        updated += after[0] - before[0]
        hot += after[1] - before[1]
        flipped += sum(waited[pk] != now[pk] for pk in now)
    assert updated > flipped > 0  # some moves keep a waited-for player waiting: a new deadline
    # Exact: a seat whose awaiting_move flips changes an indexed column; every other is HOT.
    assert hot == updated - flipped
