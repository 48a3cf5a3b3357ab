"""Each chat line says when it was written, in the reader's own time zone (their settings) and
language: the time alone for today, the date too for an older line."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatMessage
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


def log_for(user: object, game_id: int, language: str = "en") -> str:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    url = reverse("chat:log", args=[game_id])
    return client.get(url, headers={"HX-Request": "true", "Accept-Language": language}).content.decode()


def times(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<time class="chat-time" datetime="([^"]+)">([^<]+)</time>', html)


def test_chat_lines_carry_their_time_in_each_readers_zone() -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    alice.time_zone, bob.time_zone = "Asia/Tokyo", "America/New_York"
    alice.save(update_fields=["time_zone"])
    bob.save(update_fields=["time_zone"])
    # Noon in Tokyo today (03:00 UTC): 10 p.m. the day before in New York.
    today_tokyo = timezone.now().astimezone(ZoneInfo("Asia/Tokyo")).date()
    written = datetime(
        today_tokyo.year, today_tokyo.month, today_tokyo.day, 12, 0, tzinfo=ZoneInfo("Asia/Tokyo")
    )
    message = ChatMessage.objects.create(game=game, author=alice, channel="players", text="hello")
    ChatMessage.objects.filter(pk=message.pk).update(created_at=written.astimezone(UTC))

    tokyo = times(log_for(alice, game.pk))
    assert len(tokyo) == 1
    assert tokyo[0][0].startswith(f"{today_tokyo.isoformat()}T12:00:00+09:00")
    assert tokyo[0][1] == "noon"  # today in Tokyo: the time alone
    new_york = times(log_for(bob, game.pk))
    assert new_york[0][0].startswith((written - timedelta(hours=14)).date().isoformat())
    assert "T22:00:00-05:00" in new_york[0][0] or "T23:00:00-04:00" in new_york[0][0]
    assert "10 p.m." in new_york[0][1] or "11 p.m." in new_york[0][1]


def test_an_older_line_has_its_date_in_russian() -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    bob.time_zone, bob.language = "Europe/Moscow", "ru"
    bob.save(update_fields=["time_zone", "language"])
    message = ChatMessage.objects.create(game=game, author=alice, channel="players", text="привет")
    ChatMessage.objects.filter(pk=message.pk).update(created_at=datetime(2026, 3, 8, 7, 5, tzinfo=UTC))
    shown = times(log_for(bob, game.pk, "ru"))
    assert shown[0][0] == "2026-03-08T10:05:00+03:00"
    assert shown[0][1].startswith("8 марта 2026") and "10:05" in shown[0][1]
