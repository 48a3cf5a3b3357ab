"""Every moment a page shows is in Django's localised format, in the reader's language and in
the reader's time zone (their settings' ``time_zone``), never a fixed English format in UTC:
«Ваш ход до Wed 02 Dec, 01:00:00 (UTC)» was what a Russian reader in Moscow got."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Seat
from notifications.models import Kind, Notification
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db

#: 22:00 UTC on 1 December is already 2 December, 01:00 in Moscow.
MOMENT = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)


def reader(user: Any, *, language: str, zone: str) -> Client:
    user.language, user.time_zone = language, zone
    user.save()
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_the_game_page_shows_the_deadline_in_russian_in_the_readers_zone() -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(days=2))
    Seat.objects.filter(game=game, awaiting_move=True).update(deadline=MOMENT)
    mover = Seat.objects.get(game=game, awaiting_move=True).user
    page = reader(mover, language="ru", zone="Europe/Moscow").get(reverse("games:detail", args=[game.pk]))
    text = page.content.decode()
    assert "2 декабря 2026 г. 1:00 (Москва, Россия)" in text  # noqa: RUF001 (the Russian year mark)
    assert "Dec" not in text and "Wed" not in text and "(UTC)" not in text
    other = next(user for user in users if user != mover)
    english = reader(other, language="en", zone="America/New_York").get(
        reverse("games:detail", args=[game.pk])
    )
    assert "Dec. 1, 2026, 5 p.m. (New York, United States)" in english.content.decode()


def test_the_bell_list_dates_each_notification_in_the_readers_zone_and_language() -> None:
    _game, users = started_game(deal=LONGER_DEAL)
    Notification.objects.filter(user=users[0], kind=Kind.GAME_STARTED).update(created_at=MOMENT)
    page = reader(users[0], language="ru", zone="Europe/Moscow").get(reverse("notifications:list"))
    assert "2 декабря 2026 г. 1:00" in page.content.decode()  # noqa: RUF001 (the Russian year mark)
    page = reader(users[0], language="en", zone="UTC").get(reverse("notifications:list"))
    assert "Dec. 1, 2026, 10 p.m." in page.content.decode()
