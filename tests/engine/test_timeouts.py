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


def test_gentle_rule_defender_takes_and_throwers_pass() -> None:
    game = deal("auto")
    game.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    game.apply({"type": "timeout", "player": 1})
    assert game.taking and game.timeouts == [0, 1, 0]
    # Player 0 has no other 9, player 2 could add the 9D: both are waited for alike.
    assert game.waiting_for() == [0, 2]
    game.apply({"type": "timeout", "player": 2})
    assert game.events == [{"type": "automatic", "action": {"type": "pass", "player": 2}}]
    game.apply({"type": "timeout", "player": 0})
    assert game.last_bout == {"attacker": 0, "defender": 1, "result": "taken"}
    assert "9H" in game.hands[1]
    assert game.timeouts == [0, 1, 0]  # a thrower's time running out is no strike


@pytest.mark.parametrize("on_timeout", ["fool", "auto"])
def test_a_thrower_out_of_time_is_done_and_never_the_fool(on_timeout: str) -> None:
    # A forgotten "done" click is a pass, whatever on_timeout says for the other moves.
    game = deal(on_timeout)
    game.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    game.apply({"type": "defend", "player": 1, "target": "9H", "card": "10H"})
    assert game.waiting_for() == [0, 2]
    game.apply({"type": "timeout", "player": 0})
    game.apply({"type": "timeout", "player": 2})
    assert not game.over
    assert game.last_bout == {"attacker": 0, "defender": 1, "result": "beaten"}
    assert game.timeouts == [0, 0, 0]
    # the defender's and the opening attacker's timeouts are as before
    assert game.attacker == 1
    game.apply({"type": "timeout", "player": 1})
    if on_timeout == "fool":
        assert game.over and game.loser == 1
    else:
        assert not game.over and game.timeouts == [0, 1, 0] and len(game.table) == 1


def test_gentle_rule_second_timeout_in_a_row_is_the_fool() -> None:
    game = deal("auto")
    game.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    game.apply({"type": "timeout", "player": 1})  # takes: a strike
    game.apply({"type": "timeout", "player": 2})  # passes: no strike
    game.apply({"type": "timeout", "player": 0})  # passes: player 1 picks up, player 2 attacks
    assert game.attacker == 2 and game.defender == 0
    game.apply({"type": "timeout", "player": 2})  # plays the lowest card: a strike
    game.apply({"type": "timeout", "player": 0})  # takes: a strike
    assert game.timeouts == [1, 1, 1]
    game.apply({"type": "timeout", "player": 1})  # passes: neither counted nor forgiven
    game.apply({"type": "timeout", "player": 2})
    assert game.timeouts == [1, 1, 1]
    assert game.attacker == 1 and not game.table
    game.apply({"type": "timeout", "player": 1})  # player 1's second strike in a row
    assert game.over and game.loser == 1


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
    kinds = {a["type"] for p in range(3) for a in game.legal_json(p)}
    assert not kinds & {"timeout", "resign"}
