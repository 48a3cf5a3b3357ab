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
from typing import Final

from durak.actions import Action, Move, card_of, check_fields, check_kind_and_player
from durak.cards import RANK_OF, SUITS
from durak.errors import IllegalAction
from durak.messages import Plural, gettext_noop, ngettext_noop
from durak.state import Position


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
    rules = position.rules
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
    if not position.seating.opponents(player, defender):
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


def throw_ranks(position: Position) -> set[str] | frozenset[str]:
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
    known = position.adding.get(player)
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
    if position.rules.throw_priority == "free" or player == attacker:
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
    defender, passed, auto_pass = position.defender, bout.passed, position.auto_pass
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


# --- listing the legal actions --------------------------------------------------------------------


def legal_actions(position: Position, player: int) -> list[Action]:
    """Every action ``player`` may take now, multi-card openings included: copies of
    :func:`listed_actions`, which ``apply`` checks an action against."""
    if not position.bout.table:
        if position.over or not 0 <= player < position.players:
            return []
        return _listed(position, player)
    known = listed_actions(position, player)
    if not known:
        return []
    return list(map(dict.copy, known))


def listed_actions(position: Position, player: int) -> Sequence[Action]:
    """The position's own list of what ``player`` may do now, remembered until the next move; not
    copies, so only for code that never changes them (the search bot's playouts, which apply
    them as they are)."""
    known = position.legal.get(player)
    if known is None:
        if position.over or not 0 <= player < position.players:
            return ()
        known = position.legal[player] = _listed(position, player)
    return known


def _listed(position: Position, player: int) -> list[Action]:
    bout = position.bout
    actions: list[Action] = []
    if not bout.table:
        if player == position.attacker:
            actions = _attacks(position, player)
            if position.may_reverse == player:
                actions.append({"type": "reverse", "player": player})
    elif player == position.defender:
        actions = _defences(position, player)
    elif player not in bout.passed and may_add(position, player):
        if player == position.attacker or has_priority(position, player):
            ranks = throw_ranks(position)  # may_add: room, and the rules let them add
            actions = [
                {"type": "throw", "player": player, "card": card}
                for card in position.hands[player]
                if RANK_OF[card] in ranks
            ]
            if position.spells.naming:
                actions = _name_eights(position, actions)
        if player not in position.auto_pass:
            actions.append({"type": "pass", "player": player})
    swap = position.swap_card
    if swap is not None and swap in position.hands[player] and swap_refusal(position, player) is None:
        actions.append({"type": "swap_trump", "player": player})
    return actions


def _attacks(position: Position, player: int) -> list[Action]:
    hand = position.hands[player]
    actions: list[Action] = [{"type": "attack", "player": player, "cards": [card]} for card in hand]
    if position.rules.multi_card_attack:
        by_rank: dict[str, list[str]] = {}
        for card in hand:
            rank = RANK_OF[card]
            if rank in by_rank:
                by_rank[rank].append(card)
            else:
                by_rank[rank] = [card]
        assert position.defender is not None
        if len(by_rank) < len(hand) and (limit := position.limit_against(position.defender)) > 1:
            for group in by_rank.values():
                if len(group) == 2:  # the usual pair: one opening of both, the group itself
                    actions.append({"type": "attack", "player": player, "cards": group})
                elif len(group) > 2:
                    for size in range(2, min(len(group), limit) + 1):
                        for cards in combinations(group, size):
                            actions.append({"type": "attack", "player": player, "cards": list(cards)})
    if position.spells.naming:
        actions = _name_eights(position, actions)
    return actions


def _defences(position: Position, player: int) -> list[Action]:
    bout = position.bout
    if bout.taking:
        return []
    hand = position.hands[player]
    actions: list[Action] = []
    if bout.unbeaten:
        attacks = bout.attacks
        if bout.unbeaten == len(attacks):  # none beaten yet, as after every attack card landed
            unbeaten = attacks
        else:  # enumerate, not zip(strict=True), which costs more than the rest of this line
            unbeaten = [attacks[i] for i, pair in enumerate(bout.table) if pair[1] is None]
        if position.spells.active:
            for attack in unbeaten:
                for card in hand:
                    for suit in position.suits_to_name(card):
                        if position.beats(attack, card, suit):
                            action: Action = {
                                "type": "defend",
                                "player": player,
                                "target": attack,
                                "card": card,
                            }
                            if suit is not None:
                                action["as_suit"] = suit
                            actions.append(action)
        else:
            beaten_by = position.beaten_by
            for attack in unbeaten:
                beaters = beaten_by[attack]
                actions += [
                    {"type": "defend", "player": player, "target": attack, "card": card}
                    for card in hand
                    if card in beaters
                ]
    if position.rules.transfer and transfer_refusal(position)[0] is None:
        rank = RANK_OF[bout.attacks[0]]
        transfers: list[Action] = [
            {"type": "transfer", "player": player, "card": card} for card in hand if RANK_OF[card] == rank
        ]
        if position.spells.naming:
            transfers = _name_eights(position, transfers)
        actions.extend(transfers)
    if bout.unbeaten:
        actions.append({"type": "take", "player": player})
    return actions


