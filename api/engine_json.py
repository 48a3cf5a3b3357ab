"""The engine's JSON as DRF serializers, built from its one description: the engine's TypedDicts
(``durak.ACTION_SHAPES``, ``durak.View``, ``durak.EVENT_SHAPES``), read with ``typing``.

Each action type, the view and each event type become a serializer with the fields the engine
declares, so the OpenAPI schema says what the engine sends and takes, and a key the engine adds
is declared here by itself. On the way in the API checks only the shape these declarations give
(an object of a known type, each declared field of its JSON type); whether the action is allowed,
and any field the type does not have, is the engine's to refuse (``illegal_move`` with its
message). On the way out only declared fields are written.
"""

import types
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict

from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

import durak
from durak import ADDED_LATER, JsonKind, Length, unwrap
from games.forms import OPTION_INT_MAX

CARD_PATTERN = rf"^(?:{'|'.join(durak.RANKS)})[{''.join(durak.SUITS)}]$"

AnyField = serializers.Field[Any, Any, Any, Any]


def card_field(**kwargs: Any) -> serializers.RegexField:
    kwargs.setdefault("help_text", "Rank then suit, like 10H or QS.")
    return serializers.RegexField(CARD_PATTERN, max_length=3, **kwargs)


# --- rules ---------------------------------------------------------------------------------------


def _option_field(option: dict[str, Any], *, required: bool) -> AnyField:
    common: dict[str, Any] = {"required": required, "help_text": option.get("help") or ""}
    if required and option["name"] in ADDED_LATER:
        # Rules stored before the option existed lack it: they play its default.
        common = {"default": ADDED_LATER[option["name"]], "help_text": common["help_text"]}
    kind = option["type"]
    if kind == "bool":
        return serializers.BooleanField(**common)
    if kind in ("int", "optional_int"):
        # The engine's bounds of the number (``Rules.describe_options``), as the HTML form has them.
        return serializers.IntegerField(
            allow_null=kind == "optional_int",
            min_value=option.get("min"),
            max_value=option.get("max") or OPTION_INT_MAX,
            error_messages={
                "min_value": _("Must be at least {min_value}."),
                "max_value": _("Must be at most {max_value}."),
                "invalid": _("Must be a whole number."),
            },
            **common,
        )
    if kind == "choice":
        return serializers.ChoiceField(choices=list(option["choices"]), **common)
    if kind == "ranks":
        return serializers.ListField(child=serializers.ChoiceField(choices=list(option["choices"])), **common)
    # An option kind this API does not know yet: still offered, as free JSON the engine checks.
    return serializers.JSONField(**common)


def _rules_serializer(name: str, *, required: bool, doc: str) -> type[serializers.Serializer[Any]]:
    fields = {
        option["name"]: _option_field(option, required=required) for option in durak.Rules.describe_options()
    }
    return type(name, (serializers.Serializer[Any],), {**fields, "__doc__": doc})


RulesSerializer = _rules_serializer(
    "RulesSerializer",
    required=True,
    doc="Every rule option the game is played with (``durak.Rules.to_dict()``).",
)
_RuleOverridesBase = _rules_serializer(
    "_RuleOverridesBase",
    required=False,
    doc="Options that differ from the preset; the engine checks the combination.",
)


class RuleOverridesSerializer(_RuleOverridesBase):  # type: ignore[misc,valid-type]
    def to_internal_value(self, data: Any) -> dict[str, Any]:
        unknown = set(data) - set(self.fields) if isinstance(data, dict) else set()
        if unknown:
            raise serializers.ValidationError(
                _("Unknown rule option(s): %(options)s.") % {"options": ", ".join(sorted(unknown))}
            )
        return dict(super().to_internal_value(data))


# --- from a declared type to a DRF field ----------------------------------------------------------

_OBJECTS: dict[str, type[serializers.Serializer[Any]]] = {}


