from datetime import timedelta
from typing import Any

import pytest
from django.forms.models import model_to_dict

import durak
from games import services
from games.exceptions import (
    GameNotFound,
    IllegalMove,
    InvalidRules,
    NotAllowed,
    StaleVersion,
    WrongStatus,
)
from games.models import Game, Move, Seat
from tests.factories import LONGER_DEAL, SHORT_DEAL, GameFactory, UserFactory, play_moves, started_game

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> dict[str, Any]:
    """Everything stored about a game, to check that a refused call changed nothing."""
    game.refresh_from_db()
    return {
        "game": model_to_dict(game),
        "updated_at": game.updated_at,
        "seats": [model_to_dict(seat) for seat in game.seats.order_by("pk")],
        "moves": list(game.moves.values()),
    }


# game_create


def test_create_seats_the_creator_and_stores_full_rules(user: Any) -> None:
    game = services.game_create(creator=user, preset="perevodnoy", num_players=3, overrides={"deck_size": 52})
    assert game.status == Game.Status.OPEN
    assert game.rules == durak.Rules.preset("perevodnoy", deck_size=52).to_dict()
    assert game.rule_overrides == {"deck_size": 52}
    assert game.state is None
    assert [(seat.user, seat.position) for seat in game.seats.all()] == [(user, 0)]


def test_create_refuses_unknown_preset(user: Any) -> None:
    with pytest.raises(InvalidRules, match="Unknown rule set"):
        services.game_create(creator=user, preset="poker", num_players=2)
    assert not Game.objects.exists()


def test_create_refuses_bad_option(user: Any) -> None:
    with pytest.raises(InvalidRules):
        services.game_create(creator=user, preset="classic", num_players=2, overrides={"deck_size": 40})
    with pytest.raises(InvalidRules):
        services.game_create(creator=user, preset="classic", num_players=2, overrides={"no_such_option": 1})
    assert not Game.objects.exists()


def test_create_refuses_player_count_the_rules_do_not_allow(user: Any) -> None:
    with pytest.raises(InvalidRules):
        services.game_create(creator=user, preset="durak24", num_players=5)
    with pytest.raises(InvalidRules):
        services.game_create(creator=user, preset="classic", num_players=1)
    assert not Game.objects.exists()


def test_create_refuses_a_deal_with_the_wrong_number_of_hands(user: Any) -> None:
    with pytest.raises(InvalidRules, match="one hand per player"):
        services.game_create(creator=user, preset="classic", num_players=3, deal=SHORT_DEAL)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": [["6S", "6S"], ["8S"]], "stock": [], "trump": "C"}, "dealt twice"),
        ({"hands": [["6S"], ["XX"]], "stock": [], "trump": "C"}, "not cards of a 36-card deck"),
        ({"hands": [["6S"], ["8S"]]}, "stock"),  # no stock at all
    ],
)
def test_create_refuses_a_bad_stacked_deal_at_once(user: Any, deal: dict[str, Any], message: str) -> None:
    """Also with a move time: the deal is checked whatever the time control."""
    for move_time in (None, timedelta(minutes=2)):
        with pytest.raises(InvalidRules, match=f"Bad stacked deal: .*{message}"):
            services.game_create(
                creator=user, preset="classic", num_players=2, deal=deal, move_time=move_time
            )
    assert not Game.objects.exists()


# game_join


def test_join_takes_the_next_seat_and_bumps_the_version() -> None:
    game = GameFactory(num_players=3)
    joiner = UserFactory()
    game = services.game_join(user=joiner, game_id=game.pk)
    assert game.version == 1
    assert game.status == Game.Status.OPEN
    assert game.seats.get(user=joiner).position == 1


