"""The table with one thumb and with the keyboard alone.

- At 360x740 with a touch screen, two players (each in their own browser context) play a whole
  stacked game with ``tap()`` only, and the game page never scrolls sideways.
- At 1280x800 two players play the same game with the keyboard only: Tab to a card, Enter to
  pick it (the focus moves to its target), Enter to play; Tab to Take and Pass. No mouse.
- In a correspondence game, a move waits on the confirm bar: Cancel (Escape) sends nothing,
  Confirm sends it. Polls that fail show "Connection lost: retrying…", then "Back online.".

Players are logged in by session cookie and the game is made by the services with a stacked
deal (nine moves), so each test takes seconds.
"""

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from accounts.models import User
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 10_000
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}

# Classic, two players, hearts trump (9H face up under a stock of two); as in test_two_players:
# Alice leads 6S, Bob beats it with 8S, Alice throws in 6D, Bob beats it with 9D, Alice passes;
# Bob leads 7S, Alice takes; Bob leads 10C, his last card, Alice beats it with KC: Alice is the fool.
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}


class Seat:
    """One player at one browser page."""

    def __init__(self, page: Page, name: str) -> None:
        self.page = page
        self.name = name
        page.set_default_timeout(TIMEOUT_MS)

    @property
    def table(self) -> Any:
        return self.page.locator("#table")

    def version(self) -> int:
        return int(self.table.get_attribute("data-version") or "-1")

    def assert_no_sideways_scroll(self) -> None:
        width = self.page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{self.name}'s page scrolls sideways: {width[0]} px in {width[1]} px"

    # Touch: one tap picks the card, a second tap on its target plays it.
    def tap_card(self, card: str, label: str) -> None:
        self.table.locator(f'[data-pick="{card}"]').tap()
        target = self.armed(label)
        expect(target).to_be_visible()
        box = target.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, f"a small touch target: {box}"
        target.tap()

    def armed(self, label: str) -> Any:
        """The target of the picked card that does exactly ``label``."""
        return self.table.locator(".card-action.armed").filter(has_text=re.compile(f"^{re.escape(label)}$"))

    def tap_button(self, kind: str) -> None:
        button = self.table.locator(f".other-actions button.{kind}")
        box = button.bounding_box()
        assert box and box["height"] >= 44, f"a small touch target: {box}"
        button.tap()

    # Keyboard: Tab until the wanted control has the focus, then Enter.
    def tab_to(self, selector: str, limit: int = 80) -> None:
        for _ in range(limit):
            if self.page.evaluate(
                "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
            ):
                return
            self.page.keyboard.press("Tab")
        pytest.fail(f"{self.name}: Tab never reached {selector}")

    def key_card(self, card: str, label: str) -> None:
        self.tab_to(f'#table [data-pick="{card}"]')
        self.page.keyboard.press("Enter")
        # Picking by keyboard moves the focus to the card's target.
        focused = self.page.evaluate("document.activeElement.textContent")
        assert focused == label, f"{self.name}: the focus went to {focused!r}, not {label!r}"
        self.page.keyboard.press("Enter")

    def key_button(self, kind: str) -> None:
        self.tab_to(f"#table .other-actions button.{kind}")
        self.page.keyboard.press("Enter")


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
    return context, context.new_page()


@pytest.fixture
def players(db: Any) -> tuple[User, User]:
    return (
        User.objects.create_user(username="alice", email="alice@example.com", password="x-long-password-1"),
        User.objects.create_user(username="bob", email="bob@example.com", password="x-long-password-2"),
    )


