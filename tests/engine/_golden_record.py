"""Records the engine's every answer along seeded random games, for ``test_golden.py``:
``python -m tests.engine._golden_record`` wrote ``data/golden.json`` with the engine of commit
035cf65 (its engine files unchanged since 9395d95), before issue 21 rebuilt the engine inside.

Each game's config (preset, options, players, state format, seed, deal or not) is stored with
one sha256 of everything the engine said along the way, step by step: every player's
``legal_actions``, ``waiting_for()``, ``view(p)`` for every seat and for a spectator, the claim
answers, the ``events`` of the action applied, ``to_dict()`` and its round trip through
``from_dict``, and the refusal (``str``, template and params) of a sample of wrong and malformed
actions tried on a copy. Play is random: legal moves of everyone, now and then a timeout of a
player the game waits for, ``auto_pass`` switched on or off, a claim, a resignation.

``python -m tests.engine._golden_record --dump N`` prints the stream of game N, one JSON line a
step, to find where two engines part (run it under each engine's ``PYTHONPATH`` and diff).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import durak

OUT = Path(__file__).parent / "data" / "golden.json"

MAX_STEPS = 400
ALL_RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
ENCHANTED_CHOICES: list[list[str]] = [
    [],
    ALL_RANKS,
    ["6", "7"],
    ["8", "9", "10"],
    ["J", "Q", "K", "A"],
    ["8"],
    ["9", "K"],
]
JUNK = ["1H", "10X", "", 7, None, ["6S"], "6s", "ZZ"]


def configs() -> list[dict[str, Any]]:
    """Every preset x team mode x allowed player count, each with a few random variants of
    transfer, enchanted ranks, on_timeout and state format."""
    pick = random.Random(21)
    found: list[dict[str, Any]] = []
    for preset in durak.PRESETS:
        for teams in ("none", "partners", "black_book"):
            try:
                base = durak.Rules.preset(preset, teams=teams)
            except durak.RulesError:
                continue
            for players in base.player_counts():
                variants = 7 if teams == "none" else 10
                for _ in range(variants):
                    options: dict[str, Any] = {"teams": teams}
                    options["transfer"] = pick.random() < 0.5
                    options["on_timeout"] = pick.choice(["fool", "auto"])
                    if base.deck_size == 36 and pick.random() < 0.6:
                        options["enchanted"] = pick.choice(ENCHANTED_CHOICES)
                    try:
                        rules = durak.Rules.preset(preset, **options)
                        rules.validate_players(players)
                    except durak.RulesError:
                        continue
                    found.append(
                        {
                            "preset": preset,
                            "options": options,
                            "players": players,
                            "format": pick.choice([1, 2, 2]),
                            "seed": pick.randrange(10**9),
                            "deal": pick.random() < 0.2,
                        }
                    )
    return found


def start(config: dict[str, Any]) -> tuple[durak.Game, random.Random]:
    rules = durak.Rules.preset(config["preset"], **config["options"])
    rng = random.Random(config["seed"])
    players = config["players"]
    dealer = rng.randrange(players)
    if config["deal"]:
        cards = durak.deck(rules.deck_size)
        rng.shuffle(cards)
        cards = cards[rng.randrange(0, 6) :]  # a few cards already in the discard
        hands = [cards[i * rules.hand_size : (i + 1) * rules.hand_size] for i in range(players)]
        stock = cards[players * rules.hand_size :]
        trump = rng.choice(durak.SUITS) if not stock else None
        game = durak.Game.from_deal(
            rules, hands, stock, dealer=dealer, trump=trump, state_format=config["format"]
        )
    else:
        game = durak.Game.new(
            rules,
            players,
            config["seed"],
            dealer=dealer,
            first_game=rng.random() < 0.7,
            state_format=config["format"],
        )
    return game, rng


def refusal(game: durak.Game, action: Any) -> Any:
    """What the engine says to ``action``, tried on a copy: its refusal, or the state it leads to."""
    trial = game.copy()
    try:
        trial.apply(action)
    except durak.IllegalAction as error:
        return ["illegal", str(error), error.template, error.params]
    return ["applied", trial.to_dict(), trial.events]


def wrong_actions(game: durak.Game, rng: random.Random) -> list[Any]:
    """A few actions that are mostly wrong: a legal action changed a little, or junk."""
    legal = [a for p in range(game.players) for a in game.legal_json(p)]
    hands = [card for hand in game.hands for card in hand]
    table = [card for pair in game.table for card in pair if card is not None]
    some_card = rng.choice(hands + table + JUNK)
    kinds = [*durak.ACTION_TYPES, *durak.SYSTEM_ACTION_TYPES, *durak.PREFERENCE_ACTION_TYPES]
    out: list[Any] = []
    for _ in range(3):
        roll = rng.random()
        player: Any = rng.randrange(game.players)
        if roll < 0.05:
            out.append(rng.choice([None, [], "attack", {"player": 0}]))
            continue
        if roll < 0.1:
            player = rng.choice([-1, game.players, "0", None, True])
        action: dict[str, Any] = {"type": rng.choice([*kinds, "bogus"]), "player": player}
        if legal and rng.random() < 0.4:
            action = dict(rng.choice(legal))
            action["player"] = rng.choice([action["player"], rng.randrange(game.players)])
        field = rng.choice(["cards", "card", "target", "as_suit", "on", "waited", "clock", "extra", None])
        if field == "cards":
            action["cards"] = rng.choice([[some_card], [some_card, some_card], [], "6S", hands[:2]])
        elif field in ("card", "target"):
            action[field] = some_card
        elif field == "as_suit":
            action["as_suit"] = rng.choice([*durak.SUITS, "X", None])
        elif field == "on":
            action["on"] = rng.choice([True, False, 1, None])
        elif field == "waited":
            action["waited"] = rng.choice([0, 86400, 14 * 86400, 10**9, -1, 1.5, "x"])
        elif field == "clock":
            action["clock"] = rng.choice([True, False, 0])
        elif field == "extra":
            action["extra"] = 1
        if rng.random() < 0.1 and len(action) > 2:
            del action[rng.choice([k for k in action if k not in ("type", "player")] or ["type"])]
        out.append(action)
    return out


def choose(game: durak.Game, rng: random.Random) -> dict[str, Any]:
    """The next action: a legal one of anyone's, or now and then a system or preference action."""
    roll = rng.random()
    waiting = game.waiting_for()
    if roll < 0.04 and waiting and (game.rules.on_timeout == "auto" or rng.random() < 0.15):
        return {"type": "timeout", "player": rng.choice(waiting)}
    if roll < 0.07:
        player = rng.randrange(game.players)
        return {"type": "auto_pass", "player": player, "on": player not in game.auto_pass}
    if roll < 0.075:
        return {
            "type": "claim",
            "player": rng.randrange(game.players),
            "waited": rng.choice([3600, game.rules.claim_after_seconds]),
            "clock": rng.random() < 0.3,
        }
    if roll < 0.078:
        return {"type": "resign", "player": rng.randrange(game.players)}
    options = [a for p in range(game.players) for a in game.legal_json(p)]
    defends = [a for a in options if a["type"] in ("defend", "transfer")]
    if defends and rng.random() < 0.5:
        return rng.choice(defends)
    return rng.choice(options)


