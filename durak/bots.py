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
from itertools import combinations
from math import comb
from typing import Any, Final, Protocol

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
        if costly and _keeps_trumps(stock_size, on_table) and take is not None:
            return take
        return cheapest
    if throws:
        cheap = throws if stock_size == 0 else [a for a in throws if _cheap(a["card"], trump)]
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
                if SUIT_OF[card] == trump and _keeps_trumps(len(stock), len(attacks)):
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
                throws = [card for card in throws if _cheap(card, trump)]
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


class OutOfBudget(Exception):
    """The exact search gave up: its node budget or its deadline ran out."""


class DuelSolver:
    """Exact search of a two-player game of open hands (no transfers, no enchanted ranks): once
    the stock is gone every card the opponent holds is known, and with a stock fixed in order (a
    sampled deal) the rest of the game is a game of perfect information too.

    The model: the attacker leads one card or several of a rank; the defender answers every card
    on the table before the attacker adds one more (one at a time), or takes, and then the
    attacker may add cards for them to take, up to the bout's limit. Waiting for the answer never
    costs the attacker, so no line is lost. Leaves out the trump swap. A draw counts as not being
    the fool, and the opponent is taken to play against us. Positions are bit masks of the deck,
    remembered across the candidate actions of a decision.
    """

    # The phases of a bout, as class attributes one by one (mypyc compiles no tuple assignment
    # in a class body).
    OPEN: Final = 0
    DEFEND: Final = 1
    ADD: Final = 2
    TAKEN: Final = 3

    def __init__(
        self,
        deck_size: int,
        trump: str | None,
        hand_size: int,
        max_attack: int,
        stock: Sequence[str] = (),
        nodes: int | None = None,
        deadline: float | None = None,
    ) -> None:
        cards = deck(deck_size)
        self.cards = cards
        self.bit = {card: 1 << index for index, card in enumerate(cards)}
        beaten_by = beaters(trump)
        self.beat = [sum(self.bit[c] for c in beaten_by[card] if c in self.bit) for card in cards]
        ranks: dict[str, int] = {}
        for card in cards:
            ranks[RANK_OF[card]] = ranks.get(RANK_OF[card], 0) | self.bit[card]
        self.rank_masks = list(ranks.values())
        self.same_rank = [ranks[RANK_OF[card]] for card in cards]
        values = _card_values(trump)
        self.order = sorted(range(len(cards)), key=lambda i: values[cards[i]])
        self.hand_size = hand_size
        self.max_attack = max_attack
        self.stock = [self.bit[card] for card in stock]
        self.memo: dict[tuple[int, ...], bool] = {}
        self.nodes = 0
        self.node_budget = nodes
        self.deadline = deadline

    def mask(self, cards: Sequence[str]) -> int:
        result = 0
        for card in cards:
            result |= self.bit[card]
        return result

    def value(self, state: dict[str, Any], seat: int) -> bool:
        """Whether ``seat`` escapes being the fool with best play from ``state`` (``Game.to_dict``)."""
        if state["over"]:
            return bool(state["loser"] != seat)
        attacker, defender = state["attacker"], state["defender"]
        att, dfd = self.mask(state["hands"][attacker]), self.mask(state["hands"][defender])
        table = state["table"]
        root_att = attacker == seat
        if not table:
            return self._solve(att, dfd, 0, 0, 0, self.OPEN, root_att, len(self.stock) - len(state["stock"]))
        on_table = self.mask([card for pair in table for card in pair if card is not None])
        open_ = self.mask([pair[0] for pair in table if pair[1] is None])
        limit = state["limit"] or self.max_attack
        pos = len(self.stock) - len(state["stock"])
        phase = self.TAKEN if state["taking"] else self.DEFEND if open_ else self.ADD
        return self._solve(att, dfd, open_, on_table, limit, phase, root_att, pos)

    def _end(self, att: int, dfd: int, taken: bool, root_att: bool, pos: int) -> bool:
        stock = self.stock
        if pos < len(stock):
            size = self.hand_size
            for who in (0, 1):
                hand = att if who == 0 else dfd
                need = size - hand.bit_count()
                while need > 0 and pos < len(stock):
                    hand |= stock[pos]
                    pos += 1
                    need -= 1
                if who == 0:
                    att = hand
                else:
                    dfd = hand
        if pos >= len(stock) and (not att or not dfd):
            if att and not dfd:
                return not root_att  # the attacker is the fool
            if dfd and not att:
                return root_att
            return True  # a draw
        if taken:
            return self._solve(att, dfd, 0, 0, 0, self.OPEN, root_att, pos)
        return self._solve(dfd, att, 0, 0, 0, self.OPEN, not root_att, pos)

    def _throwable(self, att: int, table: int) -> int:
        allowed = 0
        for ranks in self.rank_masks:
            if table & ranks:
                allowed |= ranks
        return att & allowed

    def _solve(
        self, att: int, dfd: int, open_: int, table: int, limit: int, phase: int, root_att: bool, pos: int
    ) -> bool:
        key = (att, dfd, open_, table, limit, phase, root_att, pos)
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes & 1023 == 0:
            if self.node_budget is not None and self.nodes > self.node_budget:
                raise OutOfBudget
            if self.deadline is not None and time.process_time() > self.deadline:
                raise OutOfBudget
        result: bool
        if phase == self.DEFEND:
            # The defender (root iff not root_att) answers the lowest open card, or takes.
            mine = not root_att
            target = open_ & -open_
            index = target.bit_length() - 1
            choices = dfd & self.beat[index]
            result = not mine
            if choices:
                for i in self.order:
                    card = 1 << i
                    if not choices & card:
                        continue
                    rest = open_ ^ target
                    ndfd = dfd ^ card
                    ntable = table | card
                    if rest:
                        value = self._solve(att, ndfd, rest, ntable, limit, self.DEFEND, root_att, pos)
                    else:
                        value = self._solve(att, ndfd, 0, ntable, limit, self.ADD, root_att, pos)
                    if value == mine:
                        result = mine
                        break
            if result != mine:
                # Taking: the attacker may add cards for the defender to take.
                value = self._solve(att, dfd, open_, table, limit, self.TAKEN, root_att, pos)
                if value == mine:
                    result = mine
        else:
            mine = root_att
            result = not mine
            if phase == self.OPEN:
                limit = min(self.max_attack, dfd.bit_count())
                seen_ranks = 0
                for i in self.order:
                    card = 1 << i
                    if not att & card:
                        continue
                    value = self._solve(att ^ card, dfd, card, card, limit, self.DEFEND, root_att, pos)
                    if value == mine:
                        result = mine
                        break
                    group = att & self.same_rank[i]
                    if limit > 1 and group != card and not seen_ranks & group:
                        seen_ranks |= group
                        if self._groups(att, dfd, group, limit, root_att, pos, mine):
                            result = mine
                            break
            else:
                taken = phase == self.TAKEN
                attacks = (table.bit_count() + open_.bit_count()) // 2
                throws = 0
                if attacks < limit and (taken or dfd):
                    throws = self._throwable(att, table)
                if not taken:
                    for i in self.order:
                        card = 1 << i
                        if throws & card:
                            value = self._solve(
                                att ^ card, dfd, card, table | card, limit, self.DEFEND, root_att, pos
                            )
                            if value == mine:
                                result = mine
                                break
                    if result != mine and self._end(att, dfd, False, root_att, pos) == mine:
                        result = mine
                else:
                    if self._end(att, dfd | table, True, root_att, pos) == mine:
                        result = mine
                    else:
                        for i in self.order:
                            card = 1 << i
                            if throws & card:
                                value = self._solve(
                                    att ^ card,
                                    dfd,
                                    open_ | card,
                                    table | card,
                                    limit,
                                    self.TAKEN,
                                    root_att,
                                    pos,
                                )
                                if value == mine:
                                    result = mine
                                    break
        memo[key] = result
        return result

    def _groups(
        self, att: int, dfd: int, group: int, limit: int, root_att: bool, pos: int, mine: bool
    ) -> bool:
        """Whether some opening of two or more cards of ``group`` (one rank) reaches ``mine``."""
        members = [1 << i for i in range(group.bit_length()) if group >> i & 1]
        for size in range(2, min(len(members), limit) + 1):
            for combo in combinations(members, size):
                cards = sum(combo)
                if self._solve(att ^ cards, dfd, cards, cards, limit, self.DEFEND, root_att, pos) == mine:
                    return True
        return False


