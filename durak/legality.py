"""The rules of play, each stated once: what a player may do now, and why not.

Every rule is one small predicate over a :class:`durak.state.Position` that returns a
:class:`Refusal` (why not) or None (allowed). :func:`legal_actions` lists what passes them;
:func:`check` holds an action against the same predicates and either refuses it, with the
refusal's words, or returns it as a :class:`durak.actions.Move` ready to play. So ``apply``
refuses exactly what ``legal_actions`` does not list, and one place says why.

Throwing in is public: everyone the rules let add a card at this moment (:func:`may_add`: by
public facts only) is waited for, whether or not they hold a card that fits. In state format 1,
only a player holding a card that fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Final

from durak.actions import Action, Move, check_fields, check_kind_and_player
from durak.cards import ALL_CARDS, RANK_KEY, RANK_OF, SUITS
from durak.errors import IllegalAction
from durak.messages import Plural, gettext_noop, ngettext_noop
from durak.state import Position

#: The seats the tables of this module are made for: no rules seat more (``Rules.max_players``).
SEATS: Final = range(6)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action is not allowed: an English template, marked for translation, and its params."""

    template: str | Plural
    params: dict[str, object] = field(default_factory=dict)

    def error(self) -> IllegalAction:
        return IllegalAction(self.template, **self.params)


def _no(template: str) -> Refusal:
    return Refusal(template)


CLOSED: Final = _no(gettext_noop("an enchanted queen has beaten a card: nothing more may be thrown in"))
NO_CARDS: Final = _no(gettext_noop("you have no cards"))
TAKING_NO_ADDING: Final = _no(gettext_noop("the defender is taking: no more cards may be added"))
NOT_BEFORE_FIRST_BEAT: Final = _no(
    gettext_noop("cards may be added only once the first attack card is beaten")
)
NOT_BEFORE_ALL_BEATEN: Final = _no(gettext_noop("cards may be added only when every attack card is beaten"))
PARTNER: Final = _no(gettext_noop("you do not throw in to your partner"))
NEIGHBOURS_ONLY: Final = _no(gettext_noop("only the defender's neighbours may throw in"))
YOU_TAKE: Final = _no(gettext_noop("you are taking the cards"))
BEATEN_ONCE: Final = _no(gettext_noop("no transfer once a card is beaten"))
ONE_RANK_TO_TRANSFER: Final = _no(gettext_noop("a transfer needs all attack cards of one rank"))
NINE_BLOCKS: Final = _no(gettext_noop("an enchanted nine was thrown in: no transfer in this bout"))
NOBODY_TO_PASS_TO: Final = _no(gettext_noop("nobody else is left in the game to pass the attack to"))
TEN_BLOCKS: Final = _no(gettext_noop("an enchanted ten cannot be transferred"))
TOO_MANY_FOR_NEXT: Final = _no(gettext_noop("the next player cannot be given that many cards"))
NO_SWAPPING: Final = _no(gettext_noop("these rules do not allow swapping the trump card"))
STOCK_GONE: Final = _no(gettext_noop("the stock is gone: there is no trump card to swap"))
SWAP_BEFORE_FIRST_ATTACK: Final = _no(
    gettext_noop("the trump card may be swapped only before the first attack")
)
NOTHING_TO_PASS_FORMAT_1: Final = _no(
    gettext_noop("you have no card to throw in, so there is nothing to pass")
)
ALL_IN_SIGHT: Final = _no(gettext_noop("every card that could be thrown in is in sight: nothing to pass"))


def _at_limit(limit: int | None) -> Refusal:
    return Refusal(
        ngettext_noop(
            "the bout already has its limit of {limit} attack card",
            "the bout already has its limit of {limit} attack cards",
            count="limit",
        ),
        {"limit": limit},
    )


# --- throwing in -----------------------------------------------------------------------------------


def throw_in_refusal(position: Position, player: int) -> Refusal | None:
    """Why ``player`` (not the defender) may not add cards to the running bout at this moment,
    whatever the limit and their cards; None if they may."""
    bout = position.bout
    rules = position.fast_rules
    if bout.closed:
        return CLOSED
    if not position.hands[player]:
        return NO_CARDS
    if bout.taking and not rules.add_after_take:
        return TAKING_NO_ADDING
    when = rules.throw_when
    if when == "after_first_beat" and bout.table[0][1] is None:
        return NOT_BEFORE_FIRST_BEAT
    if when == "all_beaten" and (bout.taking or bout.unbeaten):
        return NOT_BEFORE_ALL_BEATEN
    defender = position.defender
    assert defender is not None
    if position.seating.has_teams and not position.seating.opponents(player, defender):
        return PARTNER
    if rules.throw_in == "neighbours" and player not in (
        position.next_in_game(defender),
        position.previous_in_game(defender),
    ):
        return NEIGHBOURS_ONLY
    return None