def test_join_filling_the_last_seat_starts_the_game() -> None:
    game = GameFactory(num_players=2, seed=7)
    services.game_join(user=UserFactory(), game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.started_at is not None
    engine = game.engine()
    expected = durak.Game.new(durak.Rules.preset("classic"), 2, 7, dealer=game.dealer)
    assert engine.to_dict() == expected.to_dict()
    waiting = set(engine.waiting_for())
    assert {seat.position for seat in game.seats.filter(awaiting_move=True)} == waiting


def test_join_twice_is_the_same_answer_and_writes_nothing() -> None:
    """A second click (or a retry) finds the seat the first took: the game as it is."""
    game = GameFactory(num_players=3)
    before = snapshot(game)
    assert services.game_join(user=game.creator, game_id=game.pk).pk == game.pk
    assert snapshot(game) == before
    started, users = started_game()
    before = snapshot(started)
    assert services.game_join(user=users[1], game_id=started.pk).status == Game.Status.ACTIVE
    assert snapshot(started) == before


def test_join_a_started_game_is_refused() -> None:
    game, _ = started_game()
    before = snapshot(game)
    with pytest.raises(WrongStatus):
        services.game_join(user=UserFactory(), game_id=game.pk)
    assert snapshot(game) == before


def test_join_a_missing_game() -> None:
    with pytest.raises(GameNotFound):
        services.game_join(user=UserFactory(), game_id=999_999)


# game_leave


def test_leave_frees_the_seat() -> None:
    game = GameFactory(num_players=3)
    joiner = UserFactory()
    services.game_join(user=joiner, game_id=game.pk)
    game = services.game_leave(user=joiner, game_id=game.pk)
    assert game.status == Game.Status.OPEN
    assert not game.seats.filter(user=joiner).exists()
    assert game.version == 2


def test_creator_leaving_cancels_the_game() -> None:
    game = GameFactory(num_players=3)
    game = services.game_leave(user=game.creator, game_id=game.pk)
    assert game.status == Game.Status.ABORTED


def test_leave_without_a_seat_or_after_the_start_is_refused() -> None:
    game = GameFactory(num_players=3)
    with pytest.raises(WrongStatus, match="no seat in this game"):
        services.game_leave(user=UserFactory(), game_id=game.pk)
    started, users = started_game()
    with pytest.raises(WrongStatus, match="has not started"):
        services.game_leave(user=users[1], game_id=started.pk)
    services.game_leave(user=game.creator, game_id=game.pk)
    with pytest.raises(WrongStatus, match="over already"):  # the second of two leaves at once
        services.game_leave(user=game.creator, game_id=game.pk)


# game_start


def test_creator_starts_early_and_seats_are_renumbered() -> None:
    game = GameFactory(num_players=4)
    first, second = UserFactory(), UserFactory()
    services.game_join(user=first, game_id=game.pk)
    services.game_join(user=second, game_id=game.pk)
    services.game_leave(user=first, game_id=game.pk)  # leaves a gap at position 1
    game = services.game_start(user=game.creator, game_id=game.pk)
    assert game.status == Game.Status.ACTIVE
    assert game.num_players == 2
    assert [(seat.user, seat.position) for seat in game.seats.order_by("position")] == [
        (game.creator, 0),
        (second, 1),
    ]
    assert game.engine().players == 2


def test_only_the_creator_may_start_early() -> None:
    game = GameFactory(num_players=3)
    joiner = UserFactory()
    services.game_join(user=joiner, game_id=game.pk)
    before = snapshot(game)
    with pytest.raises(NotAllowed):
        services.game_start(user=joiner, game_id=game.pk)
    assert snapshot(game) == before


def test_start_alone_is_refused() -> None:
    game = GameFactory(num_players=3)
    with pytest.raises(WrongStatus, match="Cannot start with 1 player:"):
        services.game_start(user=game.creator, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_start_a_started_game_is_refused() -> None:
    game, users = started_game()
    with pytest.raises(WrongStatus):
        services.game_start(user=users[0], game_id=game.pk)


def test_stacked_deal_is_dealt() -> None:
    game, _ = started_game(deal=SHORT_DEAL)
    engine = game.engine()
    assert engine.hands == [["6S", "7H"], ["8S"]]
    assert engine.trump == "C"


# make_move


def test_make_move_applies_records_and_bumps_version(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, users = started_game(deal=SHORT_DEAL)
    version = game.version
    with django_capture_on_commit_callbacks() as callbacks:
        game = services.make_move(
            user=users[0],
            game_id=game.pk,
            action={"type": "attack", "cards": ["6S"]},
            expected_version=version,
        )
    # After the commit: the write core's one list of effects (here only the version, for the cache
    # and live stream: no clock, no computer player, so no broker message), the "your move" e-mail
    # of the player now waited for, and one bell event for everyone whose bell or turn counts
    # changed (the "your move" and the turns that flipped: one send, not one each).
    assert len(callbacks) == 3
    assert game.version == version + 1
    move = Move.objects.get(game=game)
    assert (move.seq, move.position) == (1, 0)
    assert move.action == {"type": "attack", "cards": ["6S"], "player": 0}
    assert game.engine().table == [["6S", None]]
    assert list(game.seats.filter(awaiting_move=True).values_list("position", flat=True)) == [1]


def test_make_move_to_the_end_records_the_result() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    game = services.make_move(
        user=users[1],
        game_id=game.pk,
        action={"type": "defend", "target": "6S", "card": "8S"},
        expected_version=game.version + 1,
    )
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    seats = {seat.position: seat for seat in game.seats.all()}
    assert (seats[0].result, seats[0].place) == (Seat.Result.FOOL, None)
    assert (seats[1].result, seats[1].place) == (Seat.Result.OUT, 1)
    assert not any(seat.awaiting_move for seat in seats.values())
    with pytest.raises(WrongStatus):
        services.make_move(
            user=users[0], game_id=game.pk, action={"type": "pass"}, expected_version=game.version
        )


def test_stale_version_changes_nothing() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = snapshot(game)
    with pytest.raises(StaleVersion):
        services.make_move(
            user=users[0],
            game_id=game.pk,
            action={"type": "attack", "cards": ["6S"]},
            expected_version=game.version - 1,
        )
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "action",
    [
        {"type": "attack", "cards": ["8S"]},  # not in my hand
        {"type": "take"},  # the attacker cannot take
        {"type": "defend", "target": "6S"},  # malformed
        {"type": "fly"},
        {"cards": ["6S"]},
        ["attack"],
    ],
)
def test_illegal_action_changes_nothing(action: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = snapshot(game)
    with pytest.raises(IllegalMove):
        services.make_move(user=users[0], game_id=game.pk, action=action, expected_version=game.version)
    assert snapshot(game) == before


def test_engine_message_reaches_the_player() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    with pytest.raises(IllegalMove) as error:
        services.make_move(
            user=users[1],
            game_id=game.pk,
            action={"type": "attack", "cards": ["8S"]},
            expected_version=game.version,
        )
    assert str(error.value)  # the engine's own explanation, not empty


def test_moving_for_someone_else_or_without_a_seat_is_refused() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = snapshot(game)
    with pytest.raises(NotAllowed):
        services.make_move(
            user=users[1],
            game_id=game.pk,
            action={"type": "attack", "player": 0, "cards": ["6S"]},
            expected_version=game.version,
        )
    with pytest.raises(NotAllowed):
        services.make_move(
            user=UserFactory(),
            game_id=game.pk,
            action={"type": "take"},
            expected_version=game.version,
        )
    assert snapshot(game) == before


def test_make_move_on_an_open_game_is_refused() -> None:
    game = GameFactory(num_players=3)
    with pytest.raises(WrongStatus):
        services.make_move(user=game.creator, game_id=game.pk, action={"type": "take"}, expected_version=0)


@pytest.mark.parametrize("kind", ["timeout", "resign"])
def test_players_cannot_post_system_actions(kind: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = snapshot(game)
    with pytest.raises(IllegalMove):
        services.make_move(
            user=users[0], game_id=game.pk, action={"type": kind}, expected_version=game.version
        )
    assert snapshot(game) == before


# Final results


def assert_final_results_agree_with_the_stats(game: Game) -> None:
    """Every seat of a finished game has a result, and the fools are exactly the players the
    stats ledger counted as losing."""
    from stats.models import PlayerStats

    seats = list(game.seats.all())
    assert all(seat.result != Seat.Result.NONE for seat in seats)
    for seat in seats:
        row = PlayerStats.objects.get(user_id=seat.user_id, scope="all")
        assert row.fools == int(seat.result == Seat.Result.FOOL), seat
        if seat.result == Seat.Result.OUT:
            assert seat.place is not None, seat
        if seat.result == Seat.Result.WON:
            assert seat.place is None, seat  # still held cards; a losing side's player may have a place


@pytest.mark.parametrize("teams", ["partners", "black_book"])
def test_a_team_game_ended_by_resignation_gives_every_seat_a_result(teams: str) -> None:
    preset = "black_book" if teams == "black_book" else "classic"
    game, users = started_game(players=4, preset=preset, overrides={"teams": teams})
    services.game_resign(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    results = {seat.position: seat.result for seat in game.seats.all()}
    assert results == {0: Seat.Result.WON, 1: Seat.Result.FOOL, 2: Seat.Result.WON, 3: Seat.Result.FOOL}
    assert_final_results_agree_with_the_stats(game)


def test_a_team_game_played_out_gives_every_seat_a_result() -> None:
    game, users = started_game(players=4, overrides={"teams": "partners"})
    game = play_moves(game, users, 400)
    assert game.status == Game.Status.FINISHED
    engine = game.engine()
    assert engine.losing_team is not None or engine.loser is None
    for seat in game.seats.all():
        if engine.losing_team is None:
            assert seat.result == Seat.Result.DRAW
        elif seat.position % 2 == engine.losing_team:
            assert seat.result == Seat.Result.FOOL  # even a partner who went out first
        else:
            assert seat.result == Seat.Result.OUT and seat.place is not None
    assert_final_results_agree_with_the_stats(game)


def test_players_still_holding_cards_when_someone_resigns_have_won() -> None:
    game, users = started_game(players=3)
    services.game_resign(game_id=game.pk, user=users[2])
    game.refresh_from_db()
    results = {seat.position: seat.result for seat in game.seats.all()}
    assert results == {0: Seat.Result.WON, 1: Seat.Result.WON, 2: Seat.Result.FOOL}
    assert_final_results_agree_with_the_stats(game)