def _survivors(losses: list[list[float]], alive: list[int]) -> list[int]:
    """The actions of ``alive`` still worth playouts: those not losing more often than the best,
    beyond 2.5 standard errors of their paired differences (or on every deal, without spread).
    The dropped ones get no more playouts, so the best finds out sooner among the rest."""
    best = min(alive, key=lambda slot: sum(losses[slot]))
    rounds = len(losses[best])
    keep = []
    for slot in alive:
        if slot != best:
            differences = [a - b for a, b in zip(losses[slot], losses[best], strict=True)]
            mean = sum(differences) / rounds
            spread = sum((d - mean) ** 2 for d in differences) / (rounds - 1)
            if mean > 2.5 * (spread / rounds) ** 0.5:
                continue
        keep.append(slot)
    return keep


class Knowledge:
    """What a seat knows from the public log: cards known to be in each hand (picked up from the
    table, or the face-up trump drawn or swapped), and, given the view as well, what each player's
    moves say about the cards they did not hold (:class:`_Reader`).

    ``absent[p]`` lists what p's moves gave away, each as the cards p did not hold then and how
    many cards p had drawn by then (``drawn[p]`` counts them now): each card p drew since may be
    one of them, no other can.
    """

    def __init__(self, players: int) -> None:
        self.known: list[set[str]] = [set() for _ in range(players)]
        self.absent: list[list[tuple[frozenset[str], int]]] = [[] for _ in range(players)]
        self.drawn = [0] * players
        self._limits: dict[tuple[int, int], tuple[list[tuple[frozenset[str], int]], frozenset[str]]] = {}

    @classmethod
    def from_log(cls, players: int, log: Sequence[LogEntry], view: dict[str, Any] | None = None) -> Knowledge:
        knowledge = cls(players)
        reader = _Reader(view) if view is not None and _Reader.reads(view) else None
        for entry in log:
            action, events = entry["action"], entry.get("events", [])
            if reader is not None:
                reader.before(action, knowledge)
            knowledge.observe(action, events)
            if reader is not None:
                reader.after(action, events)
        if reader is not None:
            reader.finish(knowledge)
        return knowledge

    def limits(self, player: int, unknown: int) -> tuple[list[tuple[frozenset[str], int]], frozenset[str]]:
        """What :attr:`absent` says of ``player``'s ``unknown`` cards not known to be theirs: the
        cards that may be among them up to a number (as many as were drawn since), and those that
        may not be (none drawn since). Worked out once per player and count until the knowledge
        changes (:meth:`observe`, :meth:`rule_out`): every sampled deal of a decision asks."""
        found = self._limits.get((player, unknown))
        if found is None:
            drawn = self.drawn[player]
            hard = frozenset().union(*(cards for cards, then in self.absent[player] if then == drawn))
            soft = [
                (cards, drawn - then) for cards, then in self.absent[player] if 0 < drawn - then < unknown
            ]
            found = self._limits[player, unknown] = (soft, hard)
        return found

    def rule_out(self, player: int, cards: frozenset[str], drawn: int) -> None:
        """Note that ``player`` held none of ``cards`` when they had drawn ``drawn`` cards."""
        self.absent[player].append((cards, drawn))
        self._limits.clear()

    def observe(self, action: Action, events: Sequence[dict[str, Any]]) -> None:
        self._limits.clear()  # what limits() found depends on the draws
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
            elif kind == "drew":
                self.drawn[event["player"]] += event["count"]
                if "face_up" in event:
                    self.known[event["player"]].add(event["face_up"])
            elif kind == "swap":
                self.known[event["player"]].discard(event["gave"])
                self.known[event["player"]].add(event["took"])


