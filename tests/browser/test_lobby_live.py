"""The lobby's list of open games updates by itself (``games.views.lobby_open_games``, the
``lobby`` live channel): a player in the lobby sees the game another player opens appear, and
leave when it is cancelled, without a reload; through the stream, and by polling while the
stream is cut. The site runs under ASGI with the Redis fan-out, as in ``test_live_stream``."""

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from accounts.models import User
from games.models import Game
from tests.browser.test_live_stream import INSTRUMENT, redis_url, wait_until
from tests.factories import GameFactory, UserFactory
from tests.faults.conftest import Site, database_url_of_tests, login_session, site_env

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE_MS = 30_000
#: Set on the page when it loads: still there later means the page was never reloaded.
MARK = "window.lobbyNotReloaded = true"


@pytest.fixture
def site(transactional_db: Any, tmp_path: Path) -> Iterator[Site]:
    """The site under ASGI with the Redis fan-out (as ``test_live_stream``'s)."""
    env = site_env(database_url_of_tests(), LIVE_REDIS_URL=redis_url())
    served = Site(logs=tmp_path, env={**env, "DJANGO_SETTINGS_MODULE": "tests.browser.live_settings"})
    try:
        yield served
    finally:
        served.kill()


def lobby_page(browser: Browser, site: Site, user: User) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": site.url}])
    context.add_init_script(INSTRUMENT)
    page = context.new_page()
    page.set_default_timeout(DEADLINE_MS)
    return context, page


def open_a_game(page: Page, site: Site, *, players: str, time_control: str) -> int:
    """Through the lobby's form, as a player does; the id of the game opened."""
    page.goto(f"{site.url}/")
    form = page.locator("form.create-form")
    form.locator("[name=num_players]").fill(players)
    form.locator("[name=time_control]").select_option(time_control)
    page.click("form.create-form button:not([name])")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    match = re.search(r"/games/(\d+)/$", page.url)
    assert match is not None
    return int(match[1])


def test_a_game_opened_by_another_player_appears_in_the_lobby_without_a_reload(
    browser: Browser, site: Site, artifacts: Any
) -> None:
    site.start(GAME_POLL_SECONDS="60")  # no poll could bring the news in time: only the stream
    watcher_user, host_user = UserFactory(), UserFactory()
    watcher, watcher_page = lobby_page(browser, site, watcher_user)
    host, host_page = lobby_page(browser, site, host_user)
    try:
        watcher_page.goto(f"{site.url}/")
        wait_until(watcher_page, "window.liveOpened > 0")
        watcher_page.evaluate(MARK)
        expect(watcher_page.locator("#open-games")).to_contain_text("No open games right now.")

        game_id = open_a_game(host_page, site, players="3", time_control="30s")
        row = watcher_page.locator(f'#open-games tr[data-game="{game_id}"]')
        expect(row).to_be_visible(timeout=DEADLINE_MS)
        expect(row).to_contain_text("30 s a move")
        expect(row).to_contain_text("1 of 3")
        assert watcher_page.evaluate("window.lobbyNotReloaded === true")
        events = watcher_page.evaluate("window.liveEvents")
        lobby_events = [event for event in events if event["type"] == "lobby"]
        assert lobby_events, events
        # The news names the game, nothing of its cards or seats.
        assert all(re.fullmatch(r'\{"game": ?\d+\}', event["data"]) for event in lobby_events), lobby_events
        watcher_page.screenshot(path=str(artifacts / "lobby-live.png"), full_page=True)

        # The watcher joins from the row: the host's open page and the lobby both follow.
        row.locator("button", has_text="Join").click()
        watcher_page.wait_for_url(re.compile(rf".*/games/{game_id}/$"))
        watcher_page.goto(f"{site.url}/")
        wait_until(watcher_page, "window.liveOpened > 0")
        watcher_page.evaluate(MARK)
        expect(watcher_page.locator(f'#open-games tr[data-game="{game_id}"]')).to_contain_text("2 of 3")

        # The host cancels (leaves the game they created): the row goes away by itself.
        host_page.goto(f"{site.url}/games/{game_id}/")
        host_page.click("form[action$='/leave/'] button")
        host_page.wait_for_url(f"{site.url}/")
        expect(watcher_page.locator(f'#open-games tr[data-game="{game_id}"]')).to_have_count(
            0, timeout=DEADLINE_MS
        )
        assert watcher_page.evaluate("window.lobbyNotReloaded === true")
        assert Game.objects.get(pk=game_id).status == Game.Status.ABORTED
    finally:
        watcher.close()
        host.close()


