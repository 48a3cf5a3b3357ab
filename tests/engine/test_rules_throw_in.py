"""Throwing in: only ranks already on the table, by whom and when each text allows."""

from __future__ import annotations

import pytest

from ._support import (
    attack,
    cards_of,
    deal,
    defend,
    do,
    of_type,
    pass_,
    refuse,
    throw,
)


def test_throw_in_only_ranks_already_on_the_table() -> None:
    # Full rules: "only one of a rank already on the table in this bout (attacking or defending cards)"
    game = deal(
        "classic",
        [["8D", "8S", "JS", "9S", "7H", "QC"], ["JD", "6H", "7S", "10H", "KH", "AH"]],
        trump="C",
    )
    do(game, attack(0, "8D"))
    assert cards_of(game, 0, "throw") == {"8S"}
    refuse(game, throw(0, "JS"))
    do(game, defend(1, "8D", "JD"))
    assert cards_of(game, 0, "throw") == {"8S", "JS"}
    refuse(game, throw(0, "9S"))
    refuse(game, throw(0, "7H"))
    do(game, throw(0, "JS"))
    assert [pair[0] for pair in game.table] == ["8D", "JS"]


def test_a_card_not_in_hand_cannot_be_thrown() -> None:
    game = deal("classic", [["8D", "9S"], ["JD", "6H", "7S"], ["8H", "9H"]], trump="C")
    do(game, attack(0, "8D"))
    refuse(game, throw(0, "8H"))  # player 2 holds it
    refuse(game, throw(0, "8C"))  # discarded


@pytest.mark.parametrize("preset", ["classic", "perevodnoy"])
def test_main_attacker_has_priority_over_the_others(preset: str) -> None:
    # Full rules: "The other players may also throw in ... only if the main attacker allows it;
    # the main attacker has priority". Contract: others throw once the main attacker has passed
    # since the last card.
    game = deal(
        preset,
        [["8D", "8S", "6H", "7H"], ["JD", "QS", "KH", "AH", "10S"], ["8H", "8C", "9H"]],
        trump="C",
    )
    do(game, attack(0, "8D"))
    assert of_type(game, 2, "throw") == []
    assert of_type(game, 2, "pass"), "a player waiting for priority may still pass"
    refuse(game, throw(2, "8H"))
    do(game, pass_(0))
    do(game, throw(2, "8H"))
    # a new card landed: the main attacker has priority again
    assert of_type(game, 2, "throw") == []
    refuse(game, throw(2, "8C"))
    do(game, pass_(0))
    do(game, throw(2, "8C"))
    # 8C is a new card, so the main attacker's pass no longer holds: he may add his 8
    do(game, throw(0, "8S"))
    assert [pair[0] for pair in game.table] == ["8D", "8H", "8C", "8S"]


@pytest.mark.parametrize("preset", ["classic", "perevodnoy"])
def test_others_wait_for_the_main_attacker_even_when_he_has_no_fitting_card(preset: str) -> None:
    # Whether the main attacker holds a card that fits is his secret: the others throw once he has
    # said he is done, exactly as when he chooses not to throw.
    game = deal(preset, [["8D", "6H", "7H"], ["JD", "QS", "KH", "AH"], ["8H", "9H"]], trump="C")
    do(game, attack(0, "8D"))
    assert game.legal_json(0) == [pass_(0)]
    assert of_type(game, 2, "throw") == []
    refuse(game, throw(2, "8H"))
    do(game, pass_(0))
    assert cards_of(game, 2, "throw") == {"8H"}
    do(game, throw(2, "8H"))


def test_black_book_anyone_throws_at_any_moment() -> None:
    # "At any moment during a turn, every player other than the defender may, out of turn
    # and in any number, throw new cards to the defender."
    game = deal(
        "black_book",
        [["8D", "8S", "6H"], ["JD", "QS", "KH", "AH", "10S"], ["8H", "8C", "9H"]],
        trump="C",
    )
    do(game, attack(0, "8D"))
    assert cards_of(game, 2, "throw") == {"8H", "8C"}
    assert cards_of(game, 0, "throw") == {"8S"}
    do(game, throw(2, "8H"), throw(2, "8C"), throw(0, "8S"))
    assert [pair[0] for pair in game.table] == ["8D", "8H", "8C", "8S"]
    assert all(pair[1] is None for pair in game.table)


