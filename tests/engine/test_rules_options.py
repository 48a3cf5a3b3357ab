"""The rule options: each choice is a ``Literal`` stated once, checked again at run time because
the values come from JSON, and described the same to the site's form and API; the presets are data
found by name."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, get_args, get_type_hints

import pytest

import durak
from durak.rules import (
    PRESET_TABLE,
    DeckSize,
    DrawOrder,
    FirstAttacker,
    LaterFirstAttacker,
    NoTrumpFirstAttacker,
    OnTimeout,
    OpeningLimitUntil,
    Preset,
    Rules,
    RulesError,
    Teams,
    ThrowIn,
    ThrowPriority,
    ThrowWhen,
    TrumpSwap,
    find_preset,
)

CHOICE_TYPES: dict[str, Any] = {
    "deck_size": DeckSize,
    "trump_swap": TrumpSwap,
    "throw_in": ThrowIn,
    "throw_priority": ThrowPriority,
    "throw_when": ThrowWhen,
    "opening_limit_until": OpeningLimitUntil,
    "first_attacker": FirstAttacker,
    "no_trump_first_attacker": NoTrumpFirstAttacker,
    "later_first_attacker": LaterFirstAttacker,
    "draw_order": DrawOrder,
    "teams": Teams,
    "on_timeout": OnTimeout,
}

# What the site's form and API are built from, as it was before the choices moved into the types:
# name, type, choices, default.
DESCRIBED = [
    ("deck_size", "choice", [24, 36, 52], 36),
    ("hand_size", "int", None, 6),
    ("max_attack", "optional_int", None, 6),
    ("multi_card_attack", "bool", None, True),
    ("transfer", "bool", None, False),
    ("trump_swap", "choice", ["never", "before_first_attack", "while_stock"], "while_stock"),
    ("throw_in", "choice", ["all", "neighbours"], "all"),
    ("throw_priority", "choice", ["attacker_first", "free"], "attacker_first"),
    ("throw_when", "choice", ["any_time", "after_first_beat", "all_beaten"], "any_time"),
    ("add_after_take", "bool", None, True),
    ("opening_limit", "optional_int", None, None),
    ("opening_limit_until", "choice", ["first_bout", "first_defence"], "first_bout"),
    ("opening_limit_min_players", "int", None, 4),
    ("first_attacker", "choice", ["lowest_trump", "left_of_dealer"], "lowest_trump"),
    ("no_trump_first_attacker", "choice", ["left_of_dealer", "dealer"], "left_of_dealer"),
    ("later_first_attacker", "choice", ["left_of_dealer", "lowest_trump"], "left_of_dealer"),
    ("draw_order", "choice", ["clockwise", "counterclockwise"], "clockwise"),
    ("teams", "choice", ["none", "partners", "black_book"], "none"),
    ("enchanted", "ranks", ["6", "7", "8", "9", "10", "J", "Q", "K", "A"], []),
    ("on_timeout", "choice", ["fool", "auto"], "fool"),
    ("claim_after_days", "int", None, 14),
]


def test_each_choice_option_is_typed_by_its_named_literal() -> None:
    hints = get_type_hints(Rules)
    assert {name: hints[name] for name in CHOICE_TYPES} == CHOICE_TYPES
    described = {option["name"]: option for option in Rules.describe_options()}
    for name, alias in CHOICE_TYPES.items():
        assert described[name]["type"] == "choice"
        assert described[name]["choices"] == list(get_args(alias))


def test_the_options_are_described_as_before() -> None:
    described = Rules.describe_options()
    assert [
        (option["name"], option["type"], option["choices"], option["default"]) for option in described
    ] == DESCRIBED
    assert all(isinstance(option["help"], str) and option["help"] for option in described)


@pytest.mark.parametrize("name", CHOICE_TYPES)
def test_a_value_outside_the_choices_is_refused(name: str) -> None:
    with pytest.raises(RulesError, match=f"{name} must be one of"):
        Rules.from_dict({name: "sometimes"})


@pytest.mark.parametrize("value", [40, "36", True, 36.0])
def test_a_deck_size_must_be_one_of_the_decks_as_an_int(value: object) -> None:
    with pytest.raises(RulesError, match="deck_size must be"):
        Rules.from_dict({"deck_size": value})


@pytest.mark.parametrize("name", CHOICE_TYPES)
def test_every_choice_is_accepted_and_stays_plain_json(name: str) -> None:
    for value in get_args(CHOICE_TYPES[name]):
        rules = Rules.from_dict({name: value})
        data = json.loads(json.dumps(rules.to_dict()))
        assert data[name] == value and type(data[name]) is type(value)
        assert Rules.from_dict(data) == rules


def test_presets_are_listed_once_in_display_order() -> None:
    assert {preset.name: preset.description for preset in PRESET_TABLE} == durak.PRESETS
    assert list(durak.PRESETS) == ["classic", "perevodnoy", "black_book", "tabletop", "durak24"]
    for preset in PRESET_TABLE:
        assert find_preset(preset.name) is preset


def test_an_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RulesError, match="unknown preset 'poker': choose one of classic, perevodnoy"):
        find_preset("poker")
    with pytest.raises(RulesError, match="unknown preset 'Classic'"):
        Rules.preset("Classic")


@pytest.mark.parametrize("preset", PRESET_TABLE, ids=lambda preset: preset.name)
def test_a_preset_states_only_the_options_it_changes(preset: Preset) -> None:
    defaults = Rules().to_dict()
    assert set(preset.options) <= set(defaults)
    assert all(defaults[name] != value for name, value in preset.options.items())
    assert Rules.preset(preset.name) == Rules(**preset.options)


def test_a_preset_cannot_be_changed_by_its_callers() -> None:
    tabletop = find_preset("tabletop")
    with pytest.raises(TypeError):
        tabletop.options["transfer"] = True  # type: ignore[index]
    with pytest.raises(TypeError):
        tabletop.hand_sizes[36] = 5  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        tabletop.name = "classic"  # type: ignore[misc]


@pytest.mark.parametrize("preset", [preset.name for preset in PRESET_TABLE])
@pytest.mark.parametrize("deck", [24, 36, 52])
def test_hand_sizes_by_deck(preset: str, deck: int) -> None:
    # Tabletop: "If the large deck is used deal seven (usually)"; every other text deals six.
    expected = 7 if (preset, deck) == ("tabletop", 52) else 6
    assert Rules.preset(preset, deck_size=deck).hand_size == expected
    assert Rules.preset(preset, deck_size=deck, hand_size=5).hand_size == 5


def test_the_hand_size_asked_for_wins_over_the_preset_deal() -> None:
    assert Rules.preset("tabletop", deck_size=52, hand_size=6).hand_size == 6
    assert Rules.preset("tabletop").hand_size == 6
    assert find_preset("tabletop").options_with({"deck_size": 52}) == {
        **find_preset("tabletop").options,
        "deck_size": 52,
        "hand_size": 7,
    }


def test_an_unknown_override_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown option hand, trumps"):
        Rules.preset("classic", trumps="S", hand=6)