def has_room(position: Position) -> bool:
    """Whether the running bout is below its limit of attack cards."""
    bout = position.bout
    return bool(bout.table) and bout.limit is not None and len(bout.table) < bout.limit


def throw_ranks(position: Position) -> set[str]:
    """The ranks a card thrown in now may have: those on the table, and the enchanted ranks
    that may be thrown in freely ("even if no other nines have been played")."""
    free = position.spells.free_ranks
    return position.bout.ranks | free if free else position.bout.ranks


def unseen_card_fits(position: Position) -> bool:
    """Whether some card that could be thrown in now is one nobody has seen: not on the table,
    in the discard or face up under the stock. Public facts only. The same for every player:
    remembered until the next move."""
    known = position.unseen
    if known is None:
        ranks = throw_ranks(position)
        bout = position.bout
        discarded = position.discarded_ranks
        # Every deck holds all four suits of its ranks: count the cards of these ranks in sight.
        # Every card on the table is of one of them.
        in_sight = 2 * len(bout.table) - bout.unbeaten
        for rank in ranks:
            in_sight += discarded.get(rank, 0)
        stock = position.stock
        if stock and RANK_OF[stock[-1]] in ranks:
            in_sight += 1
        known = position.unseen = in_sight < len(SUITS) * len(ranks)
    return known


def may_add(position: Position, player: int) -> bool:
    """Whether the bout waits for ``player`` (not the defender) to throw in or say "done"
    (unless they have passed, or asked not to be waited for).

    Public facts only: the rules let ``player`` add a card at this moment, there is room under
    the limit, and not every card that could be added is in sight, whatever ``player`` holds.
    In state format 1: whether they hold a card that fits. Remembered until the next move.
    """
    known = position.adding[player]
    if known is None:
        bout = position.bout
        limit = bout.limit
        no_room = not bout.table or limit is None or len(bout.table) >= limit  # not has_room()
        if no_room or throw_in_refusal(position, player) is not None:
            known = False
        elif position.state_format == 1:
            ranks = throw_ranks(position)
            known = any(RANK_OF[card] in ranks for card in position.hands[player])
        else:
            known = unseen_card_fits(position)
        position.adding[player] = known
    return known


def waits_to_throw_in(position: Position, player: int) -> bool:
    return (
        player != position.defender
        and player not in position.bout.passed
        and player not in position.auto_pass
        and may_add(position, player)
    )


def has_priority(position: Position, player: int) -> bool:
    """Whether ``player`` may throw in before the main attacker has finished: always under free
    priority; else once the main attacker has passed since the last card landed (or asked not
    to be waited for), or may not add a card at all."""
    attacker = position.attacker
    if position.fast_rules.throw_priority == "free" or player == attacker:
        return True
    assert attacker is not None
    return (
        attacker in position.bout.passed or attacker in position.auto_pass or not may_add(position, attacker)
    )


def pass_refusal(position: Position, player: int) -> Refusal | None:
    """Why ``player`` (not the defender) has nothing to say "done" to."""
    if may_add(position, player):
        return None
    if position.state_format == 1:
        return NOTHING_TO_PASS_FORMAT_1
    refusal = throw_in_refusal(position, player)
    if refusal is not None:
        return refusal
    if not has_room(position):
        return _at_limit(position.bout.limit)
    return ALL_IN_SIGHT


# --- transfer and trump swap ----------------------------------------------------------------------


def transfer_recipient(position: Position) -> int | None:
    """Who would defend if the defender passed the attack on: the next opponent in turn order
    still in the game, or None when nobody else is left."""
    target = position.seating.transfer_recipient(position)
    if target is None or target == position.defender or not position.in_game(target):
        return None
    return target


def transfer_refusal(position: Position) -> tuple[Refusal | None, int | None]:
    """Why the defender may not pass the attack on now (in a game with transfer), or None and
    whom they would pass it to."""
    bout = position.bout
    if bout.taking:
        return YOU_TAKE, None
    if bout.unbeaten != len(bout.table):
        return BEATEN_ONCE, None
    if len(bout.ranks) > 1:  # no card is beaten: the ranks on the table are the attack cards'
        return ONE_RANK_TO_TRANSFER, None
    if bout.transfer_blocked:
        return NINE_BLOCKS, None
    target = transfer_recipient(position)
    if target is None:
        return NOBODY_TO_PASS_TO, None
    spells = position.spells
    if spells.blocking and any(spells.blocks_transfer(attack) for attack in bout.attacks):
        return TEN_BLOCKS, None
    if len(bout.table) + 1 > position.limit_against(target):
        return TOO_MANY_FOR_NEXT, None
    return None, target


