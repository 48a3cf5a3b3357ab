"""Two people play a whole game in two real browsers.

Alice (a desktop window) and Bob (a phone-sized one) sign up through the real
sign-up page; Alice opens a game in the lobby, Bob joins it there, and they
play it to the end by clicking: pick a card, then where it goes; take and pass
buttons. Each sees the other's move arrive by HTMX polling, without a reload.

The deal is stacked by the test alone: while it runs, the live server's
``services.game_create`` (same process) is wrapped to pass ``deal=DEAL``. The
site has no way to stack a deal from the web.

Screenshots of both pages at the start, in the middle and at the end go to
``test-artifacts/browser/``.
"""

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Browser, BrowserContext, Page, expect

from accounts.models import User
from games import services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-felt-and-trumps-42"
TIMEOUT_MS = 10_000

# Classic, two players, hearts trump (9H face up under a stock of two).
# Bout 1: Alice leads 6S, Bob beats it with 8S, Alice throws in 6D, Bob beats it
#   with 9D, Alice passes (she could throw 8C): beaten off. Alice draws KC and 9H.
# Bout 2: Bob leads 7S, Alice takes it (Bob has nothing to add).
# Bout 3: Bob leads 10C, his last card; Alice beats it with KC. Bob is out and
#   Alice, with four cards left, is the fool.
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}


class Player:
    """One person at one browser window."""

    def __init__(self, context: BrowserContext, name: str, base_url: str, artifacts: Path) -> None:
        self.page: Page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.name = name
        self.base_url = base_url
        self.artifacts = artifacts

    @property
    def table(self) -> Any:
        return self.page.locator("#table")

    def sign_up(self) -> None:
        page = self.page
        page.goto(f"{self.base_url}/accounts/signup/")
        page.fill("#id_username", self.name)
        page.fill("#id_email", f"{self.name}@example.com")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.get_by_role("button", name="Sign Up").click()
        page.wait_for_url(f"{self.base_url}/")
        expect(page.locator(".site-header .who")).to_have_text(self.name)

    def version(self) -> int:
        return int(self.table.get_attribute("data-version") or "-1")

    def mark_page(self) -> None:
        """Tag the loaded document: a reload or navigation would lose the tag."""
        self.page.evaluate("window.sameDocument = true")

    def assert_not_reloaded(self) -> None:
        assert self.page.evaluate("window.sameDocument === true"), f"{self.name}'s page was reloaded"

    def wait_for_version(self, version: int) -> None:
        expect(self.table).to_have_attribute("data-version", str(version))

    def play(self, card: str, label: str, screenshot: str = "") -> None:
        """Pick a card of the hand, then the button (its target) that plays it."""
        self.page.click(f'#table [data-pick="{card}"]')
        target = self.page.locator("#table .card-action.armed", has_text=re.compile(f"^{re.escape(label)}$"))
        expect(target).to_be_visible()
        if screenshot:
            self.screenshot(screenshot)
        target.click()

    def press(self, kind: str, double: bool = False) -> None:
        """A button that plays no card: take, pass. ``double``: an impatient double click."""
        button = f"#table .other-actions button.{kind}"
        if double:
            self.page.dblclick(button)
            self.page.wait_for_timeout(500)  # let a second request, if one went out, come back
        else:
            self.page.click(button)

    def screenshot(self, moment: str) -> None:
        self.page.screenshot(path=str(self.artifacts / f"{moment}-{self.name}.png"), full_page=True)


def move_and_watch(mover: Player, watcher: Player, act: Any) -> None:
    """``mover`` acts; their table is swapped in place, and ``watcher``'s page
    shows the new version without reloading."""
    before = mover.version()
    act()
    mover.wait_for_version(before + 1)
    expect(mover.table.locator(".error")).to_have_count(0)
    watcher.wait_for_version(before + 1)
    mover.assert_not_reloaded()
    watcher.assert_not_reloaded()


