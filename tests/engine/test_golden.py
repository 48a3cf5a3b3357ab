"""The engine answers exactly as it did before issue 21 rebuilt it inside.

``data/golden.json`` holds a few hundred seeded random games over every preset, team mode and
allowed player count, with transfer, enchanted ranks, on_timeout and both state formats varied,
recorded by ``_golden_record.py`` with the engine of commit 035cf65: for each, its config and one
sha256 of every answer the engine gave along the game (legal actions, waiting, every view,
events, stored state and its round trip, claims, the refusals of wrong and malformed actions).
A game whose digest differs has changed behaviour somewhere: ``python -m
tests.engine._golden_record --dump N`` under the old and the new engine shows where.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ._golden_record import configs, digest

RECORDED: list[dict[str, Any]] = json.loads((Path(__file__).parent / "data" / "golden.json").read_text())


def game_id(record: dict[str, Any]) -> str:
    options = record["options"]
    enchanted = "+".join(options.get("enchanted", [])) or "plain"
    return (
        f"{RECORDED.index(record)}-{record['preset']}-{options['teams']}-{record['players']}p-"
        f"f{record['format']}-{enchanted}"
    )


def test_the_recorded_configs_are_the_recorders() -> None:
    # The recorder draws its configs from a fixed seed: the file and the code agree.
    fields = ("preset", "options", "players", "format", "seed", "deal")
    assert [{k: r[k] for k in fields} for r in RECORDED] == configs()
    assert len(RECORDED) >= 200 and sum(r["steps"] for r in RECORDED) > 50_000


@pytest.mark.parametrize("record", RECORDED, ids=game_id)
def test_a_game_replays_with_every_answer_the_same(record: dict[str, Any]) -> None:
    assert digest(record) == (record["sha256"], record["steps"])
