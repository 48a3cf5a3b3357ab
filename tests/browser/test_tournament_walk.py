"""Issue 31's walk, by clicks, with a real Celery worker and beat running the tournament: two
people register for a three-round live Swiss and their organiser seats two computer players;
beat starts it, each round's games are played (the computers by the worker, the people from the
tournament page's links to their games), the rounds follow one another by themselves, and
everyone reads the final standings. It takes the README's ``docs/screenshots/tournament.png``."""

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games.models import Game
from tests.celery_processes import CeleryEnv, celery_env
from tests.factories import UserFactory
from tests.faults.conftest import login_session
from tournaments import services
from tournaments.models import Player, Tournament

__all__ = ["celery_env"]  # the fixture, imported for the test below

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
#: How long the walk waits for what it expects (a loaded 2-core machine, a worker starting).
PATIENCE = 120


def wait_until(condition: Any, what: str, seconds: float = PATIENCE) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.2)
    return value


def page_of(browser: Browser, base: str, user: User) -> Page:
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": base}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def game_of(t: Tournament, user: User, number: int) -> Game | None:
    return Game.objects.filter(
        tournament_table__round__tournament=t, tournament_table__round__number=number, seats__user=user
    ).first()


def test_four_register_play_three_rounds_of_a_live_swiss_and_read_the_final_standings(
    browser: Browser, live_server: Any, celery_env: CeleryEnv, settings: Any, artifacts: Path
) -> None:
    base = live_server.url
    settings.TOURNAMENT_MIN_ROUND_SECONDS = 15
    anna = UserFactory(username="anna", confirm_moves="never")
    boris = UserFactory(username="boris", confirm_moves="never")
    t = services.tournament_create(
        creator=anna,
        name="Winter blitz",
        format=Tournament.Format.SWISS,
        preset="classic",
        move_time=timedelta(minutes=2),
        round_time=timedelta(seconds=20),
        rounds=3,
        starts_at=timezone.now() + timedelta(minutes=10),
        rated=False,
    )
    a, b = page_of(browser, base, anna), page_of(browser, base, boris)

    # Both find it in the list and register; the organiser seats two computers.
    for page in (a, b):
        page.goto(f"{base}/tournaments/")
        page.get_by_role("link", name="Winter blitz").click()
        page.get_by_role("button", name="Register").click()
        expect(page.locator(".tournament-me")).to_have_text("You are registered.")
    a.reload()
    for count in (3, 4):
        a.get_by_role("button", name="Add a computer player").click()
        expect(a.locator("#players-title")).to_have_text(f"{count} players")
    assert Player.objects.filter(tournament=t, user__is_bot=True).count() == 2

    # Its start time comes; the workers take it from there.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    celery_env.start_worker(concurrency=2)
    celery_env.start_beat()
    for number in (1, 2, 3):
        wait_until(lambda: Tournament.objects.get(pk=t.pk).round_number >= number, f"round {number}")  # noqa: B023
        for page, user in ((a, anna), (b, boris)):
            game = game_of(t, user, number)
            if game is None:
                continue  # a bye
            page.goto(f"{base}/tournaments/{t.pk}/")
            page.get_by_role("link", name=f"Game {game.pk}", exact=True).click()
            page.wait_for_url(f"**/games/{game.pk}/")
            game.refresh_from_db()
            if game.status == Game.Status.ACTIVE:
                page.locator("details.resign summary").click()
                page.get_by_role("button", name="Yes, resign").click()
            wait_until(lambda: Game.objects.get(pk=game.pk).is_over, f"game {game.pk} over")  # noqa: B023
    wait_until(lambda: Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED, "the end")

    rows = services.standings_rows(Tournament.objects.get(pk=t.pk))
    names = dict(User.objects.filter(pk__in=[row.player for row in rows]).values_list("pk", "username"))
    for page in (a, b):
        page.goto(f"{base}/tournaments/{t.pk}/")
        expect(page.locator("#standings-title")).to_have_text("Final standings")
        expect(page.locator("#status-title")).to_contain_text("finished")
        expect(page.locator("table.standings tbody tr")).to_have_count(4)
    shown = a.locator("table.standings tbody tr")
    for index, row in enumerate(rows):
        line = shown.nth(index)
        expect(line).to_contain_text(str(row.rank))
        if not User.objects.get(pk=row.player).is_bot:
            expect(line).to_contain_text(names[row.player])
    # Three rounds of two games each (four players, no bye), every one over.
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.count() == 6 and all(game.is_over for game in games)
    assert sum(row.points for row in rows) == 6
    # The README's screenshot of a tournament page with its standings.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    a.screenshot(path=str(SCREENSHOTS / "tournament.png"), full_page=True)
