"""``Game.outcome()`` and ``Game.team_of()``: the one answer the site's apps read (issue 20).

Random games of every preset, with and without teams and enchanted cards, for every number of
players the rules allow, each ended one of the four ways (the cards run out, a player's time
runs out, a player resigns, a game that waited too long is claimed). While a game runs
``outcome()`` is None. Once it is over, the outcome is checked against what the game showed
along the way, not against the engine's own fields: the ``out`` events give the order players
went out, the hands at the end (or the player the ending action was about) give who lost, and
``team_of`` gives the losing team's players.
"""

from __future__ import annotations

import random
from typing import Any, get_args

import pytest

import durak
from durak.outcome import EndReason

from ._support import attack, defend, do

PRESETS = ("classic", "perevodnoy", "black_book", "tabletop", "durak24")
TEAMS = ("none", "partners", "black_book")
ENCHANTED: tuple[tuple[str, ...], ...] = ((), ("6", "7", "8", "9", "10", "J", "Q", "K", "A"))
#: The ways a game is ended here, one after another (a game meant for another end may still
#: end by the cards first).
ENDINGS: tuple[EndReason, ...] = ("cards", "timeout", "resign", "claim")
GAMES = 4  # per configuration: one of each ending
MAX_ACTIONS = 3000


def _configs() -> list[tuple[str, str, tuple[str, ...], int]]:
    configs = []
    for preset in PRESETS:
        for teams in TEAMS:
            for enchanted in ENCHANTED:
                try:
                    rules = durak.Rules.preset(preset, teams=teams, enchanted=list(enchanted))
                except durak.RulesError:
                    continue  # enchanted cards need the 36-card deck (not durak24's 24)
                configs.extend((preset, teams, enchanted, n) for n in rules.player_counts())
    return configs


CONFIGS = _configs()


def config_id(config: tuple[str, str, tuple[str, ...], int]) -> str:
    preset, teams, enchanted, players = config
    return f"{preset}-teams={teams}{'-enchanted' if enchanted else ''}-{players}p"


def test_the_configurations_cover_every_preset_team_mode_and_player_count() -> None:
    assert {c[0] for c in CONFIGS} == set(PRESETS)
    assert {c[1] for c in CONFIGS} == set(TEAMS)
    assert {(c[1], c[3]) for c in CONFIGS} >= {("none", n) for n in range(2, 7)} | {
        ("partners", 4),
        ("partners", 6),
        ("black_book", 4),
    }
    assert any(c[2] for c in CONFIGS) and len(CONFIGS) > 50


def ending_action(
    game: durak.Game, ending: EndReason, rng: random.Random
) -> tuple[dict[str, Any], int] | None:
    """An action that ends ``game`` the way ``ending`` says, and the player it is about (the one
    who then loses), or None if there is none now."""
    waiting = game.waiting_for()
    if ending == "timeout" and waiting:
        player = rng.choice(waiting)
        return {"type": "timeout", "player": player}, player
    if ending == "resign":
        playing = [p for p in range(game.players) if game.hands[p] or game.stock]
        if playing:
            player = rng.choice(playing)
            return {"type": "resign", "player": player}, player
    if ending == "claim":
        wait = game.rules.claim_after_seconds
        claimants = [p for p in range(game.players) if game.why_no_claim(p, waited=wait) is None]
        if claimants:
            claimant = rng.choice(claimants)
            against = game.claim_against(claimant)[0]
            return {"type": "claim", "player": claimant, "waited": wait}, against
    return None


def play(game: durak.Game, ending: EndReason, rng: random.Random) -> tuple[list[int], int | None]:
    """Play ``game`` at random to its end; returns the players in the order the ``out`` events
    named them, and whom the ending action was about (None if the cards ran out first)."""
    out: list[int] = []
    about: int | None = None
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        assert game.outcome() is None, "a running game has no outcome"
        ender = ending_action(game, ending, rng) if ending != "cards" and rng.random() < 0.08 else None
        if ender is not None:
            action, player = ender
        else:
            actions = [a for p in game.waiting_for() for a in game.legal_json(p)]
            # defences first, usually, so that games do not all end in one long take
            action = min(actions, key=lambda a: (a["type"] != "defend", rng.random()))
            if rng.random() < 0.3:
                action = rng.choice(actions)
        game.apply(action)
        out.extend(event["player"] for event in game.events if event["type"] == "out")
        if game.over and ender is not None and game.end is not None and game.end["reason"] == ending:
            about = player
    assert game.over, f"a random game did not end in {MAX_ACTIONS} actions"
    return out, about


def check_teams(game: durak.Game) -> None:
    seats = range(game.players)
    if game.rules.teams == "none":
        assert game.teams is None
        assert all(game.team_of(p) is None for p in seats)
        return
    teams = game.teams
    assert teams is not None and len(teams) == 2
    assert sorted(p for team in teams for p in team) == list(seats), "every seat in exactly one team"
    assert len(teams[0]) == len(teams[1])
    for p in seats:
        assert p in teams[game.team_of(p) or 0] and game.team_of(p) in (0, 1)
        # partners sit opposite: the next seat is always an opponent
        assert game.team_of(p) != game.team_of((p + 1) % game.players)


