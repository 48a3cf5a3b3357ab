"""A rematch by consent in two browsers: Alice offers a series of 3 on the finished game's page,
Bob sees the offer appear without a reload (through the live stream: polls are a minute apart),
accepts, and both pages link to the next game. Then the same with the stream cut: the offer
arrives by polling. The site runs under ASGI with the Redis fan-out, as in test_live_stream."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

from games.models import Game
from series.models import RematchOffer, SeriesGame
from tests.browser.test_live_stream import DEADLINE_MS, Viewer, site  # noqa: F401 (the fixture)
from tests.faults.conftest import Site
from tests.series.helpers import finished_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_offer_shows_live_and_both_pages_link_to_the_next_game(
    browser: Browser,
    site: Site,  # noqa: F811
    artifacts: Path,
) -> None:
    site.start(GAME_POLL_SECONDS="60")  # only the stream can bring the offer in time
    game, (alice, bob) = finished_game()
    a, b = Viewer(browser, site, alice, game.pk), Viewer(browser, site, bob, game.pk)
    try:
        a.open()
        b.open()
        expect(b.page.locator("#rematch")).to_contain_text("Offer a rematch")
        a.page.select_option("#rematch select[name=games_agreed]", "3")
        a.page.click("#rematch button.rematch-propose")
        expect(a.page.locator("#rematch")).to_contain_text("Withdraw the offer")

        offer = b.page.locator("#rematch .rematch-offer")
        expect(offer).to_contain_text(f"{alice.username} offers a rematch", timeout=DEADLINE_MS)
        expect(offer).to_contain_text("a series of 3 games, this one the first")
        expect(b.page.locator("#rematch")).to_contain_text("The offer expires on")
        b.page.locator("#rematch").scroll_into_view_if_needed()
        b.page.screenshot(path=str(artifacts / "rematch-offer.png"))
        assert Game.objects.count() == 1  # nobody seated before Bob says yes

        b.page.click("#rematch button.rematch-accept")
        following = None
        for viewer in (b, a):  # Alice's page hears it through the stream
            link = viewer.page.locator("#rematch .rematch-next a")
            expect(link).to_be_visible(timeout=DEADLINE_MS)
            href = link.get_attribute("href") or ""
            following = following or href
            assert href == following
        offer_row = RematchOffer.objects.get()
        assert offer_row.next_game is not None and following == f"/games/{offer_row.next_game_id}/"
        expect(a.page.locator("#rematch .rematch-next")).to_contain_text(
            f"Next game: #{offer_row.next_game_id}"
        )
        assert SeriesGame.objects.get(game=offer_row.next_game).series.games_agreed == 3
        a.page.click("#rematch .rematch-next a")
        expect(a.page.locator("#table")).to_have_attribute("data-version", re.compile(r"^\d+$"))
        assert a.page.url.endswith(following)
    finally:
        a.close()
        b.close()


def test_without_a_stream_the_offer_and_the_decline_arrive_by_polling(
    browser: Browser,
    site: Site,  # noqa: F811
) -> None:
    site.start(GAME_POLL_SECONDS="1")
    game, (alice, bob) = finished_game()
    a, b = Viewer(browser, site, alice, game.pk), Viewer(browser, site, bob, game.pk)

    def cut(route: Route) -> None:
        route.abort()

    try:
        for viewer in (a, b):
            viewer.page.route(re.compile(r".*/live/\?.*"), cut)
            viewer.open(streaming=False)
        a.page.click("#rematch button.rematch-propose")
        expect(b.page.locator("#rematch .rematch-offer")).to_contain_text(
            f"{alice.username} offers a rematch", timeout=DEADLINE_MS
        )
        b.page.click("#rematch button.rematch-decline")
        expect(a.page.locator("#rematch")).to_contain_text(
            f"{bob.username} declined the rematch.", timeout=DEADLINE_MS
        )
        expect(a.page.locator("#rematch button.rematch-propose")).to_be_visible()
        assert Game.objects.count() == 1
    finally:
        a.close()
        b.close()
