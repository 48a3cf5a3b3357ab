"""A second, independent statement of the bout protocol, compared with the engine's legal_actions
at every step of random games.

The model derives attack, throw, defend, take and pass actions, and whom the game waits for, from
the state the engine exposes (hands, table, discard, stock, attacker, defender, taking, passed)
plus what the playout itself tracked: the defender's hand when the bout began (or when a transfer
made him defender) and whether anyone has yet defended successfully.

Who may add a card is judged without looking at any hand: a player allowed to throw in is offered
"done" (pass) and waited for whatever they hold, unless every card of a rank on the table is in
sight (on the table, in the discard, or face up under the stock). The main attacker's priority
ends when he passes or is not allowed to add, never because he holds nothing that fits.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import durak

from ._support import beats, full_deck, key, rank

MODELLED = ("attack", "throw", "defend", "take", "transfer", "pass")


class Tracker:
    """What the model needs that is not in a snapshot: the bout's start and the first defence."""

    def __init__(self) -> None:
        self.start_hand: int | None = None
        self.bouts = 0
        self.defended = False

    def before(self, game: durak.Game, action: dict[str, Any]) -> tuple[bool, bool]:
        if action["type"] == "attack":
            self.start_hand = len(game.hands[game.defender])
        if action["type"] == "transfer":
            self.start_hand = None  # set after the action, from the new defender's hand
        return bool(game.table), game.taking or action["type"] == "take"

    def after(self, game: durak.Game, in_bout: bool, taken: bool) -> None:
        if game.table and self.start_hand is None:
            # "the defender never faces more attack cards than they held when they became defender"
            self.start_hand = len(game.hands[game.defender]) + sum(1 for _, d in game.table if d)
        if in_bout and not game.table:
            self.bouts += 1
            self.defended = self.defended or not taken
            self.start_hand = None


def bout_most(game: durak.Game, tracker: Tracker) -> int:
    rules = game.rules
    most = rules.max_attack if rules.max_attack is not None else rules.hand_size
    if rules.opening_limit is not None and game.players >= rules.opening_limit_min_players:
        opening = tracker.bouts == 0 if rules.opening_limit_until == "first_bout" else not tracker.defended
        if opening:
            most = min(most, rules.opening_limit)
    return most


def limit(game: durak.Game, tracker: Tracker) -> int:
    most = bout_most(game, tracker)
    defender_cards = tracker.start_hand if tracker.start_hand is not None else len(game.hands[game.defender])
    return min(most, defender_cards)


def active(game: durak.Game, player: int) -> bool:
    return bool(game.hands[player]) or game.stock_size > 0


def throwers(game: durak.Game) -> list[int]:
    n, defender = game.players, game.defender
    if game.rules.throw_in == "neighbours":
        left = next(((defender + i) % n for i in range(1, n) if active(game, (defender + i) % n)), None)
        right = next(((defender - i) % n for i in range(1, n) if active(game, (defender - i) % n)), None)
        return sorted({left, right} - {defender, None})  # type: ignore[type-var]
    return [p for p in range(n) if p != defender]


