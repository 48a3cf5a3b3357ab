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
>>> action in game.legal_json(game.attacker)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from durak.cards import RANK_OF, RANK_VALUE, SUIT_OF, beaters, deck
from durak.game import Action, Game, IllegalAction

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
    """Rules of thumb: beat with the cheapest card, keep trumps (take rather than beat with one
    while more than four cards are in the stock and at most three on the table), attack with low
    cards, transfer when it saves a trump, throw in cheap cards (any once the stock is gone) and
    say "done" (pass) otherwise."""

    name = "rules"

    def choose(self, view: dict[str, Any], log: Sequence[LogEntry] = ()) -> Action:
        actions = view["actions"]
        if not actions:
            raise ValueError("there is nothing to do now")
        table = view["table"]
        open_attacks = sum(1 for pair in table if pair[1] is None)
        held = opponent_cards(view)
        return dict(rule_choice(actions, view["trump"], view["stock_size"], len(table), held, open_attacks))


def opponent_cards(view: dict[str, Any]) -> frozenset[str] | None:
    """The cards the one opponent holds, once the stock is gone in a two-player game: every card
    not in this hand, on the table or in the discard. None when the view does not tell."""
    if view["players"] != 2 or view["stock_size"] or view["player"] is None:
        return None
    seen = set(view["hand"]).union(view["discarded"], *view["table"])
    return frozenset(card for card in deck(view["rules"]["deck_size"]) if card not in seen)


def rule_choice(
    actions: Sequence[Action],
    trump: str | None,
    stock_size: int,
    on_table: int,
    held: frozenset[str] | None = None,
    open_attacks: int = 0,
) -> Action:
    """The rule-of-thumb choice among ``actions`` (all of one player): the first of the cheapest
    where several cost the same. Each playout of the search bot asks it at every step, so it
    sorts the actions by type in one pass and reads card values from a table made once per trump.
    ``held``, the opponent's cards when they are known (:func:`opponent_cards`), makes it attack
    and throw in with cards they cannot beat first. ``open_attacks``, the attack cards not beaten
    yet, makes it take at once when one of them cannot be beaten: beating the others would only
    show more ranks to throw in."""
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
    if held is not None and len(held) <= 3:
        beaten_by = beaters(trump)
        attacks = [a for a in attacks if not any(beaten_by[c] & held for c in a["cards"])] or attacks
        throws = [a for a in throws if not beaten_by[a["card"]] & held] or throws
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
        if cheapest is None or (take is not None and len({a["target"] for a in defences}) < open_attacks):
            assert take is not None
            return take
        costly = SUIT_OF[cheapest["card"]] == trump
        if costly and stock_size > 4 and on_table <= 3 and take is not None:
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


def duel_fits(rules: dict[str, Any], players: int) -> bool:
    """Whether :func:`duel_loser` can play out a game of these rules: two players, no transfers,
    no enchanted ranks."""
    return players == 2 and not rules["transfer"] and not rules["enchanted"]


def duel_loser(state: dict[str, Any]) -> int | None:
    """Play a two-player game to its end with the rule-of-thumb policy, fast: the fool, or None
    for a draw. ``state`` is :meth:`Game.to_dict` of a (sampled) game that :func:`duel_fits`.

    The search bot's playouts: :func:`rule_choice`'s rules, written once more over plain lists
    instead of listed actions, some twenty times faster than playing :class:`Game` out. A model,
    not the engine: it leaves out the trump swap, and it lets the defender answer every attack
    card before the attacker throws in. The state is used up.
    """
    if state["over"]:
        loser: int | None = state["loser"]
        return loser
    trump = state["trump"]
    values = _card_values(trump)
    beaten_by = beaters(trump)
    hands: list[list[str]] = state["hands"]
    stock: list[str] = state["stock"]
    hand_size = state["rules"]["hand_size"]
    max_attack = state["rules"]["max_attack"] or hand_size
    attacker, defender = state["attacker"], state["defender"]
    attacks = [pair[0] for pair in state["table"]]
    defences: list[str | None] = [pair[1] for pair in state["table"]]
    taking: bool = state["taking"]
    passed = attacker in state["passed"]
    limit: int = state["limit"] or max_attack
    for _ in range(100):
        mine, theirs = hands[attacker], hands[defender]
        if not attacks:
            limit = min(max_attack, len(theirs))
            held = theirs if not stock and len(theirs) <= 3 else None
            attacks = _duel_opening(mine, values, trump, limit, beaten_by, held)
            for card in attacks:
                mine.remove(card)
            defences = [None] * len(attacks)
            taking = passed = False
        while True:
            landed = False
            while not taking and None in defences:
                best = None
                best_value = 99
                for index, attack in enumerate(attacks):
                    if defences[index] is None:
                        beat = beaten_by[attack]
                        found = False
                        for card in theirs:
                            if card in beat:
                                found = True
                                if values[card] < best_value:
                                    best, best_value = (index, card), values[card]
                        if not found:
                            best = None
                            break
                if best is None:
                    taking = True
                    break
                index, card = best
                if SUIT_OF[card] == trump and len(stock) > 4 and len(attacks) <= 3:
                    taking = True
                    break
                defences[index] = card
                theirs.remove(card)
                landed = True
            if passed and not landed:
                break
            passed = False
            if len(attacks) >= limit or not mine or not (taking or theirs):
                break
            ranks = {RANK_OF[card] for card in attacks}
            ranks.update(RANK_OF[card] for card in defences if card is not None)
            throws = [card for card in mine if RANK_OF[card] in ranks]
            if stock:
                throws = [card for card in throws if SUIT_OF[card] != trump and RANK_VALUE[card] <= 10]
            elif len(theirs) <= 3:
                throws = [card for card in throws if not beaten_by[card].intersection(theirs)] or throws
            if not throws:
                break
            throw = min(throws, key=values.__getitem__)
            mine.remove(throw)
            attacks.append(throw)
            defences.append(None)
        if taking:
            theirs += attacks
            theirs += [card for card in defences if card is not None]
        attacks, defences = [], []
        for player in (attacker, defender):
            need = hand_size - len(hands[player])
            if need > 0 and stock:
                hands[player] += stock[:need]
                del stock[:need]
        if not stock and (not mine or not theirs):
            break
        if not taking:
            attacker, defender = defender, attacker
    holding = [player for player in (0, 1) if hands[player]]
    return holding[0] if len(holding) == 1 else None