def check_outcome(game: durak.Game, ending: EndReason, out: list[int], about: int | None) -> str:
    outcome = game.outcome()
    assert outcome is not None, "a finished game has an outcome"
    assert outcome.reason in get_args(EndReason)
    assert outcome.order_out == tuple(out), "the order out is the order of the out events"
    holding = [p for p in range(game.players) if game.hands[p]]
    if game.stock:
        assert out == [], "nobody goes out while the stock lasts"
    else:
        assert set(out) == set(range(game.players)) - set(holding), "out: exactly the empty hands"
    if about is not None:
        assert outcome.reason == ending and outcome.player == about
        fool = about
    else:
        assert outcome.reason == "cards"
        if game.teams is None:
            assert len(holding) <= 1, "the cards end a game when at most one player holds some"
            fool = holding[0] if holding else None
        else:
            sides = {game.team_of(p) for p in holding}
            assert len(sides) <= 1, "the cards end a team game when one side is out"
            fool = holding[0] if holding else None
        # the fool; a team game's cards make no single player the fool
        assert outcome.player == (fool if game.teams is None else None)
    if fool is None:
        expected: tuple[int, ...] = ()
        assert outcome.loser is None and outcome.losing_team is None
    elif game.teams is None:
        expected = (fool,)
        assert outcome.loser == fool and outcome.losing_team is None
        assert outcome.place(fool) is None, "the fool still held cards"
    else:
        team = game.team_of(fool)
        expected = tuple(p for p in range(game.players) if game.team_of(p) == team)
        assert outcome.losing_team == team and outcome.loser is None
        assert list(expected) == game.teams[team] if team is not None else False
    assert outcome.losers == expected, "the losers: the fool, or every player of the losing team"
    assert outcome.draw == (not expected)
    for p in range(game.players):
        assert outcome.lost(p) == (p in expected)
        assert outcome.place(p) == (out.index(p) + 1 if p in out else None)
    assert sorted(p for p in range(game.players) if outcome.place(p) is not None) == sorted(out)
    # the apps read the outcome from the stored state
    assert durak.Game.from_dict(game.to_dict()).outcome() == outcome
    return "draw" if outcome.draw else outcome.reason


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_outcome_of_random_games(config: tuple[str, str, tuple[str, ...], int]) -> None:
    preset, teams, enchanted, players = config
    rules = durak.Rules.preset(preset, teams=teams, enchanted=list(enchanted), claim_after_days=1)
    ends = []
    for seed in range(GAMES):
        rng = random.Random(f"{config_id(config)}/{seed}")
        game = durak.Game.new(rules, players, seed, dealer=rng.randrange(players))
        check_teams(game)
        ending = ENDINGS[seed % len(ENDINGS)]
        out, about = play(game, ending, rng)
        check_teams(game)
        ends.append(check_outcome(game, ending, out, about))
    # every ending but the cards' is reached before the cards run out, nearly always
    assert len(set(ends) - {"draw"}) >= 3, ends


def test_a_draw_has_no_loser() -> None:
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"), [["6S"], ["7S"]], [], trump="C", first_attacker=0
    )
    do(game, attack(0, "6S"), defend(1, "6S", "7S"))
    outcome = game.outcome()
    assert outcome is not None and outcome.draw and outcome.reason == "cards"
    assert outcome.losers == () and outcome.loser is None and outcome.losing_team is None
    assert outcome.order_out == (0, 1) and (outcome.place(0), outcome.place(1)) == (1, 2)
    assert not outcome.lost(0) and not outcome.lost(1)


def test_a_team_that_goes_out_together_draws() -> None:
    game = durak.Game.from_deal(
        durak.Rules.preset("classic", teams="partners"),
        [["6S"], ["7S"], [], []],
        [],
        trump="C",
        first_attacker=0,
    )
    do(game, attack(0, "6S"), defend(1, "6S", "7S"))
    outcome = game.outcome()
    assert outcome is not None and outcome.draw and outcome.losers == ()
    assert game.team_of(0) == game.team_of(2) != game.team_of(1) == game.team_of(3)


def test_a_resigning_partner_loses_for_the_whole_team() -> None:
    game = durak.Game.from_deal(
        durak.Rules.preset("classic", teams="partners"),
        [["6S", "9H"], ["7S", "10H"], ["8S", "JH"], ["9S", "QH"]],
        ["6C"],
    )
    game.apply({"type": "resign", "player": 3})
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "resign" and outcome.player == 3
    assert outcome.losing_team == game.team_of(3) == 1 and outcome.losers == (1, 3)
    assert outcome.loser is None and not outcome.draw and outcome.order_out == ()
    assert [outcome.place(p) for p in range(4)] == [None] * 4
