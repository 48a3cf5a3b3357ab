"""Out of time and walking away: the engine, not the caller, decides what a timeout does."""

import pytest

from durak import Game, IllegalAction, Rules


def deal(on_timeout: str = "fool") -> Game:
    # Spades are trumps; player 0 holds the lowest trump (7S) and attacks player 1.
    return Game.from_deal(
        Rules.preset("classic", on_timeout=on_timeout, trump_swap="never"),
        hands=[["7S", "9H", "6D"], ["10H", "8D", "AC"], ["9D", "KC", "QH"]],
        stock=["JD", "6S"],
    )


def test_timeout_makes_the_player_the_fool_by_default() -> None:
    game = deal()
    game.apply({"type": "timeout", "player": 0})
    assert game.over and game.loser == 0
    assert game.end == {"reason": "timeout", "player": 0}
    assert game.view(1)["end"] == {"reason": "timeout", "player": 0}


def test_timeout_only_for_a_player_the_game_waits_for() -> None:
    game = deal()
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="not waiting for player 2"):
        game.apply({"type": "timeout", "player": 2})
    assert game.to_dict() == before


def test_gentle_rule_attacker_plays_lowest_non_trump() -> None:
    game = deal("auto")
    game.apply({"type": "timeout", "player": 0})
    assert game.table == [["6D", None]]
    assert not game.over


def test_gentle_rule_defender_takes_and_thrower_passes() -> None:
    game = deal("auto")
    game.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    game.apply({"type": "timeout", "player": 1})
    assert game.taking
    # Player 0 has no other 9; player 2 could add the 9D. Out of time, player 2 passes.
    assert game.waiting_for() == [2]
    game.apply({"type": "timeout", "player": 2})
    assert game.last_bout == {"attacker": 0, "defender": 1, "result": "taken"}
    assert "9H" in game.hands[1]


def test_gentle_rule_second_timeout_in_a_row_is_the_fool() -> None:
    game = deal("auto")
    game.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    game.apply({"type": "timeout", "player": 1})  # takes
    game.apply({"type": "timeout", "player": 2})  # passes: player 1 picks up, player 2 attacks
    assert game.attacker == 2 and game.defender == 0
    game.apply({"type": "timeout", "player": 2})
    assert game.over and game.loser == 2


def test_acting_in_time_resets_the_count() -> None:
    game = Game.from_deal(
        Rules.preset("classic", on_timeout="auto", trump_swap="never"),
        hands=[["7S", "6D", "6H"], ["10H", "8D", "AC"]],
        stock=["JD", "9S"],
    )
    game.apply({"type": "timeout", "player": 0})  # plays the lowest non-trump, 6D
    assert game.table == [["6D", None]] and game.timeouts == [1, 0]
    game.apply({"type": "throw", "player": 0, "card": "6H"})
    assert game.timeouts == [0, 0]


def test_resign_ends_the_game_with_that_player_the_fool() -> None:
    game = deal()
    game.apply({"type": "resign", "player": 2})
    assert game.over and game.loser == 2
    assert game.end == {"reason": "resign", "player": 2}
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply({"type": "attack", "player": 0, "cards": ["7S"]})


def test_system_actions_are_not_offered_as_choices() -> None:
    game = deal()
    kinds = {a["type"] for p in range(3) for a in game.legal_actions(p)}
    assert not kinds & {"timeout", "resign"}
