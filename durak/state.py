"""The position: where every card is, whose turn it is, and the facts every rule reads of it.

:class:`Position` holds a game's state and answers the questions of geometry and strength the
rules ask (who is still in, who comes next, what beats what, how many cards a bout may reach);
:mod:`durak.legality` states the rules over it and :class:`durak.Game` makes the moves. The
running bout is a :class:`durak.bout.Bout`; its fields read and write through here too.

Besides the state it stores, a position keeps what its steps need instead of working it out again:
its seating and its enchantments (from the rules), the card a trump swap gives, the cards that
beat each card under the trump, how many cards of each rank are in the discard, and, until the
next move, what each player may do. ``Game.apply`` forgets that after every move, as do the setters
of the bout's fields (``game.table = ...``); code that changes another field or a hand in place
to set up a position does so before asking anything, or calls :meth:`Position.forget` after.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from durak.bout import Bout
from durak.cards import RANK_OF, SUITS, beaters, card_of_parts
from durak.enchanted import Spells, spells_of
from durak.errors import NoPlayerLeft
from durak.rules import Rules
from durak.seating import SEATINGS, NoTeams, Seats

if TYPE_CHECKING:
    from durak.actions import Move

#: The format ``to_dict()`` writes: 2, every player allowed to throw in is waited for (public
#: waiting). 1, the states stored before it (no ``"format"`` key): only a player holding a card
#: that fits was waited for, and a thrower's timeout was a strike like any other.
STATE_FORMAT: Final = 2
STATE_FORMATS: Final = (1, 2)


class FastRules:
    """The options of the rules that every move reads, copied once from :class:`Rules` into a
    class of the compiled build: a field of :class:`Rules` (a plain dataclass, never compiled: it
    validates what forms and stored states give it) costs a compiled module a dictionary lookup,
    and a property the interpreter; a field here is read directly. Rules are frozen, so the copy
    stays true."""

    __slots__ = (
        "add_after_take",
        "bout_max",
        "draw_order",
        "hand_size",
        "multi_card_attack",
        "opening_limit",
        "opening_limit_min_players",
        "opening_limit_until",
        "throw_in",
        "throw_priority",
        "throw_when",
        "transfer",
    )

    def __init__(self, rules: Rules) -> None:
        self.add_after_take: bool = rules.add_after_take
        self.bout_max: int = rules.bout_max
        self.draw_order: str = rules.draw_order
        self.hand_size: int = rules.hand_size
        self.multi_card_attack: bool = rules.multi_card_attack
        self.opening_limit: int | None = rules.opening_limit
        self.opening_limit_min_players: int = rules.opening_limit_min_players
        self.opening_limit_until: str = rules.opening_limit_until
        self.throw_in: str = rules.throw_in
        self.throw_priority: str = rules.throw_priority
        self.throw_when: str = rules.throw_when
        self.transfer: bool = rules.transfer


class Position(Seats):
    """A game's state. Players are numbered 0..n-1 clockwise; the left neighbour of i is i+1.

    Team games seat the teams alternately: team 0 is the even seats, team 1 the odd ones.
    """

    # Slots, not an instance dict: a position has more fields than CPython shares the keys of
    # (30), so with a dict every field read is a dict lookup; with slots it is an index. Those
    # a seating reads and sets are the slots of Seats.
    __slots__ = (
        "_trump",
        "adding",
        "auto_pass",
        "beaten_by",
        "bout",
        "bouts",
        "dealer",
        "defended",
        "discard",
        "discarded_ranks",
        "end",
        "events",
        "fast_rules",
        "finished",
        "hands",
        "last_bout",
        "legal",
        "may_reverse",
        "over",
        "rules",
        "seating",
        "shown_trump",
        "spells",
        "state_format",
        "stock",
        "swap_card",
        "timeouts",
        "trump_card",
        "unseen",
    )

    rules: Rules
    players: int
    dealer: int
    hands: list[list[str]]
    stock: list[str]
    _trump: str | None
    trump_card: str | None
    discard: list[str]
    attacker: int | None
    defender: int | None
    bouts: int
    defended: bool
    finished: list[int]
    over: bool
    loser: int | None
    losing_team: int | None
    last_bout: dict[str, Any] | None
    shown_trump: str | None
    timeouts: list[int]
    end: dict[str, Any] | None
    #: 1 while play runs clockwise, -1 after an enchanted king reversed it.
    direction: int
    #: Black Book team durak: the seat whose turn it is in the full line-up
    #: (:class:`durak.seating.BlackBookTeams`).
    slot: int | None
    #: What the last applied action led to, as public facts (not stored): the bout's end and the
    #: cards it sent where, who drew how many, who went out, a trump swap, the game's end.
    events: list[dict[str, Any]]
    may_reverse: int | None
    #: Players who asked not to be waited for to throw in (public; see :mod:`durak.game`).
    auto_pass: set[int]
    #: Which throw-in waiting the game plays: :data:`STATE_FORMAT`, or 1 for a game stored before it.
    state_format: int
    #: The running bout (an empty one between bouts).
    bout: Bout

    # Kept, never stored: read from the rules and the trump once, counted as cards move, or
    # remembered until the next move (:meth:`forget`).
    fast_rules: FastRules
    seating: NoTeams
    spells: Spells
    swap_card: str | None
    beaten_by: dict[str, frozenset[str]]
    discarded_ranks: dict[str, int]
    adding: list[bool | None]
    unseen: bool | None
    legal: list[tuple[Move, ...] | None]

    def __init__(self, rules: Rules, players: int, dealer: int, state_format: int = STATE_FORMAT) -> None:
        if state_format not in STATE_FORMATS:
            raise ValueError(f"no state format {state_format!r}: the engine plays {STATE_FORMATS}")
        self.rules = rules
        self.fast_rules = FastRules(rules)
        self.players = players
        self.dealer = dealer
        self.hands = []
        self.stock = []
        self.trump_card = None
        self.discard = []
        self.attacker = None
        self.defender = None
        self.bouts = 0
        self.defended = False
        self.finished = []
        self.over = False
        self.loser = None
        self.losing_team = None
        self.last_bout = None
        self.shown_trump = None
        self.timeouts = [0] * players
        self.end = None
        self.direction = 1
        self.slot = None
        self.events = []
        self.may_reverse = None
        self.auto_pass = set()
        self.state_format = state_format
        self.bout = Bout()
        self.seating = SEATINGS[rules.teams]
        self.spells = spells_of(rules.enchanted)
        self.discarded_ranks = {}
        self.adding = [None] * players
        self.legal = [None] * players
        self.forget()
        self.set_trump(None)

    @property
    def trump(self) -> str | None:
        """The trump suit; None when an enchanted eight turned up as the trump card (no trumps)."""
        return self._trump

    @trump.setter
    def trump(self, trump: str | None) -> None:
        self.set_trump(trump)

    def set_trump(self, trump: str | None) -> None:
        """Make ``trump`` the trump suit, with what is kept of it: the cards that beat each card,
        and the card a trump swap gives."""
        self._trump = trump
        self.forget()
        self.beaten_by = beaters(trump)
        if self.rules.trump_swap == "never" or trump is None:
            self.swap_card = None
        else:
            self.swap_card = card_of_parts(self.rules.swap_rank, trump)

    def recount(self) -> None:
        """Count again what is kept of cards set from outside (a stored state, a deal)."""
        self.bout.recount()
        counts: dict[str, int] = {}
        for card in self.discard:
            rank = RANK_OF[card]
            counts[rank] = counts.get(rank, 0) + 1
        self.discarded_ranks = counts
        self.forget()

    def forget(self) -> None:
        """The position changed: what each player may do must be found again."""
        adding, legal = self.adding, self.legal
        for player in range(len(adding)):  # in place: cheaper than new lists
            adding[player] = None
            legal[player] = None
        self.unseen = None

    # --- the bout's fields, read and written through the game ---------------------------------

    @property
    def table(self) -> list[list[str | None]]:
        return self.bout.table

    @table.setter
    def table(self, table: list[list[str | None]]) -> None:
        self.bout.table = table
        self.recount()

    @property
    def ranks(self) -> set[str]:
        """The ranks of the cards on the table."""
        return self.bout.ranks

    @ranks.setter
    def ranks(self, ranks: set[str]) -> None:
        self.bout.ranks = ranks
        self.forget()

    @property
    def named(self) -> dict[str, str]:
        """Enchanted eights on the table and the suit each was named as."""
        return self.bout.named

    @named.setter
    def named(self, named: dict[str, str]) -> None:
        self.bout.named = named
        self.forget()

    @property
    def limit(self) -> int | None:
        return self.bout.limit

    @limit.setter
    def limit(self, limit: int | None) -> None:
        self.bout.limit = limit
        self.forget()

    @property
    def taking(self) -> bool:
        return self.bout.taking

    @taking.setter
    def taking(self, taking: bool) -> None:
        self.bout.taking = taking
        self.forget()

    @property
    def passed(self) -> set[int]:
        return self.bout.passed

    @passed.setter
    def passed(self, passed: set[int]) -> None:
        self.bout.passed = passed
        self.forget()

    @property
    def closed(self) -> bool:
        return self.bout.closed

    @closed.setter
    def closed(self, closed: bool) -> None:
        self.bout.closed = closed
        self.forget()

    @property
    def transfer_blocked(self) -> bool:
        return self.bout.transfer_blocked

    @transfer_blocked.setter
    def transfer_blocked(self, blocked: bool) -> None:
        self.bout.transfer_blocked = blocked
        self.forget()

    @property
    def king_defended(self) -> bool:
        return self.bout.king_defended

    @king_defended.setter
    def king_defended(self, defended: bool) -> None:
        self.bout.king_defended = defended
        self.forget()

    # --- seats, teams and turn order -----------------------------------------------------------

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def teams(self) -> list[list[int]] | None:
        """The two teams (even seats, odd seats) of a team game, else None."""
        return self.seating.teams(self.players)

    def team_of(self, player: int) -> int | None:
        """The index in :attr:`teams` of ``player``'s team (partners sit opposite, so every other
        seat), or None in a game without teams."""
        return self.seating.team_of(player)

    def in_game(self, player: int) -> bool:
        return bool(self.stock) or bool(self.hands[player])

    def next_in_game(self, player: int, include_self: bool = False) -> int:
        """The first player still in the game after ``player`` in the direction of play (``player``
        itself when nobody else is left). Asked only while someone is in the game."""
        if self.stock:  # everyone is in the game while the stock lasts
            return player if include_self else (player + self.direction) % self.players
        start = 0 if include_self else 1
        for step in range(start, self.players + start):
            candidate = (player + step * self.direction) % self.players
            if self.in_game(candidate):
                return candidate
        raise NoPlayerLeft("no player is left in the game")

    def previous_in_game(self, player: int) -> int:
        for step in range(1, self.players):
            candidate = (player - step * self.direction) % self.players
            if self.in_game(candidate):
                return candidate
        return player

    def holding(self) -> list[int]:
        """The players still in the game."""
        return [player for player in range(self.players) if self.in_game(player)]

    # --- limits and strength ---------------------------------------------------------------------

    def opening_limit_applies(self) -> bool:
        rules = self.fast_rules
        if rules.opening_limit is None or self.players < rules.opening_limit_min_players:
            return False
        return not self.defended if rules.opening_limit_until == "first_defence" else not self.bouts

    def limit_against(self, defender: int) -> int:
        """The most attack cards a bout against ``defender`` may reach from now on."""
        rules = self.fast_rules
        limit = rules.bout_max
        if rules.opening_limit is not None and self.opening_limit_applies():
            limit = min(limit, rules.opening_limit)
        held = len(self.hands[defender])
        return held if held < limit else limit

    def beats(self, attack: str, defence: str, as_suit: str | None = None) -> bool:
        """Whether ``defence`` (played as ``as_suit``, an enchanted eight) beats ``attack`` here."""
        if not self.spells.active:
            return defence in self.beaten_by[attack]
        return self.spells.beats(attack, defence, self.trump, self.bout.named.get(attack), as_suit)

    def suits_to_name(self, card: str) -> tuple[str | None, ...]:
        """The suits ``card`` may be named as (any but trumps, for an enchanted eight); (None,)
        for a card played as itself."""
        if not self.spells.names_suit(card):
            return _AS_ITSELF
        return tuple(suit for suit in SUITS if suit != self.trump)


_AS_ITSELF: Final[tuple[str | None, ...]] = (None,)
