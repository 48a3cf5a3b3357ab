"""The engine always terminates (issue 17): from any reachable state ``legal_actions``, ``view``,
``waiting_for`` and ``apply`` return within a bounded number of steps, and every game ends within
a bounded number of actions.

Every preset x team play x transfer x a choice of enchanted cards x every player count the rules
allow, random games to the end. Each engine call runs under a line budget counted with
``sys.settrace`` (deterministic, unlike a clock): a loop that does not end raises instead of
hanging the suite.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any, TypeVar

import pytest

import durak
from durak.enchanted import ENCHANTED_STAGES

#: Lines of Python one engine call may run. The costliest reachable call (a view listing a
#: six-card hand's multi-card openings) runs a few thousand; an endless loop exceeds any budget.
LINE_BUDGET = 60_000
#: Actions a random game may take. Games here take a few hundred at most.
MAX_ACTIONS = 4000

T = TypeVar("T")


class OverBudget(Exception):
    pass


def bounded(call: Callable[[], T]) -> T:
    """Run ``call`` and fail if it executes more than ``LINE_BUDGET`` lines."""
    left = LINE_BUDGET

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal left
        left -= 1
        if left < 0:
            raise OverBudget(f"more than {LINE_BUDGET} lines in {frame.f_code.co_name}")
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        return call()
    finally:
        sys.settrace(previous)


def configs() -> list[tuple[str, str, bool, str, int]]:
    out = []
    for preset in durak.PRESETS:
        base = durak.Rules.preset(preset)
        stages = ["none", *ENCHANTED_STAGES] if base.deck_size == 36 else ["none"]
        for teams in ("none", "partners", "black_book"):
            for transfer in (False, True):
                for stage in stages:
                    rules = rules_of(preset, teams, transfer, stage)
                    for players in rules.player_counts():
                        out.append((preset, teams, transfer, stage, players))
    return out


def rules_of(preset: str, teams: str, transfer: bool, stage: str) -> durak.Rules:
    enchanted = ENCHANTED_STAGES[stage] if stage != "none" else ()
    return durak.Rules.preset(preset, teams=teams, transfer=transfer, enchanted=enchanted)


def config_id(config: tuple[str, str, bool, str, int]) -> str:
    preset, teams, transfer, stage, players = config
    return f"{preset}-teams={teams}-transfer={transfer}-enchanted={stage}-{players}p"


CONFIGS = configs()


def test_the_product_covers_every_allowed_player_count() -> None:
    assert len(CONFIGS) > 250
    assert ("perevodnoy", "partners", True, "none", 4) in CONFIGS
    assert ("durak24", "partners", False, "none", 4) in CONFIGS
    assert not any(players == 5 and teams != "none" for _, teams, _, _, players in CONFIGS)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_call_returns_and_every_game_ends(config: tuple[str, str, bool, str, int]) -> None:
    preset, teams, transfer, stage, players = config
    rules = rules_of(preset, teams, transfer, stage)
    rng = random.Random(config_id(config))
    game = durak.Game.new(rules, players, rng.randrange(2**32), dealer=rng.randrange(players))
    for _ in range(MAX_ACTIONS):
        waiting = bounded(game.waiting_for)
        legal = [bounded(partial(game.legal_json, p)) for p in range(players)]
        for viewer in [None, *range(players)]:
            bounded(partial(game.view, viewer))
        if game.over:
            break
        assert waiting, "a running game waits for nobody"
        player = rng.choice(waiting)
        choices = legal[player]
        defends = [a for a in choices if a["type"] == "defend"]
        action: dict[str, Any]
        if rng.random() < 0.01:
            action = {"type": "timeout", "player": player}
        else:
            action = rng.choice(defends if defends and rng.random() < 0.7 else choices)
        bounded(partial(game.apply, action))
    assert game.over, f"the game did not end in {MAX_ACTIONS} actions"
