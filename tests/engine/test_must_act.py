"""Who *must* act and who only *may* (issue 29): ``Game.must_act()``.

The game waits for everyone who may still say something this bout (``waiting_for``): the
defender, and the attackers who may throw in or say "done". But while cards lie unbeaten only
the defender holds the game up; the attackers' throw-ins are optional, and the bout goes on
whether or not they make one. The site's counter of games "waiting for your move" counts a game
only where its player must act.
"""

from __future__ import annotations

import random

import pytest

import durak

from ._support import attack, defend

CLASSIC = durak.Rules.preset("classic")


def pass_(player: int) -> dict[str, object]:
    return {"type": "pass", "player": player}


def take(player: int) -> dict[str, object]:
    return {"type": "take", "player": player}


def test_an_empty_table_needs_the_attacker() -> None:
    game = durak.Game.from_deal(CLASSIC, [["6S", "7H"], ["8S", "AD"]], ["6C", "10C", "9H"])
    assert game.waiting_for() == game.must_act() == [0]


def test_the_attacker_who_just_led_may_throw_in_while_only_the_defender_must_act() -> None:
    game = durak.Game.from_deal(CLASSIC, [["6S", "7H"], ["8S", "AD"]], ["6C", "10C", "9H"])
    game.apply(attack(0, "6S"))
    assert game.waiting_for() == [0, 1]  # an unseen 6 may be in 0's hand: the bout waits for them
    assert game.must_act() == [1]


def test_once_everything_is_beaten_the_bout_needs_the_attackers_done() -> None:
    game = durak.Game.from_deal(CLASSIC, [["6S", "7H"], ["8S", "AD"]], ["6C", "10C", "9H"])
    game.apply(attack(0, "6S"))
    game.apply(defend(1, "6S", "8S"))
    assert game.waiting_for() == game.must_act() == [0]


def test_three_players_throwers_may_act_until_the_defender_takes_then_they_must() -> None:
    hands = [["6S", "7H", "6D"], ["8S", "AD", "9C"], ["6H", "KC", "QD"]]
    game = durak.Game.from_deal(CLASSIC, hands, ["6C", "10C", "JC", "9H"])
    attacker, defender = game.attacker, game.defender
    assert attacker is not None and defender is not None
    opening = next(a for a in game.legal_json(attacker) if a["type"] == "attack")
    game.apply(opening)
    throwers = [p for p in game.waiting_for() if p != defender]
    assert throwers, "some attacker may throw in"
    assert game.must_act() == [defender]
    game.apply(take(defender))
    if game.waiting_for():  # throwers may add after a take: the bout waits for their "done"
        assert defender not in game.must_act()
        assert game.must_act() == game.waiting_for()


def test_a_finished_game_needs_nobody() -> None:
    game = durak.Game.from_deal(CLASSIC, [["6S"], ["8S"]], [])
    game.apply({"type": "resign", "player": 1})
    assert game.over and game.must_act() == []


@pytest.mark.parametrize(
    ("preset", "players"),
    [("classic", 2), ("classic", 3), ("perevodnoy", 4), ("black_book", 3), ("tabletop", 6), ("classic", 5)],
)
def test_in_random_games_those_who_must_act_are_the_defender_alone_or_everyone_waited_for(
    preset: str, players: int
) -> None:
    rules = durak.Rules.preset(preset)
    met_optional = 0
    for seed in range(12):
        game = durak.Game.new(rules, players=players, seed=seed)
        rng = random.Random(seed)
        for _step in range(400):
            if game.over:
                assert game.must_act() == []
                break
            waiting, must = game.waiting_for(), game.must_act()
            assert must, "a running game always needs someone"
            assert set(must) <= set(waiting)
            defender_waited_for = game.defender in waiting
            if defender_waited_for:
                assert must == [game.defender]
                met_optional += len(waiting) > 1
            else:
                assert must == waiting
            # Whoever may act but need not is never the only way on: the defender can always move.
            if set(waiting) - set(must):
                assert game.legal_json(game.defender)
            # Copies and stored states answer the same (a public fact of the position).
            assert durak.Game.from_dict(game.to_dict()).must_act() == must
            player = rng.choice(waiting)
            game.apply(rng.choice(game.legal_json(player)))
    assert met_optional > 0, "the case where someone may act without being needed was met"
