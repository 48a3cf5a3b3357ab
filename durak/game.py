"""The game: state, legal actions, applying actions, and what each player may see.

A two-player game from a stacked deal (hearts are trumps, the face-up 9H is drawn last; the
cards in neither the hands nor the stock are in the discard):

>>> from durak import Game, Rules
>>> hands = [["6S", "7H"], ["8S", "AD"]]
>>> game = Game.from_deal(Rules.preset("classic"), hands=hands, stock=["10C", "6D", "9H"])
>>> game.attacker, game.defender          # player 0 holds the lowest trump, the 7H
(0, 1)
>>> game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
>>> game.legal_actions(1)
[{'type': 'defend', 'player': 1, 'target': '6S', 'card': '8S'}, {'type': 'take', 'player': 1}]
>>> game.apply({"type": "defend", "player": 1, "target": "6S", "card": "AD"})
Traceback (most recent call last):
...
durak.game.IllegalAction: AD does not beat 6S
>>> game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
>>> game.waiting_for(), game.legal_actions(0)  # 0 might hold the 6D: the bout waits for "done"
([0], [{'type': 'pass', 'player': 0}])
>>> game.apply({"type": "pass", "player": 0})
>>> game.table, game.last_bout["result"]
([], 'beaten')
>>> game.hands, game.attacker             # player 0 drew first, the face-up 9H last; 1 attacks
([['7H', '10C', '6D', '9H'], ['AD']], 1)

Throwing in is public. Everyone the rules let add a card at this moment (judged by public facts
only: not the defender, holding cards, the rules' ``throw_in``, ``throw_when``, ``add_after_take``
and team conditions, the bout not closed by an enchanted queen, room under the bout's limit, and
some card of a rank that may be added not yet seen on the table or in the discard) is offered
``pass`` ("done") whether or not they hold a card that fits, and the bout waits for them: a player
who cannot add looks exactly like one who chooses not to. A thrower whose time runs out passes,
without a timeout strike. ``{"type": "auto_pass", "player": p, "on": true}`` ("don't wait for me
to throw in") is a preference, not a move: never in ``legal_actions``, accepted from any player
still in the game at any time; while it is on the bout never waits for that player as a thrower
and counts them as passed, though they may still throw in while the bout is open. The flag is
public (``view()["auto_pass"]``).

States stored before this rule (no ``"format"`` in ``to_dict()``) keep the old one, where only a
player holding a card that fits was waited for: ``Game.new(..., state_format=1)`` replays such a
game's move log (see :meth:`Game.format_of`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from itertools import combinations
from typing import Any, Final, TypeAlias

from durak import schema
from durak.cards import ALL_CARDS, RANK_VALUE, SUITS, deck, sort_hand
from durak.enchanted import enchanted_beats
from durak.messages import DurakError, gettext_noop
from durak.outcome import Outcome
from durak.rules import Rules, RulesError

Action: TypeAlias = dict[str, Any]
ACTION_TYPES: Final = (
    "attack",
    "throw",
    "defend",
    "transfer",
    "take",
    "pass",
    "swap_trump",
    "reverse",
)
#: Actions the site applies for a player rather than a choice offered to them: ``timeout`` when the
#: player's time runs out, ``resign`` when they walk away (leave a running game, or are suspended),
#: ``claim`` when a player the game does not wait for claims a game without a clock that has waited
#: too long on the others (:meth:`Game.why_no_claim`).
SYSTEM_ACTION_TYPES: Final = ("timeout", "resign", "claim")
#: A player's standing choices, not moves: never in ``legal_actions``, never waited for, accepted
#: from a player still in the game at any time. ``auto_pass`` (``"on": true`` or ``false``): don't
#: wait for me to throw in.
PREFERENCE_ACTION_TYPES: Final = ("auto_pass",)

#: The format ``to_dict()`` writes: 2, every player allowed to throw in is waited for (public
#: waiting). 1, the states stored before it (no ``"format"`` key): only a player holding a card
#: that fits was waited for, and a thrower's timeout was a strike like any other.
STATE_FORMAT: Final = 2
STATE_FORMATS: Final = (1, 2)


class IllegalAction(DurakError):
    """An action the rules do not allow now; the game is left exactly as it was."""


class NoPlayerLeft(RuntimeError):
    """A search for the next player found none: a state the engine never reaches through
    ``apply``, reported instead of searching forever."""


def beats(attack: str, defence: str, trump: str | None) -> bool:
    """Whether ``defence`` beats ``attack``: a higher card of its suit, or any trump on a non-trump.

    >>> beats("9S", "10S", "H"), beats("9S", "6H", "H")
    (True, True)
    >>> beats("9H", "AS", "H"), beats("9H", "8H", "H")
    (False, False)
    """
    if attack[-1] == defence[-1]:
        return RANK_VALUE[defence] > RANK_VALUE[attack]
    return defence[-1] == trump


class Game:
    """One game of durak. Players are numbered 0..n-1 clockwise; the left neighbour of i is i+1.

    Team games seat the teams alternately: team 0 is the even seats, team 1 the odd ones.
    """

    rules: Rules
    players: int
    dealer: int
    hands: list[list[str]]
    stock: list[str]
    trump: str | None
    trump_card: str | None
    discard: list[str]
    table: list[list[str | None]]
    attacker: int | None
    defender: int | None
    taking: bool
    passed: set[int]
    limit: int | None
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
    #: Black Book team durak: the seat whose turn it is in the full line-up (see ``_seat_player``).
    slot: int | None
    #: Enchanted eights on the table and the suit each was named as.
    named: dict[str, str]
    #: The ranks of the cards on the table (derived from ``table``; not stored).
    ranks: set[str]
    #: What the last applied action led to, as public facts (not stored): the bout's end and the
    #: cards it sent where, who drew how many, who went out, a trump swap, the game's end.
    events: list[dict[str, Any]]
    transfer_blocked: bool
    closed: bool
    king_defended: bool
    may_reverse: int | None
    #: Players who asked not to be waited for to throw in (public; see the module docstring).
    auto_pass: set[int]
    #: Which throw-in waiting the game plays: :data:`STATE_FORMAT`, or 1 for a game stored before it.
    state_format: int

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        seed: int | str,
        dealer: int = 0,
        first_game: bool = True,
        state_format: int = STATE_FORMAT,
    ) -> Game:
        """Shuffle with ``random.Random(seed)``, deal one card at a time clockwise from the dealer's
        left, turn the trump, and find the first attacker.

        ``state_format`` is for replaying a game stored before the current rules of throw-in
        waiting (:meth:`format_of` its stored state); a new game plays the current ones.

        >>> game = Game.new(Rules.preset("classic"), players=6, seed=1, dealer=2)
        >>> game.stock_size, game.trump_card == game.hands[2][-1]
        (0, True)
        """
        rules.validate_players(players)
        if not 0 <= dealer < players:
            raise RulesError(gettext_noop("the dealer must be a player from 0 to {last}"), last=players - 1)
        cards = deck(rules.deck_size)
        random.Random(seed).shuffle(cards)
        hands: list[list[str]] = [[] for _ in range(players)]
        dealt = 0
        for _ in range(rules.hand_size):
            for step in range(1, players + 1):
                hands[(dealer + step) % players].append(cards[dealt])
                dealt += 1
        rest = cards[dealt:]
        if rest:
            trump_card = rest[0]
            stock = [*rest[1:], trump_card]
        else:
            trump_card = hands[dealer][-1]
            stock = []
        game = cls._empty(rules, players, dealer, state_format)
        game.hands = hands
        game.stock = stock
        game.trump_card = trump_card
        game.trump = game._trump_of(trump_card)
        game._choose_first_attacker(rules.first_attacker if first_game else rules.later_first_attacker)
        return game

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: list[list[str]],
        stock: list[str],
        dealer: int = 0,
        first_attacker: int | None = None,
        trump: str | None = None,
        state_format: int = STATE_FORMAT,
    ) -> Game:
        """A stacked deal: ``stock[0]`` is drawn first and ``stock[-1]`` is the face-up trump card.

        Cards of the deck in neither the hands nor the stock are already discarded, so an endgame
        can be set up directly. ``trump`` is needed only when the stock is empty. ``state_format``
        as for :meth:`new`.
        """
        players = len(hands)
        if not 2 <= players <= 6:
            raise RulesError(gettext_noop("a game has 2 to 6 players"))
        if rules.teams != "none":
            rules.validate_players(players)
        if not 0 <= dealer < players:
            raise RulesError(gettext_noop("the dealer must be a player from 0 to {last}"), last=players - 1)
        full_deck = deck(rules.deck_size)
        in_play = [card for hand in hands for card in hand] + list(stock)
        unknown = [card for card in in_play if card not in full_deck]
        if unknown:
            raise RulesError(
                gettext_noop("not cards of a {size}-card deck: {cards}"),
                size=rules.deck_size,
                cards=", ".join(unknown),
            )
        if len(set(in_play)) != len(in_play):
            raise RulesError(gettext_noop("a card is dealt twice"))
        game = cls._empty(rules, players, dealer, state_format)
        if stock:
            game.trump_card = stock[-1]
            game.trump = game._trump_of(stock[-1])
            if trump is not None and trump != game.trump:
                raise RulesError(gettext_noop("the trump is set by the face-up card, stock[-1]"))
        elif trump is not None and trump not in SUITS:
            raise RulesError(gettext_noop("no suit {suit}"), suit=repr(trump))
        else:
            game.trump = trump
        game.hands = [list(hand) for hand in hands]
        game.stock = list(stock)
        seen = set(in_play)
        game.discard = [card for card in full_deck if card not in seen]
        game.finished = [p for p in range(players) if not game._in_game(p)]
        if game._check_over():
            return game
        if first_attacker is None:
            game._choose_first_attacker(rules.first_attacker)
        else:
            if not 0 <= first_attacker < players:
                raise RulesError(
                    gettext_noop("first_attacker must be a player from 0 to {last}"), last=players - 1
                )
            game._set_attacker(game._next_in_game(first_attacker, include_self=True))
        return game

    @classmethod
    def _empty(cls, rules: Rules, players: int, dealer: int, state_format: int = STATE_FORMAT) -> Game:
        if state_format not in STATE_FORMATS:
            raise ValueError(f"no state format {state_format!r}: the engine plays {STATE_FORMATS}")
        game = cls.__new__(cls)
        game.rules = rules
        game.players = players
        game.dealer = dealer
        game.hands = []
        game.stock = []
        game.trump = None
        game.trump_card = None
        game.discard = []
        game.table = []
        game.attacker = None
        game.defender = None
        game.taking = False
        game.passed = set()
        game.limit = None
        game.bouts = 0
        game.defended = False
        game.finished = []
        game.over = False
        game.loser = None
        game.losing_team = None
        game.last_bout = None
        game.shown_trump = None
        game.timeouts = [0] * players
        game.end = None
        game.direction = 1
        game.slot = None
        game.named = {}
        game.ranks = set()
        game.events = []
        game.transfer_blocked = False
        game.closed = False
        game.king_defended = False
        game.may_reverse = None
        game.auto_pass = set()
        game.state_format = state_format
        return game

    @staticmethod
    def format_of(state: dict[str, Any]) -> int:
        """The state format of a stored ``to_dict()``: what :meth:`new` and :meth:`from_deal` need to
        replay its game's move log.

        >>> Game.format_of(Game.new(Rules.preset("classic"), 2, seed=1).to_dict())
        2
        >>> Game.format_of({})  # a state stored before formats were written
        1
        """
        return int(state.get("format", 1))

    def _trump_of(self, trump_card: str) -> str | None:
        # "If an eight turns up as the card that determines the trump ... no trump suit."
        return None if self._enchants(trump_card, "8") else trump_card[-1]

    def _choose_first_attacker(self, rule: str) -> None:
        if rule == "lowest_trump" and self.trump is not None:
            holders = {
                card: p for p, hand in enumerate(self.hands) for card in hand if card[-1] == self.trump
            }
            if holders:
                self.shown_trump = min(holders, key=RANK_VALUE.__getitem__)
                self._set_attacker(holders[self.shown_trump])
                return
        if rule == "lowest_trump" and self.rules.no_trump_first_attacker == "dealer":
            self._set_attacker(self._next_in_game(self.dealer, include_self=True))
        else:
            self._set_attacker(self._next_in_game(self.dealer))

    # --- seats, teams and turn order ---------------------------------------------------------

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def teams(self) -> list[list[int]] | None:
        """The two teams (even seats, odd seats) of a team game, else None."""
        if self.rules.teams == "none":
            return None
        return [list(range(0, self.players, 2)), list(range(1, self.players, 2))]

    def team_of(self, player: int) -> int | None:
        """The index in :attr:`teams` of ``player``'s team (partners sit opposite, so every other
        seat), or None in a game without teams."""
        if self.rules.teams == "none":
            return None
        return player % 2

    def outcome(self) -> Outcome | None:
        """How the game came out (:class:`durak.outcome.Outcome`), or None while it runs."""
        if not self.over or self.end is None:
            return None
        losers: tuple[int, ...]
        if self.losing_team is not None:
            losers = tuple(p for p in range(self.players) if self.team_of(p) == self.losing_team)
        elif self.loser is not None:
            losers = (self.loser,)
        else:
            losers = ()
        return Outcome(
            order_out=tuple(self.finished),
            loser=self.loser,
            losing_team=self.losing_team,
            losers=losers,
            reason=self.end["reason"],
            player=self.end.get("player"),
        )

    def _opponents(self, a: int, b: int) -> bool:
        return self.rules.teams == "none" or self.team_of(a) != self.team_of(b)

    def _in_game(self, player: int) -> bool:
        return bool(self.hands[player]) or bool(self.stock)

    def _next_in_game(self, player: int, include_self: bool = False) -> int:
        """The first player still in the game after ``player`` in the direction of play (``player``
        itself when nobody else is left). Called only while someone is in the game."""
        start = 0 if include_self else 1
        for step in range(start, self.players + start):
            candidate = (player + step * self.direction) % self.players
            if self._in_game(candidate):
                return candidate
        raise NoPlayerLeft("no player is left in the game")

    def _previous_in_game(self, player: int) -> int:
        for step in range(1, self.players):
            candidate = (player - step * self.direction) % self.players
            if self._in_game(candidate):
                return candidate
        return player

    def _next_opponent(self, player: int) -> int | None:
        """Whom ``player`` attacks or passes an attack to: the next player still in the game in
        the direction of play (in a team game, the next such opponent); None when there is none,
        as in a team game once only the defender's side holds cards."""
        for step in range(1, self.players):
            candidate = (player + step * self.direction) % self.players
            if self._in_game(candidate) and self._opponents(player, candidate):
                return candidate
        return None

    def _opponent_to_attack(self, player: int) -> int:
        """The defender against ``player``; only called while the game is on, so one exists."""
        defender = self._next_opponent(player)
        if defender is None:
            raise NoPlayerLeft(f"player {player} has no opponent left in the game")
        return defender

    def _seat_player(self, seat: int) -> int:
        """Black Book team durak: who plays the turns of ``seat``: its player, or once they are
        out, their partner ("both players of the other team attack the remaining player", who
        "takes a turn after each opponent ... in the order the team would have")."""
        seat %= self.players
        return seat if self._in_game(seat) else (seat + 2) % self.players

    def _set_slot(self, seat: int) -> None:
        self.slot = seat % self.players
        self.attacker = self._seat_player(seat)
        self.defender = self._seat_player(seat + self.direction)

    def _set_attacker(self, attacker: int) -> None:
        if self.rules.teams == "black_book":
            self._set_slot(attacker)
        else:
            self.attacker = attacker
            self.defender = self._opponent_to_attack(attacker)

    def _opening_limit_applies(self) -> bool:
        rules = self.rules
        if rules.opening_limit is None or self.players < rules.opening_limit_min_players:
            return False
        return not self.defended if rules.opening_limit_until == "first_defence" else not self.bouts

    def _limit_against(self, defender: int) -> int:
        """The most attack cards a bout against ``defender`` may reach from now on."""
        limit = self.rules.bout_max
        if self._opening_limit_applies():
            assert self.rules.opening_limit is not None
            limit = min(limit, self.rules.opening_limit)
        return min(limit, len(self.hands[defender]))

    # --- enchanted cards ---------------------------------------------------------------------

    def _enchants(self, card: str, rank: str) -> bool:
        return card[:-1] == rank and rank in self.rules.enchanted

    def _beats(self, attack: str, defence: str, as_suit: str | None = None) -> bool:
        if not self.rules.enchanted:
            return beats(attack, defence, self.trump)
        return enchanted_beats(
            attack,
            defence,
            self.trump,
            frozenset(self.rules.enchanted),
            self.named.get(attack),
            as_suit,
        )

    def _suits_to_name(self, card: str) -> list[str | None]:
        """The suits an enchanted eight may be named as (any but trumps); [None] for other cards."""
        if not self._enchants(card, "8"):
            return [None]
        return [suit for suit in SUITS if suit != self.trump]

    def _name_eights(self, actions: list[Action]) -> list[Action]:
        """Each action that plays an enchanted eight, once for every suit it may be named as."""
        named: list[Action] = []
        for action in actions:
            card = action["cards"][0] if "cards" in action else action["card"]
            named.extend(_with_suit(dict(action), suit) for suit in self._suits_to_name(card))
        return named

    def _check_as_suit(self, cards: list[str], action: Action) -> str | None:
        as_suit = action.get("as_suit")
        if any(self._enchants(card, "8") for card in cards):
            if as_suit not in SUITS or as_suit == self.trump:
                raise IllegalAction(
                    gettext_noop("name a suit other than trumps for the enchanted eight: as_suit")
                )
            return str(as_suit)
        if as_suit is not None:
            raise IllegalAction(gettext_noop("only an enchanted eight is played as another suit"))
        return None

    def _place(self, card: str, as_suit: str | None) -> None:
        """Bookkeeping for a card that has just landed on the table."""
        self.ranks.add(card[:-1])
        if as_suit is not None:
            self.named[card] = as_suit

    # --- throwing in -------------------------------------------------------------------------

    def _may_throw_in(self, player: int) -> bool:
        """Whether ``player`` is entitled to add cards to the running bout at this moment."""
        defender = self.defender
        assert defender is not None
        if player == defender or not self.hands[player] or self.closed:
            return False
        if self.taking and not self.rules.add_after_take:
            return False
        when = self.rules.throw_when
        if when == "after_first_beat" and self.table[0][1] is None:
            return False
        if when == "all_beaten" and (self.taking or any(d is None for _, d in self.table)):
            return False
        if not self._opponents(player, defender):
            return False
        if self.rules.throw_in == "neighbours":
            return player in (self._next_in_game(defender), self._previous_in_game(defender))
        return True

    def _room(self) -> bool:
        """Whether the running bout is below its limit of attack cards."""
        return bool(self.table) and self.limit is not None and len(self.table) < self.limit

    def _throw_ranks(self) -> set[str]:
        """The ranks a card thrown in now may have."""
        if "9" in self.rules.enchanted:
            # "This card can be thrown in even if no other nines have been played."
            return self.ranks | {"9"}
        return self.ranks

    def _throwable(self, player: int) -> list[str]:
        """The cards ``player`` could throw in now, ignoring the main attacker's priority."""
        if not self._room() or not self._may_throw_in(player):
            return []
        ranks = self._throw_ranks()
        return [card for card in self.hands[player] if card[:-1] in ranks]

    def _unseen_card_fits(self) -> bool:
        """Whether some card that could be thrown in now is one nobody has seen: not on the table,
        in the discard or face up under the stock. Public facts only."""
        ranks = self._throw_ranks()
        # Every deck holds all four suits of its ranks: count the cards of these ranks in sight.
        in_sight = sum(1 for card in self.discard if card[:-1] in ranks)
        in_sight += sum(1 for pair in self.table for card in pair if card is not None and card[:-1] in ranks)
        if self.stock and self.stock[-1][:-1] in ranks:
            in_sight += 1
        return in_sight < len(SUITS) * len(ranks)

    def _may_add(self, player: int) -> bool:
        """Whether the bout waits for ``player`` to throw in or say "done" (unless they have
        passed, or asked not to be waited for).

        Public facts only: the rules let ``player`` add a card at this moment, there is room under
        the limit, and not every card that could be added is in sight, whatever ``player`` holds.
        In a game stored before this rule (state format 1): whether they hold a card that fits.
        """
        if self.state_format == 1:
            return bool(self._throwable(player))
        return self._room() and self._may_throw_in(player) and self._unseen_card_fits()

    def _waits_to_throw_in(self, player: int) -> bool:
        return (
            player != self.defender
            and player not in self.passed
            and player not in self.auto_pass
            and self._may_add(player)
        )

    def _has_priority(self, player: int) -> bool:
        """Whether ``player`` may throw in before the main attacker has finished: always under free
        priority; else once the main attacker has passed since the last card landed (or asked not
        to be waited for), or may not add a card at all."""
        if self.rules.throw_priority == "free" or player == self.attacker:
            return True
        attacker = self.attacker
        assert attacker is not None
        return attacker in self.passed or attacker in self.auto_pass or not self._may_add(attacker)

    def _swap_card(self, player: int) -> str | None:
        """The lowest trump ``player`` may swap for the face-up trump card now, if any."""
        rule = self.rules.trump_swap
        if rule == "never" or not self.stock or self.trump is None:
            return None
        if rule == "before_first_attack" and (self.bouts or self.table):
            return None
        card = self.rules.swap_rank + self.trump
        return card if card in self.hands[player] else None

    # --- legal actions -----------------------------------------------------------------------

    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now, multi-card openings included."""
        if self.over or not 0 <= player < self.players:
            return []
        actions: list[Action] = []
        if not self.table:
            if player == self.attacker:
                actions = self._attack_actions(player)
                if self.may_reverse == player:
                    actions.append({"type": "reverse", "player": player})
        elif player == self.defender:
            actions = self._defender_actions(player)
        elif player not in self.passed and self._may_add(player):
            if self._has_priority(player):
                actions = [
                    {"type": "throw", "player": player, "card": card} for card in self._throwable(player)
                ]
                if "8" in self.rules.enchanted:
                    actions = self._name_eights(actions)
            if player not in self.auto_pass:
                actions.append({"type": "pass", "player": player})
        if self._swap_card(player):
            actions.append({"type": "swap_trump", "player": player})
        return actions

    def _attack_actions(self, player: int) -> list[Action]:
        hand = self.hands[player]
        openings: list[list[str]] = [[card] for card in hand]
        if self.rules.multi_card_attack:
            assert self.defender is not None
            limit = self._limit_against(self.defender)
            by_rank: dict[str, list[str]] = {}
            for card in hand:
                by_rank.setdefault(card[:-1], []).append(card)
            for group in by_rank.values():
                for size in range(2, min(len(group), limit) + 1):
                    openings.extend(list(cards) for cards in combinations(group, size))
        actions: list[Action] = [{"type": "attack", "player": player, "cards": cards} for cards in openings]
        if "8" in self.rules.enchanted:
            actions = self._name_eights(actions)
        return actions

    def _defender_actions(self, player: int) -> list[Action]:
        if self.taking:
            return []
        hand = self.hands[player]
        unbeaten = [attack for attack, defence in self.table if defence is None]
        actions: list[Action] = []
        if self.rules.enchanted:
            for attack in unbeaten:
                assert attack is not None
                for card in hand:
                    for suit in self._suits_to_name(card):
                        if self._beats(attack, card, suit):
                            action = {"type": "defend", "player": player, "target": attack}
                            actions.append(_with_suit({**action, "card": card}, suit))
        else:
            trump = self.trump
            for attack in unbeaten:
                assert attack is not None
                actions += [
                    {"type": "defend", "player": player, "target": attack, "card": card}
                    for card in hand
                    if beats(attack, card, trump)
                ]
        transfers: list[Action] = [
            {"type": "transfer", "player": player, "card": card} for card in self._transfer_cards(player)
        ]
        if "8" in self.rules.enchanted:
            transfers = self._name_eights(transfers)
        actions.extend(transfers)
        if unbeaten:
            actions.append({"type": "take", "player": player})
        return actions

    def _transfer_recipient(self) -> int | None:
        """Who would defend if the defender passed the attack on: the next opponent in turn order
        still in the game, or None when nobody else is left."""
        defender = self.defender
        assert defender is not None
        target: int | None
        if self.rules.teams == "black_book":
            assert self.slot is not None
            target = self._seat_player(self.slot + 2 * self.direction)
        else:
            target = self._next_opponent(defender)
        if target is None or target == defender or not self._in_game(target):
            return None
        return target

    def _transfer_target(self) -> int | None:
        """Who would defend after a transfer now, or None when a transfer is not allowed."""
        if not self.rules.transfer or self.taking or self.transfer_blocked:
            return None
        rank = self.table[0][0][:-1]  # type: ignore[index]
        for attack, defence in self.table:
            if defence is not None or attack[:-1] != rank:  # type: ignore[index]
                return None
            if self._enchants(attack, "10"):  # type: ignore[arg-type]
                return None
        target = self._transfer_recipient()
        if target is None or len(self.table) + 1 > self._limit_against(target):
            return None
        return target

    def _transfer_cards(self, player: int) -> list[str]:
        if self._transfer_target() is None:
            return []
        rank = self.table[0][0][:-1]  # type: ignore[index]
        return [card for card in self.hands[player] if card[:-1] == rank]

    def waiting_for(self) -> list[int]:
        """The players whose decision the game needs before it can go on.

        A trump swap is never waited for, so this does not tell who holds the lowest trump.
        """
        if self.over:
            return []
        if not self.table:
            return [self.attacker] if self.attacker is not None else []
        waiting = []
        for player in range(self.players):
            if player == self.defender:
                if not self.taking and any(d is None for _, d in self.table):
                    waiting.append(player)
            elif self._waits_to_throw_in(player):
                waiting.append(player)
        return waiting

    # --- applying actions --------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action, or raise :class:`IllegalAction` and leave the game as it was."""
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("an action is a JSON object with a type and a player"))
        kind = action.get("type")
        player = action.get("player")
        if (
            kind not in ACTION_TYPES
            and kind not in SYSTEM_ACTION_TYPES
            and kind not in PREFERENCE_ACTION_TYPES
        ):
            raise IllegalAction(
                gettext_noop("unknown action type {kind}: use one of {types}"),
                kind=repr(kind),
                types=", ".join(ACTION_TYPES),
            )
        if type(player) is not int or not 0 <= player < self.players:
            raise IllegalAction(
                gettext_noop("player must be a seat number from 0 to {last}"), last=self.players - 1
            )
        if self.over:
            raise IllegalAction(gettext_noop("the game is over"))
        required, allowed = _ACTION_FIELDS[kind]
        if not action.keys() <= allowed:
            extra = ", ".join(sorted(set(action) - allowed))
            raise IllegalAction(
                gettext_noop("unexpected field {field} in a {kind} action"), field=extra, kind=kind
            )
        if not required <= action.keys():
            missing = ", ".join(sorted(required - action.keys()))
            raise IllegalAction(gettext_noop("a {kind} action needs {fields}"), kind=kind, fields=missing)
        self.events = []
        _HANDLERS[kind](self, player, action)
        if kind not in ("timeout", *PREFERENCE_ACTION_TYPES):
            self.timeouts[player] = 0
        if self.table and not self.over and self._bout_complete():
            self._end_bout()

    def _card_in_hand(self, player: int, card: object) -> str:
        if not isinstance(card, str) or card not in ALL_CARDS:
            raise IllegalAction(
                gettext_noop("{card} is not a card: write rank then suit, like 10H or QS"), card=repr(card)
            )
        if card not in self.hands[player]:
            raise IllegalAction(gettext_noop("you do not hold {card}"), card=card)
        return card

    def _apply_attack(self, player: int, action: Action) -> None:
        if self.table:
            raise IllegalAction(
                gettext_noop("a bout is running: throw in a card of a rank on the table instead")
            )
        if player != self.attacker:
            raise IllegalAction(gettext_noop("it is player {player}'s turn to attack"), player=self.attacker)
        cards = action["cards"]
        if not isinstance(cards, list) or not cards:
            raise IllegalAction(gettext_noop("an attack needs a list of one or more cards"))
        cards = [self._card_in_hand(player, card) for card in cards]
        if len(set(cards)) != len(cards):
            raise IllegalAction(gettext_noop("the same card twice"))
        if len(cards) > 1:
            if not self.rules.multi_card_attack:
                raise IllegalAction(gettext_noop("these rules open a bout with one card"))
            if len({card[:-1] for card in cards}) != 1:
                raise IllegalAction(gettext_noop("an attack of several cards must be all of one rank"))
        as_suit = self._check_as_suit(cards, action)
        assert self.defender is not None
        limit = self._limit_against(self.defender)
        if len(cards) > limit:
            raise IllegalAction(gettext_noop("at most {limit} cards may attack in this bout"), limit=limit)
        hand = self.hands[player]
        for card in cards:
            hand.remove(card)
            self.table.append([card, None])
            self._place(card, as_suit)
        self.limit = limit
        self.may_reverse = None
        self._card_landed(player)

    def _apply_throw(self, player: int, action: Action) -> None:
        if not self.table:
            raise IllegalAction(gettext_noop("no bout is running: open one with an attack"))
        if player == self.defender:
            raise IllegalAction(gettext_noop("the defender cannot throw in"))
        card = self._card_in_hand(player, action["card"])
        if not self._may_throw_in(player):
            raise self._why_no_throw(player)
        assert self.limit is not None
        if len(self.table) >= self.limit:
            raise IllegalAction(
                gettext_noop("the bout already has its limit of {limit} attack cards"), limit=self.limit
            )
        ranks = self.ranks
        if card[:-1] not in ranks and not self._enchants(card, "9"):
            raise IllegalAction(
                gettext_noop("{card} cannot be thrown in: only ranks already on the table"), card=card
            )
        if player in self.passed:
            raise IllegalAction(gettext_noop("you passed: wait until a new card lands on the table"))
        if not self._has_priority(player):
            raise IllegalAction(
                gettext_noop("player {player}, the main attacker, throws in first"), player=self.attacker
            )
        as_suit = self._check_as_suit([card], action)
        if self._enchants(card, "9") and ranks != {"9"}:
            self.transfer_blocked = True
        self.hands[player].remove(card)
        self.table.append([card, None])
        self._place(card, as_suit)
        self._card_landed(player)

    def _why_no_throw(self, player: int) -> IllegalAction:
        assert self.defender is not None
        if self.closed:
            return IllegalAction(
                gettext_noop("an enchanted queen has beaten a card: nothing more may be thrown in")
            )
        if not self.hands[player]:
            return IllegalAction(gettext_noop("you have no cards"))
        if self.taking and not self.rules.add_after_take:
            return IllegalAction(gettext_noop("the defender is taking: no more cards may be added"))
        if self.rules.throw_when == "after_first_beat" and self.table[0][1] is None:
            return IllegalAction(gettext_noop("cards may be added only once the first attack card is beaten"))
        if self.rules.throw_when == "all_beaten" and (self.taking or any(d is None for _, d in self.table)):
            return IllegalAction(gettext_noop("cards may be added only when every attack card is beaten"))
        if not self._opponents(player, self.defender):
            return IllegalAction(gettext_noop("you do not throw in to your partner"))
        return IllegalAction(gettext_noop("only the defender's neighbours may throw in"))

    def _apply_defend(self, player: int, action: Action) -> None:
        if player != self.defender or not self.table:
            raise IllegalAction(gettext_noop("only the defender can beat a card"))
        if self.taking:
            raise IllegalAction(gettext_noop("you are taking the cards"))
        target = action["target"]
        pair = next((pair for pair in self.table if pair[0] == target), None)
        if pair is None:
            raise IllegalAction(gettext_noop("{card} is not an attack card on the table"), card=repr(target))
        if pair[1] is not None:
            raise IllegalAction(gettext_noop("{card} is already beaten"), card=target)
        card = self._card_in_hand(player, action["card"])
        as_suit = self._check_as_suit([card], action)
        if not self._beats(target, card, as_suit):
            raise IllegalAction(gettext_noop("{card} does not beat {target}"), card=card, target=target)
        self.hands[player].remove(card)
        pair[1] = card
        self._place(card, as_suit)
        if self._enchants(card, "Q"):
            self.closed = True
        if self._enchants(card, "K"):
            self.king_defended = True
        self._card_landed(player)

    def _apply_transfer(self, player: int, action: Action) -> None:
        if player != self.defender or not self.table:
            raise IllegalAction(gettext_noop("only the defender can transfer"))
        if not self.rules.transfer:
            raise IllegalAction(gettext_noop("these rules have no transfer"))
        card = self._card_in_hand(player, action["card"])
        target = self._transfer_target()
        if target is None:
            raise self._why_no_transfer()
        if card[:-1] != self.table[0][0][:-1]:  # type: ignore[index]
            raise IllegalAction(gettext_noop("{card} is not of the rank on the table"), card=card)
        as_suit = self._check_as_suit([card], action)
        self.hands[player].remove(card)
        self.table.append([card, None])
        self._place(card, as_suit)
        if self.rules.teams == "black_book":
            assert self.slot is not None
            self.slot = (self.slot + self.direction) % self.players
        self.attacker, self.defender = player, target
        self.limit = self._limit_against(target)
        self._card_landed(player)

    def _why_no_transfer(self) -> IllegalAction:
        if self.taking:
            return IllegalAction(gettext_noop("you are taking the cards"))
        if any(defence is not None for _, defence in self.table):
            return IllegalAction(gettext_noop("no transfer once a card is beaten"))
        if len({attack[:-1] for attack, _ in self.table}) > 1:  # type: ignore[index]
            return IllegalAction(gettext_noop("a transfer needs all attack cards of one rank"))
        if self.transfer_blocked:
            return IllegalAction(gettext_noop("an enchanted nine was thrown in: no transfer in this bout"))
        if self._transfer_recipient() is None:
            return IllegalAction(gettext_noop("nobody else is left in the game to pass the attack to"))
        if any(self._enchants(attack, "10") for attack, _ in self.table):  # type: ignore[arg-type]
            return IllegalAction(gettext_noop("an enchanted ten cannot be transferred"))
        return IllegalAction(gettext_noop("the next player cannot be given that many cards"))

    def _apply_take(self, player: int, action: Action) -> None:
        if player != self.defender or not self.table:
            raise IllegalAction(gettext_noop("only the defender can take the cards"))
        if self.taking:
            raise IllegalAction(gettext_noop("you are already taking the cards"))
        if all(defence is not None for _, defence in self.table):
            raise IllegalAction(gettext_noop("every card is beaten: there is nothing to take"))
        self.taking = True
        self.passed.clear()

    def _apply_pass(self, player: int, action: Action) -> None:
        if not self.table:
            raise IllegalAction(gettext_noop("no bout is running"))
        if player == self.defender:
            raise IllegalAction(gettext_noop("the defender beats, transfers or takes; only attackers pass"))
        if player in self.passed:
            raise IllegalAction(gettext_noop("you have passed already"))
        if player in self.auto_pass:
            raise IllegalAction(
                gettext_noop("you asked not to be waited for to throw in: you count as passed already")
            )
        if not self._may_add(player):
            raise self._why_not_adding(player)
        self.passed.add(player)

    def _why_not_adding(self, player: int) -> IllegalAction:
        if self.state_format == 1:
            return IllegalAction(gettext_noop("you have no card to throw in, so there is nothing to pass"))
        if not self._may_throw_in(player):
            return self._why_no_throw(player)
        if not self._room():
            assert self.limit is not None
            return IllegalAction(
                gettext_noop("the bout already has its limit of {limit} attack cards"), limit=self.limit
            )
        return IllegalAction(gettext_noop("every card that could be thrown in is in sight: nothing to pass"))

    def _apply_auto_pass(self, player: int, action: Action) -> None:
        on = action["on"]
        if type(on) is not bool:
            raise IllegalAction(gettext_noop("on is true (don't wait for me to throw in) or false"))
        if player in self.finished:
            raise IllegalAction(gettext_noop("you are out of the game already"))
        if on == (player in self.auto_pass):
            if on:
                raise IllegalAction(gettext_noop("the game already does not wait for you to throw in"))
            raise IllegalAction(gettext_noop("the game already waits for you to throw in"))
        if on:
            self.auto_pass.add(player)
        else:
            self.auto_pass.discard(player)

    def _apply_swap_trump(self, player: int, action: Action) -> None:
        card = self._swap_card(player)
        if card is None:
            raise self._why_no_swap(player)
        hand = self.hands[player]
        hand.remove(card)
        hand.append(self.stock[-1])
        self.events.append({"type": "swap", "player": player, "took": self.stock[-1], "gave": card})
        self.stock[-1] = card

    def _why_no_swap(self, player: int) -> IllegalAction:
        rule = self.rules.trump_swap
        if rule == "never" or self.trump is None:
            return IllegalAction(gettext_noop("these rules do not allow swapping the trump card"))
        if not self.stock:
            return IllegalAction(gettext_noop("the stock is gone: there is no trump card to swap"))
        if rule == "before_first_attack" and (self.bouts or self.table):
            return IllegalAction(gettext_noop("the trump card may be swapped only before the first attack"))
        return IllegalAction(
            gettext_noop("only the holder of the {rank} of trumps may swap it"), rank=self.rules.swap_rank
        )

    def _apply_reverse(self, player: int, action: Action) -> None:
        if self.may_reverse != player or self.table:
            raise IllegalAction(
                gettext_noop(
                    "only a defender who beat off a bout with an enchanted king may reverse the "
                    "direction of play, before attacking"
                )
            )
        self.direction = -self.direction
        self.may_reverse = None
        if self.rules.teams == "black_book":
            assert self.slot is not None
            self._set_slot(self.slot)
        else:
            self.defender = self._opponent_to_attack(player)

    def _apply_timeout(self, player: int, action: Action) -> None:
        if player not in self.waiting_for():
            raise IllegalAction(gettext_noop("the game is not waiting for player {player}"), player=player)
        if self.table and player != self.defender and self.state_format >= 2:
            # Waited for only to throw in: a forgotten "done" is a pass, never a strike.
            automatic: Action = {"type": "pass", "player": player}
            self.events.append({"type": "automatic", "action": automatic})
            self._apply_pass(player, automatic)
            return
        self.timeouts[player] += 1
        if self.rules.on_timeout == "fool" or self.timeouts[player] > 1:
            self._lose(player, "timeout")
            return
        self._apply_automatic(player)

    def _apply_automatic(self, player: int) -> None:
        """The safe move for a player out of time: the defender takes, a thrower passes, an
        opening attacker plays their lowest card, a non-trump if they have one."""
        if not self.table:
            hand = self.hands[player]
            card = min(hand, key=lambda c: (c[-1] == self.trump, RANK_VALUE[c]))
            opening: Action = {"type": "attack", "player": player, "cards": [card]}
            if self._enchants(card, "8"):
                opening["as_suit"] = self._suits_to_name(card)[0]
            automatic = opening
        elif player == self.defender:
            automatic = {"type": "take", "player": player}
        else:
            automatic = {"type": "pass", "player": player}
        self.events.append({"type": "automatic", "action": automatic})
        _HANDLERS[automatic["type"]](self, player, automatic)

    def _apply_resign(self, player: int, action: Action) -> None:
        if player in self.finished:
            raise IllegalAction(gettext_noop("you are out of the game already"))
        self._lose(player, "resign")

    # --- claims ------------------------------------------------------------------------------

    def claim_against(self, player: int) -> list[int]:
        """Whom a claim by ``player`` would be against: the players the game waits for, in the
        order it needs their decisions (the defender first, then from the attacker in the
        direction of play), or none if ``player`` is among them; in a team game only
        ``player``'s opponents among them. Public facts only.

        >>> game = Game.from_deal(Rules.preset("classic"), [["6S", "7H"], ["8S", "AD"]], ["10C", "9H"])
        >>> game.claim_against(1), game.claim_against(0)
        ([0], [])
        """
        waiting = self.waiting_for()
        if player in waiting:
            return []
        attacker = self.attacker if self.attacker is not None else player

        def order(p: int) -> tuple[int, int]:
            return (0 if p == self.defender else 1, (p - attacker) * self.direction % self.players)

        return sorted((p for p in waiting if self._opponents(player, p)), key=order)

    def why_no_claim(self, player: int, *, waited: object, clock: bool = False) -> IllegalAction | None:
        """Why ``player`` may not claim the game now, or None if they may.

        A claim is for a game without a clock (``clock``: the site's time control; a game with one
        ends a silence with a timeout) by a player the game does not wait for, once it has waited
        ``waited`` seconds (the site's count since the last move: the same players all along) and
        at least the rules' ``claim_after_days``. The players claimed against lose as if they had
        resigned (:meth:`claim_against`; the first of them is the fool).

        >>> game = Game.from_deal(Rules.preset("classic"), [["6S", "7H"], ["8S", "AD"]], ["10C", "9H"])
        >>> print(game.why_no_claim(1, waited=86400))
        the game may be claimed once it has waited 14 days on the same players
        >>> game.why_no_claim(1, waited=14 * 86400) is None
        True
        """
        if self.over:
            return IllegalAction(gettext_noop("the game is over"))
        if clock:
            return IllegalAction(
                gettext_noop(
                    "a game with a clock cannot be claimed: a player who does not move runs out of time"
                )
            )
        if type(waited) is not int or waited < 0:
            return IllegalAction(gettext_noop("waited is the whole number of seconds the game has waited"))
        if player in self.waiting_for():
            return IllegalAction(gettext_noop("the game is waiting for you: it cannot be claimed by you"))
        if not self.claim_against(player):
            return IllegalAction(gettext_noop("the game is waiting only for your partner"))
        if waited < self.rules.claim_after_seconds:
            return IllegalAction(
                gettext_noop("the game may be claimed once it has waited {days} days on the same players"),
                days=self.rules.claim_after_days,
            )
        return None

    def claim_wait(self, player: int, *, clock: bool = False) -> int | None:
        """The seconds of waiting from which ``player`` may claim the game, or None if no wait
        would let them (the game has a clock, waits for them, or only for their partner).

        >>> rules = Rules.preset("classic", claim_after_days=3)
        >>> game = Game.from_deal(rules, [["6S", "7H"], ["8S", "AD"]], ["10C", "9H"])
        >>> game.claim_wait(1), game.claim_wait(0), game.claim_wait(1, clock=True)
        (259200, None, None)
        """
        wait = self.rules.claim_after_seconds
        return None if self.why_no_claim(player, waited=wait, clock=clock) is not None else wait

    def _apply_claim(self, player: int, action: Action) -> None:
        clock = action.get("clock", False)
        if type(clock) is not bool:
            raise IllegalAction(gettext_noop("clock is true for a game with a clock, else false"))
        refusal = self.why_no_claim(player, waited=action["waited"], clock=clock)
        if refusal is not None:
            raise refusal
        self._lose(self.claim_against(player)[0], "claim")

    def _lose(self, player: int, reason: str) -> None:
        """End the game at once with ``player`` as the fool (out of time, or walked away); in a
        team game their team loses."""
        if self.rules.teams == "none":
            self.loser = player
        else:
            self.losing_team = self.team_of(player)
        self._finish(reason, player)

    def _finish(self, reason: str, player: int | None) -> None:
        self.over = True
        self.attacker = self.defender = None
        self.may_reverse = None
        self.end = {"reason": reason, "player": player}
        if self.rules.teams != "none":
            self.end["team"] = self.losing_team
        self.events.append({"type": "game_over", **self.end})

    def _card_landed(self, player: int) -> None:
        self.passed.clear()
        if not self.stock and not self.hands[player] and player not in self.finished:
            self._goes_out(player)

    def _goes_out(self, player: int) -> None:
        self.finished.append(player)
        self.events.append({"type": "out", "player": player})

    # --- ending a bout -------------------------------------------------------------------------

    def _bout_complete(self) -> bool:
        """Every attack card is beaten, or the defender takes, and the bout waits for nobody to
        throw in: everyone allowed has passed (or asked not to be waited for), the limit is
        reached, or nobody may add a card (after a take, say)."""
        if not self.taking and any(defence is None for _, defence in self.table):
            return False
        return not any(self._waits_to_throw_in(player) for player in range(self.players))

    def _end_bout(self) -> None:
        attacker, defender = self.attacker, self.defender
        assert attacker is not None and defender is not None
        cards = [card for pair in self.table for card in pair if card is not None]
        if self.taking:
            self.hands[defender].extend(cards)
            result = "taken"
        else:
            self.discard.extend(cards)
            self.defended = True
            result = "beaten"
        king = self.king_defended and result == "beaten"
        self.table = []
        self.ranks = set()
        self.named = {}
        self.taking = self.transfer_blocked = self.closed = self.king_defended = False
        self.passed.clear()
        self.limit = None
        self.bouts += 1
        self.last_bout = {"attacker": attacker, "defender": defender, "result": result}
        self.events.append({"type": "bout_end", **self.last_bout, "cards": cards})
        for player in self._draw_order(attacker, defender):
            need = self.rules.hand_size - len(self.hands[player])
            if need > 0 and self.stock:
                drawn, self.stock = self.stock[:need], self.stock[need:]
                self.hands[player].extend(drawn)
                event: dict[str, Any] = {"type": "drew", "player": player, "count": len(drawn)}
                if not self.stock:
                    event["face_up"] = drawn[-1]  # the face-up trump card is drawn last
                self.events.append(event)
        if not self.stock:
            for player in self._draw_order(attacker, defender):
                if not self.hands[player] and player not in self.finished:
                    self._goes_out(player)
        if self._check_over():
            return
        if self.rules.teams == "black_book":
            assert self.slot is not None
            self._set_slot(self.slot + self.direction * (1 if result == "beaten" else 2))
        elif result == "beaten":
            self._set_attacker(self._next_in_game(defender, include_self=True))
        else:
            self._set_attacker(self._next_in_game(defender))
        in_game = sum(1 for p in range(self.players) if self._in_game(p))
        # "In a two-player game the king's effect is ignored."
        if king and self.attacker == defender and in_game > 2:
            self.may_reverse = defender

    def _draw_order(self, attacker: int, defender: int) -> list[int]:
        step = self.direction * (1 if self.rules.draw_order == "clockwise" else -1)
        others = [(attacker + step * k) % self.players for k in range(1, self.players)]
        return [attacker] + [p for p in others if p != defender] + [defender]

    def _check_over(self) -> bool:
        holding = [p for p in range(self.players) if self._in_game(p)]
        if self.rules.teams != "none":
            # "As soon as one side has played all their cards, the side still holding cards loses."
            teams_holding = {self.team_of(p) for p in holding}
            if len(teams_holding) == 2:
                return False
            self.losing_team = teams_holding.pop() if teams_holding else None
        elif len(holding) > 1:
            return False
        else:
            self.loser = holding[0] if holding else None
        self._finish("cards", self.loser)
        return True

    # --- seeing and storing --------------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator): never a card of another hand or of the
        stock, except the face-up trump card under the stock."""
        if player is not None and not 0 <= player < self.players:
            raise ValueError(f"no player {player!r} in this game")
        return {
            "player": player,
            "players": self.players,
            "dealer": self.dealer,
            "hand": sort_hand(self.hands[player], self.trump) if player is not None else [],
            "hand_sizes": [len(hand) for hand in self.hands],
            "table": [list(pair) for pair in self.table],
            "named_suits": dict(self.named),
            "trump": self.trump,
            "trump_card": self.stock[-1] if self.stock else None,
            "stock_size": len(self.stock),
            "discard_size": len(self.discard),
            "discarded": list(self.discard),
            "attacker": self.attacker,
            "defender": self.defender,
            "direction": self.direction,
            "taking": self.taking,
            "passed": sorted(self.passed),
            "limit": self.limit,
            "finished": list(self.finished),
            "over": self.over,
            "loser": self.loser,
            "teams": self.teams,
            "losing_team": self.losing_team,
            "waiting_for": self.waiting_for(),
            "actions": self.legal_actions(player) if player is not None else [],
            "last_bout": dict(self.last_bout) if self.last_bout else None,
            "end": dict(self.end) if self.end else None,
            "enchanted": list(self.rules.enchanted),
            "rules": self.rules.to_dict(),
            # The rest of the public state, so that a player's program can rebuild the game from
            # this view and a guess of the hidden cards (Game.from_view).
            "bouts": self.bouts,
            "defended": self.defended,
            "slot": self.slot,
            "transfer_blocked": self.transfer_blocked,
            "closed": self.closed,
            "king_defended": self.king_defended,
            "may_reverse": self.may_reverse,
            "timeouts": list(self.timeouts),
            "auto_pass": sorted(self.auto_pass),
            "format": self.state_format,
        }

    @classmethod
    def from_view(cls, view: dict[str, Any], hands: list[list[str]], stock: list[str]) -> Game:
        """A whole game rebuilt from one player's view and a guess of the hidden cards: ``hands``
        for every player (the viewer's own from the view) and ``stock`` (``stock[-1]`` the face-up
        card). For programs that search, sampling the cards they cannot see.

        >>> game = Game.new(Rules.preset("classic"), players=2, seed=3)
        >>> same = Game.from_view(game.view(0), game.hands, game.stock)
        >>> all(same.view(p) == game.view(p) for p in (0, 1, None))
        True
        """
        if len(hands) != view["players"] or [len(h) for h in hands] != view["hand_sizes"]:
            raise ValueError("the guessed hands do not match the view's hand sizes")
        if len(stock) != view["stock_size"]:
            raise ValueError("the guessed stock does not match the view's stock size")
        game = cls._empty(Rules.from_dict(view["rules"]), view["players"], view["dealer"], view["format"])
        game.hands = [list(hand) for hand in hands]
        game.stock = list(stock)
        for name in _STATE_FIELDS:
            if name not in ("hands", "stock", "discard", "trump_card", "losing_team") and name in view:
                setattr(game, name, copy.deepcopy(view[name]))
        game.discard = list(view["discarded"])
        game.trump_card = view["trump_card"]
        game.losing_team = view["losing_team"]
        game.named = dict(view["named_suits"])
        game.passed = set(view["passed"])
        game.auto_pass = set(view["auto_pass"])
        game.ranks = {card[:-1] for pair in game.table for card in pair if card is not None}
        return game

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON data, hidden cards included: for storage, never for players.

        A state of format 1 (stored before public throw-in waiting) is written as it was read:
        without ``"format"``, and with ``"auto_pass"`` only once a player has set it.
        """
        data: dict[str, Any] = {"rules": self.rules.to_dict(stored=True)}
        for name in _STATE_FIELDS:
            data[name] = copy.deepcopy(getattr(self, name))
        data["passed"] = sorted(self.passed)
        if self.state_format != 1:
            data["format"] = self.state_format
        if self.state_format != 1 or self.auto_pass:
            data["auto_pass"] = sorted(self.auto_pass)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        game = cls._empty(
            Rules.from_dict(data["rules"]), data["players"], data["dealer"], cls.format_of(data)
        )
        for name in _STATE_FIELDS:
            setattr(game, name, copy.deepcopy(data[name]))
        game.passed = set(data["passed"])
        game.auto_pass = set(data.get("auto_pass", ()))
        game.ranks = {card[:-1] for pair in game.table for card in pair if card is not None}
        return game

    def copy(self) -> Game:
        """An independent copy, for search and for trying actions."""
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)
        game.hands = [list(hand) for hand in self.hands]
        game.stock = list(self.stock)
        game.discard = list(self.discard)
        game.table = [list(pair) for pair in self.table]
        game.passed = set(self.passed)
        game.auto_pass = set(self.auto_pass)
        game.finished = list(self.finished)
        game.timeouts = list(self.timeouts)
        game.named = dict(self.named)
        game.ranks = set(self.ranks)
        game.events = []
        return game

    def __repr__(self) -> str:
        state = "over" if self.over else f"attacker={self.attacker} defender={self.defender}"
        return f"<durak.Game players={self.players} stock={len(self.stock)} {state}>"


def _with_suit(action: Action, as_suit: str | None) -> Action:
    if as_suit is not None:
        action["as_suit"] = as_suit
    return action


#: Everything ``to_dict`` stores besides the rules.
_STATE_FIELDS: Final = (
    "players",
    "dealer",
    "hands",
    "stock",
    "trump",
    "trump_card",
    "discard",
    "table",
    "attacker",
    "defender",
    "taking",
    "passed",
    "limit",
    "bouts",
    "defended",
    "finished",
    "over",
    "loser",
    "losing_team",
    "last_bout",
    "shown_trump",
    "timeouts",
    "end",
    "direction",
    "slot",
    "named",
    "transfer_blocked",
    "closed",
    "king_defended",
    "may_reverse",
)


#: The fields each action type must have, and all it may have: ``durak.schema``'s declarations,
#: the one statement of every action's fields (the API builds its bodies from the same).
_ACTION_FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    kind: (declared.required, declared.allowed) for kind, declared in schema.ACTIONS.items()
}
_HANDLERS: Final[dict[str, Callable[[Game, int, Action], None]]] = {
    kind: getattr(Game, f"_apply_{kind}") for kind in _ACTION_FIELDS
}
