"""Taking: the defender gives up; the others may still add within the limits, then the
defender picks up every card of the bout and loses the turn to attack."""

from __future__ import annotations

import pytest

from ._support import (
    assert_cards_accounted,
    attack,
    deal,
    defend,
    do,
    hand,
    of_type,
    pass_,
    refuse,
    take,
    throw,
)


@pytest.mark.parametrize("preset", ["classic", "perevodnoy"])
def test_after_take_the_others_add_then_the_defender_picks_up_everything(preset: str) -> None:
    # Full rules: "Before they do, the attackers may still add any cards they could legally have
    # thrown in (still within the limit). The defender then picks up all cards of the bout -
    # beaten and unbeaten."
    game = deal(
        preset,
        [
            ["8D", "8S", "JS", "9C", "10C", "AS"],
            ["JD", "7H", "7S", "6D", "KS", "QD"],
            ["8H", "9H", "10H", "QH", "KH", "AH"],
        ],
        ["6S", "6H", "7D", "7C", "9S", "10S", "QC", "KC", "AC"],
        first_attacker=0,
    )
    do(game, attack(0, "8D"), defend(1, "8D", "JD"), throw(0, "8S"), take(1))
    assert game.taking
    # the defender has given up: no more defending
    assert of_type(game, 1, "defend") == []
    refuse(game, defend(1, "8S", "KS"))
    # the main attacker still has priority and may add a jack
    assert of_type(game, 2, "throw") == []
    do(game, throw(0, "JS"))
    # player 0 has nothing more that fits and says so: player 2 may add now
    assert of_type(game, 2, "throw") == []
    do(game, pass_(0), throw(2, "8H"))
    # the other eights and jacks are in the discard, in sight: nobody can add, the defender picks up
    assert game.table == []
    assert hand(game, 1) == {"7H", "7S", "6D", "KS", "QD", "8D", "JD", "8S", "JS", "8H"}
    # "the next attack comes from the player to the defender's left"
    assert (game.attacker, game.defender) == (2, 0)
    # drawing: player 0 (3 cards short) first, then player 2 (1 short); the defender has plenty
    assert hand(game, 0) == {"9C", "10C", "AS", "6S", "6H", "7D"}
    assert hand(game, 2) == {"9H", "10H", "QH", "KH", "AH", "7C"}
    assert game.stock_size == 5
    assert_cards_accounted(game)


def test_after_take_the_limit_of_the_defenders_hand_still_holds() -> None:
    # The defender held 2 cards: once a second attack card is added the bout ends, and the
    # third eight (over the limit) counts as passed.
    game = deal("classic", [["8D", "8S", "8H", "6S"], ["7H", "7S"], ["9H", "10H"]], trump="C")
    do(game, attack(0, "8D"), take(1))
    do(game, throw(0, "8S"))
    assert game.table == []
    assert hand(game, 1) == {"7H", "7S", "8D", "8S"}
    assert hand(game, 0) == {"8H", "6S"}
    assert (game.attacker, game.defender) == (2, 0)


def test_take_ends_the_bout_at_once_when_nobody_can_add() -> None:
    game = deal("classic", [["8D", "6S", "7S"], ["7H", "9S", "10S"], ["9H", "10H"]], trump="C")
    do(game, attack(0, "8D"), take(1))
    assert game.table == []
    assert "8D" in game.hands[1]
    assert (game.attacker, game.defender) == (2, 0)


def test_a_pass_before_the_take_does_not_stop_adding_after_it() -> None:
    # Contract: a pass holds until a new card lands or the defender takes.
    game = deal("classic", [["8D", "8S", "6S"], ["JD", "9S", "10S"], ["9H", "10H"]], trump="C")
    do(game, attack(0, "8D"), pass_(0), take(1))
    do(game, throw(0, "8S"))
    assert game.table == []
    assert hand(game, 1) == {"JD", "9S", "10S", "8D", "8S"}


def test_durak24_no_adding_after_take() -> None:
    # durak24: "If attack succeeds defender must pick up all the attacking and defending cards of
    # the table. After attack is succeeded the attacker starts a new attack again."
    game = deal("durak24", [["9S", "9H", "KC", "AD"], ["10D", "JD", "QH"]], trump="C")
    do(game, attack(0, "9S"), take(1))
    assert game.table == []
    assert hand(game, 1) == {"10D", "JD", "QH", "9S"}
    assert hand(game, 0) == {"9H", "KC", "AD"}
    assert game.attacker == 0 and game.defender == 1


def test_durak24_take_after_beating_picks_up_beaten_cards_too() -> None:
    game = deal("durak24", [["9S", "9H", "KC", "AD"], ["10S", "JD", "QD"]], trump="C")
    do(game, attack(0, "9S"), defend(1, "9S", "10S"), throw(0, "9H"), take(1))
    assert game.table == []
    assert hand(game, 1) == {"JD", "QD", "9S", "10S", "9H"}
    assert game.attacker == 0


def test_tabletop_taking_the_first_unbeaten_card_ends_the_bout() -> None:
    # "If the defender picks up the first attacking card, the turn is over."
    game = deal(
        "tabletop",
        [["8D", "8S", "6S"], ["7H", "9S", "10S"], ["8H", "10H"]],
        trump="C",
    )
    do(game, attack(0, "8D"), take(1))
    assert game.table == []
    assert hand(game, 1) == {"7H", "9S", "10S", "8D"}
    assert "8S" in game.hands[0] and "8H" in game.hands[2]
    assert (game.attacker, game.defender) == (2, 0)


@pytest.mark.parametrize("preset", ["classic", "perevodnoy", "black_book", "tabletop", "durak24"])
def test_taking_is_always_open_to_the_defender(preset: str) -> None:
    # "If the defender can't or won't beat a card ..."
    rank = "9" if preset == "durak24" else "6"
    game = deal(preset, [[rank + "S", "KH"], ["AS", "AH", "QH"]], trump="C")
    do(game, attack(0, rank + "S"))
    assert of_type(game, 1, "take") == [take(1)]
    do(game, take(1))
    assert hand(game, 1) == {"AS", "AH", "QH", rank + "S"}