def swap_refusal(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not swap the lowest trump for the face-up trump card now."""
    rule = position.rules.trump_swap
    if position.swap_card is None:
        return NO_SWAPPING
    if not position.stock:
        return STOCK_GONE
    if rule == "before_first_attack" and (position.bouts or position.bout.table):
        return SWAP_BEFORE_FIRST_ATTACK
    if position.swap_card not in position.hands[player]:
        return Refusal(
            gettext_noop("only the holder of the {rank} of trumps may swap it"),
            {"rank": position.rules.swap_rank},
        )
    return None


# --- whom the game waits for ----------------------------------------------------------------------


def waiting_for(position: Position) -> list[int]:
    """The players whose decision the game needs before it can go on (never for a trump swap)."""
    if position.over:
        return []
    bout = position.bout
    if not bout.table:
        return [position.attacker] if position.attacker is not None else []
    waiting = []
    for player in range(position.players):
        if player == position.defender:
            if not bout.taking and bout.unbeaten:
                waiting.append(player)
        elif waits_to_throw_in(position, player):
            waiting.append(player)
    return waiting


def must_act(position: Position) -> list[int]:
    """Of the players the game waits for (:func:`waiting_for`), those it cannot go on without:
    the defender alone while cards lie unbeaten before them (the others may throw in meanwhile,
    or not: the bout goes on either way); otherwise everyone it waits for (the attacker to lead,
    the throwers whose "done" closes a bout that is beaten or taken). Public facts only."""
    waiting = waiting_for(position)
    if position.defender in waiting:
        return [position.defender]
    return waiting


def bout_complete(position: Position) -> bool:
    """Every attack card is beaten, or the defender takes, and the bout waits for nobody to
    throw in: everyone allowed has passed (or asked not to be waited for), the limit is
    reached, or nobody may add a card (after a take, say)."""
    bout = position.bout
    if not bout.taking and bout.unbeaten:
        return False
    defender, passed, auto_pass = _seat(position.defender), bout.passed, position.auto_pass
    for player in range(position.players):
        if (
            player != defender
            and player not in passed
            and player not in auto_pass
            and may_add(position, player)
        ):
            return False
    return True


def claim_against(position: Position, player: int) -> list[int]:
    """Whom a claim by ``player`` would be against (see :meth:`durak.Game.claim_against`)."""
    waiting = waiting_for(position)
    if player in waiting:
        return []
    attacker = position.attacker if position.attacker is not None else player
    defender, direction, players = position.defender, position.direction, position.players

    def order(p: int) -> tuple[int, int]:
        return (0 if p == defender else 1, (p - attacker) * direction % players)

    opponents = position.seating.opponents
    return sorted((p for p in waiting if opponents(player, p)), key=order)


def why_no_claim(
    position: Position, player: int, *, waited: object, clock: bool = False
) -> IllegalAction | None:
    """Why ``player`` may not claim the game now (see :meth:`durak.Game.why_no_claim`)."""
    if position.over:
        return IllegalAction(gettext_noop("the game is over"))
    if clock:
        return IllegalAction(
            gettext_noop("a game with a clock cannot be claimed: a player who does not move runs out of time")
        )
    if type(waited) is not int or waited < 0:
        return IllegalAction(gettext_noop("waited is the whole number of seconds the game has waited"))
    if player in waiting_for(position):
        return IllegalAction(gettext_noop("the game is waiting for you: it cannot be claimed by you"))
    if not claim_against(position, player):
        return IllegalAction(gettext_noop("the game is waiting only for your partner"))
    if waited < position.rules.claim_after_seconds:
        return IllegalAction(
            ngettext_noop(
                "the game may be claimed once it has waited {days} day on the same players",
                "the game may be claimed once it has waited {days} days on the same players",
                count="days",
            ),
            days=position.rules.claim_after_days,
        )
    return None


# --- each move's rules: one predicate for whose turn it is, one for the cards --------------------
#
# The generator (:func:`legal_moves`) lists the moves that pass these predicates; :func:`check`
# accepts exactly what it listed, and explains anything else with the same predicates, asked in
# the order a player reads the reasons (whose turn, then which cards).

BOUT_RUNNING: Final = _no(gettext_noop("a bout is running: throw in a card of a rank on the table instead"))
NO_BOUT_TO_THROW_IN: Final = _no(gettext_noop("no bout is running: open one with an attack"))
NO_BOUT: Final = _no(gettext_noop("no bout is running"))
DEFENDER_NO_THROW: Final = _no(gettext_noop("the defender cannot throw in"))
DEFENDER_NO_PASS: Final = _no(gettext_noop("the defender beats, transfers or takes; only attackers pass"))
ONLY_DEFENDER_BEATS: Final = _no(gettext_noop("only the defender can beat a card"))
ONLY_DEFENDER_TRANSFERS: Final = _no(gettext_noop("only the defender can transfer"))
ONLY_DEFENDER_TAKES: Final = _no(gettext_noop("only the defender can take the cards"))
NO_TRANSFER_RULE: Final = _no(gettext_noop("these rules have no transfer"))
TAKING_ALREADY: Final = _no(gettext_noop("you are already taking the cards"))
NOTHING_TO_TAKE: Final = _no(gettext_noop("every card is beaten: there is nothing to take"))
PASSED_WAIT: Final = _no(gettext_noop("you passed: wait until a new card lands on the table"))
PASSED_ALREADY: Final = _no(gettext_noop("you have passed already"))
AUTO_PASSING: Final = _no(
    gettext_noop("you asked not to be waited for to throw in: you count as passed already")
)
NEED_CARDS: Final = _no(gettext_noop("an attack needs a list of one or more cards"))
SAME_CARD_TWICE: Final = _no(gettext_noop("the same card twice"))
ONE_CARD_OPENINGS: Final = _no(gettext_noop("these rules open a bout with one card"))
ONE_RANK_OPENINGS: Final = _no(gettext_noop("an attack of several cards must be all of one rank"))
NAME_A_SUIT: Final = _no(gettext_noop("name a suit other than trumps for the enchanted eight: as_suit"))
ONLY_EIGHTS_NAME: Final = _no(gettext_noop("only an enchanted eight is played as another suit"))
NO_REVERSE: Final = _no(
    gettext_noop(
        "only a defender who beat off a bout with an enchanted king may reverse the "
        "direction of play, before attacking"
    )
)


def attack_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not open a bout now."""
    if position.bout.table:
        return BOUT_RUNNING
    attacker = _seat(position.attacker)
    if player != attacker:
        return _TURN_TO_ATTACK[attacker]  # -1, no attacker: the last, of None
    return None


# Made once per attacker: the generator asks every other player, every time a bout opens.
_TURN_TO_ATTACK: Final = [
    Refusal(gettext_noop("it is player {player}'s turn to attack"), {"player": attacker})
    for attacker in (*SEATS, None)
]


def opening_refusal(position: Position, player: int, cards: Sequence[Any]) -> Refusal | None:
    """Why ``cards`` may not open the bout, as a set of cards (their suits named apart): held,
    each once, one card or (where the rules allow it) several of one rank."""
    hand = position.hands[player]
    if not all(card in hand for card in cards):  # a hand holds cards only: the rest one by one
        for card in cards:
            refusal = _held_refusal(position, player, card)
            if refusal is not None:
                return refusal
    if len(set(cards)) != len(cards):
        return SAME_CARD_TWICE
    if len(cards) > 1:
        if not position.rules.multi_card_attack:
            return ONE_CARD_OPENINGS
        if len({RANK_OF[card] for card in cards}) != 1:
            return ONE_RANK_OPENINGS
    return None


def opening_limit(position: Position) -> int:
    """How many cards may open the bout: what the defender could be made to beat."""
    assert position.defender is not None
    return position.limit_against(position.defender)


def _over_limit(limit: int) -> Refusal:
    return Refusal(
        ngettext_noop(
            "at most {limit} card may attack in this bout",
            "at most {limit} cards may attack in this bout",
            count="limit",
        ),
        {"limit": limit},
    )


def throw_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not throw a card in now, whichever card (see :func:`throw_ranks` for
    which ranks may be): a bout is running, they attack it, the rules let them add now, there is
    room, they have not passed since the last card landed, and it is their turn to add."""
    bout = position.bout
    if not bout.table:
        return NO_BOUT_TO_THROW_IN
    if player == position.defender:
        return DEFENDER_NO_THROW
    return throw_turn_in_bout(position, player)


def throw_turn_in_bout(position: Position, player: int) -> Refusal | None:
    """:func:`throw_turn` for a player who is not the defender of a running bout."""
    bout = position.bout
    refusal = throw_in_refusal(position, player)
    if refusal is not None:
        return refusal
    if bout.limit is not None and len(bout.table) >= bout.limit:
        return _at_limit(bout.limit)
    if player in bout.passed:
        return PASSED_WAIT
    if not has_priority(position, player):
        return Refusal(
            gettext_noop("player {player}, the main attacker, throws in first"), {"player": position.attacker}
        )
    return None


def throw_card_refusal(position: Position, card: str) -> Refusal | None:
    """Why ``card`` may not be thrown in: its rank is not on the table (nor thrown in freely)."""
    if RANK_OF[card] not in throw_ranks(position):
        return Refusal(
            gettext_noop("{card} cannot be thrown in: only ranks already on the table"), {"card": card}
        )
    return None


def defend_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not beat a card now: only the defender of a running bout, not taking."""
    if player != position.defender or not position.bout.table:
        return ONLY_DEFENDER_BEATS
    if position.bout.taking:
        return YOU_TAKE
    return None


def target_refusal(position: Position, target: object) -> Refusal | None:
    """Why ``target`` is not a card to beat: not an attack card on the table, or beaten."""
    pair = position.bout.pair_of(target)
    if pair is None:
        return Refusal(gettext_noop("{card} is not an attack card on the table"), {"card": repr(target)})
    if pair[1] is not None:
        return Refusal(gettext_noop("{card} is already beaten"), {"card": target})
    return None


def beats_refusal(position: Position, target: str, card: str, as_suit: str | None) -> Refusal | None:
    if not position.beats(target, card, as_suit):
        return Refusal(gettext_noop("{card} does not beat {target}"), {"card": card, "target": target})
    return None


def transfer_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not pass the attack on now, whichever card: only the defender of a
    running bout, in rules with transfer (and see :func:`transfer_refusal`)."""
    if player != position.defender or not position.bout.table:
        return ONLY_DEFENDER_TRANSFERS
    if not position.fast_rules.transfer:
        return NO_TRANSFER_RULE
    return None


def transfer_card_refusal(position: Position, card: str) -> Refusal | None:
    """Why ``card`` may not pass the attack on: it is not of the attack cards' rank."""
    if RANK_OF[card] != RANK_OF[position.bout.attacks[0]]:
        return Refusal(gettext_noop("{card} is not of the rank on the table"), {"card": card})
    return None


def take_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not take the cards now: only the defender, once, while a card is unbeaten."""
    bout = position.bout
    if player != position.defender or not bout.table:
        return ONLY_DEFENDER_TAKES
    if bout.taking:
        return TAKING_ALREADY
    if not bout.unbeaten:
        return NOTHING_TO_TAKE
    return None


def pass_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not say "done" now: not the defender, not passed or passing already,
    and waited for to add a card (:func:`pass_refusal`)."""
    bout = position.bout
    if not bout.table:
        return NO_BOUT
    if player == position.defender:
        return DEFENDER_NO_PASS
    if player in bout.passed:
        return PASSED_ALREADY
    if player in position.auto_pass:
        return AUTO_PASSING
    return pass_refusal(position, player)


def reverse_turn(position: Position, player: int) -> Refusal | None:
    """Why ``player`` may not reverse the direction of play now (see the enchanted king)."""
    if position.may_reverse != player or position.bout.table:
        return NO_REVERSE
    return None


def as_suit_refusal(position: Position, card: str, as_suit: object) -> Refusal | None:
    """Why ``card`` may not be played as ``as_suit``: an enchanted eight names a suit other than
    trumps (:meth:`Position.suits_to_name`), any other card is played as itself."""
    if as_suit in position.suits_to_name(card):
        return None
    return NAME_A_SUIT if position.spells.naming and position.spells.names_suit(card) else ONLY_EIGHTS_NAME


# --- the generator ----------------------------------------------------------------------------------

_new_move: Final = tuple.__new__


def _move(
    kind: str,
    player: int,
    cards: tuple[Any, ...] = (),
    card: Any = None,
    target: Any = None,
    as_suit: Any = None,
) -> Move:
    # All nine fields in order, without Move()'s keyword handling: the generator makes many.
    # Any: _listed makes the move of a JSON action as given, before its cards are checked (the
    # compiled build would refuse a list where a card goes with a TypeError, not a refusal).
    return _new_move(Move, (kind, player, cards, card, target, as_suit, None, None, None))


def _player_moves(kind: str) -> list[Move]:
    """Each player's move of ``kind`` with no card (take, pass, reverse, swap_trump)."""
    return [_move(kind, player) for player in SEATS]


def _card_moves(kind: str) -> list[dict[str, Move]]:
    """Each player's moves of ``kind`` with one card (a throw, a transfer), by card."""
    return [{card: _move(kind, player, card=card) for card in ALL_CARDS} for player in SEATS]


# Moves are immutable: the generator hands out the same value every time, rather than building a
# tuple per listed move. Lists by seat, then plain dicts (a lookup in an exact dict is the fastest
# there is, compiled or not), made at import where the moves are few, filled on first use where
# they are many.


TAKES: Final = _player_moves("take")
PASSES: Final = _player_moves("pass")
REVERSES: Final = _player_moves("reverse")
SWAPS: Final = _player_moves("swap_trump")
THROWS: Final = _card_moves("throw")
TRANSFERS: Final = _card_moves("transfer")
#: Each player's one-card openings, by card.
OPENINGS: Final[list[dict[str, Move]]] = [
    {card: _move("attack", player, (card,)) for card in ALL_CARDS} for player in SEATS
]
#: Each player's openings of two cards of a rank, by the first card, then the second.
PAIR_OPENINGS: Final[list[dict[str, dict[str, Move]]]] = [
    {
        first: {
            second: _move("attack", player, (first, second))
            for second in ALL_CARDS
            if second != first and RANK_OF[second] == RANK_OF[first]
        }
        for first in ALL_CARDS
    }
    for player in SEATS
]
#: Each player's openings of two or more of a group of cards of one rank held in that order
#: (three or four), by the group: smaller sets first (filled on first use).
GROUP_OPENINGS: Final[list[dict[tuple[str, ...], list[Move]]]] = [{} for _ in SEATS]
#: Each player's defences, by attack card, then by the card that beats it, played as itself
#: (filled on first use).
DEFENCES: Final[list[dict[str, dict[str, Move]]]] = [{} for _ in SEATS]


def _group_openings(player: int, group: tuple[str, ...]) -> list[Move]:
    table = GROUP_OPENINGS[player]
    moves = table.get(group)
    if moves is None:
        moves = table[group] = [
            _move("attack", player, cards)
            for size in range(2, len(group) + 1)
            for cards in combinations(group, size)
        ]
    return moves


def _defences_on(player: int, attack: str) -> dict[str, Move]:
    table = DEFENCES[player]
    moves = table.get(attack)
    if moves is None:
        moves = table[attack] = {
            card: _move("defend", player, card=card, target=attack) for card in ALL_CARDS
        }
    return moves


def legal_moves(position: Position, player: int) -> tuple[Move, ...]:
    """Every move ``player`` may make now, multi-card openings and each suit an enchanted eight
    may be named as included: the moves that pass the predicates above. Remembered until the
    next move (:meth:`Position.forget`)."""
    if position.over or not 0 <= player < position.players:
        return ()
    known = position.legal[player]
    if known is None:
        known = position.legal[player] = tuple(_generate(position, player))
    return known


def legal_json(position: Position, player: int) -> list[Action]:
    """:func:`legal_moves` as JSON actions, for the engine's edge (views, the API)."""
    return [move.to_json() for move in legal_moves(position, player)]


def _seat(player: int | None) -> int:
    """A seat that may be None (an attacker or a defender between games) as an int, -1 for None:
    compiled, an int compares with an int directly, with ``int | None`` through the generic
    comparison of objects."""
    return -1 if player is None else player


def _generate(position: Position, player: int) -> list[Move]:
    bout = position.bout
    moves: list[Move] = []
    if not bout.table:
        if attack_turn(position, player) is None:
            moves = _openings(position, player)
        if reverse_turn(position, player) is None:
            moves.append(REVERSES[player])
    elif player == _seat(position.defender):
        if defend_turn(position, player) is None:
            moves = _defences(position, player)
        if position.fast_rules.transfer and transfer_turn(position, player) is None:
            moves += _transfers(position, player)
        if take_turn(position, player) is None:
            moves.append(TAKES[player])
    elif player not in bout.passed and may_add(position, player):
        # may_add: the rules let them add, there is room; not passed: throw_turn is down to
        # whose turn it is to add.
        if has_priority(position, player):
            ranks = throw_ranks(position)
            throws = THROWS[player]
            moves = [throws[card] for card in position.hands[player] if RANK_OF[card] in ranks]
            if position.spells.naming:
                moves = _name_eights(position, moves)
        if player not in position.auto_pass:  # pass_turn
            moves.append(PASSES[player])
    swap = position.swap_card
    if (
        swap is not None
        and position.stock
        and _holds(position.hands[player], swap)
        and swap_refusal(position, player) is None
    ):
        moves.append(SWAPS[player])
    return moves


def _holds(hand: list[str], card: str) -> bool:
    """``card in hand``, written out: compiled, a loop of string comparisons (the same object,
    else the length and the bytes), where a list's ``in`` goes through the generic comparison of
    objects, several times slower."""
    return any(held == card for held in hand)


def _openings(position: Position, player: int) -> list[Move]:
    """The openings that pass :func:`opening_refusal` and :func:`opening_limit`: each card
    alone, and (multi-card attacks) each set of two or more cards of a rank, up to the limit."""
    hand = position.hands[player]
    openings = OPENINGS[player]
    moves = [openings[card] for card in hand]
    count = len(hand)
    if position.fast_rules.multi_card_attack and count > 1:
        # Each rank's group found by comparing the hand's ranks, not gathered in a dict of lists:
        # hands are short. A card's first character names its rank (RANK_KEY).
        ranks = [card[RANK_KEY] for card in hand]
        grouped = 0  # bit i: hand[i] is in a group listed already
        limit = 0  # found on the first group: most hands have one
        for first in range(count - 1):
            if grouped >> first & 1:
                continue
            rank = ranks[first]
            group = []
            for other in range(first + 1, count):
                if ranks[other] == rank:
                    group.append(hand[other])
                    grouped |= 1 << other
            if not group:
                continue
            if not limit:
                limit = opening_limit(position)
                if limit < 2:
                    break
            if len(group) == 1:  # the usual pair: one opening of both, in the order held
                moves.append(PAIR_OPENINGS[player][hand[first]][group[0]])
            else:
                group.insert(0, hand[first])
                moves += [move for move in _group_openings(player, tuple(group)) if len(move.cards) <= limit]
    if position.spells.naming:
        moves = _name_eights(position, moves)
    return moves


def _defences(position: Position, player: int) -> list[Move]:
    """Each card of the hand on each unbeaten attack card it beats (:func:`beats_refusal`)."""
    bout = position.bout
    if not bout.unbeaten:
        return []
    hand = position.hands[player]
    attacks = bout.attacks
    if bout.unbeaten == len(attacks):  # none beaten yet, as after every attack card landed
        unbeaten = attacks
    else:  # enumerate, not zip(strict=True), which costs more than the rest of this line
        unbeaten = [attacks[i] for i, pair in enumerate(bout.table) if pair[1] is None]
    moves: list[Move] = []
    if position.spells.active:
        beats = position.beats
        for attack in unbeaten:
            for card in hand:
                for suit in position.suits_to_name(card):
                    if beats(attack, card, suit):
                        moves.append(_move("defend", player, card=card, target=attack, as_suit=suit))
    else:
        beaten_by = position.beaten_by
        for attack in unbeaten:
            beaters = beaten_by[attack]
            on = _defences_on(player, attack)
            for card in hand:
                if card in beaters:
                    moves.append(on[card])
    return moves


def _transfers(position: Position, player: int) -> list[Move]:
    """Each card of the attack cards' rank, if the attack may be passed on (:func:`transfer_refusal`)."""
    if transfer_refusal(position)[0] is not None:
        return []
    rank = RANK_OF[position.bout.attacks[0]]
    transfers = TRANSFERS[player]
    moves = [transfers[card] for card in position.hands[player] if RANK_OF[card] == rank]
    if position.spells.naming:
        moves = _name_eights(position, moves)
    return moves


def _name_eights(position: Position, moves: list[Move]) -> list[Move]:
    """Each move that plays an enchanted eight, once for every suit it may be named as."""
    named: list[Move] = []
    for move in moves:
        card = move.cards[0] if move.cards else move.card
        assert card is not None
        for suit in position.suits_to_name(card):
            named.append(move if suit is None else move._replace(as_suit=suit))
    return named


# --- checking an action ---------------------------------------------------------------------------


def why_illegal(position: Position, action: object) -> IllegalAction | None:
    """Why ``action`` may not be applied now, or None if it may."""
    try:
        check(position, action)
    except IllegalAction as refusal:
        return refusal
    return None


def check(position: Position, action: object) -> Move:
    """``action`` (a :class:`Move` or its JSON) as a move ready to play, or :class:`IllegalAction`
    saying why not. A move of the game is allowed when :func:`legal_moves` lists it (an opening's
    cards in any order), and explained by the generator's predicates when it does not; a system
    action or a preference, which are never listed, is allowed by its own rule."""
    if type(action) is Move:
        # The generator's own values, as the search and the benchmarks play them: no parsing.
        fields: tuple[object, ...] = action  # the seat as given: Move() checks no types
        seat = fields[1]
        listed = position.legal[seat] if type(seat) is int and 0 <= seat < position.players else None
        if listed is not None:
            for value in listed:  # the very value listed: no field compared
                if value is action:
                    return action
            if action in listed:
                return action
        action = action.to_json()
    kind, player = check_kind_and_player(action, position.players)
    if position.over:
        raise IllegalAction(gettext_noop("the game is over"))
    assert isinstance(action, dict)
    check_fields(kind, action)
    unlisted = _UNLISTED.get(kind)
    if unlisted is not None:
        return unlisted(position, player, action)
    move = _listed(position, player, kind, action)
    if move is not None:
        return move
    refusal = _REFUSALS[kind](position, player, action)
    if refusal is None:  # the generator and the predicates disagree: a bug, never the player's
        raise AssertionError(f"{action} is neither listed nor refused")
    raise refusal.error()


def _listed(position: Position, player: int, kind: str, action: Action) -> Move | None:
    """The move of a well-formed JSON ``action`` if :func:`legal_moves` lists it."""
    get = action.get
    cards = get("cards")
    given = tuple(cards) if type(cards) is list else ()
    move = _move(kind, player, given, get("card"), get("target"), get("as_suit"))
    listed = legal_moves(position, player)
    if move in listed:
        return move
    if kind == "attack" and all(type(card) is str for card in given) and 1 < len(given) == len(set(given)):
        same = set(given)
        for other in listed:  # the same opening, its cards in another order
            if other.type == "attack" and other.as_suit == move.as_suit and set(other.cards) == same:
                return move
    return None


def _held_refusal(position: Position, player: int, value: object) -> Refusal | None:
    """Why ``value`` is no card of ``player``'s hand: no card at all, or not held."""
    if not isinstance(value, str) or value not in ALL_CARDS:
        return Refusal(
            gettext_noop("{card} is not a card: write rank then suit, like 10H or QS"), {"card": repr(value)}
        )
    if value not in position.hands[player]:
        return Refusal(gettext_noop("you do not hold {card}"), {"card": value})
    return None


def _attack_refusal(position: Position, player: int, action: Action) -> Refusal | None:
    refusal = attack_turn(position, player)
    if refusal is not None:
        return refusal
    cards = action["cards"]
    if not isinstance(cards, list) or not cards:
        return NEED_CARDS
    refusal = opening_refusal(position, player, cards) or as_suit_refusal(
        position, cards[0], action.get("as_suit")
    )
    if refusal is None and len(cards) > (limit := opening_limit(position)):
        refusal = _over_limit(limit)
    return refusal


def _throw_refusal(position: Position, player: int, action: Action) -> Refusal | None:
    bout = position.bout
    if not bout.table:
        return NO_BOUT_TO_THROW_IN
    if player == position.defender:
        return DEFENDER_NO_THROW
    card = action["card"]
    refusal = _held_refusal(position, player, card) or throw_in_refusal(position, player)
    if refusal is None and bout.limit is not None and len(bout.table) >= bout.limit:
        refusal = _at_limit(bout.limit)
    return (
        refusal
        or throw_card_refusal(position, card)
        or throw_turn_in_bout(position, player)
        or as_suit_refusal(position, card, action.get("as_suit"))
    )


def _defend_refusal(position: Position, player: int, action: Action) -> Refusal | None:
    target, card, as_suit = action["target"], action["card"], action.get("as_suit")
    return (
        defend_turn(position, player)
        or target_refusal(position, target)
        or _held_refusal(position, player, card)
        or as_suit_refusal(position, card, as_suit)
        or beats_refusal(position, target, card, as_suit)
    )


def _transfer_refusal(position: Position, player: int, action: Action) -> Refusal | None:
    card = action["card"]
    return (
        transfer_turn(position, player)
        or _held_refusal(position, player, card)
        or transfer_refusal(position)[0]
        or transfer_card_refusal(position, card)
        or as_suit_refusal(position, card, action.get("as_suit"))
    )


def _turn_refusal(
    turn: Callable[[Position, int], Refusal | None],
) -> Callable[[Position, int, Action], Refusal | None]:
    return lambda position, player, action: turn(position, player)


_REFUSALS: Final[dict[str, Callable[[Position, int, Action], Refusal | None]]] = {
    "attack": _attack_refusal,
    "throw": _throw_refusal,
    "defend": _defend_refusal,
    "transfer": _transfer_refusal,
    "take": _turn_refusal(take_turn),
    "pass": _turn_refusal(pass_turn),
    "swap_trump": _turn_refusal(swap_refusal),
    "reverse": _turn_refusal(reverse_turn),
}


# --- the actions never listed: a player's standing choice, and what the site applies for them ------


def _check_auto_pass(position: Position, player: int, action: Action) -> Move:
    on = action["on"]
    if type(on) is not bool:
        raise IllegalAction(gettext_noop("on is true (don't wait for me to throw in) or false"))
    if player in position.finished:
        raise IllegalAction(gettext_noop("you are out of the game already"))
    if on == (player in position.auto_pass):
        if on:
            raise IllegalAction(gettext_noop("the game already does not wait for you to throw in"))
        raise IllegalAction(gettext_noop("the game already waits for you to throw in"))
    return Move("auto_pass", player, on=on)


def _check_timeout(position: Position, player: int, action: Action) -> Move:
    if player not in waiting_for(position):
        raise IllegalAction(gettext_noop("the game is not waiting for player {player}"), player=player)
    return Move("timeout", player)


def _check_resign(position: Position, player: int, action: Action) -> Move:
    if player in position.finished:
        raise IllegalAction(gettext_noop("you are out of the game already"))
    return Move("resign", player)


def _check_claim(position: Position, player: int, action: Action) -> Move:
    clock = action.get("clock", False)
    if type(clock) is not bool:
        raise IllegalAction(gettext_noop("clock is true for a game with a clock, else false"))
    refusal = why_no_claim(position, player, waited=action["waited"], clock=clock)
    if refusal is not None:
        raise refusal
    return Move("claim", player, waited=action["waited"], clock=clock)


_UNLISTED: Final[dict[str, Callable[[Position, int, Action], Move]]] = {
    "auto_pass": _check_auto_pass,
    "timeout": _check_timeout,
    "resign": _check_resign,
    "claim": _check_claim,
}
