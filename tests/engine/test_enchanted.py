"""The Black Book's enchanted cards: every effect, every printed example, and the effects that meet.

"If the text of an enchanted card contradicts the rules of the game, follow the text of the card.
Otherwise the rules of durak do not change."
"""

from typing import Any

import pytest

from durak import Game, IllegalAction, Rules
from durak.enchanted import ACE_BEATS, ENCHANTED_STAGES, SIX_BEATS, effect, enchanted_beats

ALL = frozenset(ENCHANTED_STAGES["all"])


def game(
    hands: list[list[str]],
    stock: list[str] | None = None,
    ranks: tuple[str, ...] = ENCHANTED_STAGES["all"],
    trump: str | None = None,
    **overrides: Any,
) -> Game:
    rules = Rules.preset("black_book", enchanted=ranks, **overrides)
    return Game.from_deal(rules, hands, stock or [], first_attacker=0, trump=trump)


def defences(g: Game, player: int, target: str) -> set[tuple[str, str | None]]:
    return {
        (a["card"], a.get("as_suit"))
        for a in g.legal_json(player)
        if a["type"] == "defend" and a["target"] == target
    }


def kinds(g: Game, player: int) -> set[str]:
    return {a["type"] for a in g.legal_json(player)}


def refused(g: Game, action: dict[str, Any], match: str) -> None:
    before = g.to_dict()
    with pytest.raises(IllegalAction, match=match):
        g.apply(action)
    assert g.to_dict() == before


# --- options ---------------------------------------------------------------------------------


def test_the_suggested_progression_is_offered_as_ready_choices() -> None:
    assert ENCHANTED_STAGES["sixes_sevens"] == ("6", "7")
    assert ENCHANTED_STAGES["to_tens"] == ("6", "7", "8", "9", "10")
    assert ENCHANTED_STAGES["to_queens"] == ("6", "7", "8", "9", "10", "J", "Q")
    assert set(ENCHANTED_STAGES["all"]) == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert Rules.preset("black_book", enchanted=["7", "6"]).enchanted == ("6", "7")


def test_enchanted_cards_are_for_the_36_card_deck_and_ranks_6_to_ace() -> None:
    with pytest.raises(ValueError):
        Rules.preset("black_book", enchanted=["6"], deck_size=52)
    with pytest.raises(ValueError):
        Rules.preset("black_book", enchanted=["5"])


def test_the_view_says_which_ranks_are_enchanted() -> None:
    g = Game.new(Rules.preset("black_book", enchanted=["6", "7"]), 3, seed=4)
    assert g.view(0)["enchanted"] == ["6", "7"]
    assert effect("6S") == "Beats any ♥ card, even a trump; rank does not matter."


# --- six ----------------------------------------------------------------------------------------


def test_six_printed_example_spade_six_beats_heart_ten() -> None:
    # "an enchanted spade six beats a heart ten, even though the six is lower and its suit is
    # not the trump suit."
    assert SIX_BEATS["S"] == "H"
    g = game([["10H", "KC"], ["6S", "7D"]], ["9C", "8D"], ranks=("6",))
    g.apply({"type": "attack", "player": 0, "cards": ["10H"]})
    assert ("6S", None) in defences(g, 1, "10H")
    g.apply({"type": "defend", "player": 1, "target": "10H", "card": "6S"})
    assert g.table == [] and g.last_bout == {"attacker": 0, "defender": 1, "result": "beaten"}


def test_six_beats_its_indicated_suit_even_a_trump_and_nothing_else_by_its_power() -> None:
    six = frozenset({"6"})
    assert enchanted_beats("AH", "6S", trump="H", enchanted=six)
    assert not enchanted_beats("10D", "6S", trump="H", enchanted=six)
    assert not enchanted_beats("AH", "6S", trump="H", enchanted=frozenset())  # not enchanted
    for suit, beaten in SIX_BEATS.items():
        assert enchanted_beats("A" + beaten, "6" + suit, trump=None, enchanted=six)


# --- seven --------------------------------------------------------------------------------------


