"""Games stored before throw-in waiting became public replay exactly as they were played.

``data/legacy_games.json`` holds 36 random games (every preset, teams, enchanted cards, timeouts,
stacked deals) recorded with the engine of commit 0bd748d, before this rule: each one's seed or
deal, its move log, a digest of the events of every move and of the final ``to_dict()``, and the
stored state after move 40. Their logs have no passes where the old engine ended bouts by itself,
so they replay only under the old rule: state format 1, which ``Game.format_of`` reads from a
stored state without ``"format"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import durak
from durak import Game, Rules

from ._legacy_record import digest
from ._support import cards, deal, defend, do, pass_

RECORDED: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "legacy_games.json").read_text()
)


def start(record: dict[str, Any], **options: Any) -> Game:
    rules = Rules.from_dict(record["rules"])
    if "deal" in record:
        stacked = record["deal"]
        return Game.from_deal(rules, stacked["hands"], stacked["stock"], dealer=stacked["dealer"], **options)
    return Game.new(
        rules,
        record["players"],
        record["seed"],
        dealer=record["dealer"],
        first_game=record["first_game"],
        **options,
    )


def game_id(record: dict[str, Any]) -> str:
    rules = record["rules"]
    return f"{rules['teams']}-{rules['transfer']}-{len(rules['enchanted'])}-{record.get('seed', 'deal')}"


@pytest.mark.parametrize("record", RECORDED, ids=game_id)
def test_a_stored_game_replays_from_its_seed_with_its_format(record: dict[str, Any]) -> None:
    game = start(record, state_format=1)
    events = []
    for action in record["actions"]:
        game.apply(action)
        events.append(json.loads(json.dumps(game.events)))
    assert digest(events) == record["events_sha256"]
    final = game.to_dict()
    assert digest(final) == record["final_state_sha256"]
    assert "format" not in final and Game.format_of(final) == 1


@pytest.mark.parametrize("record", [r for r in RECORDED if r["middle_state"]], ids=game_id)
def test_a_stored_running_game_goes_on_under_its_old_rule(record: dict[str, Any]) -> None:
    stored = record["middle_state"]
    game = Game.from_dict(json.loads(json.dumps(stored)))
    assert game.state_format == 1
    assert game.to_dict() == stored  # written back as it was read
    for action in record["actions"][record["middle"] :]:
        game.apply(action)
    assert digest(game.to_dict()) == record["final_state_sha256"]


def test_the_old_logs_need_the_old_rule() -> None:
    # Under the current rule a bout the old engine ended by itself still waits for a pass, so
    # the next logged move is refused, or the game goes elsewhere: the site must pass the format.
    diverged = 0
    for record in RECORDED:
        game = start(record)
        try:
            for action in record["actions"]:
                game.apply(action)
        except durak.IllegalAction:
            diverged += 1
            continue
        diverged += digest(game.to_dict()) != record["final_state_sha256"]
    assert diverged == len(RECORDED)


def bout(state_format: int) -> Game:
    # Player 1 beats the 6S; player 0 holds no six or eight, and the 6D is in the stock.
    game = deal("classic", [["6S", "7H"], ["8S", "AD"]], cards("10C 6D 9H"), state_format=state_format)
    do(game, {"type": "attack", "player": 0, "cards": ["6S"]}, defend(1, "6S", "8S"))
    return game


def test_the_old_rule_ends_a_bout_when_nobody_holds_a_card_that_fits() -> None:
    game = bout(state_format=1)
    assert game.table == [] and game.last_bout is not None and game.last_bout["result"] == "beaten"


def test_a_new_game_waits_for_every_player_allowed_to_add() -> None:
    game = bout(state_format=durak.STATE_FORMAT)
    assert game.waiting_for() == [0]
    do(game, pass_(0))
    assert game.last_bout is not None and game.last_bout["result"] == "beaten"


def test_new_games_write_their_format_and_keep_it() -> None:
    game = Game.new(Rules.preset("classic"), 3, seed=5)
    state = game.to_dict()
    assert state["format"] == durak.STATE_FORMAT == 2 and state["auto_pass"] == []
    assert Game.format_of(state) == 2
    restored = Game.from_dict(json.loads(json.dumps(state)))
    assert restored.state_format == 2 and restored.to_dict() == state
    assert Game.from_view(game.view(0), game.hands, game.stock).state_format == 2
    assert game.view(None)["format"] == 2


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="state format"):
        Game.new(Rules.preset("classic"), 2, seed=1, state_format=3)
    state = Game.new(Rules.preset("classic"), 2, seed=1).to_dict()
    with pytest.raises(ValueError, match="state format"):
        Game.from_dict({**state, "format": 7})
