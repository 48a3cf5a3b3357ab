"""Limits: at most 6 attack cards (the hand size dealt for Tabletop), never more than the
defender held when the bout began, and the opening limit of 5 (Full rules variant: first bout
with more than three players; Black Book: until someone first defends successfully)."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import (
    attack,
    deal,
    defend,
    do,
    of_type,
    refuse,
    rules,
    take,
    throw,
)


def limit_game(preset: str, *, low: str = "6", high: str = "7", defender_cards: int = 7, **overrides: Any):
    """Player 0 attacks `low`S and holds every other card of ranks `low` and `high` (7 fitting
    cards once the defender has beaten with `high`S); player 1 beats each with an ace or king."""
    attacker = [low + "S", low + "H", low + "D", low + "C", high + "H", high + "D", high + "C"]
    defender = [high + "S", "AH", "AD", "AC", "KH", "KD", "KC"][:defender_cards]
    return deal(preset, [attacker, defender], trump="S", **overrides)


def throw_until_refused(game, low: str, high: str) -> int:
    """Attack with `low`S, beaten by `high`S; then throw the attacker's fitting cards one by one,
    each beaten at once, until a throw is refused or the bout ends. Returns the number of attack
    cards laid in the bout."""
    do(game, attack(0, low + "S"), defend(1, low + "S", high + "S"))
    beater = {
        low + "H": "AH",
        low + "D": "AD",
        low + "C": "AC",
        high + "H": "KH",
        high + "D": "KD",
        high + "C": "KC",
    }
    laid = 1
    for card, answer in beater.items():
        if not game.table:  # the bout is over: full, and everything beaten
            break
        if card not in {a["card"] for a in of_type(game, 0, "throw")}:
            refuse(game, throw(0, card))
            break
        do(game, throw(0, card))
        laid += 1
        if answer in game.hands[1]:
            do(game, defend(1, card, answer))
    return laid


@pytest.mark.parametrize(
    ("preset", "low", "high", "limit"),
    [
        ("classic", "6", "7", 6),
        ("perevodnoy", "6", "7", 6),
        ("tabletop", "6", "7", 6),
        ("durak24", "9", "10", 6),
        ("black_book", "6", "7", 5),  # first bout: nobody has defended yet
    ],
)
def test_at_most_the_limit_of_attack_cards_in_a_bout(preset: str, low: str, high: str, limit: int) -> None:
    game = limit_game(preset, low=low, high=high)
    assert throw_until_refused(game, low, high) == limit


def test_a_bout_at_the_limit_ends_when_every_card_is_beaten() -> None:
    # The attacker still holds a fitting seven, but the bout is full: it counts as passed.
    game = limit_game("classic")
    assert throw_until_refused(game, "6", "7") == 6
    assert game.table == []
    assert game.hands[0] == ["7C"]
    assert game.attacker == 1


@pytest.mark.parametrize("preset", ["classic", "black_book", "tabletop", "durak24"])
def test_never_more_attack_cards_than_the_defender_held_at_the_start(preset: str) -> None:
    low, high = ("9", "10") if preset == "durak24" else ("6", "7")
    game = limit_game(preset, low=low, high=high, defender_cards=3)
    assert throw_until_refused(game, low, high) == 3


def test_tabletop_large_deck_limit_is_the_seven_cards_dealt() -> None:
    # "Maximum cards to be defended must be as many as have been originally dealt (6 or 7)"
    assert rules("tabletop", deck_size=52).hand_size == 7
    game = deal(
        "tabletop",
        [
            ["2S", "2H", "2D", "2C", "4H", "4D", "4C", "5D", "5C"],
            ["4S", "5H", "AS", "AD", "AC", "KS", "KD", "KC"],
        ],
        trump="H",
        deck_size=52,
    )
    do(game, attack(0, "2S"), defend(1, "2S", "4S"), throw(0, "2H"), defend(1, "2H", "5H"))
    for card in ("2D", "2C", "4H", "4D", "4C"):
        do(game, throw(0, card))
    assert len(game.table) == 7
    refuse(game, throw(0, "5D"))


def test_classic_multi_card_opening_respects_the_defenders_hand() -> None:
    game = deal("classic", [["7S", "7H", "7D", "6S"], ["AS", "AH"]], trump="C")
    openings = [sorted(a["cards"]) for a in of_type(game, 0, "attack")]
    assert ["7D", "7H", "7S"] not in openings
    refuse(game, attack(0, "7S", "7H", "7D"))
    do(game, attack(0, "7S", "7H"))


FOUR_PLAYER_FIRST_BOUT = dict(opening_limit=5, opening_limit_until="first_bout", opening_limit_min_players=4)


def opening_variant_game(players: int):
    hands = [
        ["6S", "6H", "6D", "6C", "7H", "7D", "7C"],
        ["7S", "AH", "AD", "AC", "KH", "KD", "KC"],
        ["8S", "8H", "8D"],
        ["9S", "9H", "9D"],
    ][:players]
    return deal("classic", hands, trump="S", **FOUR_PLAYER_FIRST_BOUT)


@pytest.mark.parametrize(("players", "limit"), [(4, 5), (3, 6)])
def test_full_rules_five_in_the_first_bout_with_more_than_three_players(players: int, limit: int) -> None:
    # Variant: "with more than three players, the very first bout of a game is limited to 5"
    game = opening_variant_game(players)
    assert throw_until_refused(game, "6", "7") == limit


def test_full_rules_five_in_the_first_bout_only() -> None:
    # First bout: player 2 attacks player 3, who takes; the second bout has the full limit of 6.
    game = deal(
        "classic",
        [
            ["6S", "6H", "6D", "6C", "7H", "7D", "7C"],
            ["7S", "AH", "AD", "AC", "KH", "KD", "KC"],
            ["9C", "8S", "8H"],
            ["8D", "QS", "QH"],
        ],
        trump="S",
        first_attacker=2,
        **FOUR_PLAYER_FIRST_BOUT,
    )
    do(game, attack(2, "9C"), take(3))
    assert game.table == []
    assert (game.attacker, game.defender) == (0, 1)
    assert throw_until_refused(game, "6", "7") == 6


def black_book_three_player_deal(first_attacker: int):
    return deal(
        "black_book",
        [
            ["6S", "6H", "6D", "6C", "7H", "7D", "7C", "10D"],
            ["7S", "AH", "AD", "AC", "KH", "KD", "KC", "QH"],
            ["9D", "8S", "8H", "8D", "JS", "JH"],
        ],
        trump="S",
        first_attacker=first_attacker,
    )


def test_black_book_limit_of_six_after_the_first_successful_defence() -> None:
    game = black_book_three_player_deal(first_attacker=2)
    # player 2 attacks player 0, who beats it: the first successful defence of the game
    do(game, attack(2, "9D"), defend(0, "9D", "10D"))
    assert game.table == []
    assert (game.attacker, game.defender) == (0, 1)
    assert throw_until_refused(game, "6", "7") == 6


def test_black_book_limit_of_five_holds_after_a_take() -> None:
    # "if in this game no player has yet succeeded in defending, the defender may beat a maximum of five"
    game = deal(
        "black_book",
        [
            ["6S", "6H", "6D", "6C", "7H", "7D", "7C", "9H"],
            ["7S", "AH", "AD", "AC", "KH", "KD", "KC", "QH"],
        ],
        trump="S",
        first_attacker=0,
    )
    do(game, attack(0, "9H"), take(1))
    assert game.table == []
    assert (game.attacker, game.defender) == (0, 1)
    assert throw_until_refused(game, "6", "7") == 5
