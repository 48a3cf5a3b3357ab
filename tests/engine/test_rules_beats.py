"""Beating a card: a higher card of the same suit, or any trump on a non-trump;
a trump only by a higher trump. Every text says this; each printed example is a
named test, and a full table checks every card of every deck."""

from __future__ import annotations

from typing import Any

import pytest

from ._support import attack, beats, deal, defend, do, full_deck, of_type, pass_, refuse, rules

PRESET_DECKS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("perevodnoy", {}),
    ("black_book", {}),
    ("tabletop", {}),
    ("tabletop", {"deck_size": 52}),
    ("durak24", {}),
]


def attacked_with(preset: str, card: str, trump: str, **overrides: Any):
    """Player 0 attacks with `card`; player 1 holds every other card but one."""
    deck = full_deck(rules(preset, **overrides).deck_size)
    spare = next(c for c in deck if c != card)
    defender = [c for c in deck if c not in (card, spare)]
    game = deal(preset, [[card, spare], defender], trump=trump, first_attacker=0, **overrides)
    do(game, attack(0, card))
    return game


def beaten_by(game, target: str) -> set[str]:
    return {a["card"] for a in of_type(game, 1, "defend") if a["target"] == target}


def test_full_rules_example_nine_of_spades_beaten_by_higher_spades_or_any_heart() -> None:
    # "Hearts are trumps. The 9♠ is beaten by the 10♠, J♠ … A♠ or by any heart."
    game = attacked_with("classic", "9S", "H")
    hearts = {r + "H" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")}
    assert beaten_by(game, "9S") == {"10S", "JS", "QS", "KS", "AS"} | hearts


def test_full_rules_example_nine_of_hearts_beaten_only_by_higher_hearts() -> None:
    # "The 9♥ is only beaten by the 10♥, J♥, Q♥, K♥ or A♥."
    game = attacked_with("classic", "9H", "H")
    assert beaten_by(game, "9H") == {"10H", "JH", "QH", "KH", "AH"}


def test_black_book_jack_of_diamonds_beats_eight_of_diamonds() -> None:
    game = deal("black_book", [["8D", "7C"], ["JD", "6C"]], trump="S")
    do(game, attack(0, "8D"), defend(1, "8D", "JD"))
    assert game.table == []  # beaten off: nobody holds an 8 or a jack
    assert "JD" in game.discard and "8D" in game.discard


def test_black_book_ten_of_hearts_does_not_beat_eight_of_diamonds() -> None:
    game = deal("black_book", [["8D", "7C"], ["10H", "6C"]], trump="S")
    do(game, attack(0, "8D"))
    refuse(game, defend(1, "8D", "10H"))


def test_black_book_trump_six_beats_eight_of_diamonds() -> None:
    game = deal("black_book", [["8D", "7C"], ["6S", "6C"]], trump="S")
    do(game, attack(0, "8D"), defend(1, "8D", "6S"), pass_(0))
    assert game.table == []
    assert "6S" in game.discard


def test_black_book_trump_beaten_only_by_higher_trump() -> None:
    # "A trump can be beaten only by another trump of higher rank."
    game = attacked_with("black_book", "10S", "S")
    assert beaten_by(game, "10S") == {"JS", "QS", "KS", "AS"}


def test_tabletop_trump_is_higher_than_the_aces_of_other_suits() -> None:
    # "Cards in this suit hold a higher value then the Aces of the other suits."
    game = attacked_with("tabletop", "AS", "D")
    assert "6D" in beaten_by(game, "AS")
    game52 = attacked_with("tabletop", "AS", "D", deck_size=52)
    assert "2D" in beaten_by(game52, "AS")


def test_durak24_trump_attack_only_by_higher_trumps() -> None:
    # "Trump attacking cards may only be beaten by higher trumps."
    game = attacked_with("durak24", "QC", "C")
    assert beaten_by(game, "QC") == {"KC", "AC"}
    game = attacked_with("durak24", "AD", "C")
    assert beaten_by(game, "AD") == {"9C", "10C", "JC", "QC", "KC", "AC"}


def test_a_card_that_does_not_beat_is_refused() -> None:
    game = attacked_with("classic", "9S", "H")
    for card in ("8S", "6S", "9D", "AD", "AC"):
        refuse(game, defend(1, "9S", card))
    do(game, defend(1, "9S", "6H"))
    assert game.table == [["9S", "6H"]]


@pytest.mark.parametrize(("preset", "overrides"), PRESET_DECKS, ids=lambda v: str(v))
def test_every_card_is_beaten_exactly_as_the_texts_say(preset: str, overrides: dict[str, Any]) -> None:
    deck = full_deck(rules(preset, **overrides).deck_size)
    for trump in ("H", "C"):
        for card in deck:
            game = attacked_with(preset, card, trump, **overrides)
            expected = {c for c in game.hands[1] if beats(c, card, trump)}
            assert beaten_by(game, card) == expected, f"{preset} trump {trump}: {card}"
