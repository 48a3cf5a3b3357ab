"""Actions: the JSON a player sends, and :class:`Move`, the same action as a value.

The engine's edge speaks JSON objects (``{"type": "defend", "player": 1, "target": "6S", "card":
"8S"}``); :class:`Move` is one such action as a frozen value that round-trips with it, the way
python-chess's ``Move`` round-trips with UCI. Every action type is declared once, as a
TypedDict (:data:`ACTION_SHAPES`: its fields, their JSON types and meanings in ``Annotated``,
the type's meaning in its docstring); what the engine checks of an incoming action and what the
site's API documents are made from these declarations.

>>> move = Move.from_json({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
>>> move
Move(type='defend', player=1, cards=(), card='8S', target='6S', as_suit=None, on=None, waited=None, clock=None)
>>> move.to_json()
{'type': 'defend', 'player': 1, 'target': '6S', 'card': '8S'}
>>> Move.from_json({"type": "attack", "player": 0, "cards": ["7S", "7H"]}).cards
('7S', '7H')
"""

# No postponed annotations here: a TypedDict reads NotRequired from its annotations as it is made.
from dataclasses import dataclass, field
from typing import (
    Annotated,
    Any,
    Final,
    Literal,
    NamedTuple,
    NotRequired,
    Required,
    TypeAlias,
    TypedDict,
    get_args,
    get_origin,
)

from durak.cards import ALL_CARDS, SUITS
from durak.errors import IllegalAction
from durak.messages import gettext_noop

# --- what a declared JSON value is, beyond its Python type ----------------------------------------


