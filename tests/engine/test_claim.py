"""Claiming a game without a clock that has waited too long on the same players.

The rule texts are silent on abandoned games; the engine treats a claimed-against player like one
who resigned: they are the fool at once (in a team game their team loses).
"""

from __future__ import annotations

import json

import pytest

import durak
from durak import Game, IllegalAction, Rules

from ._support import attack, defend, do

DAY = 86400


def deal(**overrides: object) -> Game:
    # Spades are trumps; player 0 holds the lowest trump (7S) and attacks player 1.
    return Game.from_deal(
        Rules.preset("classic", trump_swap="never", **overrides),
        hands=[["7S", "9H", "6D"], ["10H", "8D", "AC"], ["9D", "KC", "QH"]],
        stock=["JD", "6S"],
    )


def claim(player: int, waited: int, **extra: object) -> dict[str, object]:
    return {"type": "claim", "player": player, "waited": waited, **extra}


def refused(game: Game, action: dict[str, object], message: str) -> None:
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=message):
        game.apply(action)
    assert game.to_dict() == before


def test_the_option_defaults_to_fourteen_days_and_is_described_for_forms() -> None:
    assert Rules().claim_after_days == 14 and Rules().claim_after_seconds == 14 * DAY
    option = next(o for o in Rules.describe_options() if o["name"] == "claim_after_days")
    assert option["type"] == "int" and option["default"] == 14 and "claim" in option["help"]


@pytest.mark.parametrize("days", [0, -1, 366])
def test_the_option_is_a_number_of_days_from_one_to_a_year(days: int) -> None:
    with pytest.raises(durak.RulesError, match="from 1 to 365"):
        Rules.preset("classic", claim_after_days=days)


def test_a_claim_after_the_days_makes_the_waited_on_player_the_fool() -> None:
    game = deal()
    assert game.waiting_for() == [0]
    game.apply(claim(1, 14 * DAY))
    assert game.over and game.loser == 0
    assert game.end == {"reason": "claim", "player": 0}
    assert game.events == [{"type": "game_over", "reason": "claim", "player": 0}]
    assert game.view(2)["end"] == {"reason": "claim", "player": 0}


def test_a_claim_one_second_too_early_is_refused_and_changes_nothing() -> None:
    game = deal(claim_after_days=3)
    refused(game, claim(1, 3 * DAY - 1), "waited 3 days")
    game.apply(claim(2, 3 * DAY))
    assert game.loser == 0


def test_the_waited_on_player_cannot_claim() -> None:
    game = deal()
    refused(game, claim(0, 100 * DAY), "waiting for you")
    assert game.claim_wait(0) is None and game.claim_against(0) == []


def test_a_game_with_a_clock_cannot_be_claimed() -> None:
    game = deal()
    refused(game, claim(1, 100 * DAY, clock=True), "with a clock")
    assert game.claim_wait(1, clock=True) is None and game.claim_wait(1) == 14 * DAY


@pytest.mark.parametrize("waited", [-1, 1.5e9, "9999999", True, None])
def test_waited_is_a_whole_number_of_seconds(waited: object) -> None:
    refused(deal(), claim(1, waited), "whole number of seconds")  # type: ignore[arg-type]


def test_clock_must_be_true_or_false_and_nothing_else_is_taken() -> None:
    game = deal()
    refused(game, claim(1, 100 * DAY, clock="no"), "clock is true")
    refused(game, claim(1, 100 * DAY, against=0), "unexpected field against")
    refused(game, {"type": "claim", "player": 1}, "needs waited")


def test_a_claim_is_never_offered_as_a_move() -> None:
    game = deal()
    assert all(a["type"] != "claim" for p in range(3) for a in game.legal_json(p))
    assert "claim" in durak.game.SYSTEM_ACTION_TYPES


def test_a_finished_game_cannot_be_claimed() -> None:
    game = deal()
    game.apply(claim(1, 14 * DAY))
    assert game.why_no_claim(2, waited=100 * DAY) is not None
    refused(game, claim(2, 100 * DAY), "game is over")


def test_the_defender_is_claimed_against_first_then_from_the_attacker_on() -> None:
    # Neighbours only: player 0 attacks 1 with 9H, and 0 and 2 may throw in; 3 may not.
    game = Game.from_deal(
        Rules.preset("classic", trump_swap="never", throw_in="neighbours"),
        hands=[["7S", "9H", "6D"], ["10H", "8D", "AC"], ["9D", "KC", "QH"], ["JC", "QD", "KD"]],
        stock=["JD", "6S"],
    )
    do(game, attack(0, "9H"))
    assert game.waiting_for() == [0, 1, 2]
    assert [game.claim_against(p) for p in range(3)] == [[], [], []]
    assert game.claim_against(3) == [1, 0, 2]
    game.apply(claim(3, 14 * DAY))
    assert game.loser == 1 and game.end == {"reason": "claim", "player": 1}


def test_after_the_defence_the_attacker_comes_first() -> None:
    game = deal()
    do(game, attack(0, "9H"), defend(1, "9H", "10H"))
    assert game.waiting_for() == [0, 2]
    assert game.claim_against(1) == [0, 2]
    game.apply(claim(1, 14 * DAY))
    assert game.loser == 0


def test_a_player_who_went_out_may_claim() -> None:
    # Player 2 has no cards and the stock is empty: out from the deal.
    game = Game.from_deal(
        Rules.preset("classic", trump_swap="never"),
        hands=[["7S", "9H"], ["10H", "8D"], []],
        stock=[],
        trump="S",
    )
    assert game.finished == [2]
    game.apply(claim(2, 14 * DAY))
    assert game.loser == 0


def test_in_a_team_game_the_claim_is_against_the_other_team() -> None:
    game = Game.new(Rules.preset("classic", teams="partners"), players=4, seed=4)
    waiting = game.waiting_for()
    assert len(waiting) == 1
    [waited] = waiting
    partner, opponent = (waited + 2) % 4, (waited + 1) % 4
    refused(game, claim(partner, 100 * DAY), "only for your partner")
    assert game.claim_wait(partner) is None
    game.apply(claim(opponent, 14 * DAY))
    assert game.losing_team == waited % 2 and game.end == {
        "reason": "claim",
        "player": waited,
        "team": waited % 2,
    }


def test_a_claim_replays_from_its_logged_action() -> None:
    game = Game.new(Rules.preset("classic"), players=2, seed=9)
    log = []
    while len(log) < 3 or len(game.waiting_for()) != 1:
        player = game.waiting_for()[0]
        action = game.legal_json(player)[0]
        game.apply(action)
        log.append(action)
    claimant = 1 - game.waiting_for()[0]
    log.append(claim(claimant, 20 * DAY))
    game.apply(log[-1])
    again = Game.new(Rules.preset("classic"), players=2, seed=9)
    for action in json.loads(json.dumps(log)):
        again.apply(action)
    assert again.to_dict() == game.to_dict() and again.end == game.end


def test_the_stored_state_keeps_the_option_only_when_it_differs_from_its_default() -> None:
    # States stored before the option existed read and write back the same.
    plain = deal().to_dict()
    assert "claim_after_days" not in plain["rules"]
    assert Game.from_dict(json.loads(json.dumps(plain))).rules.claim_after_days == 14
    assert Game.from_dict(plain).to_dict() == plain
    changed = deal(claim_after_days=30)
    assert changed.to_dict()["rules"]["claim_after_days"] == 30
    assert Game.from_dict(changed.to_dict()).rules.claim_after_days == 30
    assert deal().view(0)["rules"]["claim_after_days"] == 14  # the view names every option
