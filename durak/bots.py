"""Computer players. Every bot sees only what its seat may see: a view, and the public log.

``bot.choose(view, log)`` returns one of ``view["actions"]``. ``view`` is ``Game.view(seat)``;
``log`` is the game's public history so far, a list of ``{"action": ..., "events": [...]}`` (what
``Game.apply`` did and ``Game.events`` said), which tells a bot, for example, which cards a player
picked up from the table. A bot never receives a ``Game``: a search bot rebuilds possible games
itself from the view and a guess of the cards it cannot see (``Game.from_view``).

>>> from durak import Game, Rules
>>> game = Game.new(Rules.preset("classic"), players=2, seed=1)
>>> bot = RuleBot()
>>> action = bot.choose(game.view(game.attacker), [])
>>> action in game.legal_actions(game.attacker)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from durak.cards import RANK_VALUE, SUIT_OF, deck
from durak.game import Action, Game, IllegalAction
from durak.legality import listed_actions

LogEntry = dict[str, Any]


class Bot(Protocol):
    """A computer player: ``choose`` one of ``view["actions"]``, seeing only ``view`` and the
    public ``log``; ``name`` is its level's (``BOTS``' key)."""

    name: str

    def choose(self, view: dict[str, Any], log: Sequence[LogEntry] = ()) -> Action: ...


def card_value(card: str, trump: str | None) -> int:
    """How much a card is worth keeping: its rank, and a trump above every plain card."""
    return _card_values(trump)[card]


@cache
def _card_values(trump: str | None) -> dict[str, int]:
    """:func:`card_value` of every card under ``trump``, found once per trump."""
    return {card: RANK_VALUE[card] + (20 if SUIT_OF[card] == trump else 0) for card in RANK_VALUE}


class RandomBot:
    """A legal action at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], log: Sequence[LogEntry] = ()) -> Action:
        actions = view["actions"]
        if not actions:
            raise ValueError("there is nothing to do now")
        return dict(self.rng.choice(actions))


class RuleBot:
    """Rules of thumb: beat with the cheapest card, keep trumps, attack with low cards, take when
    defending costs too much while the stock lasts, transfer when it saves a trump, throw in cheap
    cards (any once the stock is gone) and say "done" (pass) otherwise."""

    name = "rules"

    def choose(self, view: dict[str, Any], log: Sequence[LogEntry] = ()) -> Action:
        actions = view["actions"]
        if not actions:
            raise ValueError("there is nothing to do now")
        return dict(rule_choice(actions, view["trump"], view["stock_size"], len(view["table"])))


def rule_choice(actions: Sequence[Action], trump: str | None, stock_size: int, on_table: int) -> Action:
    """The rule-of-thumb choice among ``actions`` (all of one player): the first of the cheapest
    where several cost the same. Each playout of the search bot asks it at every step, so it
    sorts the actions by type in one pass and reads card values from a table made once per trump."""
    values = _card_values(trump)
    attacks: list[Action] = []
    defences: list[Action] = []
    transfers: list[Action] = []
    throws: list[Action] = []
    take = passing = None
    for action in actions:
        kind = action["type"]
        if kind == "defend":
            defences.append(action)
        elif kind == "attack":
            attacks.append(action)
        elif kind == "throw":
            throws.append(action)
        elif kind == "transfer":
            transfers.append(action)
        elif kind == "take":
            take = take or action
        elif kind == "pass":
            passing = passing or action
        elif kind == "swap_trump":
            return action  # the face-up card is worth more than the lowest trump
    if attacks:
        # Low cards first; several of a rank together when they are plain cards.
        return attacks[_first_min([_opening_cost(action["cards"], values, trump) for action in attacks])]
    if defences or transfers or take is not None:
        cheapest = defences[_first_min([values[a["card"]] for a in defences])] if defences else None
        transfer = transfers[_first_min([values[a["card"]] for a in transfers])] if transfers else None
        saves = transfer is not None and (
            cheapest is None or values[transfer["card"]] < values[cheapest["card"]]
        )
        if saves and transfer is not None and (SUIT_OF[transfer["card"]] != trump or stock_size == 0):
            return transfer
        if cheapest is None:
            assert take is not None
            return take
        costly = SUIT_OF[cheapest["card"]] == trump and RANK_VALUE[cheapest["card"]] >= 12
        if costly and stock_size > 4 and on_table <= 2 and take is not None:
            return take
        return cheapest
    if throws:
        cheap = (
            throws
            if stock_size == 0
            else [a for a in throws if SUIT_OF[a["card"]] != trump and RANK_VALUE[a["card"]] <= 10]
        )
        if cheap:
            return cheap[_first_min([values[a["card"]] for a in cheap])]
    if passing is not None:
        return passing
    return actions[_first_min([_cost(action, values) for action in actions])]


