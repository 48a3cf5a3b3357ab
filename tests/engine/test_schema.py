"""The engine's declared shapes (``durak.View``, ``durak.ACTION_SHAPES``, ``durak.EVENT_SHAPES``)
say what the engine really sends and takes: every key of ``view()``,
every action ``legal_actions`` offers (and the system and preference actions the site applies),
every event, in random games of every preset and of the rules' options."""

from __future__ import annotations

import functools
import random
from typing import Any, Literal

import pytest

import durak
from durak.actions import ACTION_FIELDS

from ._shapes import mismatch

ENCHANTABLE = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]

#: (preset, options, players): every preset, and the options that add keys or kinds of values.
CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    *[(preset, {}, players) for preset in durak.PRESETS for players in (2, 3, 4)],
    ("black_book", {"enchanted": ENCHANTABLE}, 3),
    ("black_book", {"enchanted": ENCHANTABLE, "teams": "black_book"}, 4),
    ("classic", {"teams": "partners"}, 4),
    ("classic", {"teams": "partners"}, 6),
    ("perevodnoy", {"on_timeout": "auto"}, 3),
    ("tabletop", {"deck_size": 52}, 5),
]


def config_id(config: tuple[str, dict[str, Any], int]) -> str:
    preset, options, players = config
    return "-".join([preset, *(f"{k}={v}" for k, v in options.items()), f"{players}p"]).replace("'", "")


def hashable(options: dict[str, Any]) -> frozenset[tuple[str, Any]]:
    return frozenset((name, tuple(v) if isinstance(v, list) else v) for name, v in options.items())


def assert_fits(value: Any, of: Any, where: str) -> None:
    problem = mismatch(value, of, where)
    assert problem is None, problem


def check_views(game: durak.Game) -> None:
    for player in [None, *range(game.players)]:
        view = game.view(player)
        assert tuple(view) == tuple(durak.View.__annotations__)
        assert_fits(view, durak.View, f"view({player})")


def check_events(game: durak.Game) -> None:
    for event in game.events:
        assert event["type"] in durak.EVENT_SHAPES
        assert_fits(event, durak.EVENT_SHAPES[event["type"]], "event")


@functools.cache
def playout(preset: str, options: frozenset[tuple[str, Any]], players: int, seed: int) -> frozenset[str]:
    """One random game, checked at every step; returns the kinds of actions and events seen.
    Now and then a player's time runs out or they set auto_pass, and some games end in a
    resignation or a claim, so that the site's actions and their events are covered too."""
    rng = random.Random(f"{preset}{sorted(options)}{players}{seed}")
    game = durak.Game.new(durak.Rules.preset(preset, **dict(options)), players, seed=seed)
    seen: set[str] = set()
    for _ in range(3000):
        check_views(game)
        if game.over:
            break
        offered = [action for p in range(game.players) for action in game.legal_json(p)]
        for action in offered:
            assert action["type"] in durak.ACTION_TYPES
            assert_fits(action, durak.Action, "legal action")
        waiting = game.waiting_for()
        roll = rng.random()
        if roll < 0.03 and waiting:
            action = {"type": "timeout", "player": rng.choice(waiting)}
        elif roll < 0.05:
            action = {"type": "auto_pass", "player": rng.randrange(game.players), "on": rng.random() < 0.5}
        elif roll < 0.055:
            action = {"type": "resign", "player": rng.randrange(game.players)}
        elif roll < 0.06:
            action = {"type": "claim", "player": rng.randrange(game.players), "waited": 10**7, "clock": False}
        else:
            action = rng.choice(offered)
        assert_fits(action, durak.Action, "applied action")
        try:
            game.apply(action)
        except durak.IllegalAction:
            continue  # a resignation of a player already out, a claim the game waits for...
        seen.add(action["type"])
        seen |= {f"event:{event['type']}" for event in game.events}
        check_events(game)
    assert game.over
    return frozenset(seen)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_views_actions_and_events_of_random_games_keep_to_the_schema(
    config: tuple[str, dict[str, Any], int],
) -> None:
    preset, options, players = config
    for seed in range(4):
        playout(preset, hashable(options), players, seed)


def test_the_random_games_reach_every_declared_action_and_event() -> None:
    """The playouts above are no empty check: together they apply every kind of action."""
    seen: set[str] = set()
    for config in CONFIGS:
        for seed in range(4):
            preset, options, players = config
            seen |= playout(preset, hashable(options), players, seed)
    # reverse needs an enchanted king to come up at the right moment: rare in random play
    assert {name for name in seen if not name.startswith("event:")} >= set(durak.ACTION_SHAPES) - {"reverse"}
    assert {name.removeprefix("event:") for name in seen if name.startswith("event:")} == set(
        durak.EVENT_SHAPES
    )


def test_the_declared_action_types_are_the_engines() -> None:
    groups = (durak.ACTION_TYPES, durak.PREFERENCE_ACTION_TYPES, durak.SYSTEM_ACTION_TYPES)
    assert tuple(durak.ACTION_SHAPES) == tuple(name for group in groups for name in group)
    for name, shape in durak.ACTION_SHAPES.items():
        assert shape.__annotations__["type"] == Literal[name], name
        assert durak.meaning_of(shape), f"{name} says nothing of what it is"


def test_apply_refuses_a_missing_or_unexpected_field_by_the_declarations() -> None:
    """``apply`` takes its field sets from the declarations: for every action type, leaving out a
    declared required field, or adding one the type does not declare, is refused before the
    action's own rules are read."""
    assert set(ACTION_FIELDS) == set(durak.ACTION_SHAPES)
    for name, shape in durak.ACTION_SHAPES.items():
        game = durak.Game.new(durak.Rules.preset("classic"), 2, seed=3)
        full = {
            "type": name,
            "player": 0,
            **{field: None for field in shape.__required_keys__ - {"type", "player"}},
        }
        for field in shape.__required_keys__ - {"type", "player"}:
            partial = {key: value for key, value in full.items() if key != field}
            with pytest.raises(durak.IllegalAction, match=f"needs {field}"):
                game.apply(partial)
        with pytest.raises(durak.IllegalAction, match="unexpected field bogus"):
            game.apply({**full, "bogus": 1})


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ({"type": "attack", "player": 0, "cards": []}, "attack.cards has fewer than 1 items"),
        ({"type": "attack", "player": 0, "cards": ["6X"]}, "attack.cards[0] is not of type card: '6X'"),
        ({"type": "take", "player": True}, "take.player is not of type integer: True"),
        ({"type": "take", "player": 0, "card": "6S"}, "take: card not declared"),
        ({"type": "auto_pass", "player": 0}, "auto_pass: on is missing"),
        ({"type": "fly", "player": 0}, "fly: no such type"),
        ({"type": "throw", "player": 0, "card": "6S", "as_suit": "X"}, "throw.as_suit is not of type suit"),
    ],
)
def test_a_value_off_its_declaration_is_named(value: dict[str, Any], problem: str) -> None:
    found = mismatch(value, durak.Action)
    assert found is not None and found.startswith(problem)


def test_a_view_with_a_key_too_many_or_too_few_does_not_fit() -> None:
    view = durak.Game.new(durak.Rules.preset("classic"), 2, seed=1).view(0)
    assert mismatch(view, durak.View) is None
    assert mismatch({**view, "stock": []}, durak.View) == "View: stock not declared"
    assert mismatch({**view, "direction": True}, durak.View) == "View.direction is not one of (1, -1): True"
    del view["format"]
    assert mismatch(view, durak.View) == "View: format is missing"
