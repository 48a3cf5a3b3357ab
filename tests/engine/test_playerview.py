"""The view's and the events' TypedDicts (``durak.View``, ``durak.EVENT_SHAPES``) are the shapes the
engine gives: the view's keys in their order, each event type's keys, required as declared."""

from __future__ import annotations

import random
from typing import get_args

import durak
from durak import playerview


def test_the_view_has_the_keys_of_its_typeddict_in_order() -> None:
    game = durak.Game.new(durak.Rules.preset("classic"), players=3, seed=4)
    assert tuple(game.view(1)) == tuple(durak.View.__annotations__)
    assert tuple(game.view(None)) == tuple(durak.View.__annotations__)


def test_each_event_type_is_declared_once() -> None:
    assert tuple(durak.EVENT_SHAPES.values()) == get_args(playerview.Event)
    for name, shape in durak.EVENT_SHAPES.items():
        assert "type" in shape.__required_keys__, name
        assert durak.meaning_of(shape), f"{name} says nothing of what it is"


def test_events_of_random_play_fit_their_typeddicts() -> None:
    rng = random.Random(5)
    seen = set()
    for seed in range(20):
        game = durak.Game.new(durak.Rules.preset("perevodnoy", on_timeout="auto"), players=3, seed=seed)
        while not game.over:
            actions = [a for p in range(game.players) for a in game.legal_json(p)]
            if rng.random() < 0.02:
                actions = [{"type": "timeout", "player": p} for p in game.waiting_for()]
            game.apply(rng.choice(actions))
            for event in game.events:
                shape = durak.EVENT_SHAPES[event["type"]]
                assert shape.__required_keys__ <= event.keys() <= set(shape.__annotations__), event
                seen.add(event["type"])
    assert seen >= {"bout_end", "drew", "out", "game_over", "automatic"}
