"""Choosing a time control, showing deadlines in the player's zone, vacations and weekends."""

from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services, timeouts
from games.models import Game, Seat, Vacation
from games.timeouts import VacationRefused, deadline_after
from tests.factories import LONGER_DEAL, UserFactory, started_game

pytestmark = pytest.mark.django_db

UTC_ZONE = ZoneInfo("UTC")


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_create_form_sets_the_time_control() -> None:
    user = UserFactory()
    client = client_for(user)
    response = client.post(
        reverse("games:create"),
        {"preset": "classic", "num_players": 2, "time_control": "3d", "pause_weekends": "on"},
    )
    assert response.status_code == 302
    game = Game.objects.get(creator=user)
    assert game.move_time == timedelta(days=3)
    assert game.pause_weekends and game.time_control == "correspondence"
    assert "3 days a move" in client.get(reverse("games:lobby")).content.decode()


def test_the_page_shows_you_have_until_in_your_time_zone_and_a_countdown() -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=30))
    assert game.time_control == "live"
    users[0].time_zone = "Asia/Tokyo"
    users[0].save()
    seat = Seat.objects.get(game=game, position=0)
    assert seat.deadline is not None
    local = seat.deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    page = client_for(users[0]).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "You have until" in page
    assert (
        f"{local.day}, {local.year}, {local:%-I}" in page and "(Tokyo, Japan)" in page
    )  # "Dec. 2, 2026, 7 a.m."
    assert f'class="countdown" data-deadline="{local.isoformat()}"' in page  # the same instant
    other = client_for(users[1]).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f"{users[0].username} has until" in other
    assert f"{seat.deadline.day}, {seat.deadline.year}, {seat.deadline:%-I}" in other and "(UTC)" in other


def test_deadline_after_skips_paused_days_across_a_dst_change() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    # Saturday 29 March 2025, 12:00 in Berlin; the clocks go forward that night.
    start = datetime(2025, 3, 28, 12, tzinfo=berlin)  # Friday noon
    deadline = deadline_after(start, timedelta(days=1), tz=berlin, paused=lambda d: d.weekday() >= 5)
    # 12 h left on Friday, the weekend stands still, 12 h more on Monday (now summer time).
    assert deadline == datetime(2025, 3, 31, 12, tzinfo=berlin)
    assert deadline_after(start, timedelta(hours=1), tz=berlin) == start + timedelta(hours=1)


def test_weekend_pause_applies_to_correspondence_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    friday = datetime(2025, 1, 3, 12, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: friday)
    corr, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(days=1), pause_weekends=True)
    assert corr.seats.get(position=0).deadline == datetime(2025, 1, 6, 12, tzinfo=UTC)
    live, _ = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=30), pause_weekends=True)
    assert live.seats.get(position=0).deadline == friday + timedelta(seconds=30)


def test_a_vacation_pushes_back_running_deadlines_and_is_limited_per_year(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.VACATION_DAYS_PER_YEAR = 5
    monday = datetime(2025, 6, 2, 9, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: monday)
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(days=1))
    player = users[0]
    version = game.version
    assert game.seats.get(position=0).deadline == monday + timedelta(days=1)
    services.vacation_take(user=player, starts_on=date(2025, 6, 3), days=3)
    game.refresh_from_db()
    seat = game.seats.get(position=0)
    # 15 h of Monday run, Tuesday..Thursday stand still, the remaining 9 h on Friday.
    assert seat.deadline == datetime(2025, 6, 6, 9, tzinfo=UTC)
    assert game.deadline == seat.deadline and game.version == version + 1
    assert timeouts.vacation_days_left(player) == 2
    with pytest.raises(VacationRefused, match="you have 2 of your 5 left"):
        services.vacation_take(user=player, starts_on=date(2025, 7, 1), days=3)
    with pytest.raises(VacationRefused, match="already have a vacation"):
        services.vacation_take(user=player, starts_on=date(2025, 6, 5), days=1)
    with pytest.raises(VacationRefused, match="past"):
        services.vacation_take(user=player, starts_on=date(2025, 6, 1), days=1)
    # Another year has its own allowance.
    services.vacation_take(user=player, starts_on=date(2025, 12, 31), days=3)
    assert Vacation.objects.filter(user=player).count() == 2
    # The opponent's clock is untouched by someone else's vacation.
    assert game.seats.get(position=1).deadline is None


def test_the_vacation_form_reports_refusals(settings: Any) -> None:
    settings.VACATION_DAYS_PER_YEAR = 2
    user = UserFactory()
    client = client_for(user)
    today = timezone.now().date()
    response = client.post(
        reverse("games:vacation"), {"starts_on": today.isoformat(), "days": "5"}, follow=True
    )
    assert "you have 2 of your 2 left" in response.content.decode()
    response = client.post(
        reverse("games:vacation"), {"starts_on": today.isoformat(), "days": "1"}, follow=True
    )
    assert "Vacation booked" in response.content.decode()
    assert "You have 1 day left this year" in response.content.decode()