def expected(game: durak.Game, tracker: Tracker) -> set[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = set()
    if game.over:
        return out
    rules, trump = game.rules, game.trump
    if not game.table:
        hand = game.hands[game.attacker]
        cap = limit(game, tracker)
        for card in hand:
            out.add(("attack", game.attacker, (card,), None, None))
        if rules.multi_card_attack:
            by_rank: dict[str, list[str]] = {}
            for card in hand:
                by_rank.setdefault(rank(card), []).append(card)
            for same in by_rank.values():
                for size in range(2, min(len(same), cap) + 1):
                    for combo in combinations(same, size):
                        out.add(("attack", game.attacker, tuple(sorted(combo)), None, None))
        return out
    unbeaten = [a for a, d in game.table if d is None]
    if not game.taking:
        for target in unbeaten:
            for card in game.hands[game.defender]:
                if beats(card, target, trump):
                    out.add(("defend", game.defender, None, card, target))
        if unbeaten:
            out.add(("take", game.defender, None, None, None))
        attack_ranks = {rank(a) for a, _ in game.table}
        if rules.transfer and len(unbeaten) == len(game.table) and len(attack_ranks) == 1:
            n = game.players
            left = [(game.defender + i) % n for i in range(1, n) if active(game, (game.defender + i) % n)]
            size = len(game.table) + 1
            if left and size <= len(game.hands[left[0]]) and size <= bout_most(game, tracker):
                for card in game.hands[game.defender]:
                    if rank(card) in attack_ranks:
                        out.add(("transfer", game.defender, None, card, None))
    if len(game.table) >= limit(game, tracker):
        return out
    if game.taking and not rules.add_after_take:
        return out
    if not game.taking:
        if rules.throw_when == "after_first_beat" and game.table[0][1] is None:
            return out
        if rules.throw_when == "all_beaten" and unbeaten:
            return out
    ranks = {rank(c) for pair in game.table for c in pair if c}
    in_sight = {c for pair in game.table for c in pair if c} | set(game.discard) | set(game.stock[-1:])
    if all(c in in_sight for c in full_deck(rules.deck_size) if rank(c) in ranks):
        return out  # nobody can hold a card that fits

    def fitting(player: int) -> list[str]:
        return [c for c in game.hands[player] if rank(c) in ranks]

    may_add = [p for p in throwers(game) if game.hands[p]]
    attacker_waits_not = (
        rules.throw_priority == "free" or game.attacker in game.passed or game.attacker not in may_add
    )
    for player in may_add:
        if player in game.passed:
            continue
        out.add(("pass", player, None, None, None))
        if player != game.attacker and not attacker_waits_not:
            continue
        for card in fitting(player):
            out.add(("throw", player, None, card, None))
    return out


def waited_for(model: set[tuple[Any, ...]]) -> list[int]:
    """The game waits for every player with an action of the model, a trump swap alone aside."""
    return sorted({action[1] for action in model})


def modelled(game: durak.Game) -> set[tuple[Any, ...]]:
    return {key(a) for p in range(game.players) for a in game.legal_json(p) if a["type"] in MODELLED}


CONFIGS = [
    ("classic", {}, 2, 60),
    ("classic", {}, 4, 40),
    ("classic", {"opening_limit": 5}, 4, 30),
    ("classic", {"throw_in": "neighbours"}, 5, 25),
    ("black_book", {"transfer": False}, 3, 40),
    ("black_book", {}, 2, 40),
    ("black_book", {}, 4, 40),
    ("tabletop", {}, 3, 40),
    ("tabletop", {"deck_size": 52}, 4, 25),
    ("durak24", {}, 2, 60),
    ("durak24", {}, 4, 20),
    ("perevodnoy", {}, 2, 40),
    ("perevodnoy", {}, 3, 40),
    ("perevodnoy", {}, 6, 20),
    ("black_book", {}, 6, 20),
    ("tabletop", {"deck_size": 52}, 6, 15),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}p")
def test_engine_agrees_with_the_reference_model(config: tuple[str, dict[str, Any], int, int]) -> None:
    preset, overrides, players, examples = config
    rules = durak.Rules.preset(preset, **overrides)

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**32 - 1), policy=st.integers(0, 2**32 - 1))
    def run(seed: int, policy: int) -> None:
        game = durak.Game.new(rules, players, seed)
        rng = random.Random(policy)
        tracker = Tracker()
        history: list[dict[str, Any]] = []
        for _ in range(3000):
            if game.over:
                break
            engine = modelled(game)
            model = expected(game, tracker)
            assert engine == model, (
                f"seed {seed} policy {policy} after {history[-6:]}: engine only {sorted(engine - model, key=str)}, "
                f"model only {sorted(model - engine, key=str)}; table {game.table} passed {game.passed}"
            )
            assert game.waiting_for() == waited_for(model), (
                f"seed {seed} policy {policy} after {history[-6:]}"
            )
            legal = [a for p in range(players) for a in game.legal_json(p)]
            action = rng.choice(legal)
            in_bout, taken = tracker.before(game, action)
            passed_before = set(game.passed)
            game.apply(action)
            if game.table:
                # a pass holds until a new card lands on the table or the defender takes
                if action["type"] in ("attack", "throw", "defend", "transfer", "take"):
                    assert game.passed == set(), f"passes kept after {action}"
                elif action["type"] == "pass":
                    assert game.passed == passed_before | {action["player"]}
                else:
                    assert game.passed == passed_before
            history.append(action)
            tracker.after(game, in_bout, taken)

    run()