class _Reader:
    """Reads the public log as if every player chose as :func:`rule_choice` does, which is how the
    search bot's playouts have them play: a player who opened with a card held none cheaper, one
    who beat with a card held no cheaper card that beats an open attack card, one who took with
    one attack card open held nothing to beat it with (no plain card while trumps were to be kept),
    one who threw in held no cheaper card that fits, and a main attacker who said "done" held no
    card that fits (no plain card up to ten while the stock lasts). People play otherwise at
    times: the search deals the unseen cards as far as possible in agreement with what this says
    (:meth:`SearchBot._deal`), never against what is certain.

    The table, the stock and the hands' sizes at each move are followed along the log; what depends
    on them is worked out at the end, from the view, and nothing at all is kept when the table
    followed does not come out as the view's (a log that does not start at the deal).
    """

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.players: int = view["players"]
        self.transfer: bool = view["rules"]["transfer"]
        self.trump: str | None = view["trump"]
        self.values = _card_values(self.trump)
        self.beaten_by = beaters(self.trump)
        self.cards = deck(view["rules"]["deck_size"])
        self.table: list[list[str | None]] = []
        self.opener: int | None = None
        self.transferred = False
        self.drawn_all = 0
        # What was read, each with the total drawn at the time (the stock then, once the view
        # tells how many are left): (player, drawn by them, drawn by all, kind, details).
        self.read: list[tuple[int, int, int, str, Any]] = []

    @staticmethod
    def reads(view: dict[str, Any]) -> bool:
        """Whether moves under these rules can be read: not with enchanted ranks, whose spells
        change what beats and what may be thrown in, nor in games stored in the first format."""
        return not view["rules"]["enchanted"] and view.get("format") != 1

    def before(self, action: Action, knowledge: Knowledge) -> None:
        player = action.get("player")
        if not isinstance(player, int) or not 0 <= player < self.players:
            return
        kind = action["type"]
        values = self.values
        note = (player, knowledge.drawn[player], self.drawn_all)
        if kind == "attack" and not self.table:
            cost = _opening_cost(list(action["cards"]), values, self.trump)[0]
            self.read.append((*note, "attack", frozenset(c for c in self.cards if values[c] < cost)))
        elif kind == "defend":
            card = action["card"]
            cheaper = frozenset(
                c
                for pair in self.table
                if pair[1] is None and pair[0] is not None
                for c in self.beaten_by[pair[0]]
                if values[c] < values[card]
            )
            self.read.append((*note, "defend", cheaper))
        elif kind == "take" and not self.transfer:
            open_cards = [pair[0] for pair in self.table if pair[1] is None]
            if len(open_cards) == 1 and open_cards[0] is not None:
                self.read.append((*note, "take", (open_cards[0], len(self.table))))
        elif kind == "throw":
            self.read.append((*note, "throw", (self.ranks(), action["card"])))
        elif kind == "pass" and player == self.opener and not self.transferred and self.table:
            self.read.append((*note, "pass", self.ranks()))

    def ranks(self) -> frozenset[str]:
        return frozenset(RANK_OF[card] for pair in self.table for card in pair if card is not None)

    def after(self, action: Action, events: Sequence[dict[str, Any]]) -> None:
        self.play(action)
        for event in events:
            kind = event["type"]
            if kind == "automatic":
                self.play(event["action"])
            elif kind == "bout_end":
                self.table = []
                self.opener = None
                self.transferred = False
            elif kind == "drew":
                self.drawn_all += event["count"]

    def play(self, action: Action) -> None:
        """Follow the table through one move."""
        kind = action.get("type")
        if kind == "attack" and not self.table:
            self.opener = action.get("player")
            self.table = [[card, None] for card in action["cards"]]
        elif kind in ("throw", "transfer"):
            self.table.append([action["card"], None])
            self.transferred = self.transferred or kind == "transfer"
        elif kind == "defend":
            for pair in self.table:
                if pair[0] == action["target"] and pair[1] is None:
                    pair[1] = action["card"]
                    break

    def finish(self, knowledge: Knowledge) -> None:
        view = self.view
        if [list(pair) for pair in view["table"]] != self.table:
            return
        trump, values = self.trump, self.values
        for player, drawn, drawn_all, kind, details in self.read:
            stock = view["stock_size"] + self.drawn_all - drawn_all
            if stock == 0 and self.players == 2 and kind != "defend":
                continue  # the rule-of-thumb bot then knows the other hand and plays to it
            if kind in ("attack", "defend"):
                absent = details
            elif kind == "take":
                attack, on_table = details
                keep_trumps = _keeps_trumps(stock, on_table)
                absent = frozenset(
                    c for c in self.beaten_by[attack] if not (keep_trumps and SUIT_OF[c] == trump)
                )
            elif kind == "throw":
                ranks, card = details
                if stock and not _cheap(card, trump):
                    continue  # not the rule-of-thumb choice: nothing to read
                absent = frozenset(
                    c
                    for c in self.cards
                    if RANK_OF[c] in ranks and values[c] < values[card] and (not stock or _cheap(c, trump))
                )
            else:
                absent = frozenset(
                    c for c in self.cards if RANK_OF[c] in details and (not stock or _cheap(c, trump))
                )
            if absent:
                knowledge.rule_out(player, absent, drawn)


