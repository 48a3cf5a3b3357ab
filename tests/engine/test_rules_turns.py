"""Who attacks: first (lowest trump; nobody holds one; tabletop; later games of a series) and
next (beaten off: the defender; taken: the player left of the defender; out players skipped)."""

from __future__ import annotations

import pytest

import durak

from ._support import LOWEST_RANK, attack, cards, deal, defend, do, full_deck, rank_value, rules, suit, take

SEEDS = range(40)


def lowest_trump_holder(game: durak.Game) -> int | None:
    held = [(rank_value(c), p) for p, h in enumerate(game.hands) for c in h if suit(c) == game.trump]
    return min(held)[1] if held else None


# Hearts are trumps (the face-up 6H lies under the stock): nobody holds the trump 6.
LOWEST_TRUMP_HANDS = [cards("8H 9S 10S JS QS KS"), cards("7H 9D 10D JD QD KD"), cards("10H 9C 10C JC QC KC")]
LOWEST_TRUMP_STOCK = cards("AS AD AC 6H")


@pytest.mark.parametrize("preset", ["classic", "perevodnoy", "black_book", "durak24"])
def test_the_lowest_trump_attacks_first(preset: str) -> None:
    # Full rules: "if nobody has the trump 6, the trump 7, and so on"
    if preset == "durak24":
        hands = [cards("JH 9S 10S"), cards("10H 9D 10D"), cards("QH 9C 10C")]
        game = deal(preset, hands, cards("AS AD 9H"), first_attacker=None)
    else:
        game = deal(preset, LOWEST_TRUMP_HANDS, LOWEST_TRUMP_STOCK, first_attacker=None)
    assert (game.attacker, game.defender) == (1, 2)
    assert {a["type"] for a in game.legal_json(1)} >= {"attack"}
    assert not [a for a in game.legal_json(0) if a["type"] == "attack"]


NO_TRUMP_HANDS = [cards("8S 9S 10S"), cards("8D 9D 10D"), cards("8C 9C 10C")]
NO_TRUMP_STOCK = cards("6H 7H 8H")


@pytest.mark.parametrize(
    ("preset", "dealer", "first"), [("classic", 1, 2), ("perevodnoy", 2, 0), ("black_book", 1, 1)]
)
def test_nobody_holds_a_trump(preset: str, dealer: int, first: int) -> None:
    # Full rules: "if nobody holds a trump at all, the player to the dealer's left attacks".
    # Black Book: "If nobody holds any trumps, the first player is the player who dealt the cards."
    game = deal(preset, NO_TRUMP_HANDS, NO_TRUMP_STOCK, first_attacker=None, dealer=dealer)
    assert game.attacker == first
    assert game.defender == (first + 1) % 3


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_tabletop_the_player_left_of_the_dealer_always_attacks_first(dealer: int) -> None:
    # "The first attacker is the player on the left of the dealer (dealer attacks last)."
    game = deal("tabletop", LOWEST_TRUMP_HANDS, LOWEST_TRUMP_STOCK, first_attacker=None, dealer=dealer)
    assert game.attacker == (dealer + 1) % 3


