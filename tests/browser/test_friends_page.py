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
from accounts.models import FriendRequest
from games import services
from tests.factories import GameFactory, UserFactory, started_game

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_the_friends_page_on_the_desktop(browser: Browser, live_server: Any, artifacts: Path) -> None:
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
    client = Client()
    client.force_login(me)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/friends/")
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
    context.close()