def test_tabletop_others_join_only_once_the_first_card_is_beaten() -> None:
    # "After the first card has been defended all players become attackers and may add cards"
    game = deal(
        "tabletop",
        [["8D", "8S", "6H"], ["JD", "QS", "KH", "AH", "10S"], ["8H", "9H", "9S"]],
        trump="C",
    )
    do(game, attack(0, "8D"))
    assert of_type(game, 0, "throw") == []
    assert of_type(game, 2, "throw") == []
    refuse(game, throw(0, "8S"))
    refuse(game, throw(2, "8H"))
    do(game, defend(1, "8D", "JD"))
    # now everyone joins, without waiting for the first attacker
    assert cards_of(game, 2, "throw") == {"8H"}
    assert cards_of(game, 0, "throw") == {"8S"}
    do(game, throw(2, "8H"))


def test_durak24_attacker_adds_only_when_every_attack_card_is_beaten() -> None:
    # "Then the attacker may continue attack with another card" - after the defence.
    game = deal("durak24", [["9S", "9H", "10D", "KC"], ["10S", "AH", "JD", "QD"]], trump="C")
    do(game, attack(0, "9S"))
    refuse(game, throw(0, "9H"))
    do(game, defend(1, "9S", "10S"))
    do(game, throw(0, "9H"))
    refuse(game, throw(0, "10D"))
    do(game, defend(1, "9H", "AH"))
    do(game, throw(0, "10D"))
    do(game, defend(1, "10D", "JD"))
    assert game.table == []  # nothing left to add: beaten off
    assert game.attacker == 1


def test_neighbours_only_lets_just_the_defenders_neighbours_throw() -> None:
    # Full rules variant "Neighbours only": only the players next to the defender throw in.
    game = deal(
        "classic",
        [["8D", "6H"], ["JD", "QS", "KH", "AH"], ["8H", "9H"], ["8S", "9S"], ["8C", "9D"]],
        trump="C",
        throw_in="neighbours",
    )
    do(game, attack(0, "8D"))
    assert of_type(game, 3, "throw") == [] and of_type(game, 3, "pass") == []
    assert of_type(game, 4, "throw") == [] and of_type(game, 4, "pass") == []
    refuse(game, pass_(3))
    do(game, pass_(0))
    assert cards_of(game, 2, "throw") == {"8H"}
    refuse(game, throw(3, "8S"))
    refuse(game, throw(4, "8C"))
    do(game, throw(2, "8H"))


def test_the_defender_never_throws_or_passes() -> None:
    game = deal("classic", [["8D", "6H"], ["8S", "JD", "QS"], ["8H", "9H"]], trump="C")
    do(game, attack(0, "8D"))
    kinds = {a["type"] for a in game.legal_json(1)}
    assert "throw" not in kinds and "pass" not in kinds
    refuse(game, throw(1, "8S"))
    refuse(game, pass_(1))


def test_pass_is_offered_to_everyone_allowed_to_throw_in_whatever_they_hold() -> None:
    # Player 2 holds no eight, player 3 does: both are offered "done" and waited for alike.
    game = deal("black_book", [["8D", "6H"], ["JD", "QS", "KH"], ["9H", "10S"], ["8S", "7C"]], trump="C")
    do(game, attack(0, "8D"))
    assert game.legal_json(2) == [pass_(2)]
    assert of_type(game, 3, "pass") == [pass_(3)]
    assert game.waiting_for() == [0, 1, 2, 3]
    do(game, pass_(2))
    assert game.waiting_for() == [0, 1, 3]


def test_a_main_attacker_with_no_cards_left_counts_as_passed() -> None:
    game = deal("classic", [["8D"], ["JD", "QS", "KS"], ["8S", "9H"]], trump="C")
    do(game, attack(0, "8D"))
    assert cards_of(game, 2, "throw") == {"8S"}


def test_neighbours_only_skips_a_neighbour_who_is_out() -> None:
    # Player 2 goes out; when player 1 defends later, his neighbours are players 0 and 3.
    game = deal(
        "classic",
        [["9H", "QD", "6S"], ["9D", "KD", "6H"], ["10D"], ["7S", "QC", "6D"], ["8S", "7H", "QS", "AS"]],
        trump="C",
        first_attacker=1,
        throw_in="neighbours",
    )
    do(game, attack(1, "9D"), defend(2, "9D", "10D"))
    assert game.finished == [2]
    do(game, attack(3, "7S"), defend(4, "7S", "8S"))
    assert game.waiting_for() == [0, 3]  # the defender's neighbours, 3 and 0, may add
    do(game, pass_(3), pass_(0))
    do(game, attack(4, "7H"), defend(0, "7H", "9H"))
    assert (game.attacker, game.defender) == (0, 1)
    do(game, attack(0, "QD"))
    assert game.waiting_for() == [0, 1, 3]  # not player 4: 3 is the defender's right neighbour now
    refuse(game, pass_(4))
    do(game, pass_(0))
    assert cards_of(game, 3, "throw") == {"QC"}
    refuse(game, throw(4, "QS"))
    do(game, throw(3, "QC"))
