"""Two rough edges a player sees (issue 19):

- A flash message ("You took a seat.") is shown once and can be dismissed: on a live game page
  it goes once the table moves on, and a reload does not bring it back.
- The fifth failed log-in answers 429 with a page in the site's layout, in English and in
  Russian, saying when to try again.
"""

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 30_000
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}


def logged_in_page(browser: Browser, user: User, base_url: str, **options: Any) -> Page:
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
    page.set_default_timeout(TIMEOUT_MS)
    return page


def test_a_flash_message_shows_once_goes_with_the_next_table_and_can_be_dismissed(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = User.objects.create_user("bob", "bob@example.com", PASSWORD)
    game = services.game_create(creator=alice, preset="classic", num_players=2, deal=DEAL)
    page = logged_in_page(browser, bob, live_server.url, **PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("button", name="Take a seat").tap()
    message = page.locator(".messages li", has_text="You took a seat.")
    expect(message).to_be_visible()
    expect(page.locator(".messages")).to_have_text(
        "You took a seat.\u00d7"
    )  # the text and the dismiss button
    expect(page.locator("#table .hand")).to_be_visible()
    dismiss = message.get_by_role("button", name="Dismiss this message")
    box = dismiss.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, f"a small touch target: {box}"
    page.screenshot(path=str(artifacts / "flash-message.png"))

    # The table moves on (Alice leads): the message about the page as it loaded goes away.
    game.refresh_from_db()
    services.make_move(
        user=alice, game_id=game.pk, action={"type": "attack", "cards": ["6S"]}, expected_version=game.version
    )
    expect(page.locator("#table .pair")).to_have_count(1)
    expect(page.locator(".messages li")).to_have_count(0)
    # Read once: a reload does not show it again.
    page.reload()
    expect(page.locator("#table .pair")).to_have_count(1)
    expect(page.locator(".messages")).to_have_count(0)

    # A message can be dismissed by hand, too.
    carol = User.objects.create_user("carol", "carol@example.com", PASSWORD)
    other = services.game_create(creator=carol, preset="classic", num_players=3)
    page.goto(f"{live_server.url}/games/{other.pk}/")
    page.get_by_role("button", name="Take a seat").tap()
    message = page.locator(".messages li", has_text="You took a seat.")
    expect(message).to_be_visible()
    message.get_by_role("button", name="Dismiss this message").tap()
    expect(page.locator(".messages li")).to_have_count(0)
    assert Game.objects.get(pk=other.pk).seats.count() == 2


@pytest.mark.parametrize(
    ("language", "title", "retry"),
    [
        ("en", "Too many failed log-ins", "Try again in"),
        ("ru", "Слишком много неудачных входов", "Попробуйте снова через"),
    ],
)
def test_the_fifth_failed_log_in_gets_the_site_s_page_saying_when_to_retry(
    browser: Browser, live_server: Any, artifacts: Path, settings: Any, language: str, title: str, retry: str
) -> None:
    """The browser is in Moscow: the page says the time there (its zone reaches the server in the
    cookie accounts/time_zone.js sets) and names the zone in the reader's language."""
    settings.AXES_FAILURE_LIMIT = 5
    cache.clear()  # allauth's own limit on failed log-ins counts in the cache
    User.objects.create_user("dora", "dora@example.com", PASSWORD)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale=language, timezone_id="Europe/Moscow"
    )
    context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    statuses = []
    for attempt in range(6):  # the sixth, while locked, gets the same page
        page.goto(f"{live_server.url}/accounts/login/")
        page.locator("input[name=login]").fill("dora")
        page.locator("input[name=password]").fill(f"wrong-{attempt}")
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.locator("main form button[type=submit]").first.click()
        statuses.append(answer.value.status)
        page.wait_for_load_state()
    assert statuses == [200, 200, 200, 200, 429, 429]
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator(".lockout .retry")).to_contain_text(retry)
    expect(page.locator(".lockout .retry")).to_contain_text(
        "(Moscow, Russia)" if language == "en" else "(Москва, Россия)"
    )
    # The site's layout: its header and stylesheet, not a bare line of text.
    expect(page.locator(".site-header .brand")).to_be_visible()
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.lockout')).backgroundColor")
        == "rgb(255, 255, 255)"
    )
    page.screenshot(path=str(artifacts / f"lockout-{language}.png"), full_page=True)
