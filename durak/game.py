"""The game: state, legal actions, applying actions, and what each player may see.

A two-player game from a stacked deal (hearts are trumps, the face-up 9H is drawn last; the
cards in neither the hands nor the stock are in the discard):

>>> from durak import Game, Rules
>>> hands = [["6S", "7H"], ["8S", "AD"]]
>>> game = Game.from_deal(Rules.preset("classic"), hands=hands, stock=["10C", "6D", "9H"])
>>> game.attacker, game.defender          # player 0 holds the lowest trump, the 7H
(0, 1)
>>> game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
>>> game.legal_json(1)
[{'type': 'defend', 'player': 1, 'target': '6S', 'card': '8S'}, {'type': 'take', 'player': 1}]
>>> game.apply({"type": "defend", "player": 1, "target": "6S", "card": "AD"})
Traceback (most recent call last):
...
durak.errors.IllegalAction: AD does not beat 6S
>>> game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
>>> game.waiting_for(), game.legal_json(0)  # 0 might hold the 6D: the bout waits for "done"
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

import random
from typing import Any, Final

from durak.actions import (
    ACTION_TYPES,
    PREFERENCE_ACTION_TYPES,
    SYSTEM_ACTION_TYPES,
    Action,
    Move,
)
from durak.bout import Bout
from durak.cards import RANK_OF, RANK_VALUE, SUIT_OF, SUITS, beats, deck, shuffle
from durak.errors import IllegalAction, NoPlayerLeft
from durak.legality import (
    bout_complete,
    check,
    claim_against,
    legal_json,
    legal_moves,
    must_act,
    transfer_refusal,
    waiting_for,
    why_illegal,
    why_no_claim,
)
from durak.messages import gettext_noop, ngettext_noop
from durak.outcome import EndReason, Outcome
from durak.playerview import view_of
from durak.rules import Rules, RulesError
from durak.seating import SEATINGS
from durak.state import STATE_FORMAT, STATE_FORMATS, Position
from durak.storage import load, load_view, rules_of, to_dict

__all__ = [
    "ACTION_TYPES",
    "PREFERENCE_ACTION_TYPES",
    "STATE_FORMAT",
    "STATE_FORMATS",
    "SYSTEM_ACTION_TYPES",
    "Action",
    "Game",
    "IllegalAction",
    "Move",
    "NoPlayerLeft",
    "beats",
]


class Game(Position):
    """One game of durak: its :class:`~durak.state.Position`, and the moves that change it.

    Players are numbered 0..n-1 clockwise; the left neighbour of i is i+1. Team games seat the
    teams alternately: team 0 is the even seats, team 1 the odd ones.
    """

    __slots__ = ()

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
        shuffle(cards, random.Random(seed))
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
        game = cls(rules, players, dealer, state_format)
        game.hands = hands
        game.stock = stock
        game.trump_card = trump_card
        game.set_trump(game._trump_of(trump_card))
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
        if SEATINGS[rules.teams].has_teams:
            rules.validate_players(players)
        if not 0 <= dealer < players:
            raise RulesError(gettext_noop("the dealer must be a player from 0 to {last}"), last=players - 1)
        full_deck = deck(rules.deck_size)
        in_play = [card for hand in hands for card in hand] + list(stock)
        unknown = [card for card in in_play if card not in full_deck]
        if unknown:
            raise RulesError(
                ngettext_noop(
                    "not cards of a {size}-card deck: {cards}",
                    "not cards of a {size}-card deck: {cards}",
                    count="size",
                ),
                size=rules.deck_size,
                cards=", ".join(unknown),
            )
        if len(set(in_play)) != len(in_play):
            raise RulesError(gettext_noop("a card is dealt twice"))
        game = cls(rules, players, dealer, state_format)
        if stock:
            game.trump_card = stock[-1]
            game.set_trump(game._trump_of(stock[-1]))
            if trump is not None and trump != game.trump:
                raise RulesError(gettext_noop("the trump is set by the face-up card, stock[-1]"))
        elif trump is not None and trump not in SUITS:
            raise RulesError(gettext_noop("no suit {suit}"), suit=repr(trump))
        else:
            game.set_trump(trump)
        game.hands = [list(hand) for hand in hands]
        game.stock = list(stock)
        seen = set(in_play)
        game.discard = [card for card in full_deck if card not in seen]
        game.recount()
        game.finished = [p for p in range(players) if not game.in_game(p)]
        if game._check_over():
            return game
        if first_attacker is None:
            game._choose_first_attacker(rules.first_attacker)
        else:
            if not 0 <= first_attacker < players:
                raise RulesError(
                    gettext_noop("first_attacker must be a player from 0 to {last}"), last=players - 1
                )
            game.seating.seat_attacker(game, game.next_in_game(first_attacker, include_self=True))
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
        return None if self.spells.names_suit(trump_card) else SUIT_OF[trump_card]

    def _choose_first_attacker(self, rule: str) -> None:
        if rule == "lowest_trump" and self.trump is not None:
            holders = {
                card: p for p, hand in enumerate(self.hands) for card in hand if SUIT_OF[card] == self.trump
            }
            if holders:
                self.shown_trump = min(holders, key=RANK_VALUE.__getitem__)
                self.seating.seat_attacker(self, holders[self.shown_trump])
                return
        if rule == "lowest_trump" and self.rules.no_trump_first_attacker == "dealer":
            self.seating.seat_attacker(self, self.next_in_game(self.dealer, include_self=True))
        else:
            self.seating.seat_attacker(self, self.next_in_game(self.dealer))

    # --- what the players may do ---------------------------------------------------------------

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

    # Methods that call the functions of durak.legality, not those functions assigned as class
    # attributes: a compiled function (the mypyc build, docs/engine.md) does not bind as a method.

    def legal_actions(self, player: int) -> tuple[Move, ...]:
        """Every move ``player`` may make now, as :class:`Move` values (multi-card openings, and
        each suit an enchanted eight may be named as, included): what :meth:`apply` accepts, and
        all it accepts of the moves of the game (:func:`durak.legality.legal_moves`)."""
        return legal_moves(self, player)

    def legal_json(self, player: int) -> list[Action]:
        """:meth:`legal_actions` as JSON actions, for the engine's edge."""
        return legal_json(self, player)

    def waiting_for(self) -> list[int]:
        """The players whose decision the game needs before it can go on. A trump swap is never
        waited for, so this does not tell who holds the lowest trump."""
        return waiting_for(self)

    def must_act(self) -> list[int]:
        """Those of :meth:`waiting_for` the game cannot go on without. The others it waits for
        *may* act (throw in, or say "done" early) while the defender still has cards to beat.

        >>> from durak import Game, Rules
        >>> game = Game.from_deal(Rules.preset("classic"), [["6S", "7H"], ["8S", "AD"]], ["6C", "10C", "9H"])
        >>> game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
        >>> game.waiting_for(), game.must_act()  # 0 may throw in: the game goes on without them
        ([0, 1], [1])
        >>> game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
        >>> game.waiting_for(), game.must_act()  # all beaten: the bout needs 0's "done"
        ([0], [0])
        """
        return must_act(self)

    def why_illegal(self, action: Action | Move) -> IllegalAction | None:
        """Why :meth:`apply` would refuse ``action`` now, or None if it would apply it.

        >>> game = Game.from_deal(Rules.preset("classic"), [["6S", "7H"], ["8S", "AD"]], ["10C", "9H"])
        >>> print(game.why_illegal({"type": "attack", "player": 1, "cards": ["8S"]}))
        it is player 0's turn to attack
        """
        return why_illegal(self, action)

    def claim_against(self, player: int) -> list[int]:
        """Whom a claim by ``player`` would be against: the players the game waits for, in the
        order it needs their decisions (the defender first, then from the attacker in the
        direction of play), or none if ``player`` is among them; in a team game only
        ``player``'s opponents among them. Public facts only.

        >>> game = Game.from_deal(Rules.preset("classic"), [["6S", "7H"], ["8S", "AD"]], ["10C", "9H"])
        >>> game.claim_against(1), game.claim_against(0)
        ([0], [])
        """
        return claim_against(self, player)

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
        return why_no_claim(self, player, waited=waited, clock=clock)

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

    # --- applying actions --------------------------------------------------------------------

    def apply(self, action: Action | Move | object) -> None:
        """Apply one action, or raise :class:`IllegalAction` and leave the game as it was.
        Anything may be passed (``object``: the compiled build checks annotations at run time):
        what is no action is refused like a wrong one."""
        move = check(self, action)
        self.events = []
        try:
            _MOVES[move.type](self, move)
        finally:
            self.forget()
        if move.type not in _NO_STRIKE_RESET:
            self.timeouts[move.player] = 0
        if self.bout.table and not self.over and bout_complete(self):
            self._end_bout()

    def _attack(self, move: Move) -> None:
        assert self.defender is not None
        limit = self.limit_against(self.defender)
        hand = self.hands[move.player]
        for card in move.cards:
            _take_out(hand, card)
            self.bout.lay(card, move.as_suit)
        self.bout.limit = limit
        self.may_reverse = None
        self._card_landed(move.player)

    def _throw(self, move: Move) -> None:
        card = move.card
        assert card is not None
        bout = self.bout
        spells = self.spells
        if spells.active and spells.thrown_in_freely(card) and bout.ranks != {RANK_OF[card]}:
            bout.transfer_blocked = True
        _take_out(self.hands[move.player], card)
        bout.lay(card, move.as_suit)
        self._card_landed(move.player)

    def _defend(self, move: Move) -> None:
        card = move.card
        assert card is not None
        bout = self.bout
        pair = bout.pair_of(move.target)
        assert pair is not None
        _take_out(self.hands[move.player], card)
        bout.cover(pair, card, move.as_suit)
        spells = self.spells
        if spells.active:
            if spells.closes_bout(card):
                bout.closed = True
            if spells.lets_reverse(card):
                bout.king_defended = True
        self._card_landed(move.player)

    def _transfer(self, move: Move) -> None:
        card = move.card
        assert card is not None
        _, target = transfer_refusal(self)
        assert target is not None
        _take_out(self.hands[move.player], card)
        self.bout.lay(card, move.as_suit)
        self.seating.after_transfer(self)
        self.attacker, self.defender = move.player, target
        self.bout.limit = self.limit_against(target)
        self._card_landed(move.player)

    def _take(self, move: Move) -> None:
        self.bout.taking = True
        self.bout.passed.clear()

    def _pass(self, move: Move) -> None:
        self.bout.passed.add(move.player)

    def _auto_pass(self, move: Move) -> None:
        if move.on:
            self.auto_pass.add(move.player)
        else:
            self.auto_pass.discard(move.player)

    def _swap_trump(self, move: Move) -> None:
        card = self.swap_card
        assert card is not None
        hand = self.hands[move.player]
        _take_out(hand, card)
        hand.append(self.stock[-1])
        self.events.append({"type": "swap", "player": move.player, "took": self.stock[-1], "gave": card})
        self.stock[-1] = card

    def _reverse(self, move: Move) -> None:
        self.direction = -self.direction
        self.may_reverse = None
        self.seating.after_reverse(self, move.player)

    def _timeout(self, move: Move) -> None:
        player = move.player
        if self.bout.table and player != self.defender and self.state_format >= 2:
            # Waited for only to throw in: a forgotten "done" is a pass, never a strike.
            self._automatic(Move("pass", player))
            return
        self.timeouts[player] += 1
        if self.rules.on_timeout == "fool" or self.timeouts[player] > 1:
            self._lose(player, "timeout")
            return
        self._automatic(self._safe_move(player))

    def _safe_move(self, player: int) -> Move:
        """The safe move for a player out of time: the defender takes, a thrower passes, an
        opening attacker plays their lowest card, a non-trump if they have one."""
        if self.bout.table:
            return Move("take" if player == self.defender else "pass", player)
        card = min(self.hands[player], key=lambda c: (SUIT_OF[c] == self.trump, RANK_VALUE[c]))
        return Move("attack", player, cards=(card,), as_suit=self.suits_to_name(card)[0])

    def _automatic(self, move: Move) -> None:
        """Make ``move`` for a player out of time: one the rules allow now, as :meth:`apply` checks."""
        self.events.append({"type": "automatic", "action": move.to_json()})
        self.forget()
        _MOVES[move.type](self, check(self, move))

    def _resign(self, move: Move) -> None:
        self._lose(move.player, "resign")

    def _claim(self, move: Move) -> None:
        self._lose(self.claim_against(move.player)[0], "claim")

    def _lose(self, player: int, reason: EndReason) -> None:
        """End the game at once with ``player`` as the fool (out of time, or walked away); in a
        team game their team loses."""
        self.seating.lose(self, player)
        self._finish(reason, player)

    def _finish(self, reason: EndReason, player: int | None) -> None:
        self.over = True
        self.attacker = self.defender = None
        self.may_reverse = None
        self.end = {"reason": reason, "player": player}
        if self.seating.has_teams:
            self.end["team"] = self.losing_team
        self.events.append({"type": "game_over", **self.end})

    def _card_landed(self, player: int) -> None:
        self.bout.passed.clear()
        if not self.stock and not self.hands[player] and player not in self.finished:
            self._goes_out(player)

    def _goes_out(self, player: int) -> None:
        self.finished.append(player)
        self.events.append({"type": "out", "player": player})

    # --- ending a bout -------------------------------------------------------------------------

    def _end_bout(self) -> None:
        attacker, defender = self.attacker, self.defender
        assert attacker is not None and defender is not None
        bout = self.bout
        cards = bout.cards
        beaten = not bout.taking
        if beaten:
            self.discard.extend(cards)
            counts = self.discarded_ranks
            for card in cards:
                rank = RANK_OF[card]
                counts[rank] = counts.get(rank, 0) + 1
            self.defended = True
        else:
            self.hands[defender].extend(cards)
        king = bout.king_defended and beaten
        self.bout = Bout()
        self.forget()
        self.bouts += 1
        result = "beaten" if beaten else "taken"
        self.last_bout = {"attacker": attacker, "defender": defender, "result": result}
        self.events.append(
            {"type": "bout_end", "attacker": attacker, "defender": defender, "result": result, "cards": cards}
        )
        self._draw(attacker, defender)
        if self._check_over():
            return
        self.seating.after_bout(self, defender, beaten)
        # "In a two-player game the king's effect is ignored."
        if king and self.attacker == defender and len(self.holding()) > 2:
            self.may_reverse = defender

    def _draw(self, attacker: int, defender: int) -> None:
        """Everyone draws back up to the hand size, the main attacker first and the defender last;
        once the stock is gone, whoever holds no cards is out."""
        stock = self.stock
        order = self._draw_order(attacker, defender)
        if stock:
            hands, hand_size, events = self.hands, self.fast_rules.hand_size, self.events
            for player in order:
                hand = hands[player]
                need = hand_size - len(hand)
                if need > 0:
                    drawn = stock[:need]
                    del stock[:need]
                    hand += drawn
                    event: dict[str, Any] = {"type": "drew", "player": player, "count": len(drawn)}
                    events.append(event)
                    if not stock:
                        event["face_up"] = drawn[-1]  # the face-up trump card is drawn last
                        break
        if not stock:
            for player in order:
                if not self.hands[player] and player not in self.finished:
                    self._goes_out(player)

    def _draw_order(self, attacker: int, defender: int) -> list[int]:
        """Who draws in what order: the main attacker first, the others in the direction of the
        draw, the defender last."""
        step = self.direction * (1 if self.fast_rules.draw_order == "clockwise" else -1)
        players = self.players
        order = [attacker]
        for k in range(1, players):
            player = (attacker + step * k) % players
            if player != defender:
                order.append(player)
        order.append(defender)
        return order

    def _check_over(self) -> bool:
        if self.stock:  # everyone is still in the game
            return False
        if not self.seating.decided(self, self.holding()):
            return False
        self._finish("cards", self.loser)
        return True

    # --- seeing and storing --------------------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator): never a card of another hand or of the
        stock, except the face-up trump card under the stock."""
        return view_of(self, player)

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
        game = cls(rules_of(view["rules"]), view["players"], view["dealer"], view["format"])
        load_view(game, view, hands, stock)
        return game

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON data, hidden cards included: for storage, never for players.

        A state of format 1 (stored before public throw-in waiting) is written as it was read:
        without ``"format"``, and with ``"auto_pass"`` only once a player has set it.
        """
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        game = cls(rules_of(data["rules"]), data["players"], data["dealer"], cls.format_of(data))
        load(game, data)
        return game

    def copy(self) -> Game:
        """An independent copy, for search and for trying actions."""
        # Made by the constructor, not Game.__new__(Game) without it: a compiled class (the mypyc
        # build, docs/engine.md) has no instance that skipped its __init__.
        game = Game(self.rules, self.players, self.dealer, self.state_format)
        # Every other field (Position.__slots__), written out: the search bot copies a game for
        # each candidate action of every sampled deal. These are shared, being values or objects
        # that are replaced, never changed in place...
        game._trump, game.trump_card, game.shown_trump = self._trump, self.trump_card, self.shown_trump
        game.attacker, game.defender, game.direction = self.attacker, self.defender, self.direction
        game.slot, game.may_reverse, game.bouts = self.slot, self.may_reverse, self.bouts
        game.defended, game.over, game.end = self.defended, self.over, self.end
        game.loser, game.losing_team, game.last_bout = self.loser, self.losing_team, self.last_bout
        game.seating, game.spells, game.fast_rules = self.seating, self.spells, self.fast_rules
        game.beaten_by, game.swap_card = self.beaten_by, self.swap_card
        # ...and these are the copy's own.
        game.hands = [list(hand) for hand in self.hands]
        game.stock = list(self.stock)
        game.discard = list(self.discard)
        game.bout = self.bout.copy()
        game.auto_pass = set(self.auto_pass)
        game.finished = list(self.finished)
        game.timeouts = list(self.timeouts)
        game.discarded_ranks = dict(self.discarded_ranks)
        game.events = []
        game.forget()  # adding, unseen, legal
        return game

    def __repr__(self) -> str:
        state = "over" if self.over else f"attacker={self.attacker} defender={self.defender}"
        return f"<durak.Game players={self.players} stock={len(self.stock)} {state}>"


def _take_out(hand: list[str], card: str) -> None:
    """``hand.remove(card)``, written out: compiled, it compares strings as strings, where a
    list's ``remove`` goes through the generic comparison of objects for every card before."""
    for index, held in enumerate(hand):
        if held == card:
            del hand[index]
            return
    raise ValueError(f"{card} is not in the hand")


#: Actions that leave a player's count of timeouts in a row as it is.
_NO_STRIKE_RESET: Final = frozenset({"timeout", *PREFERENCE_ACTION_TYPES})

_MOVES: Final = {
    "attack": Game._attack,
    "throw": Game._throw,
    "defend": Game._defend,
    "transfer": Game._transfer,
    "take": Game._take,
    "pass": Game._pass,
    "swap_trump": Game._swap_trump,
    "reverse": Game._reverse,
    "auto_pass": Game._auto_pass,
    "timeout": Game._timeout,
    "resign": Game._resign,
    "claim": Game._claim,
}