def _duel_opening(
    hand: list[str],
    values: dict[str, int],
    trump: str | None,
    limit: int,
    beaten_by: dict[str, frozenset[str]],
    held: list[str] | None,
) -> list[str]:
    """:func:`rule_choice`'s opening attack from ``hand``: its cheapest card, or all its plain
    cards of a low rank, or with ``held`` (the defender's last few cards) one they cannot beat."""
    choices = hand
    if held is not None:
        choices = [card for card in hand if not beaten_by[card].intersection(held)] or hand
    best = min(choices, key=values.__getitem__)
    opening = [best]
    cost = (values[best], -1)
    if limit > 1:
        by_rank: dict[str, list[str]] = {}
        for card in choices:
            if SUIT_OF[card] != trump and values[card] < 11:
                by_rank.setdefault(RANK_OF[card], []).append(card)
        for cards in by_rank.values():
            if len(cards) > 1:
                cards = cards[:limit]
                group = (values[cards[0]] - 3 * (len(cards) - 1), -len(cards))
                if group < cost:
                    opening, cost = cards, group
    return list(opening)


def _settled(losses: list[list[float]]) -> bool:
    """Whether more playouts would hardly change the choice: every other action lost more often
    than the best, far beyond chance, or exactly as often on every sampled deal. The outcomes
    are paired (every action played on the same deals), so their differences are compared."""
    sums = [sum(outcomes) for outcomes in losses]
    best = losses[sums.index(min(sums))]
    rounds = len(best)
    for outcomes in losses:
        if outcomes is best:
            continue
        differences = [a - b for a, b in zip(outcomes, best, strict=True)]
        mean = sum(differences) / rounds
        spread = sum((d - mean) ** 2 for d in differences) / (rounds - 1)
        if spread == 0:
            continue
        if mean <= 3 * (spread / rounds) ** 0.5:
            return False
    return True


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
    every way consistent with what is public (cards seen picked up stay with their taker until
    played, :class:`Knowledge`), play each candidate action out on every such deal with the
    rule-of-thumb policy, and keep the action that left this seat the fool least often, the rules
    bot's choice among equals. Two-player games without transfers or enchanted ranks are played
    out by :func:`duel_loser`, without randomness; others through :class:`Game`, with a random
    action ``epsilon`` of the time. ``seconds`` or ``playouts`` bound the work per decision, and
    it stops sooner once the choice is settled (:func:`_settled`); ``playouts_run`` counts the
    playouts of every decision so far (for benchmarks).

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
        duel = duel_fits(view["rules"], view["players"])
        losses: list[list[float]] = [[] for _ in actions]
        deadline = time.process_time() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            game = self._sample(view, knowledge)
            for index, action in enumerate(actions):
                trial = game.copy()
                try:
                    trial.apply(action)
                except IllegalAction:
                    losses[index].append(1.0)
                else:
                    if duel:
                        losses[index].append(float(duel_loser(trial.to_dict()) == seat))
                    else:
                        losses[index].append(self._playout(trial, seat))
                    self.playouts_run += 1
                done += 1
            if self.playouts is not None and done >= self.playouts:
                break
            if deadline is not None and time.process_time() >= deadline:
                break
            rounds = len(losses[0])
            if rounds >= 40 and rounds % 10 == 0 and _settled(losses):
                break
        # Among the least often lost, the rule-of-thumb choice if it is one of them.
        sums = [sum(outcomes) for outcomes in losses]
        least = min(sums)
        fallback = RuleBot().choose(view, log)
        for index, action in enumerate(actions):
            if sums[index] == least and action == fallback:
                return dict(action)
        return dict(actions[sums.index(least)])

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
                and game.legal_json(view["player"]) == view["actions"]
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
            actions = game.legal_json(player)
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
