"""What each player may see (boardgame.io's playerView): :func:`view_of`, and the shapes of the view and
of the events, each declared once.

Never a card of another hand or of the stock, except the face-up trump card under the stock.
:class:`View` and :data:`EVENT_SHAPES` are TypedDicts: each key's JSON type, its meaning (a
string in ``Annotated``) and what a string holds (:class:`~durak.actions.JsonKind`), an event
type's meaning in its docstring. The engine's tests check ``Game.view()`` and ``Game.events``
against them, and the site's API builds its OpenAPI schema from them. ``Game.view()`` and
``Game.events`` keep their ``dict[str, Any]`` annotations, which the site and the bots are
written against (a TypedDict is no ``dict[str, Any]`` to mypy).
"""

# No postponed annotations here: a TypedDict reads NotRequired from its annotations as it is made.
from typing import Annotated, Any, Final, Literal, NotRequired, TypeAlias, TypedDict, get_args

from durak.actions import Action, Card, JsonKind, Length, Seat, Suit, type_name
from durak.cards import sort_hand
from durak.enchanted import ENCHANTABLE_RANKS
from durak.legality import legal_json, waiting_for
from durak.outcome import EndReason
from durak.state import Position
from durak.storage import rules_json

#: How a bout ended: beaten off to the discard, or taken by the defender.
BoutResult: TypeAlias = Literal["beaten", "taken"]
#: A rank an enchantment may fall on.
EnchantableRank: TypeAlias = Annotated[str, JsonKind("rank", ENCHANTABLE_RANKS)]
#: ``Rules.to_dict()``: every rule option.
RulesJson: TypeAlias = Annotated[dict[str, Any], JsonKind("rules")]
#: An entry of ``Game.events``: one of :data:`EVENT_SHAPES`.
EventJson: TypeAlias = Annotated[dict[str, Any], JsonKind("event")]
_Seats: TypeAlias = list[Seat]


class LastBout(TypedDict):
    """How the last bout ended."""

    attacker: Seat
    defender: Seat
    result: BoutResult


class End(TypedDict):
    """How the game ended."""

    reason: EndReason
    player: Annotated[Seat | None, "Whom the end was about: the fool, or who ran out of time or resigned."]
    team: NotRequired[Annotated[int | None, "The losing team, in team games (only there)."]]


# --- the events --------------------------------------------------------------------------------------


class BoutEnd(LastBout):
    """The bout ended: its cards went to the discard (beaten) or to the defender (taken)."""

    type: Literal["bout_end"]
    cards: Annotated[list[Card], "Every card of the table, all played face up."]


class Drew(TypedDict):
    """A player drew from the stock (how many, never which)."""

    type: Literal["drew"]
    player: Seat
    count: int
    face_up: NotRequired[
        Annotated[Card, "The face-up trump card, when this draw emptied the stock (it is drawn last)."]
    ]


class Out(TypedDict):
    """A player has no cards left and the stock is gone: they are out."""

    type: Literal["out"]
    player: Seat


class Swap(TypedDict):
    """A player swapped their lowest trump for the face-up trump card."""

    type: Literal["swap"]
    player: Seat
    took: Annotated[Card, "The face-up card taken into the hand."]
    gave: Annotated[Card, "The card laid face up in its place."]


class Automatic(TypedDict):
    """A timeout under the gentle rule: the safe move played for the player."""

    type: Literal["automatic"]
    action: Annotated[Action, "The action played."]


class GameOver(End):
    """The game is over."""

    type: Literal["game_over"]


#: One entry of ``Game.events``.
Event = BoutEnd | Drew | Out | Swap | Automatic | GameOver
#: Every event type's declaration by its name.
EVENT_SHAPES: Final[dict[str, Any]] = {type_name(shape): shape for shape in get_args(Event)}


# --- the view ----------------------------------------------------------------------------------------


