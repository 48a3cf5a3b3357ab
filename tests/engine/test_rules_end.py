"""The end: with the stock gone a player without cards is out; the last player holding cards is
the fool; if nobody holds cards, the game is a draw. `finished` lists players in the order out."""

from __future__ import annotations

import pytest

from ._support import attack, cards, deal, defend, do, refuse, take, throw

ALL_PRESETS = ["classic", "perevodnoy", "black_book", "tabletop", "durak24"]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_draw_when_the_last_defence_uses_the_last_card(preset: str) -> None:
    # Full rules: "If the last defender beats the last attack with their last card so that nobody
    # has cards left, the game is a draw - there is no fool." (Tabletop says the same.)
    game = deal(preset, [["10D"], ["JD"]], trump="C")
    do(game, attack(0, "10D"), defend(1, "10D", "JD"))
    assert game.over
    assert game.loser is None
    assert sorted(game.finished) == [0, 1]
    assert game.legal_json(0) == [] and game.legal_json(1) == []
    assert game.view(None)["over"] is True and game.view(None)["loser"] is None


def test_not_a_draw_while_a_third_player_holds_cards() -> None:
    game = deal("classic", [["9D"], ["10D"], ["6S"]], trump="C")
    do(game, attack(0, "9D"), defend(1, "9D", "10D"))
    assert game.over
    assert game.loser == 2
    assert sorted(game.finished) == [0, 1]


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_the_last_player_holding_cards_is_the_fool(preset: str) -> None:
    game = deal(preset, [["10D", "QS"], ["JD"]], trump="C")
    do(game, attack(0, "10D"), defend(1, "10D", "JD"))
    assert game.over
    assert game.loser == 0
    assert game.finished == [1]
    assert game.view(0)["loser"] == 0
    assert game.waiting_for() == []


def test_the_fool_after_taking_the_last_attack() -> None:
    game = deal("classic", [["AS"], ["6H", "7H"]], trump="C")
    do(game, attack(0, "AS"), take(1))
    assert game.over and game.loser == 1 and game.finished == [0]


def test_finished_lists_players_in_the_order_they_went_out() -> None:
    game = deal(
        "classic",
        [cards("9D 7H 6S"), cards("10D"), cards("8H"), cards("JH 6H")],
        trump="C",
    )
    do(game, attack(0, "9D"), defend(1, "9D", "10D"))
    assert game.finished == [1] and not game.over
    assert (game.attacker, game.defender) == (2, 3)
    do(game, attack(2, "8H"), defend(3, "8H", "JH"))
    assert game.finished == [1, 2] and not game.over
    assert (game.attacker, game.defender) == (3, 0)
    do(game, attack(3, "6H"), defend(0, "6H", "7H"))
    assert game.finished == [1, 2, 3]
    assert game.over and game.loser == 0


def test_nobody_is_out_while_the_stock_lasts() -> None:
    # "Once the stock is gone, nobody draws any more. A player who runs out of cards is out."
    game = deal("classic", [["9D"], ["10D", "6S"]], cards("7S 8S AH"), first_attacker=0)
    do(game, attack(0, "9D"), defend(1, "9D", "10D"))
    assert game.finished == [] and not game.over
    assert sorted(game.hands[0]) == ["7S", "8S", "AH"]
    assert game.hands[1] == ["6S"]


def test_a_player_out_of_cards_takes_no_part_any_more() -> None:
    game = deal("black_book", [cards("9D 6S"), cards("10D"), cards("8H 9H"), cards("JH 9S")], trump="C")
    do(game, attack(0, "9D"), defend(1, "9D", "10D"))
    assert game.legal_json(1) == []
    do(game, attack(2, "8H"))
    assert game.legal_json(1) == []
    refuse(game, throw(1, "9S"))
    refuse(game, take(1))
