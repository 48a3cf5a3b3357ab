"""Running a tournament (``tournaments.services``): start, rounds, finish, withdrawal, and the
one step run twice at once or cut short."""

import itertools
import threading
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games import services as game_services
from games.exceptions import InvalidRules, NotAllowed
from games.models import Game, Seat
from stats.models import Rating, RatingChange
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Player, Round, Table, Tournament

from .helpers import (
    finish,
    finish_round,
    later,
    round_games,
    seated,
    started,
    tables_of,
    tournament,
    with_players,
)

pytestmark = pytest.mark.django_db


def test_a_swiss_runs_three_rounds_and_ranks_its_players() -> None:
    t = tournament(rounds=3)
    users = with_players(t, 5)
    t = started(t)
    assert t.status == Tournament.Status.RUNNING and t.round_number == 1
    for number in (1, 2, 3):
        tables = tables_of(t, number)
        assert sorted(len(table) for table in tables) == [1, 2, 2]  # two games and a bye
        # Nothing due while a game of the round runs.
        assert not services.advance(tournament_id=t.pk, now=later(t))
        finish_round(t)
        assert services.advance(tournament_id=t.pk, now=later(t))
        t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    met = [frozenset(table) for number in (1, 2, 3) for table in tables_of(t, number) if len(table) == 2]
    assert len(met) == len(set(met)), "no pair meets twice while it can be avoided"
    byes = [table[0] for number in (1, 2, 3) for table in tables_of(t, number) if len(table) == 1]
    assert len(set(byes)) == 3, "nobody has two byes"
    rows = services.standings_rows(t)
    assert {row.player for row in rows} == {user.pk for user in users}
    assert sum(row.points for row in rows) == 3 * 3  # two games and a bye a round
    ranks = dict(Player.objects.filter(tournament=t).values_list("user_id", "final_rank"))
    assert ranks == {row.player: row.rank for row in rows}


def test_round_robin_plays_every_pair_once() -> None:
    t = tournament(format=Tournament.Format.ROUND_ROBIN)
    users = with_players(t, 4)
    t = started(t)
    assert t.rounds == 3
    for _ in range(3):
        finish_round(t)
        services.advance(tournament_id=t.pk, now=later(t))
        t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    met = [frozenset(table) for number in (1, 2, 3) for table in tables_of(t, number)]
    assert len(met) == 6
    assert set(met) == {frozenset((a.pk, b.pk)) for a, b in itertools.combinations(users, 2)}


def test_table_rounds_seat_by_score_without_repeats_and_score_by_place() -> None:
    t = tournament(format=Tournament.Format.TABLES, table_size=3, rounds=2, scoring=Tournament.Scoring.PLACES)
    with_players(t, 6)
    t = started(t)
    assert [len(table) for table in tables_of(t, 1)] == [3, 3]
    finish_round(t)
    assert services.advance(tournament_id=t.pk, now=later(t))
    first = [set(table) for table in tables_of(t, 1)]
    for table in tables_of(t, 2):
        # Each table of round 2 takes one or two from each table of round 1: no table repeats.
        assert all(len(set(table) & earlier) < 3 for earlier in first)
    rows = services.standings_rows(t)
    # Places score 2, 1, 0 at a table of three: 3 points a table.
    assert sum(row.points for row in rows) == 2 * 3


def test_too_few_players_cancel_it() -> None:
    t = tournament()
    with_players(t, 1)
    assert services.advance(tournament_id=t.pk, now=t.starts_at)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert not Round.objects.filter(tournament=t).exists()


def test_nothing_is_due_before_the_start() -> None:
    t = tournament()
    with_players(t, 4)
    assert not services.advance(tournament_id=t.pk, now=t.starts_at - timedelta(seconds=1))
    assert list(services.due(t.starts_at - timedelta(seconds=1))) == []
    assert list(services.due(t.starts_at)) == [t]


def test_a_live_round_waits_for_its_scheduled_end() -> None:
    t = tournament(move_time=timedelta(seconds=30), round_time=timedelta(minutes=10))
    with_players(t, 4)
    t = started(t)
    assert t.next_round_at == Round.objects.get(tournament=t, number=1).ends_at
    finish_round(t)
    assert t.next_round_at is not None
    assert not services.advance(tournament_id=t.pk, now=t.next_round_at - timedelta(seconds=1))
    assert services.advance(tournament_id=t.pk, now=t.next_round_at)
    t.refresh_from_db()
    assert t.round_number == 2


