"""Helpers shared by the engine tests.

Everything here is written from the rule texts and the API contract
(/work/notes/engine_api.md), never from the engine's code: the deck, the beat
relation and the action builders are independent re-statements, so the tests
compare the engine against them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import durak

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
LOWEST_RANK = {24: "9", 36: "6", 52: "2"}

Action = dict[str, Any]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def rank_value(card: str) -> int:
    return RANKS.index(rank(card))


def full_deck(size: int) -> list[str]:
    """The deck of a given size: 24 = 9..A, 36 = 6..A, 52 = 2..A."""
    ranks = RANKS[RANKS.index(LOWEST_RANK[size]) :]
    return [r + s for s in SUITS for r in ranks]


def beats(defence: str, attack: str, trump: str | None) -> bool:
    """The beat relation every text states: higher card of the same suit, or any
    trump on a non-trump; a trump only by a higher trump."""
    if suit(defence) == suit(attack):
        return rank_value(defence) > rank_value(attack)
    return trump is not None and suit(defence) == trump


# --- action builders -------------------------------------------------------


def attack(player: int, *cards: str) -> Action:
    return {"type": "attack", "player": player, "cards": list(cards)}


def throw(player: int, card: str) -> Action:
    return {"type": "throw", "player": player, "card": card}


def defend(player: int, target: str, card: str) -> Action:
    return {"type": "defend", "player": player, "target": target, "card": card}


def transfer(player: int, card: str) -> Action:
    return {"type": "transfer", "player": player, "card": card}


def take(player: int) -> Action:
    return {"type": "take", "player": player}


def pass_(player: int) -> Action:
    return {"type": "pass", "player": player}


def swap(player: int) -> Action:
    return {"type": "swap_trump", "player": player}


def key(action: Action) -> tuple[Any, ...]:
    """A hashable form of an action; an opening's cards compare as a set."""
    cards = action.get("cards")
    return (
        action.get("type"),
        action.get("player"),
        None if cards is None else tuple(sorted(cards)),
        action.get("card"),
        action.get("target"),
    )


def legal_keys(game: durak.Game, player: int) -> set[tuple[Any, ...]]:
    return {key(a) for a in game.legal_json(player)}


def is_legal(game: durak.Game, action: Action) -> bool:
    return key(action) in legal_keys(game, action["player"])


def of_type(game: durak.Game, player: int, kind: str) -> list[Action]:
    return [a for a in game.legal_json(player) if a["type"] == kind]


def cards_of(game: durak.Game, player: int, kind: str) -> set[str]:
    """The cards of a player's legal actions of one kind (throw, transfer, ...)."""
    return {a["card"] for a in of_type(game, player, kind)}


def do(game: durak.Game, *actions: Action) -> None:
    """Apply actions one by one, each of which must be listed as legal first."""
    for action in actions:
        listed = game.legal_json(action["player"])
        assert key(action) in {key(a) for a in listed}, (
            f"{action} is not in legal_actions({action['player']}): {listed}"
        )
        game.apply(action)


def refuse(game: durak.Game, action: Action) -> None:
    """The action is not listed, raises IllegalAction and changes nothing."""
    listed = game.legal_json(action["player"])
    assert key(action) not in {key(a) for a in listed}, f"{action} is listed as legal"
    before = game.to_dict()
    with pytest.raises(durak.IllegalAction) as excinfo:
        game.apply(action)
    assert str(excinfo.value).strip(), "IllegalAction needs a message a player understands"
    assert game.to_dict() == before, f"refused {action} changed the game"


# --- stacked deals -----------------------------------------------------------


def rules(preset: str, **overrides: Any) -> durak.Rules:
    return durak.Rules.preset(preset, **overrides)


def deal(
    preset: str,
    hands: Sequence[Iterable[str]],
    stock: Iterable[str] = (),
    *,
    trump: str | None = None,
    first_attacker: int | None = 0,
    dealer: int = 0,
    state_format: int = durak.STATE_FORMAT,
    **overrides: Any,
) -> durak.Game:
    """A stacked deal: stock[0] is drawn first, stock[-1] is the face-up trump.

    Checks the deal itself first, so a typo in a test fails here and not as a
    puzzling engine result.
    """
    the_rules = rules(preset, **overrides)
    hand_lists = [list(h) for h in hands]
    stock_list = list(stock)
    everything = [c for h in hand_lists for c in h] + stock_list
    deck = full_deck(the_rules.deck_size)
    assert len(everything) == len(set(everything)), "test bug: a card dealt twice"
    assert set(everything) <= set(deck), f"test bug: {set(everything) - set(deck)} not in the deck"
    assert stock_list or trump, "test bug: an empty stock needs a trump suit"
    return durak.Game.from_deal(
        the_rules,
        hand_lists,
        stock_list,
        dealer=dealer,
        first_attacker=first_attacker,
        trump=trump,
        state_format=state_format,
    )


def attack_cards(game: durak.Game) -> list[str]:
    return [pair[0] for pair in game.table]


def table_cards(game: durak.Game) -> list[str]:
    return [c for pair in game.table for c in pair if c is not None]


def hand(game: durak.Game, player: int) -> set[str]:
    return set(game.hands[player])


def accounted(game: durak.Game) -> list[str]:
    """Every card the game knows of, wherever it is (hands, table, stock, discard)."""
    return [c for h in game.hands for c in h] + table_cards(game) + list(game.stock) + list(game.discard)


def assert_cards_accounted(game: durak.Game) -> None:
    cards = accounted(game)
    deck = full_deck(game.rules.deck_size)
    assert len(cards) == len(set(cards)), (
        f"duplicated cards: {sorted(c for c in set(cards) if cards.count(c) > 1)}"
    )
    assert sorted(cards) == sorted(deck), (
        f"missing {sorted(set(deck) - set(cards))}, extra {sorted(set(cards) - set(deck))}"
    )
    assert game.stock_size == len(game.stock)


def cards(text: str) -> list[str]:
    """`cards("6S 6H 10D")` -> ["6S", "6H", "10D"], for long stacked stocks."""
    return text.split()
