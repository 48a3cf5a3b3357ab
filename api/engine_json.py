"""The engine's JSON as DRF serializers, built from its one description (``durak.schema``).

Each action type, the view and each event type become a serializer with the fields the engine
declares, so the OpenAPI schema says what the engine sends and takes, and a key the engine adds
is declared here by itself. On the way in the API checks only the shape these declarations give
(an object of a known type, each declared field of its JSON type); whether the action is allowed,
and any field the type does not have, is the engine's to refuse (``illegal_move`` with its
message). On the way out only declared fields are written.
"""

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

import durak
from durak import ADDED_LATER, schema
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


# --- from a declared JSON type to a DRF field ----------------------------------------------------

_OBJECTS: dict[str, type[serializers.Serializer[Any]]] = {}


def engine_field(of: schema.JsonType, *, required: bool = True, help_text: str = "") -> AnyField:
    """The DRF field of a value the engine declares as ``of``."""
    common: dict[str, Any] = {"required": required}
    if of.nullable:
        common["allow_null"] = True
    if help_text:
        common["help_text"] = help_text
    kind = of.kind
    if kind == "integer":
        return serializers.IntegerField(**common)
    if kind == "boolean":
        return serializers.BooleanField(**common)
    if kind == "string":
        return serializers.CharField(**common)
    if kind == "card":
        return card_field(**common)
    if kind == "choice":
        return serializers.ChoiceField(choices=list(of.choices), **common)
    if kind == "rules":
        return RulesSerializer(**common)
    if kind == "action":
        return ActionField(**common)
    if kind == "event":
        return EventField(**common)
    if kind == "object":
        return object_serializer(of)(**common)
    assert of.item is not None, of
    if kind == "map":
        return serializers.DictField(child=engine_field(of.item), **common)
    if of.min_items is not None:
        common["min_length"] = of.min_items
    if of.max_items is not None:
        common["max_length"] = of.max_items
    return serializers.ListField(child=engine_field(of.item), **common)


def declared_fields(
    fields: tuple[schema.Field, ...], *, leave_out: frozenset[str] = frozenset()
) -> dict[str, AnyField]:
    return {
        field.name: engine_field(field.type, required=field.required, help_text=field.meaning)
        for field in fields
        if field.name not in leave_out
    }


def object_serializer(of: schema.JsonType, *, doc: str = "") -> type[serializers.Serializer[Any]]:
    """The serializer of a declared object, one class per name (one schema component)."""
    if of.name not in _OBJECTS:
        attributes = {**declared_fields(of.fields), "__doc__": doc or None}
        _OBJECTS[of.name] = type(f"{of.name}Serializer", (serializers.Serializer[Any],), attributes)
    return _OBJECTS[of.name]


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
_COMMON = frozenset(field.name for field in schema.ACTION_COMMON)

ACTION_SERIALIZERS: dict[str, type[_Typed]] = {
    name: _member(
        name,
        suffix="Action",
        doc=" ".join(filter(None, [action.meaning, _HOW_SENT.get(name)])),
        fields=declared_fields(action.fields, leave_out=_COMMON),
    )
    for name, action in schema.ACTIONS.items()
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
    name: _member(name, suffix="Event", doc=event.meaning, fields=declared_fields(event.fields))
    for name, event in schema.EVENTS.items()
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
        **declared_fields(schema.VIEW.fields, leave_out=frozenset({"actions"})),
        "__doc__": "``durak.Game.view(seat)``: the caller's own hand and what lies face up, nothing "
        "else.\n\nIts list of actions is ``legal_actions`` beside it.",
    },
)