def test_registration_refusals() -> None:
    t = tournament(min_reliability=90)
    newcomer = UserFactory()
    with pytest.raises(NotAllowed, match="reliability"):
        services.tournament_register(user=newcomer, tournament_id=t.pk)
    rated_only = tournament(rating_min=10)
    with pytest.raises(NotAllowed, match="rated"):
        services.tournament_register(user=newcomer, tournament_id=rated_only.pk)
    open_ = tournament()
    player = services.tournament_register(user=newcomer, tournament_id=open_.pk)
    assert services.tournament_register(user=newcomer, tournament_id=open_.pk) == player
    with_players(open_, 1)
    started(open_)
    with pytest.raises(NotAllowed, match="closed"):
        services.tournament_register(user=UserFactory(), tournament_id=open_.pk)


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        ({"name": " "}, "name"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 21}, "rounds"),
        ({"format": "knockout"}, "format"),
        ({"format": Tournament.Format.TABLES, "table_size": 7}, "3 to 6"),
        ({"move_time": timedelta(seconds=30)}, "round time"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "future"),
        ({"min_reliability": 101}, "reliability"),
        ({"preset": "no-such-preset"}, "no-such-preset"),
    ],
)
def test_bad_tournaments_are_refused_and_nothing_is_written(wrong: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        tournament(**wrong)
    assert not Tournament.objects.exists()


def test_withdrawal_mid_round_resigns_the_game_and_is_not_paired_again() -> None:
    t = tournament(rounds=3)
    users = with_players(t, 4)
    t = started(t)
    leaver = users[0]
    game = next(game for game in round_games(t) if leaver in seated(game))
    services.tournament_withdraw(user=leaver, tournament_id=t.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(user=leaver).left_by == "resign"
    finish_round(t)
    services.advance(tournament_id=t.pk, now=later(t))
    assert all(leaver.pk not in table for table in tables_of(t, 2))
    assert (leaver.pk,) not in tables_of(t, 2)
    rows = {row.player: row for row in services.standings_rows(t)}
    assert rows[leaver.pk].points == 0 and rows[leaver.pk].games == 1


def time_out(game: Game, sleeper: Any) -> None:
    """The others play their first legal action whenever the game waits for them; when it waits
    for ``sleeper``, the engine's timeout is applied to them (rule "fool": the game ends)."""
    while True:
        game.refresh_from_db()
        if game.is_over:
            return
        seats = list(game.seats.select_related("user"))
        waiting = [seat for seat in seats if seat.awaiting_move]
        if any(seat.user == sleeper for seat in waiting):
            Seat.objects.filter(game=game).exclude(user=sleeper).update(awaiting_move=False)
            game_services.game_settle_stalled(game_id=game.pk)
            continue
        seat = waiting[0]
        assert game.state is not None
        engine = game.engine()
        action = engine.legal_json(seat.position)[0]
        game_services.make_move(user=seat.user, game_id=game.pk, action=action, expected_version=game.version)


def test_two_timeouts_in_a_row_withdraw_a_player() -> None:
    t = tournament(rounds=4)
    users = with_players(t, 4)
    t = started(t)
    sleeper = users[1]
    for _number in (1, 2):
        for game in round_games(t):
            if sleeper in seated(game):
                time_out(game, sleeper)
            else:
                finish(game)
        assert Player.objects.get(tournament=t, user=sleeper).withdrawn == ""
        services.advance(tournament_id=t.pk, now=later(t))
        t.refresh_from_db()
    ways = Seat.objects.filter(user=sleeper, game__tournament_table__round__tournament=t).values_list(
        "left_by", flat=True
    )
    assert list(ways) == ["timeout", "timeout"]
    assert Player.objects.get(tournament=t, user=sleeper).withdrawn == Player.Withdrawn.TIMEOUTS
    assert t.round_number == 3
    assert all(sleeper.pk not in table for table in tables_of(t, 3))


def test_a_timeout_then_a_finished_game_does_not_withdraw() -> None:
    t = tournament(rounds=3)
    users = with_players(t, 4)
    t = started(t)
    sleeper = users[2]
    for number in (1, 2):
        for game in round_games(t):
            if sleeper in seated(game) and number == 1:
                time_out(game, sleeper)
            else:
                finish(game)
        services.advance(tournament_id=t.pk, now=later(t))
        t.refresh_from_db()
    assert Player.objects.get(tournament=t, user=sleeper).withdrawn == ""
    assert any(sleeper.pk in table for table in tables_of(t, 3))


@pytest.mark.django_db(transaction=True)
def test_the_step_run_twice_at_once_opens_one_round() -> None:
    t = tournament(rounds=2)
    with_players(t, 8)
    barrier = threading.Barrier(2)
    answers: list[bool] = []
    errors: list[BaseException] = []

    def run(wait: bool) -> None:
        try:
            barrier.wait(timeout=20)
            answers.append(services.advance(tournament_id=t.pk, now=t.starts_at, wait=wait))
        except BaseException as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    # One waits for the other's lock and then finds nothing due; beat's sweep would skip instead.
    threads = [threading.Thread(target=run, args=(True,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert sorted(answers) == [False, True]
    assert Round.objects.filter(tournament=t).count() == 1
    assert Table.objects.filter(round__tournament=t).count() == 4
    assert Game.objects.filter(tournament_table__round__tournament=t).count() == 4


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_open_one_round() -> None:
    t = tournament(rounds=2)
    with_players(t, 8)
    barrier = threading.Barrier(2)
    moved: list[int] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait(timeout=20)
            moved.append(services.sweep(now=t.starts_at))
        except BaseException as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert sum(moved) == 1
    assert Round.objects.filter(tournament=t).count() == 1
    assert Game.objects.filter(tournament_table__round__tournament=t).count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_step_cut_short_leaves_nothing_and_the_next_one_does_it_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = tournament(rounds=2)
    with_players(t, 8)
    real = game_services.game_seated
    calls = {"n": 0}

    def dies_on_the_third(**options: Any) -> Game:
        calls["n"] += 1
        if calls["n"] == 3:
            raise SystemExit("worker killed")  # what a killed process leaves: a transaction not committed
        return real(**options)

    monkeypatch.setattr(game_services, "game_seated", dies_on_the_third)
    with pytest.raises(SystemExit):
        services.advance(tournament_id=t.pk, now=t.starts_at)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION and t.round_number == 0
    assert not Round.objects.exists() and not Game.objects.exists()
    monkeypatch.setattr(game_services, "game_seated", real)
    assert services.sweep(now=t.starts_at) == 1
    assert Game.objects.filter(tournament_table__round__tournament=t).count() == 4
    assert services.sweep(now=t.starts_at) == 0


def test_a_rated_tournaments_rating_changes_equal_the_same_games_outside_it() -> None:
    t = tournament(rounds=1)
    inside = with_players(t, 2)
    t = started(t)
    (game,) = round_games(t)
    first, second = seated(game)
    finish(game, loser=second)
    outside = [UserFactory(), UserFactory()]
    same = game_services.game_seated(players=outside, preset="classic", move_time=timedelta(days=1))
    game_services.player_resign(user=outside[1], game_id=same.pk)

    def change(user: Any) -> tuple[float, float, float]:
        row = RatingChange.objects.get(user=user, players=0)
        return (row.mu, row.sigma, row.delta)

    assert change(first) == change(outside[0])
    assert change(second) == change(outside[1])
    assert change(first)[2] > change(second)[2]
    assert set(inside) == {first, second}


def test_an_unrated_tournament_changes_no_rating() -> None:
    t = tournament(rounds=1, rated=False)
    with_players(t, 2)
    t = started(t)
    (game,) = round_games(t)
    finish(game)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert Game.objects.get(pk=game.pk).rated is False


def test_the_standings_points_are_fractions_of_results() -> None:
    t = tournament(rounds=1)
    with_players(t, 3)
    t = started(t)
    finish_round(t)
    rows = services.standings_rows(t)
    assert [row.points for row in rows] == [Fraction(1), Fraction(1), Fraction(0)]
