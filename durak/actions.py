"""Actions: the JSON a player sends, and :class:`Move`, the same action as a value.

The engine's edge speaks JSON objects (``{"type": "defend", "player": 1, "target": "6S", "card":
"8S"}``); :class:`Move` is one such action as a frozen value that round-trips with it, the way
python-chess's ``Move`` round-trips with UCI. The fields of every action type are
:mod:`durak.schema`'s declarations, stated once.

>>> move = Move.from_json({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
>>> move
Move(type='defend', player=1, cards=(), card='8S', target='6S', as_suit=None, on=None, waited=None, clock=None)
>>> move.to_json()
{'type': 'defend', 'player': 1, 'target': '6S', 'card': '8S'}
>>> Move.from_json({"type": "attack", "player": 0, "cards": ["7S", "7H"]}).cards
('7S', '7H')
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, TypeAlias

from durak import schema
from durak.cards import ALL_CARDS, SUITS
from durak.errors import IllegalAction
from durak.messages import gettext_noop

#: An action as JSON data, the engine's public form of it.
Action: TypeAlias = dict[str, Any]

#: The moves ``legal_actions`` offers.
ACTION_TYPES: Final = tuple(name for name, kind in schema.ACTIONS.items() if kind.group == "move")
#: Actions the site applies for a player rather than a choice offered to them: ``timeout`` when the
#: player's time runs out, ``resign`` when they walk away (leave a running game, or are suspended),
#: ``claim`` when a player the game does not wait for claims a game without a clock that has waited
#: too long on the others (:meth:`durak.Game.why_no_claim`).
SYSTEM_ACTION_TYPES: Final = tuple(name for name, kind in schema.ACTIONS.items() if kind.group == "system")
#: A player's standing choices, not moves: never in ``legal_actions``, never waited for, accepted
#: from a player still in the game at any time. ``auto_pass`` (``"on": true`` or ``false``): don't
#: wait for me to throw in.
PREFERENCE_ACTION_TYPES: Final = tuple(
    name for name, kind in schema.ACTIONS.items() if kind.group == "preference"
)
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
    kind: (declared.required, declared.allowed) for kind, declared in schema.ACTIONS.items()
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
    def from_json(cls, data: object, players: int = 6) -> Move:
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
        for name, of in (("on", bool), ("waited", int), ("clock", bool)):
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
