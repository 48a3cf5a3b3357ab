"""Records games played by the engine before throw-in waiting became public (state format 1), for
``test_legacy_replay.py``: ``python -m tests.engine._legacy_record`` wrote ``data/legacy_games.json``
with the engine of commit 0bd748d. Rerunning it now records format-1 games with today's engine,
which must give the same file."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import durak

OUT = Path(__file__).parent / "data" / "legacy_games.json"

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {}, 2),
    ("classic", {}, 4),
    ("classic", {"on_timeout": "auto"}, 3),
    ("perevodnoy", {}, 3),
    ("perevodnoy", {"on_timeout": "auto"}, 5),
    ("black_book", {}, 4),
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]}, 3),
    ("tabletop", {"deck_size": 52}, 4),
    ("durak24", {}, 3),
    ("classic", {"teams": "partners"}, 4),
    ("black_book", {"teams": "black_book"}, 4),
    ("classic", {"throw_in": "neighbours", "on_timeout": "auto"}, 5),
]


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def play(game: durak.Game, rng: random.Random) -> list[dict[str, Any]]:
    """A random game to the end: random waited-for players, defences preferred, a few timeouts
    where they do not end the game."""
    actions: list[dict[str, Any]] = []
    for _ in range(3000):
        if game.over:
            break
        player = rng.choice(game.waiting_for())
        legal = game.legal_json(player)
        defends = [a for a in legal if a["type"] == "defend"]
        if game.rules.on_timeout == "auto" and rng.random() < 0.05:
            action: dict[str, Any] = {"type": "timeout", "player": player}
        elif defends and rng.random() < 0.7:
            action = rng.choice(defends)
        else:
            action = rng.choice(legal)
        game.apply(action)
        actions.append(action)
    return actions


def record(**new_options: Any) -> list[dict[str, Any]]:
    games = []
    for index, (preset, overrides, players) in enumerate(CONFIGS):
        rules = durak.Rules.preset(preset, **overrides)
        for round_ in range(3):
            seed = 1000 * index + round_
            rng = random.Random(seed)
            dealer, first_game = rng.randrange(players), rng.random() < 0.7
            stacked = round_ == 2
            if stacked:
                cards = durak.deck(rules.deck_size)
                rng.shuffle(cards)
                hands = [cards[i * rules.hand_size : (i + 1) * rules.hand_size] for i in range(players)]
                stock = cards[players * rules.hand_size :]
                deal = {"hands": hands, "stock": stock, "dealer": dealer}
                game = durak.Game.from_deal(rules, hands, stock, dealer=dealer, **new_options)
                start: dict[str, Any] = {"deal": deal}
            else:
                game = durak.Game.new(
                    rules, players, seed, dealer=dealer, first_game=first_game, **new_options
                )
                start = {"seed": seed, "dealer": dealer, "first_game": first_game}
            events: list[list[dict[str, Any]]] = []
            middle_state = None
            actions: list[dict[str, Any]] = []
            policy = random.Random(seed + 1)
            for action in play(game.copy(), policy):
                if len(actions) == 40:
                    middle_state = game.to_dict()
                game.apply(action)
                actions.append(action)
                events.append(json.loads(json.dumps(game.events)))
            games.append(
                {
                    "rules": rules.to_dict(),
                    "players": players,
                    **start,
                    "actions": actions,
                    "events_sha256": digest(events),
                    "middle": 40,
                    "middle_state": middle_state,
                    "final_state_sha256": digest(game.to_dict()),
                }
            )
    return games


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(state_format=1), separators=(",", ":")) + "\n")