def snapshot(game: durak.Game) -> dict[str, Any]:
    players = range(game.players)
    state = game.to_dict()
    outcome = game.outcome()
    return {
        "legal": [game.legal_json(p) for p in players],
        "waiting": game.waiting_for(),
        "views": [game.view(p) for p in [*players, None]],
        "state": state,
        "round_trip": durak.Game.from_dict(json.loads(json.dumps(state))).to_dict() == state,
        "claims": [
            [game.claim_against(p), game.claim_wait(p), str(game.why_no_claim(p, waited=10**9))]
            for p in players
        ],
        "outcome": None if outcome is None else [list(outcome.order_out), outcome.loser, outcome.losers],
        "teams": [game.teams, [game.team_of(p) for p in players]],
        "public": [
            game.stock_size,
            game.slot,
            game.may_reverse,
            game.shown_trump,
            game.named,
            sorted(game.passed),
            sorted(game.auto_pass),
            game.transfer_blocked,
            game.closed,
            game.king_defended,
        ],
    }


def stream(config: dict[str, Any]) -> Iterator[Any]:
    """Everything the engine says along one game, step by step."""
    game, rng = start(config)
    yield snapshot(game)
    for _ in range(MAX_STEPS):
        if game.over:
            break
        yield [refusal(game, action) for action in wrong_actions(game, rng)]
        action = choose(game, rng)
        try:
            game.apply(action)
        except durak.IllegalAction as error:
            yield ["illegal", action, str(error), error.template, error.params]
            continue
        yield [action, game.events]
        yield snapshot(game)
        if rng.random() < 0.1:
            viewer = rng.randrange(game.players)
            rebuilt = durak.Game.from_view(game.view(viewer), game.hands, game.stock)
            yield rebuilt.to_dict() == game.to_dict(), [rebuilt.view(p) for p in range(game.players)]


def line(item: Any) -> bytes:
    return json.dumps(item, sort_keys=True, default=repr).encode() + b"\n"


def digest(config: dict[str, Any]) -> tuple[str, int]:
    """The sha256 of a game's stream, and its number of steps."""
    hasher = hashlib.sha256()
    steps = 0
    for item in stream(config):
        hasher.update(line(item))
        steps += 1
    return hasher.hexdigest(), steps


def record() -> list[dict[str, Any]]:
    games = []
    for config in configs():
        sha, steps = digest(config)
        games.append({**config, "steps": steps, "sha256": sha})
    return games


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump"]:
        for item in stream(configs()[int(sys.argv[2])]):
            sys.stdout.buffer.write(line(item))
    else:
        OUT.write_text(json.dumps(record(), indent=0, sort_keys=True) + "\n")
