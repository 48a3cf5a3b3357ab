"""The game page's history in a real browser: open beside the table at 1280 px, folded at 360 px
until tapped, and brought up to date with the table when the other player moves (the live
stream's or the poll's swap) without losing the reader's choice. Screenshots:
test-artifacts/browser/history-*.png."""

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import play_moves, started_game

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_MS = 60_000  # a loaded machine: the swap comes with the next stream event or poll
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}


def logged_in(browser: Browser, user: User, base_url: str, **options: Any) -> tuple[BrowserContext, Page]:
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": base_url,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return context, page


def move(game: Game, user: User, action: dict[str, Any]) -> None:
    game.refresh_from_db()
    services.make_move(user=user, game_id=game.pk, action=action, expected_version=game.version)


def test_the_history_is_open_on_a_desktop_folded_on_a_phone_and_follows_the_table(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice = User.objects.create_user(
        username="alice", email="alice@example.com", password="x-long-password-1"
    )
    bob = User.objects.create_user(username="bob", email="bob@example.com", password="x-long-password-2")
    game = services.game_create(creator=alice, preset="classic", num_players=2, deal=DEAL)
    services.game_join(user=bob, game_id=game.pk)
    move(game, alice, {"type": "attack", "player": 0, "cards": ["6S"]})
    url = f"{live_server.url}/games/{game.pk}/"

    desk_context, desk = logged_in(browser, alice, live_server.url, **DESKTOP)
    phone_context, phone = logged_in(browser, bob, live_server.url, **PHONE)
    try:
        desk.goto(url)
        history = desk.locator("details#history")
        expect(history).to_have_attribute("open", "")
        expect(history.locator(".history-entry").first).to_contain_text("You attack with 6♠.")

        phone.goto(url)
        folded = phone.locator("details#history")
        expect(folded).not_to_have_attribute("open", "")
        expect(folded.locator(".history-log")).to_be_hidden()
        phone.screenshot(path=str(artifacts / "history-phone-folded.png"), full_page=True)

        # Bob beats the 6♠ from somewhere else: Alice's table and history come up to date.
        move(game, bob, {"type": "defend", "player": 1, "target": "6S", "card": "8S"})
        expect(history.locator(".history-entry").first).to_contain_text(
            "bob beats 6♠ with 8♠.", timeout=WAIT_MS
        )
        expect(history).to_have_attribute("open", "")
        entries = history.locator(".history-entry")
        expect(entries).to_have_count(2)
        expect(entries.nth(1)).to_contain_text("You attack with 6♠.")
        history.scroll_into_view_if_needed()
        desk.screenshot(path=str(artifacts / "history-desktop.png"), full_page=True)

        # On the phone Bob opens it by a tap; Alice's next move swaps his table, and it stays open.
        folded.locator("summary").tap()
        expect(folded).to_have_attribute("open", "")
        move(game, alice, {"type": "throw", "player": 0, "card": "6D"})
        expect(folded.locator(".history-entry").first).to_contain_text("alice throws in 6♦.", timeout=WAIT_MS)
        expect(folded).to_have_attribute("open", "")
        expect(folded.locator(".history-log")).to_be_visible()
        width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the phone page scrolls sideways: {width}"
        folded.scroll_into_view_if_needed()
        phone.screenshot(path=str(artifacts / "history-phone-open.png"), full_page=True)
    finally:
        desk_context.close()
        phone_context.close()


def test_earlier_moves_come_on_demand_and_stay_when_the_table_moves_on(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    """A long game shows its latest moves; "Earlier moves" brings the ones before, page by page,
    down to the first; the other player's next move swaps the table and the moves brought stay."""
    game, users = started_game(players=2, seed=21)
    play_moves(game, users, 40)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.moves_made >= 30
    context, page = logged_in(browser, users[0], live_server.url, **DESKTOP)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        entries = page.locator("details#history .history-entry")
        shown = entries.count()
        assert 10 <= shown < game.moves_made
        earlier = page.get_by_role("button", name="Earlier moves")
        while earlier.count():
            before = entries.count()
            earlier.click()
            expect(entries).not_to_have_count(before)
        expect(entries).to_have_count(game.moves_made)
        expect(entries.last).to_have_attribute("data-seq", "1")
        page.locator("details#history").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "history-earlier-moves.png"), full_page=True)

        game.refresh_from_db()
        assert game.state is not None
        engine = game.engine()
        player = engine.waiting_for()[0]
        move(game, users[player], engine.legal_json(player)[0])
        expect(entries).to_have_count(game.moves_made + 1, timeout=WAIT_MS)  # the earlier ones stayed
        expect(entries.first).to_have_attribute("data-seq", str(game.moves_made + 1))
    finally:
        context.close()
