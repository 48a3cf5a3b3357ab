"""An option's error says what is wrong with what was typed, in the reader's language, from the
engine's one option schema (``durak.Rules.describe_options``: each number's bounds) that builds
both the create form and the API: a negative opening limit is "must be at least …", not "enter
a number"; no raw ``none`` in the Russian form."""

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.api.conftest import token_client
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def errors_for(field: str, value: str, language: str) -> str:
    client = Client(headers={"Accept-Language": language})
    client.force_login(UserFactory(language=language))
    response = client.post(reverse("games:create"), {"preset": "classic", "num_players": "2", field: value})
    assert response.status_code == 400 and not Game.objects.exists()
    page = response.content.decode()
    summary = page.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", summary)))


@pytest.mark.parametrize(
    ("field", "value", "language", "said"),
    [
        ("opt_opening_limit", "-3", "en", "Opening limit must be at least 1, or “none” for no limit."),
        ("opt_opening_limit", "0", "en", "Opening limit must be at least 1, or “none” for no limit."),
        ("opt_opening_limit", "99", "en", "Opening limit must be at most 52, or “none” for no limit."),
        ("opt_opening_limit", "abc", "en", "Opening limit: enter a whole number, or “none” for no limit."),
        ("opt_opening_limit_min_players", "-3", "en", "Opening limit from players must be at least 0."),
        ("opt_opening_limit_min_players", "9", "en", "Opening limit from players must be at most 6."),
        ("opt_claim_after_days", "0", "en", "Days before a stalled game may be claimed must be at least 1."),
        (
            "opt_max_attack",
            "-3",
            "en",
            "Most attack cards in a bout must be at least 1, or “none” for no limit.",
        ),
        ("opt_opening_limit", "-3", "ru", "не меньше 1 или «нет» — без ограничения."),
        ("opt_opening_limit", "абв", "ru", "введите целое число или «нет» — без ограничения."),
        ("opt_opening_limit_min_players", "-3", "ru", "не меньше 0."),
    ],
)
def test_a_number_out_of_bounds_is_told_its_bound(field: str, value: str, language: str, said: str) -> None:
    summary = errors_for(field, value, language)
    assert said in summary
    assert "Enter a number" not in summary and "none" not in summary.replace("“none”", "")
    if language == "ru":
        assert "none" not in summary


def test_the_russian_word_for_no_limit_is_taken_and_none_still_is() -> None:
    for language, word in (("ru", "нет"), ("ru", "none"), ("en", "none")):
        client = Client(headers={"Accept-Language": language})
        client.force_login(UserFactory(language=language))
        response = client.post(
            reverse("games:create"), {"preset": "classic", "num_players": "2", "opt_max_attack": word}
        )
        assert response.status_code == 302, word
        game = Game.objects.latest("pk")
        assert game.rules["max_attack"] is None
        game.delete()


def test_the_russian_form_says_no_raw_none() -> None:
    client = Client(headers={"Accept-Language": "ru"})
    client.force_login(UserFactory(language="ru"))
    page = client.get("/").content.decode()
    form = page.split('class="create-form', 1)[1].split("</form>", 1)[0]
    assert "«нет» — без ограничения" in html.unescape(form)
    assert not re.search(r"\bnone\b", html.unescape(re.sub(r"<[^>]+>", " ", form)))


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("opening_limit", -3, "Must be at least 1."),
        ("opening_limit_min_players", -3, "Must be at least 0."),
        ("claim_after_days", 400, "Must be at most 365."),
    ],
)
def test_the_api_takes_the_same_bounds(option: str, value: Any, said: str) -> None:
    response = token_client(UserFactory()).post(
        "/api/games/", {"preset": "classic", "players": 2, "options": {option: value}}, format="json"
    )
    assert response.status_code == 400
    assert said in str(response.json())
    assert not Game.objects.exists()
