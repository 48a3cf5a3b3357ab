"""Helpers for the browser tests of the table's behaviour (issue 29): players logged in by session
cookie, each in a browser context of their own, on a game made by the services."""

import re
from typing import Any

from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from accounts.models import User
from games import services
from games.models import Game

TIMEOUT_MS = 15_000
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}

# Classic, two players, hearts trump (as in test_two_players.py): Alice leads 6S, Bob beats it with
# 8S, Alice throws in 6D... Alice holds two sixes: an attack of both is offered too.
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}


def user(name: str) -> User:
    return User.objects.create_user(
        username=name, email=f"{name}@example.com", password=f"x-long-password-{name}"
    )


def game_of(users: list[User], deal: dict[str, Any] = DEAL, **options: Any) -> Game:
    """A running game of ``users`` (seat order) with a stacked deal."""
    game = services.game_create(
        creator=users[0], preset="classic", num_players=len(users), deal=deal, **options
    )
    for other in users[1:]:
        services.game_join(user=other, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def move(game: Game, player: User, action: dict[str, Any]) -> None:
    """A move made by the services (not through a page)."""
    game.refresh_from_db()
    services.make_move(user=player, game_id=game.pk, action=action, expected_version=game.version)


class Seat:
    """One player at one browser page of the game."""

    def __init__(self, context: BrowserContext, page: Page, name: str) -> None:
        self.context = context
        self.page = page
        self.name = name
        page.set_default_timeout(TIMEOUT_MS)

    @property
    def table(self) -> Locator:
        return self.page.locator("#table")

    def version(self) -> int:
        return int(self.table.get_attribute("data-version") or "-1")

    def card(self, card: str) -> Locator:
        return self.table.locator(f'[data-pick="{card}"]')

    def armed(self, label: str | None = None) -> Locator:
        armed = self.table.locator(".card-action.armed")
        return armed.filter(has_text=re.compile(f"^{re.escape(label)}$")) if label else armed

    def focused(self, script: str = "el => el && (el.dataset.pick || el.id || el.textContent.trim())") -> Any:
        return self.page.evaluate(f"({script})(document.activeElement)")

    def wait_version(self, version: int) -> None:
        expect(self.table).to_have_attribute("data-version", str(version))


def open_seat(browser: Browser, player: User, base_url: str, game: Game, **options: Any) -> Seat:
    client = Client()
    client.force_login(player)
    context = browser.new_context(**{**DESKTOP, **options})
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
    page.goto(f"{base_url}/games/{game.pk}/")
    seat = Seat(context, page, player.username)
    expect(seat.table).to_be_visible()
    return seat
