"""The bell, the list page, marking read, and the settings page."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from notifications.models import Kind, Notification, Preferences
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_bell_counts_unread_and_the_list_marks_read() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    first = users[0]
    unread = Notification.objects.filter(user=first, read_at=None)
    assert set(unread.values_list("kind", flat=True)) == {Kind.GAME_STARTED, Kind.YOUR_MOVE}
    client = client_for(first)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert '<span class="badge unread-count">2</span>' in lobby
    page = client.get(reverse("notifications:list")).content.decode()
    assert f"Your move in game {game.pk}." in page and f"Game {game.pk} has started" in page
    one = unread.get(kind=Kind.GAME_STARTED)
    response = client.post(reverse("notifications:read", args=[one.pk]))
    assert response.status_code == 302
    assert unread.count() == 1
    assert '<span class="badge unread-count">1</span>' in client.get(reverse("games:lobby")).content.decode()
    client.post(reverse("notifications:read_all"))
    assert unread.count() == 0
    assert "unread-count" not in client.get(reverse("games:lobby")).content.decode()


def test_someone_else_cannot_mark_my_notification() -> None:
    _, users = started_game(deal=LONGER_DEAL)
    mine = Notification.objects.filter(user=users[0]).first()
    assert mine is not None
    response = client_for(users[1]).post(reverse("notifications:read", args=[mine.pk]))
    assert response.status_code == 404
    mine.refresh_from_db()
    assert mine.read_at is None


def test_opening_the_game_reads_its_notifications() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client_for(users[0]).get(reverse("games:detail", args=[game.pk]))
    assert not Notification.objects.filter(user=users[0], game=game, read_at=None).exists()
    assert Notification.objects.filter(user=users[1], game=game, read_at=None).exists()


def test_settings_page_saves_preferences_and_time_zone() -> None:
    _, users = started_game(deal=LONGER_DEAL)
    client = client_for(users[0])
    assert client.get(reverse("notifications:settings")).status_code == 200
    data = {f"web_{kind}": "on" for kind in Kind.values}
    data.update({"email_invited": "on", "daily_digest": "on", "time_zone": "Europe/Moscow"})
    data.update({"display_name": "Ann", "language": "en", "confirm_moves": "never"})
    response = client.post(reverse("notifications:settings"), data)
    assert response.status_code == 302
    prefs = Preferences.objects.get(user=users[0])
    assert prefs.daily_digest and prefs.email_invited and not prefs.email_your_move
    users[0].refresh_from_db()
    assert users[0].time_zone == "Europe/Moscow"
    response = client.post(reverse("notifications:settings"), {**data, "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert "Choose a time zone from the list." in response.content.decode()


def test_pages_need_a_login() -> None:
    for name in ("notifications:list", "notifications:settings"):
        response = Client().get(reverse(name))
        assert response.status_code == 302 and "login" in response["Location"]
