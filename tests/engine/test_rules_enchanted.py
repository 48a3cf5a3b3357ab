"""The Black Book's Enchanted Durak (the `enchanted` option of black_book): each printed example.

"If the text of an enchanted card contradicts the rules of the game, follow the text of the card."
"""

from __future__ import annotations

import pytest

from ._support import attack, cards, deal, defend, do, of_type, refuse, throw, transfer

ALL = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def enchanted(hands, trump: str, ranks: list[str], stock=(), **kw):
    return deal("black_book", hands, stock, trump=None if stock else trump, enchanted=ranks, **kw)


def defences(game, target: str, player: int = 1) -> set[str]:
    return {a["card"] for a in of_type(game, player, "defend") if a["target"] == target}


def test_six_an_enchanted_spade_six_beats_a_heart_ten() -> None:
    # "an enchanted spade six beats a heart ten, even though the six is lower and its suit is not trumps"
    game = enchanted([cards("10H 7C"), cards("6S 8C")], "D", ["6"])
    do(game, attack(0, "10H"))
    assert "6S" in defences(game, "10H")
    do(game, defend(1, "10H", "6S"))


def test_six_beats_its_suit_even_a_trump() -> None:
    # "The card beats any card of the indicated suit, even a trump. Rank is ignored."
    game = enchanted([cards("AH 7C"), cards("6S 8C")], "H", ["6"])
    do(game, attack(0, "AH"))
    assert "6S" in defences(game, "AH")


def test_an_ordinary_six_does_not_beat_across_suits() -> None:
    game = enchanted([cards("10H 7C"), cards("6S 8C")], "D", ["7"])
    do(game, attack(0, "10H"))
    refuse(game, defend(1, "10H", "6S"))


def test_seven_cannot_be_beaten_by_a_trump_of_another_suit() -> None:
    # "a heart seven can be beaten only by a higher heart, whatever the trump suit is. A non-trump
    # enchanted six can beat a seven"
    game = enchanted([cards("7H 7C"), cards("8H AD 6D 6S 9C")], "D", ["6", "7"])
    do(game, attack(0, "7H"))
    assert defences(game, "7H") == {"8H", "6S"}


def test_seven_a_trump_spade_six_does_not_beat_a_heart_seven() -> None:
    # "... but a trump spade six does not beat a heart seven."
    game = enchanted([cards("7H 7C"), cards("8H 6S AS")], "S", ["6", "7"])
    do(game, attack(0, "7H"))
    assert defences(game, "7H") == {"8H"}


def test_eight_as_the_trump_card_means_no_trump_game() -> None:
    # "If an eight turns up as the card that determines the trump, that game is played without a trump suit."
    game = enchanted([cards("7H 9C"), cards("8H AS")], "", ["8"], stock=cards("KD 8D"), first_attacker=0)
    assert game.trump is None
    game = enchanted([cards("7H 9C"), cards("8H AS")], "", ["9"], stock=cards("KD 8D"), first_attacker=0)
    assert game.trump == "D"


def test_nine_may_be_thrown_in_with_no_nine_on_the_table() -> None:
    # "This card can be thrown in even if no other nines have been played."
    game = enchanted([cards("7H 9S 6C"), cards("8H KD QD")], "C", ["9"])
    do(game, attack(0, "7H"), defend(1, "7H", "8H"))
    assert "9S" in {a["card"] for a in of_type(game, 0, "throw")}
    do(game, throw(0, "9S"))
    plain = enchanted([cards("7H 9S 6C"), cards("8H KD QD")], "C", ["10"])
    do(plain, attack(0, "7H"), defend(1, "7H", "8H"))
    refuse(plain, throw(0, "9S"))


def test_nine_thrown_to_another_rank_stops_the_transfer() -> None:
    # "If a nine is thrown in to a card of another rank, the player may no longer transfer the attack"
    hands = [cards("7H 6C 8C"), cards("7D KD QD"), cards("9S 10C JC AC")]
    game = enchanted(hands, "C", ["9"])
    do(game, attack(0, "7H"), throw(2, "9S"))
    assert of_type(game, 1, "transfer") == []
    refuse(game, transfer(1, "7D"))
    plain = enchanted(hands, "C", ["10"])
    do(plain, attack(0, "7H"))
    assert of_type(plain, 1, "transfer")


def test_ten_cannot_be_transferred() -> None:
    # "This card cannot be transferred. You will have to defend against all the tens."
    hands = [cards("10H 6C 8C"), cards("10D KD QD"), cards("9S 10C JC AC")]
    game = enchanted(hands, "C", ["10"])
    do(game, attack(0, "10H"))
    refuse(game, transfer(1, "10D"))
    plain = enchanted(hands, "C", ["9"])
    do(plain, attack(0, "10H"), transfer(1, "10D"))
    assert plain.defender == 2


def test_jack_beaten_only_by_six_to_ten_of_its_suit_or_trumps() -> None:
    # "The enchanted jack can be beaten only by cards from 6 to 10. The effect also applies to trumps."
    game = enchanted([cards("JH 7S"), cards("6H 10H QH AH 6C 10C JC AC")], "C", ["J"])
    do(game, attack(0, "JH"))
    assert defences(game, "JH") == {"6H", "10H", "6C", "10C"}


def test_jack_of_trumps_beaten_only_by_lower_trumps() -> None:
    game = enchanted([cards("JC 7S"), cards("6C 10C QC AC 6H")], "C", ["J"])
    do(game, attack(0, "JC"))
    assert defences(game, "JC") == {"6C", "10C"}


def test_queen_no_more_throw_ins_after_a_queen_has_beaten() -> None:
    # "If you defended with this card, you may not throw in cards for the rest of this turn."
    game = enchanted([cards("9H 9S QS 6C"), cards("QH KD AD")], "C", ["Q"])
    do(game, attack(0, "9H"), defend(1, "9H", "QH"))
    assert game.table == []  # nothing may be added: the bout is beaten off
    plain = enchanted([cards("9H 9S QS 6C"), cards("QH KD AD")], "C", ["K"])
    do(plain, attack(0, "9H"), defend(1, "9H", "QH"))
    assert {a["card"] for a in of_type(plain, 0, "throw")} == {"9S", "QS"}


@pytest.mark.parametrize(("ace", "beaten"), [("AS", "AD"), ("AC", "AH"), ("AD", "AC"), ("AH", "AS")])
def test_ace_beats_the_ace_of_its_indicated_suit_even_a_trump(ace: str, beaten: str) -> None:
    # "The spade ace beats the diamond ace, the club ace beats the heart ace, the diamond ace beats
    # the club ace, and the heart ace beats the spade ace."
    trump = beaten[-1]
    game = enchanted(
        [[beaten, "7S" if beaten != "7S" else "8S"], [ace, "6H" if ace != "AH" else "6D"]], trump, ["A"]
    )
    do(game, attack(0, beaten))
    assert ace in defences(game, beaten)


def test_an_ace_does_not_beat_the_other_aces() -> None:
    game = enchanted([cards("AH 7S"), cards("AS AD 7D")], "C", ["A"])
    do(game, attack(0, "AH"))
    assert defences(game, "AH") == set()
