"""In a real browser (Debian's chromium), the site's pages and a game played by clicking raise
no Content-Security-Policy violation: every script, style and request the pages need is
allowed by the policy (``securitypolicyviolation`` events and the console's CSP errors are
collected from before each page's first script runs)."""

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from accounts.models import User
from games import services
from games.models import Game
from moderation import services as moderation_services
from tests.browser.test_two_players import DEAL, Player, move_and_watch
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-and-unusual-passphrase"

RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`
  );
});
"""


class Watched:
    """A browser context whose pages report every CSP violation."""

    def __init__(self, browser: Browser, name: str, base_url: str, artifacts: Path) -> None:
        self.context: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.player = Player(self.context, name, base_url, artifacts)
        self.page = self.player.page
        self.base_url = base_url
        self.console: list[str] = []
        self.seen: list[str] = []
        self.page.on("console", self._on_console)

    def _on_console(self, message: Any) -> None:
        if re.search(r"Content Security Policy|Refused to", message.text):
            self.console.append(f"{self.page.url}: {message.text}")

    def collect(self) -> None:
        for violation in self.page.evaluate("window.cspViolations || []"):
            self.seen.append(f"{self.page.url}: {violation}")

    def visit(self, path: str, ready: str = "main, body") -> None:
        self.collect()
        self.page.goto(self.base_url + path)
        expect(self.page.locator(ready).first).to_be_visible()
        self.page.wait_for_load_state("load")
        self.page.wait_for_timeout(400)  # deferred scripts, the first htmx requests (pages poll: never idle)
        self.collect()

    def log_in(self, username: str) -> None:
        self.visit("/accounts/login/")
        self.page.fill("#id_login", username)
        self.page.fill("#id_password", PASSWORD)
        self.page.locator("main form button[type=submit], main form button").last.click()
        expect(self.page.locator(".site-header .who")).to_have_text(username)

    def problems(self) -> list[str]:
        self.collect()
        return self.seen + self.console


def test_the_pages_and_a_game_raise_no_csp_violation(
    browser: Browser, live_server: Any, settings: Any, artifacts: Path
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice_user = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob_user = User.objects.create_user("bob", "bob@example.com", PASSWORD)
    moderator = User.objects.create_user("mod", "mod@example.com", PASSWORD)
    moderation_services.moderator_grant(user=moderator, actor=None, reason="CSP browser test")
    finished = services.game_create(creator=alice_user, preset="classic", num_players=2, deal=DRAW_DEAL)
    services.game_join(user=bob_user, game_id=finished.pk)
    by_position = {seat.position: seat.user for seat in finished.seats.select_related("user")}
    play_script(finished, [by_position[0], by_position[1]], DRAW_MOVES)
    game = services.game_create(creator=alice_user, preset="classic", num_players=2, deal=DEAL)
    services.game_join(user=bob_user, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE

    alice = Watched(browser, "alice", live_server.url, artifacts)
    bob = Watched(browser, "bob", live_server.url, artifacts)
    mod = Watched(browser, "mod", live_server.url, artifacts)
    try:
        alice.visit("/")
        # The recorder works: an inline script injected into the page is refused and reported.
        alice.page.evaluate(
            "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
            " document.head.append(s); }"
        )
        alice.page.wait_for_timeout(200)
        assert alice.page.evaluate("window.ran === undefined")
        assert alice.page.evaluate("window.cspViolations.length") == 1
        alice.page.evaluate("window.cspViolations = []")
        alice.console.clear()
        alice.visit("/accounts/signup/")
        alice.log_in("alice")
        bob.log_in("bob")
        for path in (
            "/",
            "/leaderboard/",
            "/players/bob/",
            "/notifications/",
            "/notifications/settings/",
            "/rules/",
            f"/games/{finished.pk}/replay/",
            f"/games/{finished.pk}/",
        ):
            alice.visit(path)
        alice.visit("/api/docs/", ready=".swagger-ui .info")

        # A few moves by clicking, each seen by the other player through polling.
        alice.visit(f"/games/{game.pk}/", ready="#table")
        bob.visit(f"/games/{game.pk}/", ready="#table")
        alice.player.mark_page()
        bob.player.mark_page()
        move_and_watch(alice.player, bob.player, lambda: alice.player.play("6S", "Attack with 6♠"))
        move_and_watch(bob.player, alice.player, lambda: bob.player.play("8S", "Beat 6♠ with 8♠"))
        move_and_watch(alice.player, bob.player, lambda: alice.player.play("6D", "Throw in 6♦"))
        move_and_watch(bob.player, alice.player, lambda: bob.player.play("9D", "Beat 6♦ with 9♦"))
        move_and_watch(alice.player, bob.player, lambda: alice.player.press("pass"))

        # The chat under the table: post a message, the other player's log shows it.
        alice.page.fill("#chat-form input[name=text]", "good game so far")
        alice.page.locator("#chat-form button").click()
        expect(bob.page.locator("#chat-log")).to_contain_text("good game so far", timeout=10_000)

        mod.log_in("mod")
        mod.visit("/admin/", ready="#content")
        mod.visit(f"/admin/games/game/{game.pk}/change/", ready="#content")
        mod.visit("/moderation/rating-farming/")

        problems = alice.problems() + bob.problems() + mod.problems()
        assert not problems, "CSP violations:\n" + "\n".join(problems)
    finally:
        for watched in (alice, bob, mod):
            watched.context.close()
