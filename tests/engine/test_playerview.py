"""The TypedDicts of ``durak.playerview`` state the shapes ``durak.schema`` declares and the engine gives."""

from __future__ import annotations

import random
from typing import get_args, get_type_hints

import durak
from durak import playerview, schema


def test_the_view_typeddict_has_the_schemas_keys_in_order() -> None:
    assert tuple(get_type_hints(playerview.View)) == schema.VIEW_KEYS
    game = durak.Game.new(durak.Rules.preset("classic"), players=3, seed=4)
    assert tuple(game.view(1)) == tuple(playerview.View.__annotations__)


def test_each_event_typeddict_is_one_schema_event_type() -> None:
    by_type = {get_args(get_type_hints(event)["type"])[0]: event for event in get_args(playerview.Event)}
    assert set(by_type) == set(schema.EVENTS)
    for name, event in by_type.items():
        declared = schema.EVENTS[name].fields
        assert set(get_type_hints(event)) == {"type", *(field.name for field in declared)}, name
        required = {field.name for field in declared if field.required} | {"type"}
        assert event.__required_keys__ == required, name


def test_events_of_random_play_fit_their_typeddicts() -> None:
    by_type = {get_args(get_type_hints(event)["type"])[0]: event for event in get_args(playerview.Event)}
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
                shape = by_type[event["type"]]
                assert shape.__required_keys__ <= event.keys() <= set(get_type_hints(shape)), event
                seen.add(event["type"])
    assert seen >= {"bout_end", "drew", "out", "game_over", "automatic"}