@pytest.mark.parametrize("preset", ["classic", "perevodnoy", "black_book", "durak24"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_new_game_lowest_trump_or_fallback(preset: str, players: int) -> None:
    if preset == "durak24" and players > 4:
        return
    fallback_is_dealer = preset == "black_book"
    for seed in SEEDS:
        dealer = seed % players
        game = durak.Game.new(rules(preset), players, seed, dealer=dealer)
        holder = lowest_trump_holder(game)
        if holder is None:
            holder = dealer if fallback_is_dealer else (dealer + 1) % players
        assert game.attacker == holder, f"seed {seed}"
        assert game.defender == (holder + 1) % players


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_tabletop_new_game_left_of_dealer(players: int) -> None:
    for seed in SEEDS:
        dealer = seed % players
        game = durak.Game.new(rules("tabletop"), players, seed, dealer=dealer)
        assert game.attacker == (dealer + 1) % players


@pytest.mark.parametrize("preset", ["classic", "perevodnoy", "tabletop"])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_later_games_of_a_series_the_player_left_of_the_dealer_attacks(preset: str, players: int) -> None:
    # Full rules: "In later games, the player to the dealer's left attacks first - so the fool of
    # the last game is not the first to attack." Tabletop: the loser deals, left of dealer attacks.
    for seed in SEEDS:
        dealer = seed % players
        game = durak.Game.new(rules(preset), players, seed, dealer=dealer, first_game=False)
        assert game.attacker == (dealer + 1) % players, f"seed {seed}"


def test_the_lowest_trump_of_each_deck_size() -> None:
    for size in (24, 36, 52):
        deck = full_deck(size)
        assert min(rank_value(c) for c in deck) == rank_value(LOWEST_RANK[size] + "S")
        assert sorted(durak.deck(size)) == sorted(deck)


def test_beaten_off_the_defender_attacks_next() -> None:
    game = deal("classic", [cards("9D 6S"), cards("10D 7S"), cards("8H 8S")], trump="C")
    do(game, attack(0, "9D"), defend(1, "9D", "10D"))
    assert (game.attacker, game.defender) == (1, 2)


def test_taken_the_player_left_of_the_defender_attacks_next() -> None:
    game = deal("classic", [cards("9D 6S"), cards("10S 7S"), cards("8H 8S"), cards("7H 7D")], trump="C")
    do(game, attack(0, "9D"), take(1))
    assert (game.attacker, game.defender) == (2, 3)


def test_a_defender_who_went_out_is_skipped_as_next_attacker() -> None:
    # "if the next attacker has none, the next player clockwise with cards attacks"
    game = deal("classic", [cards("9D 6S"), cards("10D"), cards("7H 8H"), cards("7S 8S")], trump="C")
    do(game, attack(0, "9D"), defend(1, "9D", "10D"))
    assert game.finished == [1]
    assert (game.attacker, game.defender) == (2, 3)


def test_out_players_are_skipped_as_attacker_and_defender() -> None:
    # Player 2 goes out; later player 1 takes and player 3 (not 2) attacks player 0.
    game = deal(
        "classic",
        [cards("JS QH KH"), cards("9D 6H 7H"), cards("10D"), cards("8S 6D")],
        trump="C",
        first_attacker=1,
    )
    do(game, attack(1, "9D"), defend(2, "9D", "10D"))
    assert game.finished == [2]
    assert (game.attacker, game.defender) == (3, 0)
    do(game, attack(3, "8S"), defend(0, "8S", "JS"))
    assert (game.attacker, game.defender) == (0, 1)
    do(game, attack(0, "QH"), take(1))
    assert (game.attacker, game.defender) == (3, 0)


def test_the_defender_skips_players_who_are_out() -> None:
    # Player 2 goes out; later player 1 beats off an attack and attacks player 3, not player 2.
    game = deal(
        "classic",
        [cards("JS QH KH"), cards("9D AH 7H"), cards("10D"), cards("8S 6D")],
        trump="C",
        first_attacker=1,
    )
    do(game, attack(1, "9D"), defend(2, "9D", "10D"))
    do(game, attack(3, "8S"), defend(0, "8S", "JS"))
    do(game, attack(0, "QH"), defend(1, "QH", "AH"))
    assert (game.attacker, game.defender) == (1, 3)


@pytest.mark.parametrize("preset", ["black_book", "durak24"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_later_games_where_the_preset_keeps_the_lowest_trump(preset: str, players: int) -> None:
    # The Black Book and durak24 say nothing of later games; the contract keeps the lowest trump.
    for seed in SEEDS:
        dealer = seed % players
        game = durak.Game.new(rules(preset), players, seed, dealer=dealer, first_game=False)
        holder = lowest_trump_holder(game)
        if holder is None:
            holder = dealer if preset == "black_book" else (dealer + 1) % players
        assert game.attacker == holder, f"seed {seed}"
