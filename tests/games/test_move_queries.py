"""A move costs a few queries, whatever the game's length or the site's size (issue 20).

A move that does not end the game costs at most six: lock the game row, read its seats (with
their users and every fact the notifications need), insert the Move, update the seats that
changed (only their changed columns, one statement, none if nothing changed), write at most one
notification, update the game row. It never counts the move log (``Game.moves_made`` numbers
it). The last move also counts the stats in the same transaction: a bounded number more.

Counted: the statements ``services.make_move`` runs in its transaction. Not counted: the
``SAVEPOINT`` / ``RELEASE SAVEPOINT`` pair Django issues for the service's ``atomic`` because the
test already runs inside a transaction (pytest-django's); in production that ``atomic`` is the
outermost one, and its BEGIN and COMMIT go through the driver, not through a cursor, so they are
no query in Django's log either way. The after-commit effects (the live news, a queued task) run
after the transaction and are not part of the move's cost: the test's transaction never commits,
so they do not run here.
"""

import importlib
import random
import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services, write
from games.models import Game, Move, Seat
from tests.factories import UserFactory, play_moves, started_game

pytestmark = pytest.mark.django_db

#: The most queries a move that does not end its game may cost.
MOVE_QUERIES = 6
#: The most a game's last move may cost: the six, then the stats of the finished game counted in
#: the same transaction (``stats.services.game_finished``: the counted-game row, the players'
#: stats, pairs and ratings read and locked, created if missing, updated, the rating changes
#: inserted, the players' "game finished" notifications), the same for any number of players,
#: however long the game, on any site. Measured: 18, for games of 2, 3, 4 and 6 players.
FINAL_MOVE_QUERIES = 20

