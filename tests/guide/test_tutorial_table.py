"""The tutorial's table is the real one: the game page's card partial, stylesheet, labels and
sentences (``games.presentation``, ``games.words``), not a copy of its own."""

import html
import re

from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.presentation import action_button
from guide.tutorial import YOU, Tutorial


def page(moves: str = "", language: str = "en") -> str:
    response = Client().get(
        reverse("guide:tutorial"), {"moves": moves}, headers={"accept-language": language}
    )
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def labels(text: str) -> list[str]:
    found = re.findall(r'<button type="submit"[^>]*>(.*?)</button>', text, re.DOTALL)
    return [re.sub(r"<[^>]+>|\(suggested\)", "", label).strip() for label in found]


def test_the_buttons_read_as_the_real_tables() -> None:
    text = page("a-6S,t-6C")  # both beaten: the next move is "done"
    tutorial = Tutorial.replay("a-6S,t-6C")
    view = tutorial.game.view(YOU)
    assert sorted(labels(text)) == sorted(
        action_button(action, view).label for action in tutorial.legal_actions()
    )
    assert "Done" in labels(text)
    assert "Pass: nothing more from me" not in text and "Take the cards (beru)" not in text


def test_the_table_uses_the_real_cards_stylesheet_and_sentences() -> None:
    text = page("a-6S")
    assert "/static/games/table.css" in text
    assert 'class="card black suit-S' in text and 'data-card="6S"' in text  # games/_card.html
    assert 'class="t-card' not in text
    assert '<section class="pairs"' in text and '<section class="hand"' in text
    # The last-move line and the log come from games.words, for the tutorial's opponent.
    assert "Last move: your opponent beats 6♠ with 8♠." in text
    assert "<p>You attack with 6♠.</p><p>Your opponent beats 6♠ with 8♠.</p>" in text


def test_the_take_button_is_the_real_one_in_russian() -> None:
    text = page("a-6S,t-6C,pass,d-9D-10D,a-JS,pass", "ru")  # the J♣ attacks you
    with translation.override("ru"):
        take = action_button({"type": "take", "player": YOU}).label
    assert take == "Беру" and take in labels(text)
    assert "Соперник" in text and "Your opponent" not in text