class View(TypedDict):
    """``Game.view(player)``: every key, in its order."""

    player: Annotated[Seat | None, "Your seat; null for a spectator."]
    players: Annotated[int, "Seats at the table."]
    dealer: Seat
    hand: Annotated[list[Card], "Your cards, sorted; empty for a spectator."]
    hand_sizes: Annotated[list[int], "Cards held, by seat."]
    table: Annotated[
        list[Annotated[list[Card | None], Length(min=2, max=2)]], "[attack card, defence card or null] pairs."
    ]
    named_suits: Annotated[
        dict[Card, Suit], "Card on the table -> the suit it was played as (enchanted eights)."
    ]
    trump: Annotated[Suit | None, "The trump suit; null when an enchanted eight turned up (no trumps)."]
    trump_card: Annotated[Card | None, "The face-up card under the stock; null when no stock."]
    stock_size: int
    discard_size: int
    discarded: Annotated[list[Card], "The beaten-off cards, face down now but seen by everyone."]
    attacker: Seat | None
    defender: Seat | None
    direction: Annotated[Literal[1, -1], "1 clockwise, -1 after play was reversed."]
    taking: Annotated[bool, "The defender has given up and takes the table."]
    passed: Annotated[_Seats, "Who has passed since the last card landed."]
    limit: Annotated[int | None, "Most attack cards this bout."]
    finished: Annotated[_Seats, "Seats out, in order."]
    over: bool
    loser: Annotated[Seat | None, "The fool of a game without teams, once over."]
    teams: Annotated[list[_Seats] | None, "The seats of each team; null without teams."]
    losing_team: Annotated[int | None, "The team that lost a team game, once over."]
    waiting_for: Annotated[_Seats, "Whom the game waits for."]
    actions: Annotated[list[Action], "Your legal actions (empty for a spectator)."]
    last_bout: LastBout | None
    end: End | None
    enchanted: Annotated[list[EnchantableRank], "Enchanted ranks."]
    rules: Annotated[RulesJson, "Every rule option the game is played with."]
    # The rest of the public state, with which a program can rebuild the game from this view and
    # a guess of the hidden cards (Game.from_view).
    bouts: Annotated[int, "Bouts finished so far."]
    defended: Annotated[bool, "Someone has beaten off a bout in this game."]
    slot: Annotated[Seat | None, "Black Book team durak: the seat whose turn it is; else null."]
    transfer_blocked: Annotated[bool, "An enchanted nine forbids a transfer."]
    closed: Annotated[bool, "An enchanted queen closed the bout to throw-ins."]
    king_defended: Annotated[bool, "The defender has beaten a card with a king."]
    may_reverse: Annotated[Seat | None, "The seat that may reverse the direction of play now."]
    timeouts: Annotated[list[int], "Timeouts in a row, by seat."]
    auto_pass: Annotated[_Seats, "Seats that asked not to be waited for to throw in."]
    format: Annotated[
        int,
        "The engine's state format: 2 waits for everyone allowed to throw in; 1, a game stored "
        "before, only for those holding a card that fits.",
    ]


def view_of(position: Position, player: int | None) -> dict[str, Any]:
    """What ``player`` may see (``None``: a spectator), as :meth:`durak.Game.view`."""
    if player is not None and not 0 <= player < position.players:
        raise ValueError(f"no player {player!r} in this game")
    bout = position.bout
    stock = position.stock
    return {
        "player": player,
        "players": position.players,
        "dealer": position.dealer,
        "hand": sort_hand(position.hands[player], position.trump) if player is not None else [],
        "hand_sizes": [len(hand) for hand in position.hands],
        "table": [list(pair) for pair in bout.table],
        "named_suits": dict(bout.named),
        "trump": position.trump,
        "trump_card": stock[-1] if stock else None,
        "stock_size": len(stock),
        "discard_size": len(position.discard),
        "discarded": list(position.discard),
        "attacker": position.attacker,
        "defender": position.defender,
        "direction": position.direction,
        "taking": bout.taking,
        "passed": sorted(bout.passed),
        "limit": bout.limit,
        "finished": list(position.finished),
        "over": position.over,
        "loser": position.loser,
        "teams": position.teams,
        "losing_team": position.losing_team,
        "waiting_for": waiting_for(position),
        "actions": legal_json(position, player) if player is not None else [],
        "last_bout": dict(position.last_bout) if position.last_bout else None,
        "end": dict(position.end) if position.end else None,
        "enchanted": list(position.rules.enchanted),
        "rules": rules_json(position.rules),
        # The rest of the public state, so that a player's program can rebuild the game from
        # this view and a guess of the hidden cards (Game.from_view).
        "bouts": position.bouts,
        "defended": position.defended,
        "slot": position.slot,
        "transfer_blocked": bout.transfer_blocked,
        "closed": bout.closed,
        "king_defended": bout.king_defended,
        "may_reverse": position.may_reverse,
        "timeouts": list(position.timeouts),
        "auto_pass": sorted(position.auto_pass),
        "format": position.state_format,
    }
