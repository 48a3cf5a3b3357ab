"""A tournament's page in a browser: its live part follows the tournament by itself through its
live channel (``tournament-<id>``: a registration comes in without a reload, polls set far
apart), and on a 360 px phone in Russian its standings and rounds fit the screen."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_accessibility import PHONE, horizontal_overflow, signed_in
from tests.browser.test_live_stream import redis_url, wait_until
from tests.factories import UserFactory
from tests.faults.conftest import Site, database_url_of_tests, login_session, site_env
from tests.tournaments.helpers import finish_round, later, started, tournament, with_players
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE_MS = 30_000
#: What the page's stream hears on the tournament's channel, and when it opened.
LISTEN = """
window.liveOpened = 0;
window.tournamentEvents = [];
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(...args) {
    super(...args);
    this.addEventListener("stream-open", () => { window.liveOpened += 1; });
    this.addEventListener("tournament", (event) => window.tournamentEvents.push(event.data));
  }
};
"""


@pytest.fixture
def site(transactional_db: Any, tmp_path: Path) -> Iterator[Site]:
    """The site under ASGI with the Redis fan-out (as ``test_live_stream``'s)."""
    env = site_env(database_url_of_tests(), LIVE_REDIS_URL=redis_url())
    served = Site(logs=tmp_path, env={**env, "DJANGO_SETTINGS_MODULE": "tests.browser.live_settings"})
    try:
        yield served
    finally:
        served.kill()


def test_a_registration_reaches_an_open_tournament_page_through_its_stream(
    browser: Browser, site: Site, artifacts: Any
) -> None:
    site.start(GAME_POLL_SECONDS="60")  # no poll could bring the news in time: only the stream
    t = tournament(name="Autumn cup")
    with_players(t, 2)
    t.refresh_from_db()
    watcher_user, newcomer_user = UserFactory(), UserFactory()
    contexts = []
    try:
        pages = []
        for user in (watcher_user, newcomer_user):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": site.url}])
            context.add_init_script(LISTEN)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(DEADLINE_MS)
            page.goto(f"{site.url}/tournaments/{t.pk}/")
            pages.append(page)
        watcher, newcomer = pages
        wait_until(watcher, "window.liveOpened > 0")
        watcher.evaluate("window.notReloaded = true")
        expect(watcher.locator("#players-title")).to_have_text("2 players")

        newcomer.get_by_role("button", name="Register").click()
        expect(newcomer.locator(".tournament-me")).to_have_text("You are registered.")
        expect(watcher.locator("#players-title")).to_have_text("3 players", timeout=DEADLINE_MS)
        expect(watcher.locator(".tournament-players")).to_contain_text(newcomer_user.username)
        assert watcher.evaluate("window.notReloaded === true")
        # The news names the tournament and its version, nothing else.
        events = watcher.evaluate("window.tournamentEvents")
        assert events and all(
            event == f'{{"tournament":{t.pk},"version":{t.version + 1}}}' for event in events
        )
        assert Player.objects.filter(tournament=t, user=newcomer_user).exists()
        watcher.screenshot(path=str(artifacts / "tournament-live.png"), full_page=True)
    finally:
        for context in contexts:
            context.close()


def test_the_standings_and_rounds_fit_a_phone_in_russian(
    browser: Browser, live_server: Any, artifacts: Any
) -> None:
    t = tournament(name="Осенний кубок", rounds=2)
    users = with_players(t, 7)
    t = started(t)
    finish_round(t)
    services.advance(tournament_id=t.pk, now=later(t))
    me = users[0]
    me.language = "ru"
    me.username = "a_rather_long_user_name"  # cut in the phone header, never a third row
    me.save(update_fields=["language", "username"])
    page = signed_in(browser, live_server, me, PHONE, "ru-RU").new_page()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("main")).to_contain_text("Турнирная таблица")
    expect(page.locator("main")).to_contain_text("без пары")
    assert page.locator(".standings tbody tr").count() == 7
    page.screenshot(path=str(artifacts / "phone-ru-tournament.png"), full_page=True)
    assert horizontal_overflow(page) == 0
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 2 * 44 + 20, header
