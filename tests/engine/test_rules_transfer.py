"""Transferring (perevodnoy, and the Black Book's classic durak): before anything is beaten,
the defender adds a card of the attack's rank and the player to the left defends against all."""

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
    take,
    throw,
    transfer,
)

TRANSFER_PRESETS = ["perevodnoy", "black_book"]


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_transfer_passes_the_attack_to_the_left(preset: str) -> None:
    game = deal(
        preset,
        [["9H", "6S", "7S"], ["9D", "6C", "7C"], ["10H", "10D", "JS", "QS"], ["8H", "8D", "8S"]],
        trump="C",
    )
    do(game, attack(0, "9H"))
    assert cards_of(game, 1, "transfer") == {"9D"}
    do(game, transfer(1, "9D"))
    assert game.defender == 2
    assert sorted(pair[0] for pair in game.table) == ["9D", "9H"]
    assert all(pair[1] is None for pair in game.table)
    assert "9D" not in game.hands[1]
    # the new defender must beat every card, the transferred one included
    do(game, defend(2, "9H", "10H"), defend(2, "9D", "10D"))
    assert game.table == []
    assert game.attacker == 2 and game.defender == 3


def test_classic_has_no_transfer() -> None:
    game = deal("classic", [["9H", "6S"], ["9D", "6C", "7C"], ["10H", "10D", "JS"]], trump="C")
    do(game, attack(0, "9H"))
    assert of_type(game, 1, "transfer") == []
    refuse(game, transfer(1, "9D"))


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_no_transfer_once_a_card_is_beaten(preset: str) -> None:
    # "Nor may an attack be transferred after at least one card has been beaten."
    game = deal(
        preset,
        [["9H", "9C", "6S"], ["9D", "10H", "6C", "7C"], ["10S", "10D", "JS", "QS"]],
        trump="S",
    )
    do(game, attack(0, "9H"), throw(0, "9C"))
    assert cards_of(game, 1, "transfer") == {"9D"}
    do(game, defend(1, "9H", "10H"))
    assert of_type(game, 1, "transfer") == []
    refuse(game, transfer(1, "9D"))


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_transfer_only_with_the_rank_of_the_attack(preset: str) -> None:
    game = deal(preset, [["9H", "6S"], ["9D", "10D", "6C", "7C"], ["10H", "JD", "JS", "QS"]], trump="S")
    do(game, attack(0, "9H"))
    assert cards_of(game, 1, "transfer") == {"9D"}
    refuse(game, transfer(1, "10D"))
    refuse(game, transfer(1, "6C"))


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
@pytest.mark.parametrize(("new_defender_cards", "allowed"), [(1, False), (2, True)])
def test_transfer_needs_a_new_defender_holding_enough_cards(
    preset: str, new_defender_cards: int, allowed: bool
) -> None:
    # "You can't pass it on if the new defender holds fewer cards than there would then be attacking cards."
    new_defender = ["10H", "10D"][:new_defender_cards]
    game = deal(preset, [["9H", "6S", "7S"], ["9D", "6C", "7C"], new_defender], trump="S")
    do(game, attack(0, "9H"))
    if allowed:
        do(game, transfer(1, "9D"))
        assert game.defender == 2
    else:
        refuse(game, transfer(1, "9D"))


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_transferred_cards_count_toward_the_new_defenders_hand_limit(preset: str) -> None:
    # The new defender holds 3 cards: after 9H + 9D only one more attack card fits.
    game = deal(
        preset,
        [["9H", "9C", "9S", "6S"], ["9D", "6C", "7C", "8C"], ["10H", "10D", "JS"]],
        trump="S",
    )
    do(game, attack(0, "9H"), transfer(1, "9D"))
    do(game, pass_(1), throw(0, "9C"))  # player 1 transferred: he is the main attacker now
    assert of_type(game, 0, "throw") == []
    refuse(game, throw(0, "9S"))
    assert len(game.table) == 3


def test_black_book_transferred_cards_count_toward_the_limit_of_five() -> None:
    # "no more than six cards in total, counting the first card laid, the thrown-in cards and the
    # transferred cards" - and five while nobody has yet defended successfully.
    game = deal(
        "black_book",
        [
            ["9H", "9C", "10S", "10C", "6S"],
            ["9D", "9S", "6C", "7C", "8C"],
            ["10H", "10D", "QC", "JS", "QH", "QD", "KH", "KD"],
        ],
        trump="S",
    )
    do(game, attack(0, "9H"), transfer(1, "9D"))
    do(game, throw(0, "9C"), throw(1, "9S"))
    assert game.defender == 2
    do(game, defend(2, "9H", "10H"), defend(2, "9D", "10D"), defend(2, "9C", "QC"), defend(2, "9S", "JS"))
    do(game, throw(0, "10S"))
    assert len(game.table) == 5
    refuse(game, throw(0, "10C"))


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_a_transfer_with_several_cards_of_one_rank_chains_on(preset: str) -> None:
    # "If he has another card of the same rank, he may transfer the attack further"
    game = deal(
        preset,
        [["9H", "6S", "7S", "8S"], ["9D", "6C", "7C"], ["9C", "10D", "JS", "QH"], ["10H", "JD", "JC", "QS"]],
        trump="S",
    )
    do(game, attack(0, "9H"), transfer(1, "9D"), transfer(2, "9C"))
    assert game.defender == 3
    assert len(game.table) == 3


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_the_defender_who_transferred_may_not_take_or_defend_any_more(preset: str) -> None:
    game = deal(preset, [["9H", "6S", "7S"], ["9D", "10S", "7C"], ["10H", "10D", "JS"]], trump="C")
    do(game, attack(0, "9H"), transfer(1, "9D"))
    refuse(game, take(1))
    refuse(game, defend(1, "9H", "10S"))
    do(game, take(2))


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_no_transfer_when_every_other_player_is_out(preset: str) -> None:
    # Player 0 attacks with his last card and the stock is empty: he is out ("that player leaves the
    # game"). There is nobody left to pass the attack to - certainly not the defender himself.
    game = deal(preset, [["AD"], ["AC", "6S"]], trump="H")
    do(game, attack(0, "AD"))
    assert of_type(game, 1, "transfer") == []
    refuse(game, transfer(1, "AC"))
    do(game, take(1))
    assert game.over and game.loser == 1


@pytest.mark.parametrize("preset", TRANSFER_PRESETS)
def test_no_transfer_to_the_defender_himself_with_three_players(preset: str) -> None:
    # Player 1 goes out; then player 2 attacks player 0 with his last card: both others are out.
    game = deal(preset, [["9H", "9S", "KC"], ["10D"], ["JD", "9D"]], trump="C", first_attacker=1)
    do(game, attack(1, "10D"), defend(2, "10D", "JD"))
    assert game.finished == [1]
    assert (game.attacker, game.defender) == (2, 0)
    do(game, attack(2, "9D"))
    assert of_type(game, 0, "transfer") == []
    refuse(game, transfer(0, "9H"))
    do(game, defend(0, "9D", "KC"))
    assert game.over and game.loser == 0
