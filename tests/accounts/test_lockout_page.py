"""The lock-out page (django-axes, ``accounts.lockout_page``): the time to try again in the
reader's time zone (a visitor's browser's, from the ``tz`` cookie) and language, with the zone
by its name; the same page for every try while the lock lasts (allauth's own limit would answer
the sixth try with a line and no time); the log-in field labelled as what it takes."""

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

SAID = {
    "en": {"title": "Too many failed log-ins", "zone": "(Moscow, Russia)", "again": "Try again in"},
    "ru": {
        "title": "Слишком много неудачных входов",
        "zone": "(Москва, Россия)",
        "again": "Попробуйте снова через",
    },
}


def visitor(language: str) -> Client:
    client = Client(headers={"Accept-Language": language})
    client.cookies["tz"] = "Europe%2FMoscow"  # as a browser may send it, escaped
    return client


def retry_time(language: str) -> str:
    latest = AccessAttempt.objects.latest("attempt_time").attempt_time
    until = timezone.localtime(latest + timedelta(minutes=15), ZoneInfo("Europe/Moscow"))
    return f"{until:%-H:%M}" if language == "ru" else f"{until:%-I:%M}"  # 9:05, as Django's ru TIME_FORMAT


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_try_while_locked_gets_the_page_with_the_time_in_the_readers_zone(
    language: str, settings: Any
) -> None:
    settings.AXES_FAILURE_LIMIT = 5
    cache.clear()  # allauth's own limit on failed log-ins counts in the cache
    User.objects.create_user("dora", "dora@example.com", PASSWORD)
    client = visitor(language)
    statuses, pages = [], []
    for attempt in range(7):
        response = client.post(reverse("account_login"), {"login": "dora", "password": f"wrong-{attempt}"})
        statuses.append(response.status_code)
        pages.append(response.content.decode())
    assert statuses == [200, 200, 200, 200, 429, 429, 429]
    said = SAID[language]
    for page in pages[4:]:
        assert said["title"] in page and said["again"] in page
        assert said["zone"] in page and retry_time(language) in page
        assert "UTC" not in page.split('class="retry"', 1)[1].split("</p>", 1)[0]
    # The right password while locked: still the page, not a log-in.
    locked = client.post(reverse("account_login"), {"login": "dora", "password": PASSWORD})
    assert locked.status_code == 429 and said["title"] in locked.content.decode()


def test_the_log_in_field_is_labelled_as_what_it_takes() -> None:
    russian = Client(headers={"Accept-Language": "ru"}).get(reverse("account_login")).content.decode()
    assert "Имя пользователя или e-mail" in russian
    assert ">Войти:<" not in russian
    english = Client(headers={"Accept-Language": "en"}).get(reverse("account_login")).content.decode()
    assert "User name or e-mail" in english and ">Login:<" not in english