def _first_min(costs: list[int] | list[tuple[int, int]]) -> int:
    """The index of the first of the lowest ``costs``."""
    return min(range(len(costs)), key=costs.__getitem__)


def _opening_cost(cards: list[str], values: dict[str, int], trump: str | None) -> tuple[int, int]:
    if len(cards) == 1:
        return (values[cards[0]], -1)
    per_card = sum(values[card] for card in cards) / len(cards)
    plain = all(SUIT_OF[card] != trump for card in cards)
    bonus = 3 * (len(cards) - 1) if plain and per_card < 11 else 0
    return (int(per_card - bonus), -len(cards))


def _cost(action: Action, values: dict[str, int]) -> int:
    if "cards" in action:
        return sum(values[card] for card in action["cards"])
    return values[action["card"]] if "card" in action else 0


class Knowledge:
    """What a seat knows from the public log: cards known to be in each hand (picked up from the
    table, or the face-up trump drawn or swapped), and every card seen going to the discard."""

    def __init__(self, players: int) -> None:
        self.known: list[set[str]] = [set() for _ in range(players)]

    @classmethod
    def from_log(cls, players: int, log: Sequence[LogEntry]) -> Knowledge:
        knowledge = cls(players)
        for entry in log:
            knowledge.observe(entry["action"], entry.get("events", []))
        return knowledge

    def observe(self, action: Action, events: Sequence[dict[str, Any]]) -> None:
        player = action.get("player")
        for card in action.get("cards", []) + [action[k] for k in ("card",) if k in action]:
            if isinstance(player, int):
                self.known[player].discard(card)
        for event in events:
            kind = event["type"]
            if kind == "automatic":
                self.observe(event["action"], [])
            elif kind == "bout_end" and event["result"] == "taken":
                self.known[event["defender"]].update(event["cards"])
            elif kind == "drew" and "face_up" in event:
                self.known[event["player"]].add(event["face_up"])
            elif kind == "swap":
                self.known[event["player"]].discard(event["gave"])
                self.known[event["player"]].add(event["took"])


