"""Random legal games for every preset and player count, checked at every step.

Each game is driven by two hypothesis-drawn seeds (the shuffle, and the choices of a random
player) so that a failure shrinks to a small, replayable pair. At every step:

- every card is accounted for (hands + table + stock + discard = the deck, no duplicates);
- each defence on the table beats its attack card, and no bout exceeds its limit;
- `to_dict` survives JSON and `from_dict` with the same state and the same legal actions;
- `waiting_for()` is exactly the players with legal actions, and a running game has some;
- every action in `legal_actions` applies (on a copy);
- sampled actions not in `legal_actions` raise IllegalAction and leave `to_dict()` unchanged;
- no `view` (any player, or a spectator) contains a card of another hand or of the stock, except
  the face-up trump card under the stock;
- after each bout the next attacker is as the texts say (the defender, or the player left of a
  defender who took; players out skipped).
At the end: at most one loser, `finished` consistent with the hands; replaying the same seed
and actions gives the same state.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

import durak

from ._support import assert_cards_accounted, beats, full_deck, key

MAX_STEPS = 3000

# (preset, overrides, players, examples): sized so the whole suite stays within a few minutes on
# one core while playing thousands of complete games.
ENCHANTABLE = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]

CONFIGS: list[tuple[str, dict[str, Any], int, int]] = [
    *[
        (preset, {}, n, examples)
        for preset in ("classic", "perevodnoy", "black_book", "tabletop")
        for n, examples in ((2, 120), (3, 90), (4, 60), (5, 45), (6, 40))
    ],
    *[("tabletop", {"deck_size": 52}, n, ex) for n, ex in ((2, 50), (3, 30), (4, 25), (5, 20), (6, 20))],
    *[("durak24", {}, n, ex) for n, ex in ((2, 120), (3, 60), (4, 60))],
    # the texts' optional extras: Enchanted Durak and the team games
    *[("black_book", {"enchanted": ENCHANTABLE}, n, ex) for n, ex in ((2, 40), (3, 30), (4, 20), (6, 15))],
    ("perevodnoy", {"enchanted": ["6", "7", "8", "9", "10"]}, 3, 20),
    # each of the Black Book's suggested stages of enchanted cards
    ("black_book", {"enchanted": ["6", "7"]}, 3, 20),
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10"]}, 4, 20),
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10", "J", "Q"]}, 3, 20),
    ("black_book", {"enchanted": ENCHANTABLE, "teams": "black_book"}, 4, 15),
    ("classic", {"teams": "partners"}, 4, 30),
    ("classic", {"teams": "partners"}, 6, 15),
    ("black_book", {"teams": "black_book"}, 4, 30),
]


CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z])")
GAME_ACTION_TYPES = ("attack", "throw", "defend", "transfer", "take", "pass", "swap_trump")


def config_id(config: tuple[str, dict[str, Any], int, int]) -> str:
    preset, overrides, players, _ = config
    extra = "".join(f"-{k}={'+'.join(v) if isinstance(v, list) else v}" for k, v in overrides.items())
    return f"{preset}{extra}-{players}p"


# --- per-step checks ---------------------------------------------------------------


def check_table(game: durak.Game) -> None:
    for attack_card, defence in game.table:
        if defence is not None and not game.rules.enchanted:
            assert beats(defence, attack_card, game.trump), f"{defence} does not beat {attack_card}"
    rules = game.rules
    maximum = rules.max_attack if rules.max_attack is not None else rules.hand_size
    assert len(game.table) <= maximum


def check_round_trip(game: durak.Game, state: dict[str, Any], legal: list[list[dict[str, Any]]]) -> None:
    restored = durak.Game.from_dict(json.loads(json.dumps(state)))
    assert restored.to_dict() == state
    for player, actions in enumerate(legal):
        assert [key(a) for a in restored.legal_json(player)] == [key(a) for a in actions]


def check_views(game: durak.Game) -> None:
    face_up = {game.stock[-1]} if game.stock else set()
    stock = set(game.stock) - face_up
    for viewer in [None, *range(game.players)]:
        view = game.view(viewer)
        text = json.dumps(view)
        seen = set(CARD_TOKEN.findall(text))
        hidden = set(stock)
        for player, hand in enumerate(game.hands):
            if player != viewer:
                hidden |= set(hand)
        leaked = seen & hidden
        assert not leaked, f"view({viewer}) shows hidden cards {sorted(leaked)}"
        own = game.hands[viewer] if viewer is not None else []
        assert sorted(view["hand"]) == sorted(own)
        assert view["hand_sizes"] == [len(h) for h in game.hands]
        assert view["stock_size"] == game.stock_size
        assert view["trump_card"] == (game.stock[-1] if game.stock else None)
        assert view["table"] == [list(pair) for pair in game.table]
        assert view["discard_size"] == len(game.discard)
        assert sorted(view["waiting_for"]) == sorted(game.waiting_for())
        mine = game.legal_json(viewer) if viewer is not None else []
        assert [key(a) for a in view["actions"]] == [key(a) for a in mine]
        if game.table:
            assert view["limit"] is not None and len(game.table) <= view["limit"]
        else:
            assert view["limit"] is None


def check_legal_apply(game: durak.Game, state: dict[str, Any], legal: list[list[dict[str, Any]]]) -> None:
    for actions in legal:
        for action in actions:
            copy = game.copy()
            copy.apply(action)
            assert_cards_accounted(copy)
    assert game.to_dict() == state, "applying to a copy changed the original"


def check_no_aliasing(game: durak.Game, state: dict[str, Any], action: dict[str, Any]) -> None:
    """A dict from to_dict(), a view, and the dict given to from_dict() are not changed by later play."""
    frozen = json.dumps(state, sort_keys=True)
    given = json.loads(frozen)
    restored = durak.Game.from_dict(given)
    view = game.view(None)
    frozen_view = json.dumps(view, sort_keys=True)
    restored.apply(action)
    assert json.dumps(given, sort_keys=True) == frozen, "from_dict() keeps using the caller's dict"
    copy = game.copy()
    copy.apply(action)
    assert json.dumps(state, sort_keys=True) == frozen, "to_dict() shares lists with the game"
    assert json.dumps(view, sort_keys=True) == frozen_view, "view() shares lists with the game"
    assert restored.to_dict() == copy.to_dict()


def candidate_actions(
    game: durak.Game, legal: list[list[dict[str, Any]]], rng: random.Random
) -> list[dict[str, Any]]:
    """Near misses: legal actions with another player or card, and random actions."""
    n = game.players
    deck = full_deck(game.rules.deck_size)
    pool = deck + [c for pair in game.table for c in pair if c] * 3
    flat = [a for actions in legal for a in actions]
    out: list[dict[str, Any]] = []
    for _ in range(3):
        if flat and rng.random() < 0.6:
            action = dict(rng.choice(flat))
            if rng.random() < 0.5:
                action["player"] = rng.randrange(n)
            elif "card" in action:
                action["card"] = rng.choice(game.hands[action["player"]] or pool)
            elif "cards" in action:
                hand = game.hands[action["player"]] or pool
                action["cards"] = [rng.choice(hand) for _ in range(rng.randint(1, 3))]
            else:
                action["type"] = rng.choice(GAME_ACTION_TYPES)
                if action["type"] in ("throw", "transfer", "defend"):
                    action["card"] = rng.choice(pool)
                if action["type"] == "defend":
                    action["target"] = rng.choice(pool)
                if action["type"] == "attack":
                    action["cards"] = [rng.choice(pool)]
        else:
            kind = rng.choice(GAME_ACTION_TYPES)
            player = rng.randrange(n)
            action = {"type": kind, "player": player}
            hand = game.hands[player]
            if kind == "attack":
                action["cards"] = [rng.choice(hand or pool) for _ in range(rng.randint(1, 2))]
            elif kind in ("throw", "transfer"):
                action["card"] = rng.choice(hand or pool) if rng.random() < 0.8 else rng.choice(pool)
            elif kind == "defend":
                action["card"] = rng.choice(hand or pool)
                action["target"] = rng.choice(pool)
        out.append(action)
    return out


def check_illegal(
    game: durak.Game, state: dict[str, Any], legal: list[list[dict[str, Any]]], rng: random.Random
) -> None:
    for action in candidate_actions(game, legal, rng):
        if key(action) in {key(a) for a in legal[action["player"]]}:
            continue
        try:
            game.apply(action)
        except durak.IllegalAction:
            pass
        else:
            pytest.fail(f"illegal {action} was accepted")
        assert game.to_dict() == state, f"refused {action} changed the game"


def check_events(game: durak.Game, public_before: set[str]) -> None:
    """`game.events` (the last action's public facts, sent to every player) name no card but those
    on the table, played, or lying face up under the stock."""
    events = getattr(game, "events", None)
    if not events:
        return
    public = public_before | {c for pair in game.table for c in pair if c}
    public |= {game.stock[-1]} if game.stock else set()
    named = set(CARD_TOKEN.findall(json.dumps(events)))
    assert named <= public, f"events name hidden cards {sorted(named - public)}: {events}"


def next_with_cards(game: durak.Game, start: int) -> int:
    n = game.players
    for i in range(n):
        p = (start + i) % n
        if game.hands[p]:
            return p
    raise AssertionError("nobody holds cards")


def check_after_bout(game: durak.Game, defender: int, taken: bool) -> None:
    expected = next_with_cards(game, defender + 1 if taken else defender)
    assert game.attacker == expected, f"after a {'taken' if taken else 'beaten'} bout"
    assert game.defender == next_with_cards(game, expected + 1)
    if game.stock_size:
        size = game.rules.hand_size
        assert all(len(h) >= size for h in game.hands), "everyone draws up to the hand size"


def check_end(game: durak.Game) -> None:
    holding = [p for p, h in enumerate(game.hands) if h]
    assert game.stock_size == 0 or getattr(game, "end", None)
    assert len(set(game.finished)) == len(game.finished)
    if getattr(game, "end", None) and game.end.get("reason") in ("timeout", "resign"):
        return
    if game.rules.teams != "none":
        # "As soon as one side has played all their cards, the side still holding cards loses."
        teams_holding = {p % 2 for p in holding}
        assert len(teams_holding) <= 1
        assert game.losing_team == (teams_holding.pop() if teams_holding else None)
        assert game.waiting_for() == []
        return
    assert len(holding) <= 1
    if holding:
        assert game.loser == holding[0]
    else:
        assert game.loser is None
    assert sorted(game.finished) == sorted(p for p in range(game.players) if p not in holding)
    assert game.waiting_for() == []


def choose(game: durak.Game, legal: list[list[dict[str, Any]]], rng: random.Random) -> dict[str, Any]:
    players = [p for p, actions in enumerate(legal) if actions]
    actions = legal[rng.choice(players)]
    defends = [a for a in actions if a["type"] == "defend"]
    if defends and rng.random() < 0.7:
        return rng.choice(defends)
    return rng.choice(actions)


def play(game: durak.Game, rng: random.Random, history: list[dict[str, Any]], *, check_rate: float) -> None:
    """Play to the end (or MAX_STEPS). The cheap checks run at every step; the costly ones (round
    trip, every legal action on a copy, illegal samples, views) at a `check_rate` share of steps."""
    checks = random.Random(rng.random())
    # the enchanted king and the team games change who attacks next
    standard = not game.rules.enchanted and game.rules.teams == "none"
    for _ in range(MAX_STEPS):
        assert_cards_accounted(game)
        check_table(game)
        legal = [game.legal_json(p) for p in range(game.players)]
        # waiting_for(): everyone with a move the game needs; an optional trump swap alone is not
        # something the game waits for.
        waiting = set(game.waiting_for())
        assert waiting <= {p for p, actions in enumerate(legal) if actions}
        assert {
            p for p, actions in enumerate(legal) if any(a["type"] != "swap_trump" for a in actions)
        } <= waiting
        if game.over:
            assert not any(legal)
            break
        assert any(legal) and waiting, "the game waits for nobody"
        if game.table and not game.taking:
            unbeaten = sum(1 for _, defence in game.table if defence is None)
            assert unbeaten <= len(game.hands[game.defender]), "more to beat than the defender holds"
            if not unbeaten:
                assert all(a["type"] != "take" for a in legal[game.defender]), "take with nothing to beat"
        if not game.table:
            # between bouts: the attacker opens (an enchanted king's defender may first reverse play)
            between = (
                ("attack", "swap_trump", "reverse") if game.rules.enchanted else ("attack", "swap_trump")
            )
            assert all(a["type"] in between for actions in legal for a in actions)
            assert {p for p, actions in enumerate(legal) if any(a["type"] == "attack" for a in actions)} == {
                game.attacker
            }
        full = check_rate >= 1 or checks.random() < check_rate
        if full:
            state = game.to_dict()
            check_round_trip(game, state, legal)
            check_legal_apply(game, state, legal)
            check_illegal(game, state, legal, checks)
            check_views(game)
        action = choose(game, legal, rng)
        if full:
            check_no_aliasing(game, state, action)
        in_bout, defender, taking = bool(game.table), game.defender, game.taking
        public = {c for pair in game.table for c in pair if c} | set(CARD_TOKEN.findall(json.dumps(action)))
        public |= {game.stock[-1]} if game.stock else set()
        game.apply(action)
        history.append(action)
        check_events(game, public)
        if in_bout and not game.table and not game.over and standard:
            check_after_bout(game, defender, taking or action["type"] == "take")
    if game.over:
        check_end(game)
        if check_rate:
            check_views(game)
            state = game.to_dict()
            assert durak.Game.from_dict(json.loads(json.dumps(state))).to_dict() == state


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games(config: tuple[str, dict[str, Any], int, int]) -> None:
    preset, overrides, players, examples = config
    rules = durak.Rules.preset(preset, **overrides)

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
        phases=[Phase.generate, Phase.shrink],
    )
    @given(
        seed=st.integers(0, 2**32 - 1),
        policy=st.integers(0, 2**32 - 1),
        dealer=st.integers(0, players - 1),
        first_game=st.booleans(),
    )
    def run(seed: int, policy: int, dealer: int, first_game: bool) -> None:
        note(f"Game.new({preset!r} {overrides}, {players}, {seed}, dealer={dealer}, first_game={first_game})")
        note(f"policy random.Random({policy})")
        game = durak.Game.new(rules, players, seed, dealer=dealer, first_game=first_game)
        start = game.to_dict()
        history: list[dict[str, Any]] = []
        try:
            # one game in sixteen is checked in full at every step, the others at a sample of steps
            play(game, random.Random(policy), history, check_rate=1.0 if policy % 16 == 0 else 0.04)
        except BaseException:
            note(f"actions so far: {json.dumps(history)}")
            raise
        # same seed + same actions -> same state
        again = durak.Game.new(rules, players, seed, dealer=dealer, first_game=first_game)
        assert again.to_dict() == start
        for action in history:
            again.apply(action)
        assert again.to_dict() == game.to_dict()

    run()
