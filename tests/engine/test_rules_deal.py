"""The deal: six cards each (seven for Tabletop's large deck), dealt one at a time clockwise
from the dealer's left; the next card turned for trumps lies under the stock; with six players
and 36 cards there is no stock and the dealer's last card sets trumps."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import durak

from ._support import attack, cards, deal, do, full_deck, of_type, rules, suit

PRESETS_36 = ["classic", "perevodnoy", "black_book", "tabletop"]


@pytest.mark.parametrize("preset", PRESETS_36)
@pytest.mark.parametrize("dealer", range(6))
def test_six_players_36_cards_no_stock_dealer_holds_the_trump_card(preset: str, dealer: int) -> None:
    # Full rules: "With 6 players all 36 cards are dealt and there is no stock: the dealer shows
    # their last card to set trumps, then takes it into their hand." Dealing starts at the dealer's
    # left, so the dealer receives the last card dealt.
    for seed in range(10):
        game = durak.Game.new(rules(preset), 6, seed, dealer=dealer)
        assert game.stock_size == 0
        assert [len(h) for h in game.hands] == [6] * 6
        assert game.trump_card in game.hands[dealer], f"seed {seed}"
        assert game.trump == suit(game.trump_card)
        assert game.view(dealer)["trump_card"] is None  # nothing lies under a stock
        assert game.view(None)["trump"] == game.trump
        assert all(a["type"] != "swap_trump" for p in range(6) for a in game.legal_json(p))


def test_six_players_from_deal_with_the_trump_named() -> None:
    deck = full_deck(36)
    hands = [deck[i::6] for i in range(6)]
    game = deal("classic", hands, trump="D", first_attacker=None)
    assert game.trump == "D"
    assert game.stock_size == 0


@pytest.mark.parametrize(
    ("preset", "overrides", "players", "hand_size"),
    [
        ("classic", {}, 2, 6),
        ("classic", {}, 5, 6),
        ("perevodnoy", {}, 4, 6),
        ("black_book", {}, 3, 6),
        ("tabletop", {}, 4, 6),
        ("tabletop", {"deck_size": 52}, 6, 7),
        ("tabletop", {"deck_size": 52, "hand_size": 6}, 3, 6),
        ("durak24", {}, 2, 6),
        ("durak24", {}, 4, 6),
        ("classic", {"deck_size": 24}, 2, 6),
    ],
)
def test_new_game_deals_hands_and_turns_the_trump(preset, overrides, players, hand_size) -> None:
    the_rules = rules(preset, **overrides)
    for seed in range(10):
        game = durak.Game.new(the_rules, players, seed)
        deck = full_deck(the_rules.deck_size)
        assert [len(h) for h in game.hands] == [hand_size] * players
        assert game.stock_size == len(deck) - hand_size * players
        everything = [c for h in game.hands for c in h] + list(game.stock)
        assert sorted(everything) == sorted(deck)
        assert game.discard == [] and game.table == []
        assert game.trump == suit(game.trump_card)
        if game.stock_size:
            # the turned card lies face up under the stock and is drawn last
            assert game.stock[-1] == game.trump_card
            assert game.view(None)["trump_card"] == game.trump_card
        else:
            # 24 cards and four players: all dealt, like six players with 36
            assert game.trump_card in game.hands[0]
        assert not game.over and game.loser is None and game.finished == []


def test_the_shuffle_depends_on_the_seed_only() -> None:
    the_rules = rules("classic")
    a = durak.Game.new(the_rules, 4, 12345)
    b = durak.Game.new(the_rules, 4, 12345)
    c = durak.Game.new(the_rules, 4, 12346)
    assert a.to_dict() == b.to_dict()
    assert a.hands != c.hands or a.stock != c.stock


@pytest.mark.parametrize("size", [24, 36, 52])
def test_the_shuffle_is_the_shuffle_of_pythons_random(size: int) -> None:
    # Stored games are replayed from their seed: the engine's own shuffle (compiled with it) must
    # deal exactly what random.Random(seed).shuffle deals, for seeds of both kinds.
    for seed in [*range(200), "a4f1c2", "", 10**12 + 7]:
        mine, pythons = durak.cards.deck(size), durak.cards.deck(size)
        durak.cards.shuffle(mine, random.Random(seed))
        random.Random(seed).shuffle(pythons)
        assert mine == pythons, seed
    game = durak.Game.new(rules("classic"), 2, seed=99)
    pythons = durak.cards.deck(36)
    random.Random(99).shuffle(pythons)
    assert game.hands == [pythons[1:12:2], pythons[0:12:2]]  # one at a time from the dealer's left


def test_the_deal_starts_left_of_the_dealer() -> None:
    # What can be seen without knowing the shuffle (a seed shuffles the same deck whoever deals):
    # moving the dealer one seat moves every hand one seat round with him.
    the_rules = rules("classic")
    for seed in range(20):
        hands_by_dealer = [durak.Game.new(the_rules, 6, seed, dealer=d).hands for d in range(6)]
        # the same shuffled deck dealt from another seat: every hand moves round with the dealer
        for d in range(6):
            for p in range(6):
                assert sorted(hands_by_dealer[d][p]) == sorted(hands_by_dealer[0][(p - d) % 6]), (seed, d, p)


@pytest.mark.parametrize(
    ("preset", "players"), [("durak24", 5), ("durak24", 6), ("classic", 7), ("classic", 1)]
)
def test_too_many_or_too_few_players_are_refused(preset: str, players: int) -> None:
    with pytest.raises(ValueError):
        durak.Game.new(rules(preset), players, 1)
    with pytest.raises(durak.RulesError):
        rules(preset).validate_players(players)


def test_player_counts_of_the_presets() -> None:
    assert (rules("classic").min_players, rules("classic").max_players) == (2, 6)
    assert rules("durak24").max_players == 4
    assert rules("classic", deck_size=24).max_players == 4


def test_rules_are_frozen_values_with_a_json_round_trip() -> None:
    for name in durak.PRESETS:
        the_rules = rules(name)
        with pytest.raises(dataclasses.FrozenInstanceError):
            the_rules.transfer = not the_rules.transfer  # type: ignore[misc]
        again = durak.Rules.from_dict(json.loads(json.dumps(the_rules.to_dict())))
        assert again == the_rules


def test_presets_as_the_contract_settles_them() -> None:
    classic = rules("classic")
    assert (classic.deck_size, classic.hand_size, classic.transfer, classic.trump_swap) == (
        36,
        6,
        False,
        "while_stock",
    )
    assert classic.multi_card_attack and classic.throw_priority == "attacker_first"
    assert rules("perevodnoy").transfer
    black_book = rules("black_book")
    assert black_book.transfer and not black_book.multi_card_attack
    assert (black_book.trump_swap, black_book.throw_priority, black_book.draw_order) == (
        "never",
        "free",
        "counterclockwise",
    )
    assert (black_book.opening_limit, black_book.opening_limit_until) == (5, "first_defence")
    assert black_book.no_trump_first_attacker == "dealer"
    tabletop = rules("tabletop")
    assert (tabletop.trump_swap, tabletop.throw_when, tabletop.first_attacker) == (
        "before_first_attack",
        "after_first_beat",
        "left_of_dealer",
    )
    durak24 = rules("durak24")
    assert (durak24.deck_size, durak24.throw_when, durak24.add_after_take) == (24, "all_beaten", False)
    with pytest.raises(ValueError):
        rules("no_such_preset")
    with pytest.raises(durak.RulesError):
        rules("classic", deck_size=40)


def test_multi_card_openings_are_all_listed() -> None:
    # Full rules: "or several cards of the same rank at once"
    game = deal("classic", [cards("7S 7H 7D 9C"), cards("AS AH AD KS")], trump="C")
    openings = {tuple(sorted(a["cards"])) for a in of_type(game, 0, "attack")}
    assert openings == {
        ("7S",),
        ("7H",),
        ("7D",),
        ("9C",),
        ("7H", "7S"),
        ("7D", "7S"),
        ("7D", "7H"),
        ("7D", "7H", "7S"),
    }
    do(game, attack(0, "7S", "7H", "7D"))
    assert sorted(pair[0] for pair in game.table) == ["7D", "7H", "7S"]


@pytest.mark.parametrize("preset", ["black_book", "tabletop", "durak24"])
def test_single_card_openings_where_the_text_says_one_card(preset: str) -> None:
    # Black Book: "chooses any one card"; durak24: "playing one card"; Tabletop: "reveals a card".
    low = "9" if preset == "durak24" else "7"
    game = deal(preset, [[low + "S", low + "H", "KC"], cards("AS AH AD KS")], trump="C")
    assert all(len(a["cards"]) == 1 for a in of_type(game, 0, "attack"))
    assert len(of_type(game, 0, "attack")) == 3
