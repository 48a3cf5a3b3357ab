"""The site's language: the browser's by default, the header's switcher (without JavaScript),
saved as the player's setting; a new account starts in the browser's language."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LEADERBOARD = "/leaderboard/"


def test_a_visitor_gets_the_browsers_language() -> None:
    russian = Client(headers={"accept-language": "ru-RU,ru;q=0.9,en;q=0.5"}).get(reverse("stats:leaderboard"))
    page = russian.content.decode()
    assert '<html lang="ru"' in page
    assert "<h1>Рейтинг</h1>" in page and "Leaderboard" not in page
    english = Client(headers={"accept-language": "en-GB,en;q=0.8"}).get(reverse("stats:leaderboard"))
    page = english.content.decode()
    assert '<html lang="en"' in page and "<h1>Leaderboard</h1>" in page


def test_the_header_has_a_switcher_that_works_without_javascript() -> None:
    visitor = Client(headers={"accept-language": "en"})
    page = visitor.get(reverse("stats:leaderboard")).content.decode()
    assert f'action="{reverse("set_language")}"' in page
    assert 'name="language" value="ru" lang="ru">Русский</button>' in page
    response = visitor.post(reverse("set_language"), {"language": "ru", "next": reverse("stats:leaderboard")})
    assert response.status_code == 302 and response["Location"] == reverse("stats:leaderboard")
    page = visitor.get(reverse("stats:leaderboard")).content.decode()
    assert '<html lang="ru"' in page and "<h1>Рейтинг</h1>" in page
    assert 'name="language" value="en" lang="en">English</button>' in page


def test_a_signed_in_players_switch_is_saved_and_not_flipped_back() -> None:
    user = UserFactory(language="en")
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    client.get(reverse("notifications:settings"))  # the cookie follows user.language: en
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    user.refresh_from_db()
    assert user.language == "ru"
    for _ in range(2):  # the middleware keeps the cookie at the saved choice
        page = client.get(reverse("notifications:settings")).content.decode()
        assert '<html lang="ru"' in page and "<h1>Настройки</h1>" in page
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"


def test_an_unknown_language_from_the_switcher_changes_nothing() -> None:
    user = UserFactory(language="en")
    client = Client()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"


def test_a_new_account_starts_in_the_browsers_language() -> None:
    client = Client(headers={"accept-language": "ru"})
    response = client.post(
        reverse("account_signup"),
        {
            "username": "masha",
            "email": "masha@example.com",
            "password1": "a-long-card-password",
            "password2": "a-long-card-password",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="masha").language == "ru"
    english = Client(headers={"accept-language": "en-US"})
    english.post(
        reverse("account_signup"),
        {
            "username": "mary",
            "email": "mary@example.com",
            "password1": "a-long-card-password",
            "password2": "a-long-card-password",
        },
    )
    assert User.objects.get(username="mary").language == "en"


def test_the_settings_page_speaks_the_new_language_at_once() -> None:
    user = UserFactory(language="en")
    client = Client()
    client.force_login(user)
    data = {"language": "ru", "time_zone": "UTC", "confirm_moves": "correspondence"}
    response = client.post(reverse("notifications:settings"), data, follow=True)
    page = response.content.decode()
    assert '<html lang="ru"' in page and "Настройки сохранены." in page


def test_allauth_pages_are_in_russian() -> None:
    page = Client(headers={"accept-language": "ru"}).get(reverse("account_login")).content.decode()
    assert '<html lang="ru"' in page and "Войти" in page
