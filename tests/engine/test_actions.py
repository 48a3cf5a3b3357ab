"""``durak.Move`` round-trips with the JSON actions, and ``why_illegal`` says exactly what ``apply``
refuses, in the same words."""

from __future__ import annotations

import random
from typing import Any

import pytest

import durak
from durak import Move

CONFIGS = [
    ("classic", {}, 3),
    ("perevodnoy", {}, 4),
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]}, 3),
    ("black_book", {"teams": "black_book", "enchanted": ["8", "9", "10"]}, 4),
]


def wrong(game: durak.Game, rng: random.Random) -> dict[str, Any]:
    legal = [a for p in range(game.players) for a in game.legal_json(p)]
    action = dict(rng.choice(legal))
    action["player"] = rng.randrange(game.players)
    key = rng.choice(["card", "target", "cards", "as_suit"])
    if key == "cards":
        action[key] = [rng.choice(game.hands[action["player"]] or ["6S"])]
    elif key == "as_suit":
        action[key] = rng.choice(durak.SUITS)
    else:
        action[key] = rng.choice(["6S", "AH", "10D", "QC"])
    return action


@pytest.mark.parametrize(("preset", "options", "players"), CONFIGS)
def test_moves_round_trip_and_why_illegal_agrees_with_apply(
    preset: str, options: dict[str, Any], players: int
) -> None:
    rng = random.Random(11)
    rules = durak.Rules.preset(preset, **options)
    refused = applied = 0
    for seed in range(8):
        game = durak.Game.new(rules, players, seed=seed)
        while not game.over:
            for player in range(game.players):
                for action in game.legal_json(player):
                    move = Move.from_json(action)
                    assert move.to_json() == action and list(move.to_json()) == list(action)
                    assert game.why_illegal(action) is None and game.why_illegal(move) is None
            attempt = wrong(game, rng)
            trial = game.copy()
            reason = game.why_illegal(attempt)
            try:
                trial.apply(attempt)
            except durak.IllegalAction as error:
                assert reason is not None
                assert (reason.template, reason.params) == (error.template, error.params)
                refused += 1
            else:
                assert reason is None
                applied += 1
            options_now = [a for p in range(game.players) for a in game.legal_json(p)]
            game.apply(Move.from_json(rng.choice(options_now)))
    assert refused > 100 and applied > 0


def test_a_malformed_move_is_refused_as_apply_refuses_it() -> None:
    game = durak.Game.new(durak.Rules.preset("classic"), players=2, seed=1)
    attacker = game.attacker
    for data in (
        {"type": "attack", "player": attacker, "cards": "6S"},
        {"type": "attack", "player": attacker, "cards": ["1H"]},
        {"type": "defend", "player": 1, "card": "6S"},
        {"type": "jump", "player": 0},
        {"type": "pass", "player": 9},
    ):
        with pytest.raises(durak.IllegalAction) as parsed:
            Move.from_json(data, players=2)
        with pytest.raises(durak.IllegalAction) as applied:
            game.apply(data)
        assert str(parsed.value) == str(applied.value)


def test_changing_a_listed_action_changes_neither_the_list_nor_what_apply_accepts() -> None:
    # legal_actions is remembered until the next move and apply trusts what it listed: a caller's
    # change to an action it was given must reach neither.
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"), [["6S", "6H", "7D"], ["8S", "AD", "9C"]], ["10C", "9H"]
    )
    attacker = game.attacker
    assert attacker is not None
    listed = game.legal_json(attacker)
    for action in listed:
        if "cards" in action:
            action["cards"].append("7D")
        action["player"] = 1 - attacker
    assert game.legal_json(attacker) == durak.Game.from_dict(game.to_dict()).legal_json(attacker)
    with pytest.raises(durak.IllegalAction, match="all of one rank"):
        game.apply({"type": "attack", "player": attacker, "cards": ["6S", "6H", "7D"]})