def _without_none(hint: Any) -> tuple[Any, bool]:
    """``hint`` without ``| None``, and whether it had it."""
    if get_origin(hint) in (Union, types.UnionType):
        options = [option for option in get_args(hint) if option is not type(None)]
        if len(options) < len(get_args(hint)):
            assert len(options) == 1, hint
            return options[0], True
    return hint, False


def engine_field(hint: Any, *, required: bool = True) -> AnyField:
    """The DRF field of a value the engine declares as ``hint`` (its ``Annotated`` meaning is the
    help text)."""
    plain, metadata = unwrap(hint)
    plain, nullable = _without_none(plain)
    plain, more = unwrap(plain)  # ``Annotated[...] | None``
    metadata += more
    common: dict[str, Any] = {"required": required}
    if nullable:
        common["allow_null"] = True
    meanings = [item for item in metadata if isinstance(item, str)]
    if meanings:
        common["help_text"] = " ".join(meanings)
    kind = next((item for item in metadata if isinstance(item, JsonKind)), None)
    length = next((item for item in metadata if isinstance(item, Length)), None)
    origin = get_origin(plain)
    if kind is not None:
        if kind.name == "card":
            return card_field(**common)
        if kind.name == "rules":
            return RulesSerializer(**common)
        if kind.name == "action":
            return ActionField(**common)
        if kind.name == "event":
            return EventField(**common)
        return serializers.ChoiceField(choices=list(kind.values), **common)
    if plain is bool:
        return serializers.BooleanField(**common)
    if plain is int:
        return serializers.IntegerField(**common)
    if plain is str:
        return serializers.CharField(**common)
    if origin is Literal:
        return serializers.ChoiceField(choices=list(get_args(plain)), **common)
    if is_typeddict(plain):
        return object_serializer(plain)(**common)
    if origin is dict:
        return serializers.DictField(child=engine_field(get_args(plain)[1]), **common)
    assert origin is list, hint
    if length is not None and length.min is not None:
        common["min_length"] = length.min
    if length is not None and length.max is not None:
        common["max_length"] = length.max
    return serializers.ListField(child=engine_field(get_args(plain)[0]), **common)


def declared_fields(shape: Any, *, leave_out: frozenset[str] = frozenset()) -> dict[str, AnyField]:
    """The DRF fields of a declared TypedDict's keys, in their order."""
    return {
        name: engine_field(hint, required=name in shape.__required_keys__)
        for name, hint in shape.__annotations__.items()
        if name not in leave_out
    }


def object_serializer(shape: Any) -> type[serializers.Serializer[Any]]:
    """The serializer of a declared object, one class per name (one schema component)."""
    name = shape.__name__
    if name not in _OBJECTS:
        attributes = {**declared_fields(shape), "__doc__": None}
        _OBJECTS[name] = type(f"{name}Serializer", (serializers.Serializer[Any],), attributes)
    return _OBJECTS[name]


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


class _Typed(serializers.Serializer[Any]):
    """A member of a union told apart by its ``type`` (an action or an event type)."""

    kind: str = ""
    about: str = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = serializers.ChoiceField(choices=[cls.kind], help_text=cls.about)
        cls._declared_fields = {"type": kind, **cls._declared_fields}


def _member(kind: str, *, suffix: str, doc: str, fields: dict[str, AnyField]) -> type[_Typed]:
    attributes = {"kind": kind, "about": f"The {suffix.lower()} type.", "__doc__": doc, **fields}
    return type(f"{_camel(kind)}{suffix}Serializer", (_Typed,), attributes)


# --- actions: one member of a union per engine action type ---------------------------------------

#: What the API adds to the engine's meaning of an action type: how it reaches the game here.
_HOW_SENT = {
    "timeout": "Never sent by a client.",
    "resign": "Made with ``POST /api/games/{id}/resign/``; never sent as a move.",
    "claim": "Made with ``POST /api/games/{id}/claim/``; never sent as a move.",
}
#: Every action has these: the type (the union's discriminator) and the player (the caller's seat).
_COMMON = frozenset({"type", "player"})

