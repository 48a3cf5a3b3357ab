"""No public signal depends on a hidden card (issue 16).

At a real table a player who cannot throw in looks exactly like one who chooses not to. So two
deals that differ only in the cards of one hand must look the same to everyone else: the same
``view()`` for every other player and for a spectator, the same ``waiting_for()``, and the same
public events after the same action, at every step of random games, for every preset, with and
without teams and enchanted cards.

The construction: at each step of a random game, the state S is copied to S' with one card of
hand k swapped for a hidden card elsewhere: a stock card other than the face-up one or, once the
stock is gone, a card of another hand m. The views of everyone but k (and m) must agree; then an
action by someone else (or one of k's and m's actions legal in both, such as a pass or a take)
goes to both, and the events and the views after it must agree too.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import durak

from ._support import key

ALL_ENCHANTED = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]

CONFIGS: list[tuple[str, dict[str, Any], int, int]] = [
    *[
        (preset, {}, n, 3)
        for preset in ("classic", "perevodnoy", "black_book", "tabletop")
        for n in (2, 3, 4, 6)
    ],
    ("tabletop", {"deck_size": 52}, 4, 3),
    *[("durak24", {}, n, 3) for n in (2, 3, 4)],
    ("classic", {"throw_in": "neighbours"}, 5, 3),
    ("classic", {"throw_when": "all_beaten", "add_after_take": False}, 3, 3),
    ("classic", {"opening_limit": 5}, 4, 3),
    ("classic", {"on_timeout": "auto"}, 3, 3),
    ("classic", {"teams": "partners"}, 4, 4),
    ("classic", {"teams": "partners"}, 6, 3),
    ("perevodnoy", {"teams": "partners"}, 4, 4),
    ("black_book", {"teams": "black_book"}, 4, 4),
    ("black_book", {"enchanted": ALL_ENCHANTED}, 3, 4),
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10"]}, 4, 3),
    ("black_book", {"enchanted": ["9"]}, 3, 4),
    ("black_book", {"enchanted": ALL_ENCHANTED, "teams": "black_book"}, 4, 3),
    ("perevodnoy", {"enchanted": ALL_ENCHANTED, "teams": "partners"}, 4, 3),
]


def config_id(config: tuple[str, dict[str, Any], int, int]) -> str:
    preset, overrides, players, _ = config
    extra = "".join(f"-{k}={'+'.join(v) if isinstance(v, list) else v}" for k, v in overrides.items())
    return f"{preset}{extra}-{players}p"


def with_swap(game: durak.Game, rng: random.Random) -> tuple[durak.Game, set[int]] | None:
    """A copy of ``game`` with one card of a hand swapped for a hidden card elsewhere, and the
    players whose own hands differ."""
    holders = [p for p, hand in enumerate(game.hands) if hand]
    if not holders:
        return None
    k = rng.choice(holders)
    other = game.copy()
    i = rng.randrange(len(other.hands[k]))
    if len(other.stock) >= 2:
        j = rng.randrange(len(other.stock) - 1)  # never the face-up trump card, which is public
        other.hands[k][i], other.stock[j] = other.stock[j], other.hands[k][i]
        return other, {k}
    others = [p for p in holders if p != k]
    if not others:
        return None
    m = rng.choice(others)
    j = rng.randrange(len(other.hands[m]))
    other.hands[k][i], other.hands[m][j] = other.hands[m][j], other.hands[k][i]
    return other, {k, m}


def public(game: durak.Game, viewers: list[int | None]) -> dict[str, Any]:
    views = {}
    for viewer in viewers:
        view = game.view(viewer)
        # a player's actions come in the order their cards arrived: the same actions, in any order
        view["actions"] = sorted(
            json.dumps({**action, "cards": sorted(action.get("cards", []))}, sort_keys=True)
            for action in view["actions"]
        )
        views[str(viewer)] = view
    return {"views": views, "waiting_for": game.waiting_for()}


def candidates(game: durak.Game, rng: random.Random) -> list[dict[str, Any]]:
    """Every legal action, the timeouts the game allows, and now and then the preference "don't
    wait for me to throw in", switched on or off, in random order (defences first, usually)."""
    actions = [a for p in range(game.players) for a in game.legal_json(p)]
    if rng.random() < 0.05:
        actions += [{"type": "timeout", "player": p} for p in game.waiting_for()]
    if rng.random() < 0.1:
        actions += [
            {"type": "auto_pass", "player": p, "on": p not in game.auto_pass}
            for p in range(game.players)
            if p not in game.finished
        ]
    rng.shuffle(actions)
    if rng.random() < 0.7:
        actions.sort(key=lambda a: a["type"] != "defend")
    return actions


def legal_in(game: durak.Game, action: dict[str, Any]) -> bool:
    if action["type"] in ("timeout", "auto_pass"):
        return True
    return key(action) in {key(a) for a in game.legal_json(action["player"])}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_other_hands_never_show(config: tuple[str, dict[str, Any], int, int]) -> None:
    preset, overrides, players, games = config
    rules = durak.Rules.preset(preset, **overrides)
    compared = 0
    for seed in range(games):
        rng = random.Random(f"{config_id(config)}/{seed}")
        game = durak.Game.new(rules, players, seed, dealer=rng.randrange(players))
        history: list[dict[str, Any]] = []
        for _ in range(5000):
            if game.over:
                break
            swapped = with_swap(game, rng)
            actions = candidates(game, rng)
            if swapped is None:
                game.apply(actions[0])
                continue
            other, differing = swapped
            viewers: list[int | None] = [None, *(p for p in range(players) if p not in differing)]
            context = f"seed {seed}, hands {sorted(differing)} differ, after {json.dumps(history)}"
            assert public(other, viewers) == public(game, viewers), context
            # k's (and m's) own moves may differ with their cards: only one legal in both is played.
            action = next(
                (
                    a
                    for a in actions
                    if a["player"] not in differing or (a["type"] != "timeout" and legal_in(other, a))
                ),
                None,
            )
            if action is None:  # the only mover plays a card the other deal does not give them
                game.apply(actions[0])
                history.append(actions[0])
                continue
            game.apply(action)
            other.apply(action)
            history.append(action)
            assert other.events == game.events, f"{action}: {context}"
            # the swapped stock card may have been drawn: whoever now holds other cards is left out
            viewers = [None, *(p for p in range(players) if sorted(game.hands[p]) == sorted(other.hands[p]))]
            assert public(other, viewers) == public(game, viewers), f"after {action}: {context}"
            compared += 1
        assert game.over, "a random game did not end in 5000 actions"
    assert compared > 20 * games