def test_two_players_sign_up_join_and_play_a_stacked_game_to_the_end(
    browser: Browser,
    live_server: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    artifacts: Path,
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    monkeypatch.setattr(services, "game_create", functools.partial(services.game_create, deal=DEAL))

    alice_context = browser.new_context(viewport=DESKTOP)
    bob_context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        alice = Player(alice_context, "alice", live_server.url, artifacts)
        bob = Player(bob_context, "bob", live_server.url, artifacts)

        # Sign up; email confirmation is optional, so each lands in the lobby logged in.
        alice.sign_up()
        bob.sign_up()
        assert sorted(message.to[0] for message in mail.outbox) == ["alice@example.com", "bob@example.com"]

        # Alice opens a classic two-player game from the lobby's form.
        alice.page.select_option("#id_preset", "classic")
        alice.page.fill("#id_num_players", "2")
        alice.page.get_by_role("button", name="Open the game").click()
        expect(alice.table).to_contain_text("Waiting for players: 1 of 2 seats taken.")
        alice.screenshot("0-waiting")
        game = Game.objects.get()
        assert game.creator == User.objects.get(username="alice")
        alice.mark_page()

        # Bob finds it in the lobby and joins; Alice's waiting page turns into the table.
        bob.page.goto(f"{live_server.url}/")
        bob.screenshot("0-lobby")
        bob.page.locator(".open-games tr", has_text="alice").get_by_role("button", name="Join").click()
        expect(bob.page.locator(".messages")).to_contain_text("You took a seat.")
        bob.mark_page()
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        alice.wait_for_version(game.version)
        alice.assert_not_reloaded()

        expect(alice.table.locator(".status")).to_contain_text("Your move.")
        expect(bob.table.locator(".status")).to_contain_text("Waiting for alice.")
        for card in DEAL["hands"][0]:
            expect(alice.table.locator(f'.hand [data-card="{card}"]')).to_have_count(1)
            expect(bob.table.locator(f'[data-card="{card}"]')).to_have_count(0)
        expect(bob.table.locator(".opponent .backs .card.back")).to_have_count(4)
        expect(alice.table.locator(".trump-card[data-card='9H']")).to_have_count(1)
        alice.screenshot("1-start")
        bob.screenshot("1-start")

        # Bout 1: attack, defend, throw in, defend, pass: beaten off.
        move_and_watch(alice, bob, lambda: alice.play("6S", "Attack with 6♠"))
        expect(bob.table.locator('.pair .attack[data-card="6S"]')).to_have_count(1)
        move_and_watch(bob, alice, lambda: bob.play("8S", "Beat 6♠ with 8♠"))
        expect(alice.table.locator('.pair .defence[data-card="8S"]')).to_have_count(1)
        move_and_watch(alice, bob, lambda: alice.play("6D", "Throw in 6♦", screenshot="2-picked"))
        expect(bob.table.locator('.pair .attack[data-card="6D"]')).to_have_count(1)
        move_and_watch(bob, alice, lambda: bob.play("9D", "Beat 6♦ with 9♦", screenshot="2-picked"))
        alice.screenshot("2-mid-bout")
        bob.screenshot("2-mid-bout")
        move_and_watch(alice, bob, lambda: alice.press("pass", double=True))
        for player in (alice, bob):
            expect(player.table.locator(".pairs .card")).to_have_count(0)
            expect(player.table.locator(".deck")).to_contain_text("Stock: 0")
        for card in ("8C", "KC", "9H", "QH"):  # Alice drew the stock, face-up trump last
            expect(alice.table.locator(f'.hand [data-card="{card}"]')).to_have_count(1)

        # Bout 2: Bob leads, Alice takes.
        move_and_watch(bob, alice, lambda: bob.play("7S", "Attack with 7♠"))
        alice.screenshot("3-before-take")
        bob.screenshot("3-before-take")
        move_and_watch(alice, bob, lambda: alice.press("take"))
        expect(alice.table.locator('.hand [data-card="7S"]')).to_have_count(1)
        expect(bob.table.locator(".opponent .count")).to_have_text("5 cards")

        # Bout 3: Bob leads his last card, Alice beats it: Bob is out, Alice is the fool.
        move_and_watch(bob, alice, lambda: bob.play("10C", "Attack with 10♣"))
        move_and_watch(alice, bob, lambda: alice.play("KC", "Beat 10♣ with K♣"))

        expect(alice.table.locator(".status")).to_contain_text("The game is over: you are the fool.")
        expect(bob.table.locator(".status")).to_contain_text("The game is over: you won, alice is the fool.")
        for player in (alice, bob):
            results = player.table.locator(".results")
            expect(results).to_contain_text("alice: the fool")
            expect(results).to_contain_text("bob: won")
            expect(player.table.locator("button[name=action]")).to_have_count(0)
            assert player.table.get_attribute("hx-get") is None  # a finished game stops polling
        alice.screenshot("4-end")
        bob.screenshot("4-end")

        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert {seat.user.username: seat.result for seat in game.seats.select_related("user")} == {
            "alice": Seat.Result.FOOL,
            "bob": Seat.Result.OUT,
        }
        assert game.moves.count() == 9
    finally:
        alice_context.close()
        bob_context.close()
