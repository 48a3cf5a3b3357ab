"""The engine's JSON, described once: each action type's fields, the view's keys, the events.

Standard library only, like the rest of the engine. The site's API builds its request and
response bodies (and so its OpenAPI schema) from these declarations, and the engine's tests check
``Game.view()``, ``legal_actions`` and ``events`` against them, so a key the engine adds or drops
shows up as a failing test rather than as a second description that went stale.

>>> from durak import schema
>>> [field.name for field in schema.ACTIONS["defend"].fields]
['target', 'card', 'as_suit']
>>> schema.mismatch({"type": "defend", "player": 1, "target": "6S", "card": "8S"}, schema.ACTION)
>>> schema.mismatch({"type": "defend", "player": 1, "card": "8S"}, schema.ACTION)
'defend: target is missing'
>>> import durak
>>> view = durak.Game.new(durak.Rules.preset("classic"), players=2, seed=7).view(0)
>>> tuple(view) == schema.VIEW_KEYS, schema.mismatch(view, schema.VIEW)
(True, None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final, Literal, get_args

from durak.cards import ALL_CARDS, SUITS
from durak.enchanted import ENCHANTABLE_RANKS
from durak.outcome import EndReason

#: What a value is. ``card``: a card string such as ``"10H"``; ``rules``: ``Rules.to_dict()``;
#: ``action``: an action of any type in :data:`ACTIONS`, with its ``"player"``; ``event``: an
#: event of any type in :data:`EVENTS`; ``choice``: one
#: of :attr:`JsonType.choices`; ``list``, ``map`` (string keys): of :attr:`JsonType.item`;
#: ``object``: exactly :attr:`JsonType.fields`.
Kind = Literal[
    "integer", "boolean", "string", "card", "rules", "action", "event", "choice", "list", "map", "object"
]


@dataclass(frozen=True, slots=True)
class JsonType:
    """The JSON type of a field, nested as deep as the value is."""

    kind: Kind
    nullable: bool = False
    item: JsonType | None = None
    choices: tuple[Any, ...] = ()
    fields: tuple[Field, ...] = ()
    #: An object's name, for whoever documents it (the API's schema component).
    name: str = ""
    min_items: int | None = None
    max_items: int | None = None

    def or_null(self) -> JsonType:
        return replace(self, nullable=True)


@dataclass(frozen=True, slots=True)
class Field:
    """One key of an action, a view or an event. ``required``: always present (else it may be
    left out)."""

    name: str
    type: JsonType
    meaning: str = ""
    required: bool = True


def list_of(item: JsonType, *, min_items: int | None = None, max_items: int | None = None) -> JsonType:
    return JsonType("list", item=item, min_items=min_items, max_items=max_items)


def map_of(item: JsonType) -> JsonType:
    return JsonType("map", item=item)


def choice(*values: Any) -> JsonType:
    return JsonType("choice", choices=values)


def object_of(name: str, *fields: Field) -> JsonType:
    return JsonType("object", fields=fields, name=name)


INTEGER: Final = JsonType("integer")
BOOLEAN: Final = JsonType("boolean")
STRING: Final = JsonType("string")
CARD: Final = JsonType("card")
SUIT: Final = choice(*SUITS)
SEATS: Final = list_of(INTEGER)
RULES: Final = JsonType("rules")
ACTION: Final = JsonType("action")
EVENT: Final = JsonType("event")

#: How a bout ended: beaten off to the discard, or taken by the defender.
BOUT_RESULTS: Final = ("beaten", "taken")
#: Why a game ended (:data:`durak.outcome.EndReason`).
END_REASONS: Final[tuple[str, ...]] = get_args(EndReason)


# --- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionType:
    """One type of action. ``group``: ``move``, offered by ``legal_actions``
    (:data:`durak.ACTION_TYPES`); ``preference``, a standing choice accepted at any time
    (:data:`durak.PREFERENCE_ACTION_TYPES`); ``system``, applied by the site for a player
    (:data:`durak.SYSTEM_ACTION_TYPES`). ``fields``: besides ``type`` and ``player``, which every
    action has."""

    name: str
    group: Literal["move", "preference", "system"]
    meaning: str
    fields: tuple[Field, ...] = ()

    @property
    def required(self) -> frozenset[str]:
        return frozenset(field.name for field in self.fields if field.required)

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset({"type", "player", *(field.name for field in self.fields)})


#: Every action has these two.
ACTION_COMMON: Final = (
    Field("type", STRING, "The action type."),
    Field("player", INTEGER, "The seat the action is for."),
)

_AS_SUIT = Field("as_suit", SUIT, "The suit an enchanted eight is played as.", required=False)

ACTIONS: Final[dict[str, ActionType]] = {
    action.name: action
    for action in (
        ActionType(
            "attack",
            "move",
            "Open a bout with one card, or several of one rank where the rules allow.",
            (Field("cards", list_of(CARD, min_items=1), "The cards laid down."), _AS_SUIT),
        ),
        ActionType(
            "throw",
            "move",
            "Add a card of a rank already on the table.",
            (Field("card", CARD, "The card thrown in."), _AS_SUIT),
        ),
        ActionType(
            "defend",
            "move",
            "Beat the attack card ``target`` with ``card``.",
            (
                Field("target", CARD, "The attack card on the table to beat."),
                Field("card", CARD, "The card that beats it."),
                _AS_SUIT,
            ),
        ),
        ActionType(
            "transfer",
            "move",
            "Pass the attack on to the next player with a card of the same rank (perevodnoy).",
            (Field("card", CARD, "A card of the rank on the table."), _AS_SUIT),
        ),
        ActionType("take", "move", "The defender picks up the table."),
        ActionType("pass", "move", "Throw in nothing more this time."),
        ActionType("swap_trump", "move", "Swap the lowest trump from your hand for the face-up trump card."),
        ActionType(
            "reverse",
            "move",
            "Turn the direction of play around (after an enchanted king, where the rules allow).",
        ),
        ActionType(
            "auto_pass",
            "preference",
            "Don't wait for me to throw in (``on``: true), or wait again (false): a standing choice, "
            "never in ``legal_actions``, accepted at any time while the player is in the game.",
            (Field("on", BOOLEAN, "True: don't wait for me to throw in; false: wait again."),),
        ),
        ActionType("timeout", "system", "The player's time ran out (applied by the site)."),
        ActionType(
            "resign",
            "system",
            "The player resigned (walked away from a running game, or was suspended): they are the "
            "fool at once (in a team game their team loses).",
        ),
        ActionType(
            "claim",
            "system",
            "A player the game does not wait for claimed a game without a clock that had waited "
            "``waited`` seconds on the others, who lose as if they had resigned.",
            (
                Field(
                    "waited", INTEGER, "Seconds the game had waited on the same players, with no move made."
                ),
                Field(
                    "clock",
                    BOOLEAN,
                    "True for a game with a clock (the site's time control), which cannot be claimed.",
                    required=False,
                ),
            ),
        ),
    )
}


# --- the view --------------------------------------------------------------------------------------

LAST_BOUT: Final = object_of(
    "LastBout",
    Field("attacker", INTEGER),
    Field("defender", INTEGER),
    Field("result", choice(*BOUT_RESULTS)),
)
END: Final = object_of(
    "End",
    Field("reason", choice(*END_REASONS)),
    Field(
        "player", INTEGER.or_null(), "Whom the end was about: the fool, or who ran out of time or resigned."
    ),
    Field("team", INTEGER.or_null(), "The losing team, in team games (only there).", required=False),
)

#: ``Game.view(player)``: every key, in its order.
VIEW: Final = object_of(
    "EngineView",
    Field("player", INTEGER.or_null(), "Your seat; null for a spectator."),
    Field("players", INTEGER, "Seats at the table."),
    Field("dealer", INTEGER),
    Field("hand", list_of(CARD), "Your cards, sorted; empty for a spectator."),
    Field("hand_sizes", SEATS, "Cards held, by seat."),
    Field(
        "table",
        list_of(list_of(CARD.or_null(), min_items=2, max_items=2)),
        "[attack card, defence card or null] pairs.",
    ),
    Field("named_suits", map_of(SUIT), "Card on the table -> the suit it was played as (enchanted eights)."),
    Field("trump", SUIT.or_null(), "The trump suit; null when an enchanted eight turned up (no trumps)."),
    Field("trump_card", CARD.or_null(), "The face-up card under the stock; null when no stock."),
    Field("stock_size", INTEGER),
    Field("discard_size", INTEGER),
    Field("discarded", list_of(CARD), "The beaten-off cards, face down now but seen by everyone."),
    Field("attacker", INTEGER.or_null()),
    Field("defender", INTEGER.or_null()),
    Field("direction", choice(1, -1), "1 clockwise, -1 after play was reversed."),
    Field("taking", BOOLEAN, "The defender has given up and takes the table."),
    Field("passed", SEATS, "Who has passed since the last card landed."),
    Field("limit", INTEGER.or_null(), "Most attack cards this bout."),
    Field("finished", SEATS, "Seats out, in order."),
    Field("over", BOOLEAN),
    Field("loser", INTEGER.or_null(), "The fool of a game without teams, once over."),
    Field("teams", list_of(SEATS).or_null(), "The seats of each team; null without teams."),
    Field("losing_team", INTEGER.or_null(), "The team that lost a team game, once over."),
    Field("waiting_for", SEATS, "Whom the game waits for."),
    Field("actions", list_of(ACTION), "Your legal actions (empty for a spectator)."),
    Field("last_bout", LAST_BOUT.or_null()),
    Field("end", END.or_null()),
    Field("enchanted", list_of(choice(*ENCHANTABLE_RANKS)), "Enchanted ranks."),
    Field("rules", RULES, "Every rule option the game is played with."),
    # The rest of the public state, with which a program can rebuild the game from this view and
    # a guess of the hidden cards (Game.from_view).
    Field("bouts", INTEGER, "Bouts finished so far."),
    Field("defended", BOOLEAN, "Someone has beaten off a bout in this game."),
    Field("slot", INTEGER.or_null(), "Black Book team durak: the seat whose turn it is; else null."),
    Field("transfer_blocked", BOOLEAN, "An enchanted nine forbids a transfer."),
    Field("closed", BOOLEAN, "An enchanted queen closed the bout to throw-ins."),
    Field("king_defended", BOOLEAN, "The defender has beaten a card with a king."),
    Field("may_reverse", INTEGER.or_null(), "The seat that may reverse the direction of play now."),
    Field("timeouts", SEATS, "Timeouts in a row, by seat."),
    Field("auto_pass", SEATS, "Seats that asked not to be waited for to throw in."),
    Field(
        "format",
        INTEGER,
        "The engine's state format: 2 waits for everyone allowed to throw in; 1, a game stored "
        "before, only for those holding a card that fits.",
    ),
)
VIEW_KEYS: Final = tuple(field.name for field in VIEW.fields)


# --- events ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventType:
    """One type of ``Game.events`` entry: a public fact that an action led to. ``fields``: besides
    ``type``."""

    name: str
    meaning: str
    fields: tuple[Field, ...] = ()


EVENTS: Final[dict[str, EventType]] = {
    event.name: event
    for event in (
        EventType(
            "bout_end",
            "The bout ended: its cards went to the discard (beaten) or to the defender (taken).",
            (
                *LAST_BOUT.fields,
                Field("cards", list_of(CARD), "Every card of the table, all played face up."),
            ),
        ),
        EventType(
            "drew",
            "A player drew from the stock (how many, never which).",
            (
                Field("player", INTEGER),
                Field("count", INTEGER),
                Field(
                    "face_up",
                    CARD,
                    "The face-up trump card, when this draw emptied the stock (it is drawn last).",
                    required=False,
                ),
            ),
        ),
        EventType(
            "out",
            "A player has no cards left and the stock is gone: they are out.",
            (Field("player", INTEGER),),
        ),
        EventType(
            "swap",
            "A player swapped their lowest trump for the face-up trump card.",
            (
                Field("player", INTEGER),
                Field("took", CARD, "The face-up card taken into the hand."),
                Field("gave", CARD, "The card laid face up in its place."),
            ),
        ),
        EventType(
            "automatic",
            "A timeout under the gentle rule: the safe move played for the player.",
            (Field("action", ACTION, "The action played."),),
        ),
        EventType("game_over", "The game is over.", END.fields),
    )
}


# --- checking a value against its declaration ------------------------------------------------------


def mismatch(value: Any, of: JsonType, where: str = "") -> str | None:
    """Why ``value`` is not of the type ``of`` (a short description with its path), or None if
    it is. ``where`` names the value in the description."""
    if value is None:
        return None if of.nullable else f"{where or 'the value'} is null"
    kind = of.kind
    if kind == "action":
        declared = ACTIONS.get(_kind_of(value))
        fields = () if declared is None else (*ACTION_COMMON, *declared.fields)
        return _fields_mismatch(value, fields, where or _kind_of(value))
    if kind == "event":
        event = EVENTS.get(_kind_of(value))
        fields = () if event is None else (Field("type", STRING), *event.fields)
        return _fields_mismatch(value, fields, where or _kind_of(value))
    if kind == "object":
        return _fields_mismatch(value, of.fields, where or of.name)
    if kind == "list":
        if not isinstance(value, list):
            return f"{where} is not a list"
        if of.min_items is not None and len(value) < of.min_items:
            return f"{where} has fewer than {of.min_items} items"
        if of.max_items is not None and len(value) > of.max_items:
            return f"{where} has more than {of.max_items} items"
        assert of.item is not None
        return next((m for i, v in enumerate(value) if (m := mismatch(v, of.item, f"{where}[{i}]"))), None)
    if kind == "map":
        if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
            return f"{where} is not an object"
        assert of.item is not None
        return next((m for k, v in value.items() if (m := mismatch(v, of.item, f"{where}[{k}]"))), None)
    return None if _scalar_fits(value, of) else f"{where} is not of type {kind}: {value!r}"


def _scalar_fits(value: Any, of: JsonType) -> bool:
    kind = of.kind
    if kind == "integer":
        return type(value) is int
    if kind == "boolean":
        return type(value) is bool
    if kind == "string":
        return isinstance(value, str)
    if kind == "card":
        return isinstance(value, str) and value in ALL_CARDS
    if kind == "rules":
        return isinstance(value, dict)
    # choice: 1 == True in Python, so the type must match as well as the value
    return any(type(value) is type(option) and value == option for option in of.choices)


def _kind_of(value: Any) -> str:
    return str(value.get("type")) if isinstance(value, dict) else "the value"


def _fields_mismatch(value: Any, fields: tuple[Field, ...], where: str) -> str | None:
    if not isinstance(value, dict):
        return f"{where} is not an object"
    if not fields:
        return f"{where}: no such type"
    names = {field.name for field in fields}
    extra = sorted(set(value) - names)
    if extra:
        return f"{where}: {', '.join(extra)} not declared"
    for field in fields:
        if field.name not in value:
            if field.required:
                return f"{where}: {field.name} is missing"
            continue
        found = mismatch(value[field.name], field.type, f"{where}.{field.name}")
        if found:
            return found
    return None