class SearchBot:
    """Determinised search (perfect-information Monte Carlo): deal the unseen cards at random in
    every way consistent with what is public, play each candidate action out many times with the
    rule-of-thumb policy (with a little randomness), and keep the action that left this seat the
    fool least often. ``seconds`` or ``playouts`` bound the work per decision; ``playouts_run``
    counts the playouts of every decision so far (for benchmarks).

    >>> from durak import Game, Rules
    >>> game = Game.new(Rules.preset("classic"), players=2, seed=1)
    >>> view = game.view(game.attacker)
    >>> bot = SearchBot(seconds=None, playouts=1, seed=1)
    >>> bot.choose(view) in view["actions"], bot.playouts_run == len(view["actions"])
    (True, True)
    """

    name = "search"

    def __init__(
        self,
        seconds: float | None = 1.0,
        playouts: int | None = None,
        seed: int | None = None,
        epsilon: float = 0.1,
    ) -> None:
        if seconds is None and playouts is None:
            raise ValueError("give a time or a playout budget")
        self.seconds = seconds
        self.playouts = playouts
        self.rng = random.Random(seed)
        self.epsilon = epsilon
        self.playouts_run = 0

    def choose(self, view: dict[str, Any], log: Sequence[LogEntry] = ()) -> Action:
        actions = view["actions"]
        if not actions:
            raise ValueError("there is nothing to do now")
        if len(actions) == 1:
            return dict(actions[0])
        seat = view["player"]
        knowledge = Knowledge.from_log(view["players"], log)
        scores = [0.0] * len(actions)
        counts = [0] * len(actions)
        deadline = time.process_time() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            game = self._sample(view, knowledge)
            for index, action in enumerate(actions):
                trial = game.copy()
                try:
                    trial.apply(action)
                except IllegalAction:
                    scores[index] += 1.0
                else:
                    scores[index] += self._playout(trial, seat)
                    self.playouts_run += 1
                counts[index] += 1
                done += 1
            if self.playouts is not None and done >= self.playouts:
                break
            if deadline is not None and time.process_time() >= deadline:
                break
        best = min(range(len(actions)), key=lambda i: scores[i] / counts[i])
        return dict(actions[best])

    def _sample(self, view: dict[str, Any], knowledge: Knowledge) -> Game:
        """One deal of the unseen cards consistent with the view and the public log.

        Nothing in a view depends on another player's cards, so every such deal agrees with it.
        Only a game stored before throw-in waiting became public (state format 1) waits just for
        players holding a card that fits: there a deal that disagrees with the view is dealt
        again; after a few tries the last deal is kept and actions it refuses score as losses.
        """
        game = self._deal(view, knowledge)
        if view["format"] != 1:
            return game
        for _ in range(30):
            if (
                game.waiting_for() == view["waiting_for"]
                and game.legal_actions(view["player"]) == view["actions"]
            ):
                break
            game = self._deal(view, knowledge)
        return game

    def _deal(self, view: dict[str, Any], knowledge: Knowledge) -> Game:
        seat = view["player"]
        players = view["players"]
        rules = view["rules"]
        on_table = {card for pair in view["table"] for card in pair if card is not None}
        face_up = view["trump_card"]
        seen = set(view["hand"]) | on_table | set(view["discarded"])
        if face_up is not None and view["stock_size"]:
            seen.add(face_up)
        known = [set(cards) - seen if p != seat else set() for p, cards in enumerate(knowledge.known)]
        for p in range(players):
            known[p] = set(list(known[p])[: view["hand_sizes"][p]]) if p != seat else set()
        unseen = [c for c in deck(rules["deck_size"]) if c not in seen and not any(c in k for k in known)]
        self.rng.shuffle(unseen)
        hands: list[list[str]] = []
        for p in range(players):
            if p == seat:
                hands.append(list(view["hand"]))
                continue
            missing = view["hand_sizes"][p] - len(known[p])
            hands.append(sorted(known[p]) + unseen[:missing])
            del unseen[:missing]
        stock_size = view["stock_size"]
        stock = [*unseen[: stock_size - 1], face_up] if stock_size else []
        return Game.from_view(view, hands, stock)

    def _playout(self, game: Game, seat: int) -> float:
        """Play to the end with the rule-of-thumb policy; 1 when ``seat`` ends the fool."""
        rng = self.rng
        for _ in range(2000):
            if game.over:
                break
            player = rng.choice(game.waiting_for())
            actions = listed_actions(game, player)  # the game's own: applied, never changed
            if rng.random() < self.epsilon:
                action = rng.choice(actions)
            else:
                action = rule_choice(actions, game.trump, game.stock_size, len(game.table))
            game.apply(action)
        outcome = game.outcome()
        return 1.0 if outcome is not None and seat in outcome.losers else 0.0


BOTS: dict[str, type[RandomBot] | type[RuleBot] | type[SearchBot]] = {
    "random": RandomBot,
    "rules": RuleBot,
    "search": SearchBot,
}
