"""Legality is "is it generated?" (issue 33): along random games of every preset, every move a
player could send — each type, each card of the deck, each attack card as the target, each suit
named or none — is accepted by ``apply`` exactly when ``legal_actions`` lists it, and otherwise
refused with a reason from the generator's own predicates (never the AssertionError that says the
generator and the predicates disagree)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

import durak

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {}, 2),
    ("classic", {"teams": "partners"}, 4),
    ("perevodnoy", {}, 3),
    ("tabletop", {}, 4),
    ("durak24", {}, 2),
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]}, 3),
    ("black_book", {"enchanted": ["8", "9", "10"], "transfer": True}, 4),
]

SUIT_CHOICES: tuple[str | None, ...] = (None, *durak.SUITS)


def candidates(game: durak.Game, player: int) -> Iterator[durak.Move]:
    """Every move of the game ``player`` could send now, legal or not (openings of up to three
    cards of a rank, from the whole deck)."""
    deck = durak.deck(game.rules.deck_size)
    targets = [pair[0] for pair in game.table if pair[0] is not None] + deck[:3]
    for as_suit in SUIT_CHOICES:
        for card in deck:
            yield durak.Move("attack", player, cards=(card,), as_suit=as_suit)
            yield durak.Move("throw", player, card=card, as_suit=as_suit)
            yield durak.Move("transfer", player, card=card, as_suit=as_suit)
            for target in targets:
                yield durak.Move("defend", player, card=card, target=target, as_suit=as_suit)
        hand = game.hands[player]
        for size in (2, 3):
            for cards in itertools.combinations(hand, size):
                yield durak.Move("attack", player, cards=cards, as_suit=as_suit)
                yield durak.Move("attack", player, cards=cards[::-1], as_suit=as_suit)
    for kind in ("take", "pass", "swap_trump", "reverse"):
        yield durak.Move(kind, player)


def same_opening(move: durak.Move, listed: tuple[durak.Move, ...]) -> bool:
    return any(
        other.type == "attack"
        and other.as_suit == move.as_suit
        and sorted(other.cards) == sorted(move.cards)
        and len(set(move.cards)) == len(move.cards)
        for other in listed
    )


@pytest.mark.parametrize(("preset", "options", "players"), CONFIGS)
def test_apply_accepts_exactly_the_generated_moves(
    preset: str, options: dict[str, Any], players: int
) -> None:
    rules = durak.Rules.preset(preset, **options)
    rng = random.Random(f"{preset}{options}{players}")
    checked = 0
    for _game in range(1):
        game = durak.Game.new(rules, players=players, seed=rng.randrange(10**9))
        for step in range(400):
            if game.over:
                break
            if step % 6 == 0:  # every sixth position: the whole candidate set is large
                for player in range(players):
                    listed = game.legal_actions(player)
                    for move in candidates(game, player):
                        refusal = game.why_illegal(move)  # an AssertionError fails the test here
                        accepted = refusal is None
                        generated = move in listed or (move.type == "attack" and same_opening(move, listed))
                        assert accepted == generated, (move, refusal, listed)
                        checked += 1
            movers = [p for p in range(players) if game.legal_actions(p)]
            player = rng.choice(movers)
            game.apply(rng.choice(game.legal_actions(player)))
    assert checked > 2_000


def test_a_move_and_its_json_are_judged_alike() -> None:
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"), [["6S", "6H", "7D"], ["8S", "AD", "9C"]], ["10C", "9H"]
    )
    attacker = game.attacker
    assert attacker is not None
    for move in candidates(game, attacker):
        as_move, as_json = game.why_illegal(move), game.why_illegal(move.to_json())
        assert (as_move is None) == (as_json is None)
        assert str(as_move) == str(as_json)
    # Openings in any order; the same card twice is no pair.
    assert game.why_illegal({"type": "attack", "player": attacker, "cards": ["6H", "6S"]}) is None
    refusal = game.why_illegal({"type": "attack", "player": attacker, "cards": ["6S", "6S"]})
    assert str(refusal) == "the same card twice"
