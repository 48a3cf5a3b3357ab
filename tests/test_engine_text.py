"""The engine's words on the site: its errors, options and enchanted effects in the reader's language."""

from collections.abc import Iterator

import pytest
from django.utils import translation

import durak
from durak_site import engine_text


@pytest.fixture(autouse=True)
def _russian() -> Iterator[None]:
    with translation.override("ru"):
        yield


def test_an_engine_error_in_russian_names_the_cards_as_cards() -> None:
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"),
        hands=[["6S", "7S"], ["8H", "9H"]],
        stock=["10C", "JD"],
        first_attacker=0,
    )
    game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    with pytest.raises(durak.IllegalAction) as refused:
        game.apply({"type": "defend", "player": 1, "card": "8H", "target": "6S"})
    assert str(refused.value) == "8H does not beat 6S"  # the engine itself stays English
    assert engine_text.engine_message(refused.value) == "8♥ не бьёт 6♠"


def test_a_rules_error_in_russian() -> None:
    with pytest.raises(durak.RulesError) as refused:
        durak.Rules.preset("poker")
    assert engine_text.engine_message(refused.value).startswith("неизвестный вариант 'poker'")


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("transfer", True, "да"),
        ("opening_limit", None, "нет"),
        ("enchanted", ["6", "7"], "6, 7"),
        ("enchanted", [], "нет"),
        ("throw_in", "neighbours", "только соседи отбивающегося"),
        ("deck_size", 36, "36"),
    ],
)
def test_option_values_in_words(option: str, value: object, words: str) -> None:
    assert engine_text.option_value(option, value) == words


def test_every_option_and_preset_has_a_translated_name_and_help() -> None:
    for option in durak.Rules.describe_options():
        assert engine_text.option_name(option["name"]) != option["name"].replace("_", " ")
        assert engine_text.option_help(option) != option["help"], option["name"]
        for choice in option["choices"] or []:
            if option["type"] == "choice" and isinstance(choice, str):
                assert engine_text.choice_label(option["name"], choice) != choice, (option["name"], choice)
    for name in durak.PRESETS:
        assert engine_text.preset_summary(name) != durak.PRESETS[name]


def test_an_enchanted_effect_in_russian() -> None:
    assert engine_text.effect_text("AS") == "Бьёт туза ♦, даже козырного."