def test_seven_cannot_be_beaten_by_a_trump_of_another_suit() -> None:
    ranks = frozenset({"6", "7"})
    # "a heart seven can be beaten only by a higher heart, whatever the trump suit is"
    assert enchanted_beats("7H", "8H", trump="C", enchanted=ranks)
    assert not enchanted_beats("7H", "AC", trump="C", enchanted=ranks)
    g = game([["7H", "KD"], ["AC", "6C", "8H"]], ["9D", "10C"], ranks=("7",))
    g.apply({"type": "attack", "player": 0, "cards": ["7H"]})
    assert defences(g, 1, "7H") == {("8H", None)}
    refused(g, {"type": "defend", "player": 1, "target": "7H", "card": "AC"}, "does not beat")


def test_seven_against_a_non_trump_six_of_its_suit_and_a_trump_six() -> None:
    ranks = frozenset({"6", "7"})
    # "A non-trump enchanted six can beat a seven, but a trump spade six does not beat a heart seven."
    assert enchanted_beats("7H", "6S", trump="C", enchanted=ranks)
    assert not enchanted_beats("7H", "6S", trump="S", enchanted=ranks)


# --- eight --------------------------------------------------------------------------------------


def test_eight_is_played_as_a_named_suit_other_than_trumps() -> None:
    g = game([["8S", "KD"], ["9H", "9S", "7C"]], ["10C", "6D"], ranks=("8",))  # diamonds trump
    openings = [a for a in g.legal_json(0) if a["cards"] == ["8S"]]
    assert sorted(a["as_suit"] for a in openings) == ["C", "H", "S"]
    refused(g, {"type": "attack", "player": 0, "cards": ["8S"]}, "name a suit")
    refused(g, {"type": "attack", "player": 0, "cards": ["8S"], "as_suit": "D"}, "other than trumps")
    refused(g, {"type": "attack", "player": 0, "cards": ["KD"], "as_suit": "H"}, "only an enchanted eight")
    g.apply({"type": "attack", "player": 0, "cards": ["8S"], "as_suit": "H"})
    assert g.view(1)["named_suits"] == {"8S": "H"}
    # it is a heart now: the heart nine beats it, the spade nine no longer does
    assert ("9H", None) in defences(g, 1, "8S")
    assert ("9S", None) not in defences(g, 1, "8S")


def test_eight_works_when_defending_too() -> None:
    g = game([["7H", "KD"], ["8C", "6S"]], ["10S", "6D"], ranks=("8",))
    g.apply({"type": "attack", "player": 0, "cards": ["7H"]})
    assert defences(g, 1, "7H") == {("8C", "H")}  # only as a heart does the eight beat the 7H
    g.apply({"type": "defend", "player": 1, "target": "7H", "card": "8C", "as_suit": "H"})
    assert g.table == []


def test_several_eights_of_one_named_suit_and_a_taken_eight_is_named_again() -> None:
    g = game([["8S", "8C", "KD"], ["9D", "6H", "7H"]], ["10C", "6D"], ranks=("8",), multi_card_attack=True)
    g.apply({"type": "attack", "player": 0, "cards": ["8S", "8C"], "as_suit": "S"})
    assert g.view(1)["named_suits"] == {"8S": "S", "8C": "S"}
    g.apply({"type": "take", "player": 1})
    # back in a hand, the eights are plain eights again, to be named anew when played
    assert g.table == [] and g.named == {} and g.view(1)["named_suits"] == {}
    assert {"8S", "8C"} <= set(g.hands[1])
    g.apply({"type": "attack", "player": 0, "cards": ["KD"]})
    refused(g, {"type": "transfer", "player": 1, "card": "8S"}, "rank")


def test_an_eight_turned_as_the_trump_card_makes_a_game_without_trumps() -> None:
    g = game([["AH", "6C"], ["KS", "7D"]], ["9C", "8H"], ranks=("8",))
    assert g.trump is None and g.trump_card == "8H"
    assert g.view(0)["trump"] is None
    # with no trumps, an eight may be named any suit
    g2 = game([["8S", "6C"], ["KS", "7D"]], ["9C", "8H"], ranks=("8",))
    assert {a.get("as_suit") for a in g2.legal_json(0) if a["cards"] == ["8S"]} == {"S", "H", "D", "C"}
    # and nobody holds a trump, so in black_book the dealer attacks first
    seeded = next(
        s
        for s in range(500)
        if Game.new(Rules.preset("black_book", enchanted=["8"]), 3, seed=s).trump_card[:-1] == "8"  # type: ignore[index]
    )
    dealt = Game.new(Rules.preset("black_book", enchanted=["8"]), 3, seed=seeded, dealer=2)
    assert dealt.trump is None and dealt.attacker == 2


