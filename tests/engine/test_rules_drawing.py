"""Drawing after a bout: the main attacker first, then the others clockwise (the Black Book:
"in reverse turn order"), the defender last, up to the hand size while the stock lasts; the
face-up trump is the last card drawn."""

from __future__ import annotations

import pytest

from ._support import assert_cards_accounted, attack, cards, deal, defend, do, hand, pass_, take, throw

# Four players, clubs trumps. Player 0 attacks player 1 with 8D; player 2 throws 8S and player 3
# throws JH, each once the main attacker has passed; player 1 beats everything and the others say
# they are done. Afterwards 0, 2 and 3 are one card short, 1 three short.
HANDS = [
    cards("8D 9S 9H 10S 10H 6C"),
    cards("JD QS KH AS 7S 7H"),
    cards("8S 6D 6H 7D 9D 10D"),
    cards("JH 9C 10C AH AD 7C"),
]


def play_the_bout(preset: str, stock: list[str]):
    game = deal(preset, HANDS, stock, first_attacker=0)
    do(game, attack(0, "8D"), defend(1, "8D", "JD"), pass_(0))
    do(game, throw(2, "8S"), defend(1, "8S", "QS"), pass_(0))
    do(game, throw(3, "JH"), defend(1, "JH", "KH"))
    do(game, pass_(0), pass_(2), pass_(3))
    assert game.table == []
    assert_cards_accounted(game)
    return game


@pytest.mark.parametrize("preset", ["classic", "perevodnoy", "tabletop"])
def test_main_attacker_then_others_clockwise_then_defender(preset: str) -> None:
    # Full rules: "first the main attacker, then the others who threw in (clockwise), and the
    # defender last". Tabletop: "The original attacker refreshes his hand first. All other attackers
    # follow in clockwise order. Defender refreshes his hand last."
    game = play_the_bout(preset, cards("QH QD KS KD 8H KC"))
    assert "QH" in hand(game, 0)
    assert "QD" in hand(game, 2)
    assert "KS" in hand(game, 3)
    assert {"KD", "8H", "KC"} <= hand(game, 1)
    assert [len(h) for h in game.hands] == [6, 6, 6, 6]


def test_black_book_draws_in_reverse_turn_order_after_the_attacker() -> None:
    # "starting with the attacking player and then in reverse turn order. The defending player draws last."
    game = play_the_bout("black_book", cards("QH QD KS KD 8H KC"))
    assert "QH" in hand(game, 0)
    assert "QD" in hand(game, 3)
    assert "KS" in hand(game, 2)
    assert {"KD", "8H", "KC"} <= hand(game, 1)


@pytest.mark.parametrize("preset", ["classic", "tabletop"])
def test_the_face_up_trump_is_the_last_card_drawn(preset: str) -> None:
    game = play_the_bout(preset, cards("QH QD KS KD 8H KC"))
    assert game.stock_size == 0
    assert "KC" in hand(game, 1)
    assert game.trump == "C"


@pytest.mark.parametrize("preset", ["classic", "black_book"])
def test_when_the_stock_runs_out_the_last_in_order_get_nothing(preset: str) -> None:
    # "If the stock runs out, some players simply get fewer cards or none."
    game = play_the_bout(preset, cards("QH KC"))
    assert game.stock_size == 0
    assert "QH" in hand(game, 0)
    second = 2 if preset == "classic" else 3
    third = 3 if preset == "classic" else 2
    assert "KC" in hand(game, second)
    assert len(game.hands[third]) == 5
    assert len(game.hands[1]) == 3


def test_nobody_draws_beyond_the_hand_size() -> None:
    game = play_the_bout("classic", cards("QH QD KS KD 8H 6S JS 8C KC"))
    assert [len(h) for h in game.hands] == [6, 6, 6, 6]
    assert game.stock == ["JS", "8C", "KC"]


def test_tabletop_large_deck_draws_up_to_seven() -> None:
    game = deal(
        "tabletop",
        [cards("2S 3D 4D 5D 6D 7D 8D"), cards("AS 3H 4H 5H 6H 7H 8H")],
        cards("9S 9D 10H 2C"),
        first_attacker=0,
        deck_size=52,
    )
    do(game, attack(0, "2S"), defend(1, "2S", "AS"))
    assert game.table == []  # every other 2 and ace is in sight: nobody can add
    assert "9S" in hand(game, 0) and "9D" in hand(game, 1)
    assert [len(h) for h in game.hands] == [7, 7]
    assert game.stock == ["10H", "2C"]


def five_player_bout(preset: str):
    """Player 1 attacks player 2 with 8D; players 3, 4 and 0 each throw an eight; all beaten, and
    the others done."""
    game = deal(
        preset,
        [
            cards("8C 7H JS JC QH QD"),
            cards("8D 9S 9H 10S 10H 6S"),
            cards("AD AS AH KC JD QC"),
            cards("8S 6D 6H 7D 9D 10D"),
            cards("8H 9C 10C 7C 6C 7S"),
        ],
        cards("KS KH KD QS JH AC"),
        first_attacker=1,
    )
    do(game, attack(1, "8D"), defend(2, "8D", "AD"))
    # the main attacker passes before each throw of the others (he has priority in classic)
    do(game, pass_(1), throw(3, "8S"), pass_(1), throw(4, "8H"), pass_(1), throw(0, "8C"))
    do(game, defend(2, "8S", "AS"), defend(2, "8H", "AH"), defend(2, "8C", "KC"))
    do(game, pass_(1), pass_(3), pass_(4), pass_(0))
    assert game.table == []
    return game


@pytest.mark.parametrize("preset", ["classic", "tabletop"])
def test_clockwise_order_starts_from_the_main_attacker(preset: str) -> None:
    # attacker 1, then 3, 4, 0 clockwise, defender 2 last
    game = five_player_bout(preset)
    assert "KS" in hand(game, 1)
    assert "KH" in hand(game, 3)
    assert "KD" in hand(game, 4)
    assert "QS" in hand(game, 0)
    assert {"JH", "AC"} <= hand(game, 2)
    assert len(game.hands[2]) == 4


def test_black_book_reverse_order_starts_from_the_main_attacker() -> None:
    # attacker 1, then 0, 4, 3 counterclockwise, defender 2 last
    game = five_player_bout("black_book")
    assert "KS" in hand(game, 1)
    assert "KH" in hand(game, 0)
    assert "KD" in hand(game, 4)
    assert "QS" in hand(game, 3)
    assert {"JH", "AC"} <= hand(game, 2)


def test_after_a_take_the_defender_also_draws_last() -> None:
    game = deal(
        "classic",
        [cards("8D 9S 10S JS QS KS"), cards("7H 7S"), cards("9H 10H JH QH KH 9D")],
        cards("AH AD AC 6D 6C"),
        first_attacker=0,
    )
    do(game, attack(0, "8D"))
    do(game, take(1))
    assert game.table == []
    assert hand(game, 0) == {"9S", "10S", "JS", "QS", "KS", "AH"}
    assert hand(game, 1) == {"7H", "7S", "8D", "AD", "AC", "6D"}
    assert game.stock == ["6C"]
