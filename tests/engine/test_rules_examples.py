"""The printed examples of the rule texts, played move by move as stacked deals."""

from __future__ import annotations

from ._support import (
    assert_cards_accounted,
    attack,
    cards,
    cards_of,
    deal,
    defend,
    do,
    hand,
    of_type,
    pass_,
    refuse,
    throw,
    transfer,
)

ANNA, BEN, CARLA = 0, 1, 2


def full_rules_example_deal():
    """Clubs are trumps; Anna, Ben and Carla sit clockwise, six cards each."""
    return deal(
        "classic",
        [
            ["8D", "8S", "7H", "9S", "10S", "KD"],  # Anna
            ["JD", "6C", "QH", "7D", "9H", "AS"],  # Ben
            ["JH", "7S", "9D", "10H", "KS", "AD"],  # Carla
        ],
        # stock[0] is drawn first; the face-up A♣ sets clubs as trumps
        cards("6S 6H 6D 7C 8H 8C 9C 10D 10C JS JC QS QD QC KH KC AH AC"),
        first_attacker=ANNA,
    )


def test_full_rules_example_anna_ben_carla() -> None:
    game = full_rules_example_deal()
    assert game.trump == "C"
    assert (game.attacker, game.defender) == (ANNA, BEN)
    # "Anna attacks Ben with 8♦. Ben beats it with J♦."
    do(game, attack(ANNA, "8D"), defend(BEN, "8D", "JD"))
    # "Anna may now throw in any 8 or Jack." Carla must wait: Anna has priority.
    assert cards_of(game, ANNA, "throw") == {"8S"}
    assert of_type(game, CARLA, "throw") == []
    refuse(game, throw(CARLA, "JH"))
    # "She plays 8♠; Ben beats it with 6♣ (a trump)."
    do(game, throw(ANNA, "8S"), defend(BEN, "8S", "6C"))
    # "Now 8s, Jacks and 6s may be thrown in. Carla throws in J♥" - Anna has none left: she says
    # she is done, and Carla may throw.
    assert of_type(game, ANNA, "throw") == []
    refuse(game, throw(CARLA, "JH"))
    do(game, pass_(ANNA), throw(CARLA, "JH"))
    # "Ben beats it with Q♥. Nobody has another 8, J, 6 or Q to add, so Ben has beaten off the
    # attack": the bout waits until both attackers have said so.
    do(game, defend(BEN, "JH", "QH"), pass_(ANNA))
    assert game.table != []
    do(game, pass_(CARLA))
    assert game.table == []
    assert {"8D", "JD", "8S", "6C", "JH", "QH"} <= set(game.discard)
    # "The defender becomes the next attacker and attacks the player to their left."
    assert (game.attacker, game.defender) == (BEN, CARLA)
    # Drawing: Anna first (2), then Carla (1), Ben last (3).
    assert hand(game, ANNA) == {"7H", "9S", "10S", "KD", "6S", "6H"}
    assert hand(game, CARLA) == {"7S", "9D", "10H", "KS", "AD", "6D"}
    assert hand(game, BEN) == {"7D", "9H", "AS", "7C", "8H", "8C"}
    assert game.stock_size == 12
    assert_cards_accounted(game)


DIMA, MASHA, SASHA = 0, 1, 2


def test_black_book_throw_in_example_dima_masha_sasha() -> None:
    # "On his turn Dima attacks Masha with the jack of spades (1). Masha defends with the seven
    # of hearts, a trump (2). Sasha throws the seven of diamonds to Masha (3), and Dima throws in
    # the seven of clubs (4). Masha beats them with the jack of diamonds (5) and the ten of clubs (6)."
    game = deal(
        "black_book",
        [
            ["JS", "7C", "8S", "9S", "QD", "KD"],  # Dima
            ["7H", "JD", "10C", "6D", "AS", "8D"],  # Masha
            ["7D", "6S", "8H", "9D", "QS", "KS"],  # Sasha
        ],
        cards("6C 7S 8C 9C 10S 10D JC QC KC AD AC 6H 9H 10H JH QH KH AH"),
        first_attacker=DIMA,
    )
    assert game.trump == "H"
    do(game, attack(DIMA, "JS"), defend(MASHA, "JS", "7H"))
    # Sasha throws first although Dima has not passed: throw-ins are free in the Black Book.
    do(game, throw(SASHA, "7D"), throw(DIMA, "7C"))
    do(game, defend(MASHA, "7D", "JD"), defend(MASHA, "7C", "10C"))
    # nobody holds a jack, seven or ten any more: once both have said so the defence succeeded
    do(game, pass_(DIMA), pass_(SASHA))
    assert game.table == []
    assert {"JS", "7H", "7D", "7C", "JD", "10C"} <= set(game.discard)
    # "the player who defended takes the next turn"
    assert (game.attacker, game.defender) == (MASHA, SASHA)
    # drawing: Dima (2), then reverse turn order - Sasha (1) - and Masha last (3)
    assert hand(game, DIMA) == {"8S", "9S", "QD", "KD", "6C", "7S"}
    assert hand(game, SASHA) == {"6S", "8H", "9D", "QS", "KS", "8C"}
    assert hand(game, MASHA) == {"6D", "AS", "8D", "9C", "10S", "10D"}
    assert_cards_accounted(game)


MASHA_T, SASHA_T, DIMA_T = 0, 1, 2


def transfer_example_deal(dima_has_nine_of_spades: bool):
    dima = ["9C", "10H", "10C", "10D", "6H", "9S" if dima_has_nine_of_spades else "7H"]
    return deal(
        "black_book",
        [
            ["9H", "6S", "7S", "8S", "JD", "QD"],  # Masha
            ["9D", "6C", "7C", "8C", "JH", "QH"],  # Sasha
            dima,
        ],
        cards("6D 7D 8D 8H JC QC KC KH KD AH AD AC JS KS QS 10S AS"),
        first_attacker=MASHA_T,
    )


def test_black_book_transfer_example_masha_sasha_dima() -> None:
    # "On Masha's turn she attacks Sasha with the nine of hearts (1). Dima throws the nine of clubs
    # to Sasha (2). Instead of defending, Sasha plays the nine of diamonds (3) and transfers the
    # attack to Dima (4). Now Dima has to beat three nines."
    game = transfer_example_deal(dima_has_nine_of_spades=False)
    assert game.trump == "S"
    do(game, attack(MASHA_T, "9H"), throw(DIMA_T, "9C"), transfer(SASHA_T, "9D"))
    assert game.defender == DIMA_T
    assert sorted(pair[0] for pair in game.table) == ["9C", "9D", "9H"]
    assert all(pair[1] is None for pair in game.table)
    # Dima holds no nine: he cannot pass it on
    assert of_type(game, DIMA_T, "transfer") == []
    do(
        game,
        defend(DIMA_T, "9H", "10H"),
        defend(DIMA_T, "9C", "10C"),
        defend(DIMA_T, "9D", "10D"),
        pass_(SASHA_T),
        pass_(MASHA_T),
    )
    assert game.table == []
    assert game.attacker == DIMA_T
    assert_cards_accounted(game)


def test_black_book_transfer_example_with_the_nine_of_spades() -> None:
    # "If he had the nine of spades, he could transfer the attack to Masha."
    game = transfer_example_deal(dima_has_nine_of_spades=True)
    do(game, attack(MASHA_T, "9H"), throw(DIMA_T, "9C"), transfer(SASHA_T, "9D"))
    do(game, transfer(DIMA_T, "9S"))
    assert game.defender == MASHA_T
    assert sorted(pair[0] for pair in game.table) == ["9C", "9D", "9H", "9S"]