@dataclass(frozen=True, slots=True)
class JsonKind:
    """``Annotated`` metadata of a declared shape: what a string or an object holds that its
    Python type does not say. ``name``: ``card`` (rank then suit, ``"10H"``), ``suit``, ``rank``
    (an enchantable one), ``rules`` (``Rules.to_dict()``), ``action`` (of any type in
    :data:`ACTION_SHAPES`), ``event`` (of any type in ``EVENT_SHAPES``); ``values``: all a
    string of this kind may be. A plain ``str`` in the same ``Annotated`` is the value's meaning.

    >>> from typing import get_args
    >>> get_args(Card)[1].name, "7S" in get_args(Card)[1].values
    ('card', True)
    """

    name: Literal["card", "suit", "rank", "rules", "action", "event"]
    values: frozenset[str] | tuple[str, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Length:
    """``Annotated`` metadata of a declared list: the fewest and the most items it may have."""

    min: int | None = None
    max: int | None = None


#: A card: rank then suit (``"10H"``).
Card: TypeAlias = Annotated[str, JsonKind("card", ALL_CARDS)]
#: A suit: ``"S"``, ``"H"``, ``"D"`` or ``"C"``.
Suit: TypeAlias = Annotated[str, JsonKind("suit", SUITS)]
#: An action as JSON data, the engine's public form of it: one of :data:`ACTION_SHAPES`.
Action: TypeAlias = Annotated[dict[str, Any], JsonKind("action")]
#: A seat: 0 for the first player.
Seat: TypeAlias = int

# --- the actions, each type declared once ---------------------------------------------------------


class _Action(TypedDict):
    player: Annotated[Seat, "The seat the action is for."]


_AsSuit: TypeAlias = Annotated[Suit, "The suit an enchanted eight is played as."]


class Attack(_Action):
    """Open a bout with one card, or several of one rank where the rules allow."""

    type: Literal["attack"]
    cards: Annotated[list[Card], Length(min=1), "The cards laid down."]
    as_suit: NotRequired[_AsSuit]


class Throw(_Action):
    """Add a card of a rank already on the table."""

    type: Literal["throw"]
    card: Annotated[Card, "The card thrown in."]
    as_suit: NotRequired[_AsSuit]


class Defend(_Action):
    """Beat the attack card ``target`` with ``card``."""

    type: Literal["defend"]
    target: Annotated[Card, "The attack card on the table to beat."]
    card: Annotated[Card, "The card that beats it."]
    as_suit: NotRequired[_AsSuit]


class Transfer(_Action):
    """Pass the attack on to the next player with a card of the same rank (perevodnoy)."""

    type: Literal["transfer"]
    card: Annotated[Card, "A card of the rank on the table."]
    as_suit: NotRequired[_AsSuit]


class Take(_Action):
    """The defender picks up the table."""

    type: Literal["take"]


class Pass(_Action):
    """Throw in nothing more this time."""

    type: Literal["pass"]


class SwapTrump(_Action):
    """Swap the lowest trump from your hand for the face-up trump card."""

    type: Literal["swap_trump"]


class Reverse(_Action):
    """Turn the direction of play around (after an enchanted king, where the rules allow)."""

    type: Literal["reverse"]


class AutoPass(_Action):
    """Don't wait for me to throw in (``on``: true), or wait again (false): a standing choice,
    never in ``legal_actions``, accepted at any time while the player is in the game."""

    type: Literal["auto_pass"]
    on: Annotated[bool, "True: don't wait for me to throw in; false: wait again."]


class Timeout(_Action):
    """The player's time ran out (applied by the site)."""

    type: Literal["timeout"]


class Resign(_Action):
    """The player resigned (walked away from a running game, or was suspended): they are the
    fool at once (in a team game their team loses)."""

    type: Literal["resign"]


class Claim(_Action):
    """A player the game does not wait for claimed a game without a clock that had waited
    ``waited`` seconds on the others, who lose as if they had resigned."""

    type: Literal["claim"]
    waited: Annotated[int, "Seconds the game had waited on the same players, with no move made."]
    clock: NotRequired[
        Annotated[bool, "True for a game with a clock (the site's time control), which cannot be claimed."]
    ]


def unwrap(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """A declared field's type without ``NotRequired`` and ``Annotated``, and the metadata
    ``Annotated`` gave it (meanings, a :class:`JsonKind`, a :class:`Length`).

    >>> unwrap(Attack.__annotations__["cards"])[0]
    list[typing.Annotated[str, JsonKind(name='card')]]
    """
    metadata: tuple[Any, ...] = ()
    while True:
        origin = get_origin(hint)
        if origin in (NotRequired, Required):
            hint = get_args(hint)[0]
        elif origin is Annotated:
            metadata += hint.__metadata__
            hint = hint.__origin__
        else:
            return hint, metadata


def type_name(shape: Any) -> str:
    """The ``type`` of a declared action or event shape: ``type_name(Attack) == "attack"``."""
    return str(get_args(shape.__annotations__["type"])[0])


def meaning_of(shape: Any) -> str:
    """A declared shape's docstring as one line: what an action or event type is."""
    return " ".join((shape.__doc__ or "").split())


#: The moves ``legal_actions`` offers.
_MOVES: Final = (Attack, Throw, Defend, Transfer, Take, Pass, SwapTrump, Reverse)
#: A player's standing choices, not moves: never in ``legal_actions``, never waited for, accepted
#: from a player still in the game at any time. ``auto_pass`` (``"on": true`` or ``false``): don't
#: wait for me to throw in.
_PREFERENCES: Final = (AutoPass,)
#: Actions the site applies for a player rather than a choice offered to them: ``timeout`` when the
#: player's time runs out, ``resign`` when they walk away (leave a running game, or are suspended),
#: ``claim`` when a player the game does not wait for claims a game without a clock that has waited
#: too long on the others (:meth:`durak.Game.why_no_claim`).
_SYSTEM: Final = (Timeout, Resign, Claim)

#: Every action type's declaration (a TypedDict) by its name.
ACTION_SHAPES: Final[dict[str, Any]] = {
    type_name(shape): shape for shape in (*_MOVES, *_PREFERENCES, *_SYSTEM)
}

#: The moves ``legal_actions`` offers.
ACTION_TYPES: Final = tuple(type_name(shape) for shape in _MOVES)
#: Actions the site applies for a player (``timeout``, ``resign``, ``claim``).
SYSTEM_ACTION_TYPES: Final = tuple(type_name(shape) for shape in _SYSTEM)
#: A player's standing choices (``auto_pass``), not moves.
PREFERENCE_ACTION_TYPES: Final = tuple(type_name(shape) for shape in _PREFERENCES)
#: The action types that are moves of the game: those ``legal_actions`` offers and the system
#: actions the site applies for a player. A preference is logged and applied like them but is no
#: move: it restarts no clock and no claim's wait, and it is nobody's "last move" (:func:`is_move`).
MOVE_TYPES: Final = frozenset(ACTION_TYPES + SYSTEM_ACTION_TYPES)


def is_move(kind: str) -> bool:
    """Whether an action of type ``kind`` is a move of the game, as opposed to a preference.

    >>> is_move("attack"), is_move("timeout"), is_move("auto_pass")
    (True, True, False)
    """
    return kind in MOVE_TYPES


#: The fields each action type must have, and all it may have.
ACTION_FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    kind: (frozenset(shape.__required_keys__), frozenset(shape.__annotations__))
    for kind, shape in ACTION_SHAPES.items()
}
#: The declared fields that are a plain JSON boolean or integer (besides ``player``), by name.
_SCALAR_FIELDS: Final[dict[str, type]] = {
    name: plain
    for shape in ACTION_SHAPES.values()
    for name, hint in shape.__annotations__.items()
    if name != "player" and (plain := unwrap(hint)[0]) in (bool, int)
}


def check_kind_and_player(action: object, players: int) -> tuple[str, int]:
    """The type and the player of a JSON action for a game of ``players``, or the refusal of a
    value that is no action at all."""
    if not isinstance(action, dict):
        raise IllegalAction(gettext_noop("an action is a JSON object with a type and a player"))
    kind = action.get("type")
    player = action.get("player")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:  # the type may be any JSON value
        raise IllegalAction(
            gettext_noop("unknown action type {kind}: use one of {types}"),
            kind=repr(kind),
            types=", ".join(ACTION_TYPES),
        )
    if type(player) is not int or not 0 <= player < players:
        raise IllegalAction(gettext_noop("player must be a seat number from 0 to {last}"), last=players - 1)
    return kind, player


def check_fields(kind: str, action: Action) -> None:
    """Refuse a field the action type does not have, or a missing one it needs."""
    required, allowed = ACTION_FIELDS[kind]
    if not action.keys() <= allowed:
        extra = ", ".join(sorted(set(action) - allowed))
        raise IllegalAction(
            gettext_noop("unexpected field {field} in a {kind} action"), field=extra, kind=kind
        )
    if not required <= action.keys():
        missing = ", ".join(sorted(required - action.keys()))
        raise IllegalAction(gettext_noop("a {kind} action needs {fields}"), kind=kind, fields=missing)


def card_of(value: object) -> str:
    """``value`` as a card, or the refusal of anything else."""
    if not isinstance(value, str) or value not in ALL_CARDS:
        raise IllegalAction(
            gettext_noop("{card} is not a card: write rank then suit, like 10H or QS"), card=repr(value)
        )
    return value


class Move(NamedTuple):
    """One action as a value: its ``type`` and ``player`` and the fields of that type (the rest
    left at their defaults). Well formed, not necessarily legal: ``Game.apply`` decides.

    Immutable and without an instance dict; a named tuple rather than a frozen dataclass
    because the engine makes one per move it plays, and a frozen dataclass takes several times
    as long to build."""

    type: str
    player: int
    cards: tuple[str, ...] = ()
    card: str | None = None
    target: str | None = None
    as_suit: str | None = None
    on: bool | None = None
    waited: int | None = None
    clock: bool | None = None

    @classmethod
    def from_json(cls, data: object, players: int = 6) -> "Move":
        """The move a JSON action states, or :class:`IllegalAction` for one malformed (a field
        missing, unknown or of the wrong type). ``players``: the seats a player may be."""
        kind, player = check_kind_and_player(data, players)
        assert isinstance(data, dict)
        check_fields(kind, data)
        cards: tuple[str, ...] = ()
        if "cards" in data:
            if not isinstance(data["cards"], list) or not data["cards"]:
                raise IllegalAction(gettext_noop("an attack needs a list of one or more cards"))
            cards = tuple(card_of(card) for card in data["cards"])
        as_suit = data.get("as_suit")
        if as_suit is not None and as_suit not in SUITS:
            raise IllegalAction(
                gettext_noop("name a suit other than trumps for the enchanted eight: as_suit")
            )
        for name, of in _SCALAR_FIELDS.items():
            if name in data and type(data[name]) is not of:
                raise IllegalAction(
                    gettext_noop("{field} is a JSON {type}"), field=name, type=_JSON_NAMES[of]
                )
        return cls(
            kind,
            player,
            cards,
            card_of(data["card"]) if "card" in data else None,
            card_of(data["target"]) if "target" in data else None,
            as_suit,
            data.get("on"),
            data.get("waited"),
            data.get("clock"),
        )

    def to_json(self) -> Action:
        """The JSON action, its keys in the engine's order (``type``, ``player``, then the fields)."""
        data: Action = {"type": self.type, "player": self.player}
        if self.target is not None:
            data["target"] = self.target
        if self.card is not None:
            data["card"] = self.card
        if self.cards:
            data["cards"] = list(self.cards)
        if self.as_suit is not None:
            data["as_suit"] = self.as_suit
        if self.on is not None:
            data["on"] = self.on
        if self.waited is not None:
            data["waited"] = self.waited
        if self.clock is not None:
            data["clock"] = self.clock
        return data


_JSON_NAMES: Final = {bool: "boolean", int: "integer"}