ACTION_SERIALIZERS: dict[str, type[_Typed]] = {
    name: _member(
        name,
        suffix="Action",
        doc=" ".join(filter(None, [durak.meaning_of(shape), _HOW_SENT.get(name)])),
        fields=declared_fields(shape, leave_out=_COMMON),
    )
    for name, shape in durak.ACTION_SHAPES.items()
}
#: What a player sends and is offered: moves and standing choices.
PLAYER_ACTIONS = {
    name: ACTION_SERIALIZERS[name] for name in (*durak.ACTION_TYPES, *durak.PREFERENCE_ACTION_TYPES)
}
#: What the move log holds: every type.
LOGGED_ACTIONS = dict(ACTION_SERIALIZERS)


class _ActionUnionField(serializers.Field[dict[str, Any], Any, dict[str, Any], Any]):
    """An engine action without its ``"player"`` (the caller's seat, or ``player`` beside it).

    Input: an object of one of ``members``' types whose declared fields have their declared
    JSON types; anything else in it is passed on for the engine to judge. Output keeps only
    the declared fields of the action's type.
    """

    members: dict[str, type[_Typed]] = {}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError(_('An action is an object with a "type".'))
        kind = data.get("type")
        if not isinstance(kind, str):
            raise serializers.ValidationError(_('An action needs a "type": a string such as "attack".'))
        if kind in durak.SYSTEM_ACTION_TYPES and kind not in self.members:
            raise serializers.ValidationError(
                _("%(type)r is applied by the server, never sent by a player.") % {"type": kind}
            )
        if kind not in self.members:
            raise serializers.ValidationError(
                _("Unknown action type %(type)r: use one of %(types)s.")
                % {"type": kind, "types": ", ".join(self.members)}
            )
        member = self.members[kind](data=data)
        member.is_valid(raise_exception=True)
        return {**data, **member.validated_data}

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(self.members[value["type"]](value).data)


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Action",
        serializers={kind: member for kind, member in PLAYER_ACTIONS.items()},
        resource_type_field_name="type",
    )
)
class ActionField(_ActionUnionField):
    members = PLAYER_ACTIONS


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="LoggedAction",
        serializers={kind: member for kind, member in LOGGED_ACTIONS.items()},
        resource_type_field_name="type",
    )
)
class LoggedActionField(_ActionUnionField):
    members = LOGGED_ACTIONS


def without_player(action: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in action.items() if key != "player"}


# --- events: what an action led to (``durak.Game.events``), one member per event type ------------

EVENTS: dict[str, type[_Typed]] = {
    name: _member(
        name,
        suffix="Event",
        doc=durak.meaning_of(shape),
        fields=declared_fields(shape, leave_out=frozenset({"type"})),
    )
    for name, shape in durak.EVENT_SHAPES.items()
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="Event",
        serializers={kind: member for kind, member in EVENTS.items()},
        resource_type_field_name="type",
    )
)
class EventField(serializers.Field[dict[str, Any], Any, dict[str, Any], Any]):
    """Output only: an engine event with exactly the declared fields of its type."""

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(EVENTS[value["type"]](value).data)


def public_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The declared fields of the event types this API knows; a type it does not know yet (a newer
    engine) is left out rather than passed on unchecked."""
    return [EventField().to_representation(event) for event in events if event.get("type") in EVENTS]


# --- the engine's view ---------------------------------------------------------------------------

EngineViewSerializer = type(
    "EngineViewSerializer",
    (serializers.Serializer[Any],),
    {
        **declared_fields(durak.View, leave_out=frozenset({"actions"})),
        "__doc__": "``durak.Game.view(seat)``: the caller's own hand and what lies face up, nothing "
        "else.\n\nIts list of actions is ``legal_actions`` beside it.",
    },
)
