"""Offline, a player's own tables open as they last saw them; nothing else of anyone's does.

Chromium with the site's real service worker (``/sw.js``, registered by ``static/js/offline.js``,
``durak_site/offline.py``), the network cut with Playwright's ``context.set_offline``:

- Alice opens her game (online, through the worker), watches Bob and Carol's game as a
  spectator, goes offline and reloads her game: the table is there, with her hand as it was, the
  notice "offline — this is the table as you last saw it" (in Russian for a Russian reader) and
  no control that could send anything.
- The game she only watched, and a page she never opened, show the offline page instead, which
  links her kept table.
- She logs out: the kept tables are gone (the worker holds none), and offline her game's page is
  the offline page too.
"""

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from tests.factories import LONGER_DEAL, UserFactory, started_game
from tests.faults.conftest import login_session

pytestmark = pytest.mark.django_db(transaction=True)

NOTICE = {
    "en": "Offline — this is the table as you last saw it.",
    "ru": "Нет сети — это стол таким, каким вы видели его в последний раз.",  # noqa: RUF001
}
OFFLINE_TITLE = {"en": "You are offline", "ru": "Нет сети"}
GAME_TITLE = {"en": "Game {number}", "ru": "Игра {number}"}

KEPT = """async () => {
  const tables = await caches.open("durak-tables");
  return (await tables.keys()).map((request) => new URL(request.url).pathname).filter((path) => path !== "/.reader");
}"""


def kept_tables(page: Page) -> list[str]:
    kept: list[str] = page.evaluate(KEPT)
    return sorted(kept)


def wait_until(condition: Callable[[], Any], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what} in {timeout} s"
        time.sleep(0.1)


def wait_kept(page: Page, paths: list[str]) -> None:
    """Until the worker keeps exactly ``paths`` (it stores a page after handing it over)."""
    wait_until(
        lambda: kept_tables(page) == sorted(paths), f"{sorted(paths)} kept (kept: {kept_tables(page)})"
    )


@pytest.mark.parametrize("language", ["en", "ru"])
def test_offline_the_players_own_table_opens_as_last_seen_and_nothing_else(
    browser: Browser, live_server: Any, artifacts: Path, language: str
) -> None:
    game, (alice, _bob) = started_game(deal=LONGER_DEAL)
    User.objects.filter(pk=alice.pk).update(language=language)
    watched, _players = started_game(deal=LONGER_DEAL, creator=UserFactory(username=f"carol-{language}"))
    own, other = f"/games/{game.pk}/", f"/games/{watched.pk}/"
    base = live_server.url

    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale=language, service_workers="allow"
    )
    context.add_cookies([{"name": "sessionid", "value": login_session(alice), "url": base}])
    page = context.new_page()
    page.goto(base + own)
    wait_until(
        lambda: page.evaluate("() => navigator.serviceWorker.controller !== null"), "the worker's control"
    )
    # From now on every page comes through the worker.
    page.reload()
    page.goto(base + other)
    page.goto(base + own)
    wait_kept(page, [own])
    hand = page.locator(".hand [data-card]").evaluate_all("cards => cards.map((card) => card.dataset.card)")
    assert hand, "Alice's hand is on her page"
    assert page.locator("[data-offline-notice]").is_hidden()

    context.set_offline(True)
    page.reload()
    notice = page.locator("[data-offline-notice]")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(NOTICE[language])
    assert (
        page.locator(".hand [data-card]").evaluate_all("cards => cards.map((card) => card.dataset.card)")
        == hand
    )
    assert page.locator("button:enabled, input:enabled, select:enabled, textarea:enabled").count() == 0
    assert page.locator("script").count() == 0
    assert "offline-copy" in (page.locator("html").get_attribute("class") or "")
    page.screenshot(path=str(artifacts / f"offline-table-{language}.png"), full_page=True)

    page.goto(base + other)  # watched, never kept
    expect(page.get_by_role("heading", level=1)).to_have_text(OFFLINE_TITLE[language])
    kept_link = page.locator(f'[data-offline-list] a[href="{own}"]')
    expect(kept_link).to_have_text(GAME_TITLE[language].format(number=game.pk))
    page.screenshot(path=str(artifacts / f"offline-page-{language}.png"), full_page=True)
    page.goto(base + "/leaderboard/")  # never opened
    expect(page.get_by_role("heading", level=1)).to_have_text(OFFLINE_TITLE[language])

    context.set_offline(False)
    page.goto(base + own)
    page.locator(".site-nav form button").click()  # log out
    page.wait_for_url(base + "/")
    wait_kept(page, [])
    context.set_offline(True)
    page.goto(base + own)
    expect(page.get_by_role("heading", level=1)).to_have_text(OFFLINE_TITLE[language])
    assert page.locator("[data-offline-list] a").count() == 0
    assert "data-card" not in page.content()
    context.close()
