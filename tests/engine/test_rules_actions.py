"""Actions as the API receives them: anything malformed, out of turn or after the end is an
IllegalAction (a ValueError) that leaves the game exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

import durak

from ._support import attack, cards, deal, defend, do, take, throw, transfer


def assert_refused(game: durak.Game, action: Any) -> None:
    before = game.to_dict()
    with pytest.raises(durak.IllegalAction) as excinfo:
        game.apply(action)
    assert str(excinfo.value).strip()
    assert game.to_dict() == before


def test_illegal_action_is_a_value_error() -> None:
    assert issubclass(durak.IllegalAction, ValueError)
    assert issubclass(durak.RulesError, ValueError)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "fly", "player": 0},
        {"player": 0, "cards": ["7S"]},
        {"type": "attack", "cards": ["7S"]},
        {"type": "attack", "player": 5, "cards": ["7S"]},
        {"type": "attack", "player": -1, "cards": ["7S"]},
        {"type": "attack", "player": "0", "cards": ["7S"]},
        {"type": "attack", "player": 0},
        {"type": "attack", "player": 0, "cards": []},
        {"type": "attack", "player": 0, "cards": "7S"},
        {"type": "attack", "player": 0, "cards": ["7S", "7S"]},
        {"type": "attack", "player": 0, "cards": ["ZZ"]},
        {"type": "attack", "player": 0, "cards": ["7s"]},
        {"type": "attack", "player": 0, "cards": ["7H"]},
        {"type": "attack", "player": 0, "cards": ["7S", "8S"]},
        {"type": "attack", "player": 1, "cards": ["AS"]},
        {"type": "throw", "player": 0, "card": "7S"},
        {"type": "defend", "player": 1, "target": "7S", "card": "AS"},
        {"type": "take", "player": 1},
        {"type": "pass", "player": 0},
        {"type": "swap_trump", "player": 0},
        {"type": "attack", "player": 0, "cards": [None]},
        {"type": "attack", "player": 0, "cards": [7]},
        {"type": "attack", "player": True, "cards": ["AS"]},
        {"type": "attack", "player": 0.0, "cards": ["7S"]},
        {"type": ["attack"], "player": 0, "cards": ["7S"]},
        {"type": "throw", "player": 0, "card": None},
        "attack",
        None,
    ],
    ids=repr,
)
def test_malformed_or_out_of_turn_actions_are_refused(action: Any) -> None:
    game = deal("classic", [cards("7S 7D 8S 9C"), cards("AS AH KD QC")], trump="C")
    assert_refused(game, action)


def test_actions_in_a_running_bout_are_checked() -> None:
    game = deal("classic", [cards("7S 7D 8S 9C"), cards("AS AH KD QC"), cards("7H JH")], trump="C")
    do(game, attack(0, "7S"))
    for action in [
        attack(0, "7D"),  # a bout is running: throw, not attack
        defend(1, "7D", "AH"),  # 7D is not on the table
        defend(1, "7S", "7S"),  # not in the defender's hand
        defend(1, "7S", "KD"),  # does not beat
        {"type": "defend", "player": 1, "card": "AS"},  # no target
        throw(1, "AS"),  # the defender does not throw
        throw(0, "9C"),  # rank not on the table
        transfer(1, "AS"),  # classic: no transfer
        take(0),
    ]:
        assert_refused(game, action)
    do(game, defend(1, "7S", "AS"))
    assert_refused(game, defend(1, "7S", "AH"))  # already beaten


def test_nothing_is_legal_after_the_end() -> None:
    game = deal("classic", [["10D", "QS"], ["JD"]], trump="C")
    do(game, attack(0, "10D"), defend(1, "10D", "JD"))
    assert game.over
    assert_refused(game, attack(0, "QS"))
    assert_refused(game, {"type": "pass", "player": 0})


def test_legal_actions_of_an_unknown_player_is_an_error_or_empty() -> None:
    game = deal("classic", [cards("7S 7D"), cards("AS AH")], trump="C")
    try:
        listed = game.legal_json(2)
    except ValueError:
        return
    assert listed == []


@pytest.mark.parametrize(
    ("hands", "stock"),
    [
        ([cards("7S 7D"), cards("7S AH")], cards("AC")),  # a card twice
        ([cards("7S 7D"), cards("AS AH")], cards("7D AC")),  # in a hand and in the stock
        ([cards("7S 3D"), cards("AS AH")], cards("AC")),  # not in a 36-card deck
        ([cards("7S XX"), cards("AS AH")], cards("AC")),  # not a card
        ([cards("7S 7D")], cards("AC")),  # one player
    ],
)
def test_from_deal_refuses_an_impossible_deal(hands: list[list[str]], stock: list[str]) -> None:
    with pytest.raises(ValueError):
        durak.Game.from_deal(durak.Rules.preset("classic"), hands, stock)


def test_from_deal_without_stock_or_trump_is_a_no_trump_game() -> None:
    # "game.trump (suit, or None for a no-trump game)": then only a higher card of the suit beats.
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"), [cards("7S 7D"), cards("AS AH 8D")], [], first_attacker=0
    )
    assert game.trump is None
    do(game, attack(0, "7D"))
    assert {a["card"] for a in game.legal_json(1) if a["type"] == "defend"} == {"8D"}


def test_transfer_skips_a_player_who_is_out() -> None:
    # Player 2 goes out; later player 1 transfers, and player 3 (not 2) becomes the defender.
    game = deal(
        "perevodnoy",
        [cards("JS 9H KH"), cards("9D 6H 7H 9S"), cards("10D"), cards("8S 6D 10H QD")],
        trump="C",
        first_attacker=1,
    )
    do(game, attack(1, "9D"), defend(2, "9D", "10D"))
    assert game.finished == [2]
    do(game, attack(3, "8S"), defend(0, "8S", "JS"))
    assert (game.attacker, game.defender) == (0, 1)
    do(game, attack(0, "9H"), transfer(1, "9S"))
    assert game.defender == 3
