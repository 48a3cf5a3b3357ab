"""The friends page in a real browser, desktop width: two friends (one online, one last seen
days ago, with games shared), one request to answer and one sent. The screenshot is the
README's ``docs/screenshots/friends.png``."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, expect

from accounts import relations
from accounts.models import FriendRequest, User
from games import services
from tests.factories import GameFactory, UserFactory, started_game

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def a_player_with_friends() -> User:
    """Masha: two friends (Olya online, with two games together; Petya seen three days ago), one
    request to answer and one sent."""
    me = UserFactory(username="masha", display_name="Masha")
    olya = UserFactory(username="olya", display_name="Olya")
    petya = UserFactory(
        username="petya", display_name="Petya", last_active_at=timezone.now() - timedelta(days=3)
    )
    for friend in (olya, petya):
        request = relations.friend_request_send(sender=friend, recipient=me)
        assert isinstance(request, FriendRequest)
        relations.friend_request_accept(user=me, request_id=request.pk)
    relations.friend_request_send(sender=UserFactory(username="dima", display_name="Dima"), recipient=me)
    relations.friend_request_send(sender=me, recipient=UserFactory(username="sasha", display_name="Sasha"))
    for _ in range(2):
        game = GameFactory(creator=me)
        services.game_join(user=olya, game_id=game.pk)
    started_game(creator=petya)
    return me


def friends_page(browser: Browser, live_server: Any, me: User, viewport: dict[str, int]) -> Any:
    client = Client()
    client.force_login(me)
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            },
            {"name": django_settings.LANGUAGE_COOKIE_NAME, "value": me.language, "url": live_server.url},
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/friends/")
    return page


def test_the_friends_page_on_the_desktop(browser: Browser, live_server: Any, artifacts: Path) -> None:
    me = a_player_with_friends()
    page = friends_page(browser, live_server, me, {"width": 1280, "height": 900})
    expect(page.locator("h1")).to_contain_text("Friends")
    friends = page.locator(".club-list.friends li")
    expect(friends).to_have_count(2)
    expect(friends.nth(0)).to_contain_text("Olya")
    expect(friends.nth(0)).to_contain_text("online now")
    expect(friends.nth(0)).to_contain_text("games together: 2")
    expect(friends.nth(1)).to_contain_text("last seen")
    expect(page.locator("#incoming-title")).to_be_visible()
    expect(page.locator("#outgoing-title")).to_be_visible()
    page.screenshot(path=str(artifacts / "friends.png"), full_page=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "friends.png"), full_page=True)
    page.context.close()


def test_the_friends_page_on_a_phone_in_russian(browser: Browser, live_server: Any, artifacts: Path) -> None:
    me = a_player_with_friends()
    me.language = "ru"
    me.save(update_fields=["language"])
    page = friends_page(browser, live_server, me, {"width": 360, "height": 780})
    expect(page.locator("h1")).to_have_text("Друзья")
    friends = page.locator(".club-list.friends li")
    expect(friends.nth(0)).to_contain_text("в сети")
    expect(friends.nth(0).get_by_role("link", name="Пригласить в игру")).to_be_visible()
    # Nothing wider than the phone: no sideways scrolling, every button inside the screen.
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    for button in page.locator("main button, main a.button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, button.inner_text()
    page.screenshot(path=str(artifacts / "friends-phone-ru.png"), full_page=True)
    page.context.close()
