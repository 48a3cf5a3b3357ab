"""Swapping the lowest trump (6; 9 with 24 cards; 2 with 52) for the face-up trump card:
never, before the first attack (Tabletop) or while the stock lasts (Full rules)."""

from __future__ import annotations

import pytest

from ._support import attack, cards, deal, defend, do, hand, of_type, refuse, swap


def test_full_rules_swap_the_trump_six_while_the_stock_lasts() -> None:
    # "you may at any time exchange it for the face-up trump card under the stock"
    game = deal("classic", [cards("6H 9S 10S"), cards("7S 8S JD")], cards("7D KH"), first_attacker=0)
    assert of_type(game, 0, "swap_trump") == [swap(0)]
    do(game, swap(0))
    assert hand(game, 0) == {"KH", "9S", "10S"}
    assert game.stock == ["7D", "6H"]
    assert game.trump == "H"
    assert game.view(1)["trump_card"] == "6H"
    assert of_type(game, 0, "swap_trump") == []


def test_only_the_holder_of_the_lowest_trump_may_swap() -> None:
    game = deal("classic", [cards("7H 9S 10S"), cards("6S 8S JD")], cards("7D KH"))
    assert of_type(game, 0, "swap_trump") == [] and of_type(game, 1, "swap_trump") == []
    refuse(game, swap(0))
    refuse(game, swap(1))


def test_no_swap_once_the_stock_is_empty() -> None:
    game = deal("classic", [cards("6H 9S 10S"), cards("7S 8S JD")], trump="H")
    refuse(game, swap(0))


def test_swap_allowed_while_only_the_trump_card_is_left() -> None:
    # "as long as the stock is not empty"
    game = deal("classic", [cards("6H 9S 10S"), cards("7S 8S JD")], cards("KH"))
    do(game, swap(0))
    assert game.stock == ["6H"]


def test_swap_at_any_time_during_a_bout_by_anyone_holding_the_six() -> None:
    game = deal(
        "classic",
        [cards("9S 10S 8D"), cards("JS QD 7C"), cards("6H AC 7S")],
        cards("7D KH"),
        first_attacker=0,
    )
    do(game, attack(0, "9S"))
    do(game, swap(2))
    assert "KH" in game.hands[2] and game.stock[-1] == "6H"
    assert game.table == [["9S", None]]


@pytest.mark.parametrize(
    ("overrides", "low", "not_low", "others"),
    [
        ({"deck_size": 24}, "9H", "10H", "JS QS KS"),
        ({}, "6H", "7H", "JS QS KS"),
    ],
)
def test_the_lowest_trump_of_the_deck_is_the_one_swapped(overrides, low, not_low, others) -> None:
    # Full rules variant: "Two players with 24 cards ... The trump 9 then takes the role of the trump 6."
    game = deal("classic", [[low, "AS"], cards(others)], ["AD", "AH"], **overrides)
    do(game, swap(0))
    assert "AH" in game.hands[0]
    game = deal("classic", [[not_low, "AS"], cards(others)], ["AD", "AH"], **overrides)
    refuse(game, swap(0))


def test_tabletop_large_deck_swaps_the_two() -> None:
    # "the player who holds a two (large deck) or six (small deck) of the trump suit"
    game = deal("tabletop", [cards("2H AS"), cards("3S QS KS")], cards("AD AH"), deck_size=52)
    do(game, swap(0))
    assert "AH" in game.hands[0]
    game = deal("tabletop", [cards("6H AS"), cards("3S QS KS")], cards("AD AH"), deck_size=52)
    refuse(game, swap(0))


def test_tabletop_swap_only_before_the_first_attack() -> None:
    # "This may only be done before the game begins."
    game = deal("tabletop", [cards("9S 10S"), cards("JS QD"), cards("6H 7S")], cards("7D 8D KH"))
    assert of_type(game, 2, "swap_trump") == [swap(2)]
    do(game, attack(0, "9S"))
    refuse(game, swap(2))
    game = deal("tabletop", [cards("9S 10S 8C"), cards("JS QD 7C"), cards("6H 7S")], cards("7D 8D KH"))
    do(game, attack(0, "9S"), defend(1, "9S", "JS"))
    assert game.table == []
    refuse(game, swap(2))


@pytest.mark.parametrize("preset", ["black_book", "durak24"])
def test_no_swapping_in_texts_without_it(preset: str) -> None:
    low = "9H" if preset == "durak24" else "6H"
    game = deal(preset, [[low, "AS"], cards("JS QS KS")], cards("AD AH"))
    refuse(game, swap(0))


def test_full_rules_no_swapping_variant() -> None:
    game = deal("classic", [cards("6H AS"), cards("JS QS KS")], cards("AD AH"), trump_swap="never")
    refuse(game, swap(0))


def test_a_trump_swap_can_complete_a_bout() -> None:
    # Player 2's only card that fits is the trump six; once it is swapped away, nobody can add,
    # so the bout is beaten off then and there.
    game = deal(
        "classic",
        [cards("6S 9D 8D"), cards("10S QD 7C"), cards("6H AC 7S")],
        cards("JD KH"),
        first_attacker=0,
    )
    do(game, attack(0, "6S"), defend(1, "6S", "10S"))
    assert game.table != []
    do(game, swap(2))
    assert game.table == []
    assert {"6S", "10S"} <= set(game.discard)
    assert (game.attacker, game.defender) == (1, 2)