def _name_eights(position: Position, actions: list[Action]) -> list[Action]:
    """Each action that plays an enchanted eight, once for every suit it may be named as."""
    named: list[Action] = []
    for action in actions:
        card = action["cards"][0] if "cards" in action else action["card"]
        for suit in position.suits_to_name(card):
            if suit is None:
                named.append(action)
            else:
                named.append({**action, "as_suit": suit})
    return named


# --- checking an action ---------------------------------------------------------------------------


def listed_move(position: Position, action: object) -> Move | None:
    """The move of ``action`` if it is one that ``legal_actions`` listed since the last move
    (so the rules allow it as they stand), else None: nothing to check again."""
    if type(action) is not dict:
        return None
    player = action.get("player")
    if type(player) is not int:  # a listed action's player is an int, never an equal True
        return None
    known = position.legal.get(player)
    if known is None or action not in known:
        return None
    get = action.get
    cards = get("cards")
    # All nine fields in order, without Move()'s keyword handling: this runs for nearly every move.
    return _new_move(
        Move,
        (
            action["type"],
            player,
            () if cards is None else tuple(cards),
            get("card"),
            get("target"),
            get("as_suit"),
            None,
            None,
            None,
        ),
    )


_new_move: Final = tuple.__new__


def why_illegal(position: Position, action: object) -> IllegalAction | None:
    """Why ``action`` may not be applied now, or None if it may."""
    try:
        check(position, action)
    except IllegalAction as refusal:
        return refusal
    return None


def check(position: Position, action: object) -> Move:
    """``action`` as a move ready to play, or :class:`IllegalAction` saying why not."""
    kind, player = check_shape(position, action)
    assert isinstance(action, dict)
    return check_rules(position, kind, player, action)


def check_shape(position: Position, action: object) -> tuple[str, int]:
    """The type and player of ``action``, a JSON action of a known type with its fields, for a
    seat of this game while it runs."""
    kind, player = check_kind_and_player(action, position.players)
    if position.over:
        raise IllegalAction(gettext_noop("the game is over"))
    assert isinstance(action, dict)
    check_fields(kind, action)
    return kind, player


def check_rules(position: Position, kind: str, player: int, action: Action) -> Move:
    """The move of a well-formed ``action`` (:func:`check_shape`) if the rules allow it now."""
    return _CHECKS[kind](position, player, action)


def _card_in_hand(position: Position, player: int, value: object) -> str:
    card = card_of(value)
    if card not in position.hands[player]:
        raise IllegalAction(gettext_noop("you do not hold {card}"), card=card)
    return card


def _as_suit(position: Position, cards: list[str], action: Action) -> str | None:
    """The suit an enchanted eight among ``cards`` is played as (``as_suit``, any but trumps)."""
    as_suit = action.get("as_suit")
    if position.spells.naming and any(position.spells.names_suit(card) for card in cards):
        if as_suit not in SUITS or as_suit == position.trump:
            raise IllegalAction(
                gettext_noop("name a suit other than trumps for the enchanted eight: as_suit")
            )
        return str(as_suit)
    if as_suit is not None:
        raise IllegalAction(gettext_noop("only an enchanted eight is played as another suit"))
    return None


def _check_attack(position: Position, player: int, action: Action) -> Move:
    if position.bout.table:
        raise IllegalAction(gettext_noop("a bout is running: throw in a card of a rank on the table instead"))
    if player != position.attacker:
        raise IllegalAction(gettext_noop("it is player {player}'s turn to attack"), player=position.attacker)
    given = action["cards"]
    if not isinstance(given, list) or not given:
        raise IllegalAction(gettext_noop("an attack needs a list of one or more cards"))
    hand = position.hands[player]
    # A hand holds cards only: a value found in it is one (the rest are looked at one by one).
    cards = (
        given if all(card in hand for card in given) else [_card_in_hand(position, player, c) for c in given]
    )
    if len(set(cards)) != len(cards):
        raise IllegalAction(gettext_noop("the same card twice"))
    if len(cards) > 1:
        if not position.rules.multi_card_attack:
            raise IllegalAction(gettext_noop("these rules open a bout with one card"))
        if len({RANK_OF[card] for card in cards}) != 1:
            raise IllegalAction(gettext_noop("an attack of several cards must be all of one rank"))
    as_suit = _as_suit(position, cards, action)
    assert position.defender is not None
    limit = position.limit_against(position.defender)
    if len(cards) > limit:
        raise IllegalAction(
            ngettext_noop(
                "at most {limit} card may attack in this bout",
                "at most {limit} cards may attack in this bout",
                count="limit",
            ),
            limit=limit,
        )
    return _new_move(Move, ("attack", player, tuple(cards), None, None, as_suit, None, None, None))


