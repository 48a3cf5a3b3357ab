"""The rules pages: every preset in English and Russian, its option table taken from the engine."""

from __future__ import annotations

import html
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import durak
from durak import ENCHANTABLE_RANKS
from durak_site import engine_text
from guide import presentation

#: polib ships no type hints; the test only reads entries.
polib: Any = importlib.import_module("polib")

LANGUAGES = ("en", "ru")
GUIDE_RU_CATALOGUE = (
    Path(__file__).resolve().parents[2] / "guide" / "locale" / "ru" / "LC_MESSAGES" / "django.po"
)


def text_of(page_html: str) -> str:
    """The visible text, roughly: tags out, entities decoded, spaces squeezed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page_html))).strip()


def get(url: str, language: str) -> tuple[int, str]:
    response = Client().get(url, headers={"accept-language": language})
    return response.status_code, response.content.decode()


def option_row(page: str, name: str) -> str:
    match = re.search(rf'<tr id="option-{name}"( class="differs")?>(.*?)</tr>', page, re.DOTALL)
    assert match, f"no row for the option {name}"
    return match.group(0)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset", list(durak.PRESETS))
def test_each_preset_page_ends_with_every_engine_option_and_its_value_in_words(
    preset: str, language: str
) -> None:
    status, page = get(reverse("guide:preset", args=[preset]), language)
    assert status == 200
    assert f'<html lang="{language}"' in page
    rules = durak.Rules.preset(preset).to_dict()
    classic = durak.Rules.preset("classic").to_dict()
    with translation.override(language):
        title = str(presentation.PRESET_TITLES[preset])
        for option in durak.Rules.describe_options():
            name = option["name"]
            row = option_row(page, name)
            value = presentation.value_in_words(name, presentation._as_value(rules[name]))
            assert value in text_of(row)
            assert presentation.option_label(name) in text_of(row)
            # A row is marked as differing exactly when the engine's values differ.
            assert ('class="differs"' in row) == (rules[name] != classic[name])
    assert title in text_of(page)
    # The rule text itself comes before the table: the page is more than a table.
    assert page.index('id="goal"') < page.index('id="options"')


def test_the_differences_are_the_engines_in_both_languages() -> None:
    """A few values in words, checked against what the engine says of the preset."""
    assert durak.Rules.preset("black_book").transfer and not durak.Rules.preset("classic").transfer
    _, english = get(reverse("guide:preset", args=["black_book"]), "en")
    _, russian = get(reverse("guide:preset", args=["black_book"]), "ru")
    assert "yes differs" in text_of(option_row(english, "transfer"))
    assert "да отличается" in text_of(option_row(russian, "transfer"))
    assert durak.Rules.preset("durak24").deck_size == 24
    _, russian = get(reverse("guide:preset", args=["durak24"]), "ru")
    assert "24 карты (от 9 до туза)" in text_of(option_row(russian, "deck_size"))
    assert "36 карт (от 6 до туза)" in text_of(option_row(russian, "deck_size"))


def test_the_russian_pages_use_the_usual_terms_and_show_no_guide_string_in_english() -> None:
    catalogue = polib.pofile(str(GUIDE_RU_CATALOGUE))
    untranslated = [entry.msgid for entry in catalogue if not entry.translated()]
    assert not untranslated
    english = [
        entry.msgid
        for entry in catalogue
        if "%(" not in entry.msgid
        and "<" not in entry.msgid
        and len(entry.msgid) > 12
        and entry.msgstr != entry.msgid
    ]
    pages = [reverse("guide:index")] + [reverse("guide:preset", args=[name]) for name in durak.PRESETS]
    for url in pages:
        status, page = get(url, "ru")
        assert status == 200
        text = text_of(page)
        assert not [msgid for msgid in english if msgid in text], url
    _, classic = get(reverse("guide:preset", args=["classic"]), "ru")
    _, perevodnoy = get(reverse("guide:preset", args=["perevodnoy"]), "ru")
    terms = ("Подкидной дурак", "козырь", "Бито", "беру", "подкинуть", "отбился", "колода", "отбой", "ход")  # noqa: RUF001
    for term in terms:
        assert term in text_of(classic), term
    assert "Перевод" in text_of(perevodnoy) and "перевести" in text_of(perevodnoy)


@pytest.mark.parametrize("name", ["poker", "tutorial-x", "Classic"])
def test_an_unknown_preset_is_404(name: str) -> None:
    status, _ = get(f"/rules/{name}/", "en")
    assert status == 404


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_index_has_one_card_per_preset_with_players_and_deck(language: str) -> None:
    status, page = get(reverse("guide:index"), language)
    assert status == 200
    cards = re.findall(r'<li class="preset-card">(.*?)</li>', page, re.DOTALL)
    assert len(cards) == len(durak.PRESETS)
    for card, name in zip(cards, durak.PRESETS, strict=True):
        assert reverse("guide:preset", args=[name]) in card
        counts = durak.Rules.preset(name).player_counts()
        assert f"{counts[0]}\u2013{counts[-1]}" in card
        with translation.override(language):
            assert presentation.value_in_words("deck_size", durak.Rules.preset(name).deck_size) in text_of(
                card
            )
    assert reverse("guide:tutorial") in page


def test_enchanted_and_teams_anchors_explain_every_effect_on_the_index_and_the_black_book_page() -> None:
    for url in (reverse("guide:index"), reverse("guide:preset", args=["black_book"])):
        _, page = get(url, "en")
        assert 'id="enchanted"' in page
        text = text_of(page)
        for rank in ENCHANTABLE_RANKS:
            assert f'id="enchanted-{rank}"' in page
            for suit in durak.SUITS:
                assert durak.effect(rank + suit) in text
    _, index = get(reverse("guide:index"), "en")
    assert 'id="teams"' in index and "4 or 6 players" in text_of(index)


def test_every_option_and_choice_has_words_of_its_own() -> None:
    """An option the engine adds later shows up in the table anyway (by its name); this test says
    it still needs a name and words for its choices (``durak_site.engine_text``)."""
    for option in durak.Rules.describe_options():
        assert option["name"] in engine_text.OPTION_NAMES, option["name"]
        if option["type"] == "choice":
            for choice in option["choices"]:
                known = (option["name"], choice) in engine_text.CHOICE_LABELS
                assert known or option["name"] == "deck_size", (option["name"], choice)


def test_the_pages_have_no_inline_script_handler_or_style() -> None:
    for url in (reverse("guide:index"), reverse("guide:preset", args=["black_book"])):
        _, page = get(url, "en")
        body = page[page.index("<body") :]
        assert "<script>" not in body and " style=" not in body
        assert not re.search(r"\son[a-z]+=", body)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_rules_page_has_contents_that_lead_to_its_sections(language: str) -> None:
    for name in durak.PRESETS:
        _, page = get(reverse("guide:preset", args=[name]), language)
        contents = page[
            page.index('class="guide-toc"') : page.index("</nav>", page.index('class="guide-toc"'))
        ]
        anchors = re.findall(r'href="#([\w-]+)"', contents)
        assert len(anchors) >= 8 and anchors[-1] == "options"
        for anchor in anchors:
            assert page.count(f'id="{anchor}"') == 1, (name, anchor)