def test_the_lobby_polls_while_its_stream_is_cut(browser: Browser, site: Site) -> None:
    site.start(GAME_POLL_SECONDS="1")
    watcher, watcher_page = lobby_page(browser, site, UserFactory())
    host, host_page = lobby_page(browser, site, UserFactory())

    def cut(route: Route) -> None:
        route.abort()

    try:
        watcher_page.route(re.compile(r".*/live/\?.*"), cut)
        watcher_page.goto(f"{site.url}/?players=2")
        watcher_page.evaluate(MARK)
        game_id = open_a_game(host_page, site, players="2", time_control="1d")
        row = watcher_page.locator(f'#open-games tr[data-game="{game_id}"]')
        expect(row).to_contain_text("1 day a move", timeout=DEADLINE_MS)
        assert watcher_page.evaluate("window.liveOpened") == 0
        assert watcher_page.evaluate("window.lobbyNotReloaded === true")
        # The polls keep the filter: a three-player game is not listed.
        other = open_a_game(host_page, site, players="3", time_control="none")
        watcher_page.wait_for_timeout(3_000)  # three poll periods
        expect(watcher_page.locator(f'#open-games tr[data-game="{other}"]')).to_have_count(0)
        expect(row).to_be_visible()
    finally:
        watcher.close()
        host.close()


@pytest.mark.parametrize(("width", "language"), [(360, "en"), (1280, "ru")])
def test_an_error_in_the_folded_rule_options_is_seen_at_once(
    browser: Browser, live_server: Any, artifacts: Any, width: int, language: str
) -> None:
    """ "abc" in "Most attack cards in a bout": the answer does not look like the unchanged
    lobby; its summary is on screen at the top, and the options are open on the field."""
    user = UserFactory(language=language)
    context = browser.new_context(viewport={"width": width, "height": 800}, locale=language)
    context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(DEADLINE_MS)
    try:
        page.goto(f"{live_server.url}/")
        form = page.locator("form.create-form")
        form.locator("details summary").click()
        form.locator("[name=opt_max_attack]").fill("abc")
        form.locator("button:not([name])").click()
        summary = page.locator(".error-summary")
        expect(summary).to_be_in_viewport()
        label = "Most attack cards in a bout" if language == "en" else "Больше всего карт в ходе"
        expect(summary).to_contain_text(label)
        expect(form.locator("details")).to_have_attribute("open", "")
        summary.locator("a").first.click()
        expect(form.locator("[name=opt_max_attack]")).to_be_in_viewport()
        expect(form.locator("[name=opt_max_attack]")).to_have_value("abc")
        page.screenshot(path=str(artifacts / f"lobby-form-error-{width}.png"))
        assert not Game.objects.exists()
    finally:
        context.close()


def test_the_filters_narrow_the_list_in_place_and_keep_the_address(
    browser: Browser, live_server: Any
) -> None:
    two, three = GameFactory(num_players=2), GameFactory(num_players=3, move_time=timedelta(seconds=30))
    user = UserFactory()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(DEADLINE_MS)
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(MARK)
        page.locator(".lobby-filters [name=players]").select_option("3")
        expect(page.locator(f'#open-games tr[data-game="{two.pk}"]')).to_have_count(0)
        expect(page.locator(f'#open-games tr[data-game="{three.pk}"]')).to_contain_text("30 s a move")
        expect(page).to_have_url(f"{live_server.url}/?players=3")
        assert page.evaluate("window.lobbyNotReloaded === true")
        page.reload()  # the address holds the filter
        expect(page.locator(".lobby-filters [name=players]")).to_have_value("3")
        expect(page.locator(f'#open-games tr[data-game="{two.pk}"]')).to_have_count(0)
    finally:
        context.close()