def stacked_game(alice: User, bob: User, **options: Any) -> Game:
    game = services.game_create(creator=alice, preset="classic", num_players=2, deal=DEAL, **options)
    services.game_join(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


@pytest.fixture
def two_pages(
    browser: Browser, live_server: Any, players: tuple[User, User]
) -> Iterator[Callable[..., tuple[Seat, Seat]]]:
    contexts: list[BrowserContext] = []

    def open_pages(game: Game, **options: Any) -> tuple[Seat, Seat]:
        seats = []
        for user in players:
            context, page = logged_in(browser, user, live_server.url, **options)
            contexts.append(context)
            page.goto(f"{live_server.url}/games/{game.pk}/")
            seats.append(Seat(page, user.username))
        return seats[0], seats[1]

    yield open_pages
    for context in contexts:
        context.close()


def moved(mover: Seat, watcher: Seat, act: Callable[[], None]) -> None:
    """``act`` is one move: both tables show the next version, with no error."""
    before = mover.version()
    act()
    expect(mover.table).to_have_attribute("data-version", str(before + 1))
    expect(mover.table.locator(".error")).to_have_count(0)
    expect(watcher.table).to_have_attribute("data-version", str(before + 1))


def test_a_whole_game_on_phones_with_taps_only(
    two_pages: Callable[..., tuple[Seat, Seat]], players: tuple[User, User], settings: Any, artifacts: Path
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    open_game = services.game_create(
        creator=players[0], preset="classic", num_players=3, overrides={"transfer": True}
    )
    alice, bob = two_pages(stacked_game(*players), **PHONE)
    # The lobby, with an open game listed and the create form, fits the phone too.
    bob.page.goto(bob.page.url.split("/games/")[0] + "/")
    expect(bob.page.locator(".open-games")).to_contain_text(f"Game {open_game.pk}")
    bob.assert_no_sideways_scroll()
    bob.page.go_back()
    for seat in (alice, bob):
        expect(seat.table.locator(".hand .pick")).to_have_count(4)
        seat.assert_no_sideways_scroll()
    expect(alice.table.locator(".status")).to_contain_text("Your move.")
    expect(alice.table.locator(".situation")).to_contain_text("Your lead: attack bob")
    expect(bob.table.locator(".opponent .role-attacker")).to_have_text("attacks")
    expect(alice.table.locator(".trump-card")).to_have_attribute("aria-label", "nine of hearts")

    moved(alice, bob, lambda: alice.tap_card("6S", "Attack with 6♠"))
    expect(bob.table.locator(".situation")).to_contain_text("6♠ attacks you: beat it or take.")
    expect(bob.page.locator("#announcer")).to_contain_text("alice attacks with 6♠. Your move.")
    bob.table.locator('[data-pick="8S"]').tap()  # picked: the card stands up, its target lies on the attack
    expect(bob.table.locator('[data-pick="8S"]')).to_have_attribute("aria-pressed", "true")
    bob.assert_no_sideways_scroll()
    bob.page.screenshot(path=str(artifacts / "phone-picked-bob.png"))
    moved(bob, alice, lambda: bob.armed("Beat 6♠ with 8♠").tap())
    moved(alice, bob, lambda: alice.tap_card("6D", "Throw in 6♦"))
    moved(bob, alice, lambda: bob.tap_card("9D", "Beat 6♦ with 9♦"))
    for seat in (alice, bob):
        seat.assert_no_sideways_scroll()
    moved(alice, bob, lambda: alice.tap_button("pass"))
    moved(bob, alice, lambda: bob.tap_card("7S", "Attack with 7♠"))
    moved(alice, bob, lambda: alice.tap_button("take"))
    moved(bob, alice, lambda: bob.tap_card("10C", "Attack with 10♣"))
    moved(alice, bob, lambda: alice.tap_card("KC", "Beat 10♣ with K♣"))

    expect(alice.table.locator(".status")).to_contain_text("The game is over: you are the fool.")
    expect(bob.table.locator(".status")).to_contain_text("The game is over: you won, alice is the fool.")
    for seat in (alice, bob):
        seat.assert_no_sideways_scroll()
        seat.page.screenshot(path=str(artifacts / f"phone-end-{seat.name}.png"), full_page=True)


def test_a_whole_game_with_the_keyboard_only(
    two_pages: Callable[..., tuple[Seat, Seat]], players: tuple[User, User], settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob = two_pages(stacked_game(*players), **DESKTOP)

    moved(alice, bob, lambda: alice.key_card("6S", "Attack with 6♠"))
    moved(bob, alice, lambda: bob.key_card("8S", "Beat 6♠ with 8♠"))
    moved(alice, bob, lambda: alice.key_card("6D", "Throw in 6♦"))
    # Arrow keys walk the hand; Escape puts a picked card back.
    bob.tab_to('#table [data-pick="9D"]')
    bob.page.keyboard.press("Enter")
    expect(bob.table.locator(".card-action.armed")).to_have_count(1)
    bob.page.keyboard.press("Escape")
    expect(bob.table.locator(".card-action.armed")).to_have_count(0)
    moved(bob, alice, lambda: bob.key_card("9D", "Beat 6♦ with 9♦"))
    moved(alice, bob, lambda: alice.key_button("pass"))
    moved(bob, alice, lambda: bob.key_card("7S", "Attack with 7♠"))
    moved(alice, bob, lambda: alice.key_button("take"))
    moved(bob, alice, lambda: bob.key_card("10C", "Attack with 10♣"))
    moved(alice, bob, lambda: alice.key_card("KC", "Beat 10♣ with K♣"))
    expect(alice.table.locator(".status")).to_contain_text("The game is over: you are the fool.")
    expect(bob.page.locator("#announcer")).to_contain_text("alice beats 10♣ with K♣.")


def test_a_correspondence_move_waits_for_confirmation_and_connection_loss_is_shown(
    two_pages: Callable[..., tuple[Seat, Seat]], players: tuple[User, User], settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    game = stacked_game(*players, move_time=timedelta(days=1))
    assert players[0].confirm_moves == "correspondence"
    alice, bob = two_pages(game, **DESKTOP)
    expect(alice.table).to_have_attribute("data-confirm", "on")

    # Cancel: nothing is sent.
    alice.key_card("6S", "Attack with 6♠")
    bar = alice.table.locator(".confirm-bar")
    expect(bar).to_be_visible()
    expect(bar.locator(".confirm-question")).to_have_text("Attack with 6♠?")
    assert alice.page.evaluate("document.activeElement.classList.contains('confirm-yes')")
    alice.page.keyboard.press("Escape")
    expect(bar).to_be_hidden()
    expect(alice.table.locator(".card-action.armed")).to_have_count(0)
    assert alice.page.evaluate("document.activeElement.dataset.pick") == "6S"  # back on the card
    alice.page.wait_for_timeout(800)  # polls come and go; the move did not
    assert alice.version() == game.version
    game.refresh_from_db()
    assert game.moves.count() == 0

    # Confirm: sent.
    alice.key_card("6S", "Attack with 6♠")
    expect(bar).to_be_visible()
    moved(alice, bob, lambda: alice.page.keyboard.press("Enter"))
    expect(bob.table.locator('.pair .attack[data-card="6S"]')).to_have_count(1)

    # The connection drops: the live stream and the polls fail, the page says so, and says when
    # it is back. Both are cut: with the stream open the page does not poll, and a stream that
    # comes back between the two halves would otherwise leave nothing to fail.
    cut = ("**/poll/**", "**/live/**")
    for pattern in cut:
        bob.page.context.route(pattern, lambda route: route.abort())
    expect(bob.page.locator("#connection")).to_have_text("Connection lost: retrying…")
    for pattern in cut:
        bob.page.context.unroute(pattern)
    expect(bob.page.locator("#connection")).to_have_text("Back online.")

    # The server answers 503 "briefly unavailable" (its database restarting): the same notice.
    for pattern in cut:
        bob.page.context.route(
            pattern,
            lambda route: route.fulfill(status=503, body="unavailable", headers={"Retry-After": "5"}),
        )
    expect(bob.page.locator("#connection")).to_have_text("Connection lost: retrying…")
    for pattern in cut:
        bob.page.context.unroute(pattern)
    expect(bob.page.locator("#connection")).to_have_text("Back online.")

    # Bob answers with a tap-free click through the bar's buttons.
    bob.table.locator('[data-pick="8S"]').click()
    bob.armed("Beat 6♠ with 8♠").click()
    expect(bob.table.locator(".confirm-question")).to_have_text("Beat 6♠ with 8♠?")
    moved(bob, alice, lambda: bob.table.locator(".confirm-yes").click())