_MISFIT: Final = 0.001
"""The weight of a deal for each card in it that a player's moves say they do not hold: a person
may play otherwise than the model (:class:`_Reader`)."""


def _drawn_weight(hidden: int, fits: int, drawn_since: int) -> float:
    """How likely a deal of ``hidden`` unseen cards to a player is, relative to others, when
    ``fits`` of them are cards the player did not hold ``drawn_since`` draws ago: those must be
    among the cards drawn since, and there are fewer ways for more of them to be. (The cards drawn
    since are taken to be held still, as the rule-of-thumb bot keeps its dearer cards.)"""
    if fits > drawn_since:
        return _MISFIT ** (fits - drawn_since)
    return comb(hidden - fits, drawn_since - fits) / comb(hidden, drawn_since)


def _keeps_trumps(stock_size: int, on_table: int) -> bool:
    """Whether the rule-of-thumb bot takes rather than beat with a trump: while more than four
    cards are in the stock and at most three attack cards on the table."""
    return stock_size > 4 and on_table <= 3


def _cheap(card: str, trump: str | None) -> bool:
    """A card the rule-of-thumb bot throws in while the stock lasts: a plain one up to ten."""
    return SUIT_OF[card] != trump and RANK_VALUE[card] <= 10


class SearchBot:
    """Determinised search (perfect-information Monte Carlo): deal the unseen cards at random in
    every way consistent with what is public (cards seen picked up stay with their taker until
    played, :class:`Knowledge`) and, with ``read_moves``, likely given the others' moves read as
    the rule-of-thumb bot's (:class:`_Reader`), play each candidate action out on every such deal with the
    rule-of-thumb policy, and keep the action that left this seat the fool least often, the rules
    bot's choice among equals. Two-player games without transfers or enchanted ranks are played
    out by :func:`duel_loser`, without randomness; others through :class:`Game`, with a random
    action ``epsilon`` of the time. ``seconds`` or ``playouts`` bound the work per decision;
    actions that clearly lose more often than the best get no more playouts (:func:`_survivors`),
    and it stops sooner once the choice is settled (:func:`_settled`); ``playouts_run`` counts the
    playouts of every decision so far (for benchmarks).

    Those two-player games, once the stock is gone (``exact_stock``, the stock size from which on
    it searches exactly), are searched exactly by :class:`DuelSolver`, for up to ``exact_share`` of
    the time (``playouts`` times 50 positions with a playout budget): it plays an action that
    escapes being the fool against every answer, the rules bot's first, and falls back to the
    playouts when there is none or the search ran out. With a stock of at most ``exact_stock``
    cards it solves up to ``exact_deals`` sampled deals exactly instead and plays out only the
    actions that lost on the fewest (slow: off by default).

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
        exact_stock: int = 0,
        exact_deals: int = 20,
        exact_share: float = 0.8,
        read_moves: bool = True,
    ) -> None:
        if seconds is None and playouts is None:
            raise ValueError("give a time or a playout budget")
        self.seconds = seconds
        self.playouts = playouts
        self.rng = random.Random(seed)
        self.epsilon = epsilon
        self.exact_stock = exact_stock
        self.exact_deals = exact_deals
        self.exact_share = exact_share
        self.read_moves = read_moves
        self.playouts_run = 0
        self._solver: DuelSolver | None = None
        self._solver_params: tuple[Any, ...] = ()

    def choose(self, view: dict[str, Any], log: Sequence[LogEntry] = ()) -> Action:
        actions = view["actions"]
        if not actions:
            raise ValueError("there is nothing to do now")
        if len(actions) == 1:
            return dict(actions[0])
        seat = view["player"]
        knowledge = Knowledge.from_log(view["players"], log, view if self.read_moves else None)
        duel = duel_fits(view["rules"], view["players"])
        start = time.process_time()
        deadline = start + self.seconds if self.seconds is not None else None
        fallback = RuleBot().choose(view, log)
        candidates = list(range(len(actions)))
        if duel and seat is not None and view["stock_size"] <= self.exact_stock:
            exact_deadline = start + self.seconds * self.exact_share if self.seconds is not None else None
            if not view["stock_size"]:
                won = self._endgame(view, actions, fallback, exact_deadline)
                if won is not None:
                    return dict(won)
            else:
                candidates = self._exact(view, knowledge, actions, exact_deadline)
            if len(candidates) == 1:
                return dict(actions[candidates[0]])
        losses: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        done = 0
        while True:
            game = self._sample(view, knowledge)
            for slot in alive:
                trial = game.copy()
                try:
                    trial.apply(actions[candidates[slot]])
                except IllegalAction:
                    losses[slot].append(1.0)
                else:
                    if duel:
                        losses[slot].append(float(duel_loser(trial.to_dict()) == seat))
                    else:
                        losses[slot].append(self._playout(trial, seat))
                    self.playouts_run += 1
                done += 1
            if self.playouts is not None and done >= self.playouts:
                break
            if deadline is not None and time.process_time() >= deadline:
                break
            rounds = len(losses[alive[0]])
            if rounds >= 20 and rounds % 10 == 0:
                alive = _survivors(losses, alive)
                if len(alive) == 1 or (rounds >= 40 and _settled([losses[slot] for slot in alive])):
                    break
        # Among the least often lost of those still in the running, the rule-of-thumb choice if
        # it is one of them.
        sums = {slot: sum(losses[slot]) for slot in alive}
        least = min(sums.values())
        for slot in alive:
            if sums[slot] == least and actions[candidates[slot]] == fallback:
                return dict(fallback)
        return dict(actions[candidates[min(alive, key=lambda slot: (sums[slot], slot))]])

    def _endgame(
        self, view: dict[str, Any], actions: list[Action], fallback: Action, deadline: float | None
    ) -> Action | None:
        """With the stock gone every card is known: an action that wins (or draws) against every
        answer, the rules bot's choice first; None when none does, or when the search ran out of
        time before it found one. The solver and what it learned are kept for the next decision
        (a position's value never changes), up to a few million positions."""
        rules = view["rules"]
        seat = view["player"]
        params = (
            rules["deck_size"],
            view["trump"],
            rules["hand_size"],
            rules["max_attack"] or rules["hand_size"],
        )
        solver = self._solver
        if solver is None or self._solver_params != params or len(solver.memo) > 2_000_000:
            solver = self._solver = DuelSolver(*params)
            self._solver_params = params
        solver.nodes = 0
        solver.node_budget = self.playouts * 50 if self.playouts is not None else None
        solver.deadline = deadline
        held = opponent_cards(view)
        assert held is not None
        hands = [list(view["hand"]), sorted(held)] if seat == 0 else [sorted(held), list(view["hand"])]
        game = Game.from_view(view, hands, [])
        ordered = [fallback] + [action for action in actions if action != fallback]
        try:
            for action in ordered:
                trial = game.copy()
                trial.apply(action)
                if solver.value(trial.to_dict(), seat):
                    return action
        except OutOfBudget:
            return None
        return None

    def _exact(
        self, view: dict[str, Any], knowledge: Knowledge, actions: list[Action], deadline: float | None
    ) -> list[int]:
        """The indexes of the actions that lose on the fewest sampled deals, each deal solved
        exactly (:class:`DuelSolver`): with the stock gone the one deal there is, else deals of
        the few unseen cards. Every action when not even one deal could be solved in time."""
        rules = view["rules"]
        seat = view["player"]
        nodes = self.playouts * 50 if self.playouts is not None else None
        losses = [0] * len(actions)
        solved = 0
        for _ in range(1 if not view["stock_size"] else self.exact_deals):
            game = self._sample(view, knowledge)
            state = game.to_dict()
            solver = DuelSolver(
                rules["deck_size"],
                view["trump"],
                rules["hand_size"],
                rules["max_attack"] or rules["hand_size"],
                stock=state["stock"],
                nodes=nodes,
                deadline=deadline,
            )
            outcome = []
            try:
                for action in actions:
                    trial = game.copy()
                    trial.apply(action)
                    outcome.append(0 if solver.value(trial.to_dict(), seat) else 1)
            except OutOfBudget:
                break
            except IllegalAction:
                continue
            solved += 1
            losses = [a + b for a, b in zip(losses, outcome, strict=True)]
        if not solved:
            return list(range(len(actions)))
        least = min(losses)
        return [index for index, lost in enumerate(losses) if lost == least]

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
        """Deal the unseen cards at random: each player keeps the cards known to be theirs, and
        gets none the log says they did not hold where that is certain (no card drawn since);
        of a few such deals, one is kept at random with a chance weighted by how likely the rest
        of :attr:`Knowledge.absent` makes it (:func:`_drawn_weight`)."""
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
        missing = [view["hand_sizes"][p] - len(known[p]) if p != seat else 0 for p in range(players)]
        limits = [knowledge.limits(p, missing[p]) if p != seat else ([], frozenset()) for p in range(players)]
        tries = 8 if any(hard or soft for soft, hard in limits) else 1
        rng = self.rng
        deals: list[tuple[list[list[str]], list[str]]] = []
        weights: list[float] = []
        for _ in range(tries):
            rng.shuffle(unseen)
            rest = unseen
            weight = 1.0
            dealt: list[list[str]] = []
            for p in range(players):
                soft, hard = limits[p]
                if not missing[p]:
                    dealt.append([])
                    continue
                if hard:
                    ordered = [c for c in rest if c not in hard] + [c for c in rest if c in hard]
                    rest = ordered[missing[p] :]
                    rng.shuffle(rest)
                else:
                    ordered = rest
                    rest = ordered[missing[p] :]
                picked = ordered[: missing[p]]
                weight *= _MISFIT ** sum(1 for c in picked if c in hard)
                for cards, drawn_since in soft:
                    weight *= _drawn_weight(missing[p], sum(1 for c in picked if c in cards), drawn_since)
                dealt.append(picked)
            deals.append((dealt, rest))
            weights.append(weight)
        best, stock = deals[0] if tries == 1 else rng.choices(deals, weights)[0]
        hands = [list(view["hand"]) if p == seat else sorted(known[p]) + best[p] for p in range(players)]
        stock_size = view["stock_size"]
        stock = [*stock[: stock_size - 1], face_up] if stock_size else []
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
