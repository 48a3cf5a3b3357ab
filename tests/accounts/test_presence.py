"""Presence: who is online, on profiles and in the lobby, recorded at most once a minute per
player without adding a read to any request."""

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import presence
from accounts.models import User
from games.bots import bot_account
from tests.factories import UserFactory, api_token

pytestmark = pytest.mark.django_db


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def presence_updates(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "accounts_user"')]


def test_a_player_active_now_is_online_one_away_for_an_hour_is_not() -> None:
    now = timezone.now()
    here = UserFactory(last_active_at=now - timedelta(seconds=20))
    away = UserFactory(last_active_at=now - timedelta(hours=1))
    never = UserFactory(last_active_at=None)
    assert presence.is_online(here)
    assert not presence.is_online(away)
    assert not presence.is_online(never)
    assert list(presence.online_users()) == [here]


def test_the_profile_says_online_now_or_the_day_last_seen() -> None:
    now = timezone.now()
    here = UserFactory(last_active_at=now - timedelta(seconds=20))
    away = UserFactory(last_active_at=now - timedelta(hours=1))
    viewer = Client()  # a visitor: nothing of theirs is recorded
    page = viewer.get(reverse("stats:profile", args=[here.username])).content.decode()
    assert "online now" in page
    page = viewer.get(reverse("stats:profile", args=[away.username])).content.decode()
    assert "online now" not in page
    assert "last seen" in page
    # The day only: never the minute, which could tell when a player looked at a game.
    minute = timezone.localtime(away.last_active_at).strftime("%H:%M")
    assert minute not in page.split("last seen", 1)[1][:80]


def test_a_computer_player_has_no_presence() -> None:
    bot = bot_account(level="rules")
    page = Client().get(reverse("stats:profile", args=[bot.username])).content.decode()
    assert "online now" not in page and "last seen" not in page


def test_the_lobby_counts_and_lists_who_is_online() -> None:
    now = timezone.now()
    alice = UserFactory(username="alice", last_active_at=now - timedelta(seconds=5))
    UserFactory(username="bob", last_active_at=now - timedelta(minutes=2))
    UserFactory(username="gone", last_active_at=now - timedelta(hours=3))
    page = logged_in(alice).get(reverse("games:lobby")).content.decode()
    news = page.split('class="online-now"', 1)[1].split("</p>", 1)[0]
    # The reader is not among them: she knows she is here.
    assert "1 other player online" in news
    assert "bob" in news and "alice" not in news and "gone" not in news


def test_a_page_records_the_player_once_a_minute_and_adds_no_read() -> None:
    alice = UserFactory(last_active_at=None)
    client = logged_in(alice)
    url = reverse("stats:profile", args=[alice.username])
    with CaptureQueriesContext(connection) as first:
        client.get(url)
    assert len(presence_updates(first)) == 1
    alice.refresh_from_db()
    assert alice.last_active_at is not None and timezone.now() - alice.last_active_at < timedelta(minutes=1)
    with CaptureQueriesContext(connection) as second:
        client.get(url)
    assert presence_updates(second) == []
    # Without the middleware the same page makes exactly as many queries: presence reads nothing.
    without = [name for name in settings.MIDDLEWARE if name != "accounts.presence.PresenceMiddleware"]
    with CaptureQueriesContext(connection) as bare, override_middleware(without):
        client.get(url)
    assert len(second.captured_queries) == len(bare.captured_queries)
    # A minute later: one UPDATE again.
    User.objects.filter(pk=alice.pk).update(last_active_at=timezone.now() - timedelta(seconds=61))
    with CaptureQueriesContext(connection) as later:
        client.get(url)
    assert len(presence_updates(later)) == 1


def test_many_requests_in_a_minute_write_once() -> None:
    alice = UserFactory(last_active_at=None)
    client = logged_in(alice)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            client.get(reverse("games:lobby"))
    assert len(presence_updates(queries)) == 1


def test_a_request_that_loads_nobody_records_nothing(django_assert_num_queries: Any) -> None:
    client = logged_in(UserFactory())
    with django_assert_num_queries(0):
        assert client.get("/healthz").status_code == 200


def test_the_api_records_a_token_caller_once_a_minute() -> None:
    alice = UserFactory(last_active_at=None)
    token = api_token(alice)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert client.get("/api/me/").status_code == 200
    assert len(presence_updates(queries)) == 1
    alice.refresh_from_db()
    assert presence.is_online(alice)


def override_middleware(middleware: list[str]) -> Any:
    from django.test import override_settings

    return override_settings(MIDDLEWARE=middleware)
