"""The table in Russian, card names for screen readers, and when a move asks for confirmation."""

from datetime import timedelta
from typing import Any

import polib
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.presentation import build_table, card_name
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


def page_for(user: Any, game: Any, language: str = "en") -> str:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client.get(
        reverse("games:detail", args=[game.pk]), headers={"Accept-Language": language}
    ).content.decode()


def test_card_names_in_english_and_russian() -> None:
    assert card_name("8D") == "eight of diamonds"
    assert card_name("10S") == "ten of spades"
    with translation.override("ru"):
        assert card_name("8D") == "восьмёрка бубен"
        assert card_name("QH") == "дама червей"
        assert card_name("AC") == "туз треф"
        assert card_name("2S") == "двойка пик"


def test_the_situation_in_words_in_russian() -> None:
    view = {
        "hand": ["9D"],
        "hand_sizes": [3, 1],
        "table": [["8D", None]],
        "attacker": 0,
        "defender": 1,
        "waiting_for": [1],
        "actions": [{"type": "take", "player": 1}],
        "over": False,
    }
    with translation.override("ru"):
        table = build_table(view, {0: "anna", 1: "ben"}, me=1)
        assert table.status_line == "Ваш ход."
        assert table.situation_line == "8♦ — атака на вас: отбейтесь или берите."
        assert [b.label for b in table.other_buttons] == ["Беру"]


def test_the_game_page_in_russian_has_no_english_of_the_games_catalogue() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    page = page_for(users[0], game, "ru")
    assert "Ваш ход." in page and 'lang="ru"' in page
    english = polib.pofile("games/locale/ru/LC_MESSAGES/django.po")
    left = [
        entry.msgid
        for entry in english
        if entry.msgstr
        and entry.msgstr != entry.msgid
        and "%" not in entry.msgid
        and "{" not in entry.msgid
        and len(entry.msgid) > 6
        and f">{entry.msgid}<" in page
    ]
    assert left == []
    assert 'aria-label="девятка червей"' in page  # the face-up trump, named for screen readers


@pytest.mark.parametrize(
    ("choice", "move_time", "asks"),
    [
        ("correspondence", timedelta(days=1), True),
        ("correspondence", None, False),
        ("correspondence", timedelta(seconds=30), False),
        ("always", None, True),
        ("never", timedelta(days=1), False),
    ],
)
def test_confirm_moves_follows_the_players_choice_and_the_time_control(
    choice: str, move_time: timedelta | None, asks: bool
) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    game.move_time = move_time
    game.save(update_fields=["move_time"])
    users[0].confirm_moves = choice
    users[0].save(update_fields=["confirm_moves"])
    page = page_for(users[0], game)
    assert f'data-confirm="{"on" if asks else "off"}"' in page
    assert 'class="confirm-bar"' in page and 'data-confirm="Attack with' in page


@pytest.mark.parametrize("four_colour", [True, False])
def test_the_four_colour_deck_is_the_players_choice(four_colour: bool) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    users[0].four_colour_deck = four_colour
    users[0].save(update_fields=["four_colour_deck"])
    page = page_for(users[0], game)
    assert ('class="game my-turn four-colour"' in page) == four_colour
    assert 'class="card red suit-H' in page  # every card says its suit, for the four-colour styles