# --- nine ---------------------------------------------------------------------------------------


def test_nine_may_be_thrown_in_with_no_nine_on_the_table() -> None:
    g = game([["7H", "9C", "KD"], ["8H", "AS", "QS"]], ["10C", "6D"], ranks=("9",))
    g.apply({"type": "attack", "player": 0, "cards": ["7H"]})
    assert {"type": "throw", "player": 0, "card": "9C"} in g.legal_json(0)
    assert {"type": "throw", "player": 0, "card": "KD"} not in g.legal_json(0)
    g.apply({"type": "throw", "player": 0, "card": "9C"})
    assert [pair[0] for pair in g.table] == ["7H", "9C"]


def test_nine_cannot_break_the_limit() -> None:
    # "A nine cannot break the limit of 6 beaten cards (5 in the first defence)": here the defender
    # holds one card, so one attack card is all the bout may have.
    g = game([["7H", "9C", "KD"], ["8H"], ["10S", "JS"]], ["10C", "6D"], ranks=("9",))
    g.apply({"type": "attack", "player": 0, "cards": ["7H"]})
    refused(g, {"type": "throw", "player": 0, "card": "9C"}, "limit")


def test_nine_thrown_in_to_another_rank_forbids_the_transfer() -> None:
    g = game([["7H", "9C", "KD"], ["7S", "AS", "QS"], ["7D", "10S", "JS"]], ["10C", "6D"], ranks=("9",))
    g.apply({"type": "attack", "player": 0, "cards": ["7H"]})
    assert "transfer" in kinds(g, 1)
    g.apply({"type": "throw", "player": 0, "card": "9C"})
    assert g.transfer_blocked
    assert "transfer" not in kinds(g, 1)
    refused(g, {"type": "transfer", "player": 1, "card": "7S"}, "transfer")


# --- ten ----------------------------------------------------------------------------------------


def test_ten_cannot_be_transferred() -> None:
    hands = [["10H", "KD"], ["10S", "AS", "QS"], ["7D", "10D", "JS"]]
    plain = game(hands, ["6C", "6D"], ranks=("6",))
    plain.apply({"type": "attack", "player": 0, "cards": ["10H"]})
    assert "transfer" in kinds(plain, 1)
    g = game(hands, ["6C", "6D"], ranks=("10",))
    g.apply({"type": "attack", "player": 0, "cards": ["10H"]})
    assert "transfer" not in kinds(g, 1)
    refused(g, {"type": "transfer", "player": 1, "card": "10S"}, "ten cannot be transferred")


# --- jack ---------------------------------------------------------------------------------------


def test_jack_is_beaten_only_by_a_lower_card_of_its_suit_or_of_trumps() -> None:
    jack = frozenset({"J"})
    assert enchanted_beats("JH", "10H", trump="S", enchanted=jack)
    assert enchanted_beats("JH", "6S", trump="S", enchanted=jack)
    assert not enchanted_beats("JH", "QH", trump="S", enchanted=jack)
    assert not enchanted_beats("JH", "KS", trump="S", enchanted=jack)  # a high trump: no
    assert not enchanted_beats("JH", "9D", trump="S", enchanted=jack)


def test_a_trump_jack_is_beaten_only_by_lower_trumps() -> None:
    jack = frozenset({"J"})
    assert enchanted_beats("JS", "10S", trump="S", enchanted=jack)
    assert not enchanted_beats("JS", "QS", trump="S", enchanted=jack)
    assert not enchanted_beats("JS", "10H", trump="S", enchanted=jack)
    g = game([["JS", "KD"], ["QS", "AS", "7S"]], ["6C", "9S"], ranks=("J",))
    g.apply({"type": "attack", "player": 0, "cards": ["JS"]})
    assert defences(g, 1, "JS") == {("7S", None)}


# --- queen --------------------------------------------------------------------------------------


def test_after_a_queen_defends_nothing_more_is_thrown_in_but_earlier_throws_stay() -> None:
    g = game([["9H", "9S", "KD"], ["QH", "AC", "10C"], ["9C", "QD", "7D"]], ["6D", "8C"], ranks=("Q",))
    g.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    g.apply({"type": "throw", "player": 2, "card": "9C"})  # thrown before the queen
    g.apply({"type": "defend", "player": 1, "target": "9H", "card": "QH"})
    assert g.closed
    refused(g, {"type": "throw", "player": 0, "card": "9S"}, "queen")
    refused(g, {"type": "throw", "player": 2, "card": "QD"}, "queen")
    assert g.waiting_for() == [1]  # the 9C thrown before the queen must still be beaten
    g.apply({"type": "defend", "player": 1, "target": "9C", "card": "10C"})
    assert g.table == [] and g.last_bout is not None and g.last_bout["result"] == "beaten"