def _check_throw(position: Position, player: int, action: Action) -> Move:
    bout = position.bout
    if not bout.table:
        raise IllegalAction(gettext_noop("no bout is running: open one with an attack"))
    if player == position.defender:
        raise IllegalAction(gettext_noop("the defender cannot throw in"))
    card = _card_in_hand(position, player, action["card"])
    refusal = throw_in_refusal(position, player)
    if refusal is not None:
        raise refusal.error()
    if bout.limit is not None and len(bout.table) >= bout.limit:
        raise _at_limit(bout.limit).error()
    if RANK_OF[card] not in bout.ranks and not position.spells.thrown_in_freely(card):
        raise IllegalAction(
            gettext_noop("{card} cannot be thrown in: only ranks already on the table"), card=card
        )
    if player in bout.passed:
        raise IllegalAction(gettext_noop("you passed: wait until a new card lands on the table"))
    if not has_priority(position, player):
        raise IllegalAction(
            gettext_noop("player {player}, the main attacker, throws in first"), player=position.attacker
        )
    return Move("throw", player, card=card, as_suit=_as_suit(position, [card], action))


def _check_defend(position: Position, player: int, action: Action) -> Move:
    bout = position.bout
    if player != position.defender or not bout.table:
        raise IllegalAction(gettext_noop("only the defender can beat a card"))
    if bout.taking:
        raise YOU_TAKE.error()
    pair = bout.pair_of(action["target"])
    if pair is None:
        raise IllegalAction(
            gettext_noop("{card} is not an attack card on the table"), card=repr(action["target"])
        )
    target = pair[0]
    assert target is not None
    if pair[1] is not None:
        raise IllegalAction(gettext_noop("{card} is already beaten"), card=target)
    card = _card_in_hand(position, player, action["card"])
    as_suit = _as_suit(position, [card], action)
    if not position.beats(target, card, as_suit):
        raise IllegalAction(gettext_noop("{card} does not beat {target}"), card=card, target=target)
    return Move("defend", player, card=card, target=target, as_suit=as_suit)


def _check_transfer(position: Position, player: int, action: Action) -> Move:
    bout = position.bout
    if player != position.defender or not bout.table:
        raise IllegalAction(gettext_noop("only the defender can transfer"))
    if not position.rules.transfer:
        raise IllegalAction(gettext_noop("these rules have no transfer"))
    card = _card_in_hand(position, player, action["card"])
    refusal, _ = transfer_refusal(position)
    if refusal is not None:
        raise refusal.error()
    if RANK_OF[card] != RANK_OF[bout.attacks[0]]:
        raise IllegalAction(gettext_noop("{card} is not of the rank on the table"), card=card)
    return Move("transfer", player, card=card, as_suit=_as_suit(position, [card], action))


def _check_take(position: Position, player: int, action: Action) -> Move:
    bout = position.bout
    if player != position.defender or not bout.table:
        raise IllegalAction(gettext_noop("only the defender can take the cards"))
    if bout.taking:
        raise IllegalAction(gettext_noop("you are already taking the cards"))
    if not bout.unbeaten:
        raise IllegalAction(gettext_noop("every card is beaten: there is nothing to take"))
    return Move("take", player)


def _check_pass(position: Position, player: int, action: Action) -> Move:
    bout = position.bout
    if not bout.table:
        raise IllegalAction(gettext_noop("no bout is running"))
    if player == position.defender:
        raise IllegalAction(gettext_noop("the defender beats, transfers or takes; only attackers pass"))
    if player in bout.passed:
        raise IllegalAction(gettext_noop("you have passed already"))
    if player in position.auto_pass:
        raise IllegalAction(
            gettext_noop("you asked not to be waited for to throw in: you count as passed already")
        )
    refusal = pass_refusal(position, player)
    if refusal is not None:
        raise refusal.error()
    return Move("pass", player)


def _check_swap_trump(position: Position, player: int, action: Action) -> Move:
    refusal = swap_refusal(position, player)
    if refusal is not None:
        raise refusal.error()
    return Move("swap_trump", player)


def _check_reverse(position: Position, player: int, action: Action) -> Move:
    if position.may_reverse != player or position.bout.table:
        raise IllegalAction(
            gettext_noop(
                "only a defender who beat off a bout with an enchanted king may reverse the "
                "direction of play, before attacking"
            )
        )
    return Move("reverse", player)


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


_CHECKS: Final[dict[str, Callable[[Position, int, Action], Move]]] = {
    "attack": _check_attack,
    "throw": _check_throw,
    "defend": _check_defend,
    "transfer": _check_transfer,
    "take": _check_take,
    "pass": _check_pass,
    "swap_trump": _check_swap_trump,
    "reverse": _check_reverse,
    "auto_pass": _check_auto_pass,
    "timeout": _check_timeout,
    "resign": _check_resign,
    "claim": _check_claim,
}