SAVEPOINT = re.compile(r"^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.IGNORECASE)


def move_statements(run: Callable[[], Any]) -> list[str]:
    """The SQL statements ``run`` sends, without the test transaction's savepoints."""
    # Django keeps at most 9,000 queries in its log, and a full log makes the capture come back
    # empty (it slices the log by its length): a long test would then count no query at all.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        run()
    statements = [query["sql"] for query in captured.captured_queries if not SAVEPOINT.match(query["sql"])]
    assert statements, "nothing captured"  # a move reads the game at least
    return statements


def seat_rows(game: Game) -> dict[int, tuple[Any, ...]]:
    return {
        row[0]: row[1:]
        for row in Seat.objects.filter(game=game).values_list("pk", *write.SEAT_FIELDS).order_by("pk")
    }


def updated_seat_ids(statements: list[str]) -> set[int]:
    """The seat ids the move's seat UPDATE names (``id = n`` or ``id IN (...)``), none without one."""
    updates = [sql for sql in statements if sql.startswith('UPDATE "games_seat"')]
    assert len(updates) <= 1, updates  # one statement for every seat that changed
    if not updates:
        return set()
    where = updates[0].split(" WHERE ", 1)[1]
    single = re.fullmatch(r'"games_seat"\."id" = (\d+)', where.strip())
    if single:
        return {int(single.group(1))}
    several = re.fullmatch(r'"games_seat"\."id" IN \(([\d, ]+)\)', where.strip())
    assert several, where
    return {int(pk) for pk in several.group(1).split(",")}


def play_out(
    game: Game, users: list[User], *, seed: int = 0, first: bool = False, max_moves: int = 1000
) -> tuple[list[int], int | None]:
    """Play ``game`` to its end through ``services.make_move`` with moves the engine lists
    (chosen at random, with ``seed``; or the first listed, with ``first``), checking each one:
    its statements, the seat rows it changed. Returns the query counts of the moves that did not
    end the game, and of the last."""
    chooser = random.Random(seed)
    counts: list[int] = []
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.state is not None
        engine = game.engine()
        player = chooser.choice(engine.waiting_for())
        legal = engine.legal_json(player)
        action = legal[0] if first else chooser.choice(legal)
        before = seat_rows(game)
        statements = move_statements(
            lambda user=users[player], action=action, version=game.version: services.make_move(
                user=user, game_id=game.pk, action=action, expected_version=version
            )
        )
        after = seat_rows(game)
        changed = {pk for pk in before if before[pk] != after[pk]}
        assert updated_seat_ids(statements) == changed, statements  # exactly the seats that changed
        assert not [sql for sql in statements if "COUNT(" in sql.upper()], statements  # no log count
        if Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE:
            counts.append(len(statements))
        else:
            seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
            assert seqs == list(range(1, len(seqs) + 1))
            assert Game.objects.get(pk=game.pk).moves_made == len(seqs)
            return counts, len(statements)
    raise AssertionError("the game did not end")


def assert_cheap(counts: list[int], final: int | None) -> None:
    assert counts, "no move was played"
    assert max(counts) <= MOVE_QUERIES, counts
    assert final is not None and final <= FINAL_MOVE_QUERIES, final


@pytest.mark.parametrize("seed", [1, 2])
def test_every_move_of_a_two_player_game_costs_at_most_six_queries(seed: int) -> None:
    game, users = started_game(players=2, seed=seed)
    assert_cheap(*play_out(game, users, seed=seed))


def test_every_move_of_a_four_player_team_game_with_a_live_clock_costs_at_most_six() -> None:
    game, users = started_game(
        players=4, preset="classic", overrides={"teams": "partners"}, move_time=timedelta(minutes=5)
    )
    counts, final = play_out(game, users, seed=4)
    assert_cheap(counts, final)
    assert len(counts) > 20  # a long game: the count stays flat however many moves came before


def test_a_correspondence_game_with_weekend_pauses_costs_at_most_six() -> None:
    game, users = started_game(players=3, move_time=timedelta(days=2), pause_weekends=True)
    assert_cheap(*play_out(game, users, seed=5))


def test_a_booked_vacation_costs_one_read_for_all_players_on_a_move_that_starts_a_clock() -> None:
    game, users = started_game(players=3, move_time=timedelta(days=2))
    for user in users:  # every player away some day: still one read a move, not one per player
        services.vacation_take(user=user, starts_on=date.today() + timedelta(days=3), days=2)
    counts, final = play_out(game, users, seed=6)
    assert max(counts) <= MOVE_QUERIES + 1, counts
    assert final is not None and final <= FINAL_MOVE_QUERIES + 1


def test_a_game_against_a_computer_player_costs_at_most_six_and_reads_no_more_for_the_bot() -> None:
    human = UserFactory()
    game = services.game_against_computer(creator=human, level="rules", preset="classic", num_players=3)
    seats = {seat.position: seat.user for seat in game.seats.select_related("user")}
    users = [seats[p] for p in range(3)]
    assert sum(user.is_bot for user in users) == 2
    # The bots' moves go through the same core (the task is not run: the test never commits).
    assert_cheap(*play_out(game, users, seed=7, first=True))


def test_a_move_costs_the_same_on_a_site_with_many_games_of_the_same_players() -> None:
    alice, bob = UserFactory(), UserFactory()

    def game_of_both(seed: int) -> Game:
        game = services.game_create(creator=alice, preset="classic", num_players=2, seed=seed)
        return services.game_join(user=bob, game_id=game.pk)

    def by_position(game: Game) -> list[User]:
        seats = {seat.position: seat.user for seat in game.seats.select_related("user")}
        return [seats[0], seats[1]]

    quiet = game_of_both(8)
    quiet_counts, quiet_final = play_out(quiet, by_position(quiet), seed=8)
    for n in range(30):  # the same two players in many more games, each with moves and notifications
        other = game_of_both(100 + n)
        play_moves(other, by_position(other), 1 + n % 4)
    busy = game_of_both(8)
    busy_counts, busy_final = play_out(busy, by_position(busy), seed=8)
    assert_cheap(busy_counts, busy_final)
    assert busy_counts == quiet_counts and busy_final == quiet_final  # same deal, same moves, same cost


def test_a_move_that_changes_no_seat_writes_none() -> None:
    game, users = started_game(players=2, seed=9)
    engine = game.engine()
    bystander = 1 - engine.waiting_for()[0]
    # A player's ``auto_pass`` preference, while the game waits for the other: no seat row changes.
    statements = move_statements(
        lambda: services.make_move(
            user=users[bystander],
            game_id=game.pk,
            action={"type": "auto_pass", "on": True},
            expected_version=game.version,
        )
    )
    assert Move.objects.filter(game=game).count() == 1
    assert not [sql for sql in statements if sql.startswith('UPDATE "games_seat"')], statements
    assert len(statements) <= MOVE_QUERIES - 1


def test_moves_made_of_games_from_before_it_is_the_length_of_their_log() -> None:
    """The migration's backfill, run over games as they were before it (``moves_made`` 0)."""
    played, users = started_game(players=2, seed=10)
    counts, _final = play_out(played, users, seed=10)
    running, users = started_game(players=2, seed=11)
    play_moves(running, users, 3)
    unplayed, _users = started_game(players=2, seed=12)
    Game.objects.update(moves_made=0)
    migration = importlib.import_module("games.migrations.0008_game_moves_made")
    migration.backfill(django_apps, None)
    made = dict(Game.objects.values_list("pk", "moves_made"))
    assert made[played.pk] == len(counts) + 1 == Move.objects.filter(game=played).count()
    assert (made[running.pk], made[unplayed.pk]) == (3, 0)
    # And the next move goes on from there.
    play_moves(running, users, 1)
    assert list(Move.objects.filter(game=running).values_list("seq", flat=True)) == [1, 2, 3, 4]