# --- king ---------------------------------------------------------------------------------------


def king_game(players: int = 3) -> Game:
    hands = [["9H", "7C"], ["KH", "8D"], ["10S", "JD"], ["6S", "8S"]][:players]
    return game(hands, ["AD", "QC", "6C"], ranks=("K",))


def test_a_defender_who_beat_off_a_bout_with_a_king_may_reverse_the_direction() -> None:
    g = king_game()
    g.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    g.apply({"type": "defend", "player": 1, "target": "9H", "card": "KH"})
    assert g.table == [] and (g.attacker, g.defender) == (1, 2)
    assert {"type": "reverse", "player": 1} in g.legal_json(1)
    g.apply({"type": "reverse", "player": 1})
    # "the player who used the effect attacks, on his turn, the player in reverse turn order"
    assert (g.attacker, g.defender, g.direction) == (1, 0, -1)
    assert "reverse" not in kinds(g, 1)


def test_the_reversed_direction_lasts_into_the_next_bouts() -> None:
    g = game([["9H", "7C"], ["KH", "8D", "6H"], ["10S", "JD"]], ["AD", "QC", "6C"], ranks=("K",))
    g.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    g.apply({"type": "defend", "player": 1, "target": "9H", "card": "KH"})
    g.apply({"type": "reverse", "player": 1})
    g.apply({"type": "attack", "player": 1, "cards": ["8D"]})
    g.apply({"type": "take", "player": 0})
    assert g.last_bout == {"attacker": 1, "defender": 0, "result": "taken"}
    # the taker loses their turn: the next attacker is the one after player 0 in the new
    # direction, and attacks the next player that way
    assert (g.attacker, g.defender, g.direction) == (2, 1, -1)


def test_declining_the_king_is_simply_attacking() -> None:
    g = king_game()
    g.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    g.apply({"type": "defend", "player": 1, "target": "9H", "card": "KH"})
    g.apply({"type": "attack", "player": 1, "cards": ["8D"]})
    assert g.direction == 1 and g.defender == 2
    refused(g, {"type": "reverse", "player": 1}, "reverse")


def test_the_king_is_ignored_with_two_players() -> None:
    g = king_game(players=2)
    g.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    g.apply({"type": "defend", "player": 1, "target": "9H", "card": "KH"})
    assert g.table == [] and "reverse" not in kinds(g, 1)


def test_the_king_works_only_after_a_successful_defence() -> None:
    g = game([["9H", "9C"], ["KH", "8D"], ["10S", "JD"]], ["AD", "QC", "6C"], ranks=("K",))
    g.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    g.apply({"type": "defend", "player": 1, "target": "9H", "card": "KH"})
    g.apply({"type": "throw", "player": 0, "card": "9C"})
    g.apply({"type": "take", "player": 1})
    assert g.table == [] and g.attacker == 2 and "reverse" not in kinds(g, 2)


# --- ace ----------------------------------------------------------------------------------------


def test_aces_beat_the_ace_of_their_indicated_suit_even_a_trump() -> None:
    # "The spade ace beats the diamond ace, the club ace beats the heart ace, the diamond ace
    # beats the club ace, and the heart ace beats the spade ace."
    assert ACE_BEATS == {"S": "D", "C": "H", "D": "C", "H": "S"}
    ace = frozenset({"A"})
    for winner, loser in ACE_BEATS.items():
        for trump in ("S", "H", "D", "C", None):
            assert enchanted_beats("A" + loser, "A" + winner, trump=trump, enchanted=ace)
    assert not enchanted_beats("AS", "AD", trump="C", enchanted=ace)


# --- every effect at once ------------------------------------------------------------------------


def test_a_whole_enchanted_game_plays_to_the_end() -> None:
    import random

    for seed in range(30):
        g = Game.new(Rules.preset("black_book", enchanted=list(ALL)), 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if g.over:
                break
            player = rng.choice(g.waiting_for())
            g.apply(rng.choice(g.legal_json(player)))
        assert g.over
