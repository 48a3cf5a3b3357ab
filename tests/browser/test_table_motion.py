"""Cards move, the last move stands out, a computer is seen thinking (issue 29).

- Cards fly from the hand (or the seat of the player who played them) to the table, and from the
  table to the stock when a bout is beaten off; a reader who asks for reduced motion
  (``prefers-reduced-motion: reduce``, Playwright's ``reduced_motion``) gets no animation at all.
- The cards of the last move are marked (and named so to screen readers) until the next move.
  Screenshot: docs/screenshots/last-move.png.
- "Computer (rule of thumb) is thinking…" while the computer's move is due; gone once it moved.
"""

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import User
from games import bots, services, write
from tests.browser.table_pages import DEAL, game_of, open_seat, user

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

#: Before the page's scripts: every Web Animation started, by the card it moves.
RECORD = """
window.animated = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.animated.push({ card: this.dataset.card || "", ghost: this.classList.contains("motion-ghost") });
  return animate.apply(this, args);
};
"""


def wait_until(seat: Any, condition: str, timeout: float = 15.0) -> None:
    """Poll ``condition`` (a JavaScript expression) from here: the page's CSP refuses the
    ``eval`` Playwright's own wait_for_function would use."""
    deadline = time.monotonic() + timeout
    while not seat.page.evaluate(f"() => Boolean({condition})"):
        if time.monotonic() > deadline:
            pytest.fail(f"{seat.name}: never {condition}", pytrace=False)
        seat.page.wait_for_timeout(50)


def animated(seat: Any) -> list[dict[str, Any]]:
    return list(seat.page.evaluate("window.animated"))


def test_cards_move_to_the_table_and_the_discard_but_not_for_reduced_motion(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob], deal=DEAL)
    a = open_seat(browser, alice, live_server.url, game)
    b = open_seat(browser, bob, live_server.url, game, reduced_motion="reduce")
    for seat in (a, b):
        seat.page.add_init_script(RECORD)
        seat.page.reload()
        expect(seat.table).to_be_visible()

    version = a.version()
    a.card("6S").click()
    a.armed("Attack with 6♠").click()
    a.wait_version(version + 1)
    wait_until(a, "window.animated.some((a) => a.card === '6S')")  # from her hand
    b.wait_version(version + 1)

    b.card("8S").click()
    b.armed("Beat 6♠ with 8♠").click()
    a.wait_version(version + 2)
    wait_until(a, "window.animated.some((a) => a.card === '8S')")  # from Bob's seat
    # The last move's card is marked, and named so.
    last = a.table.locator(".card.last-played")
    expect(last).to_have_count(1)
    expect(last).to_have_attribute("data-card", "8S")
    expect(last).to_have_attribute("aria-label", "eight of spades, the last move")
    wait_until(a, "document.getAnimations().length === 0")
    a.page.mouse.move(0, 0)
    a.page.screenshot(path=str(SCREENSHOTS / "last-move.png"))

    a.table.locator(".other-actions button.pass").click()  # done: the bout is beaten off
    a.wait_version(version + 3)
    wait_until(a, "window.animated.filter((a) => a.ghost).length === 2")  # both to the stock
    expect(a.table.locator(".motion-ghost")).to_have_count(0)  # and gone once there
    expect(a.table.locator(".card.last-played")).to_have_count(0)

    b.wait_version(version + 3)
    assert animated(b) == []
    assert b.page.evaluate("document.getAnimations().length") == 0


def test_a_computer_is_seen_thinking_while_its_move_is_due(
    browser: Browser, live_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    due: list[tuple[int, int]] = []
    # The worker would play the computer's move after its delay: here the test plays it.
    monkeypatch.setattr(write, "queue_bot_move", lambda game_id, version: due.append((game_id, version)))
    alice: User = user("alice")
    game = services.game_against_computer(
        creator=alice, level="rules", preset="classic", num_players=2, deal={**DEAL, "first_attacker": 1}
    )
    a = open_seat(browser, alice, live_server.url, game)
    thinking = a.table.locator("p.thinking")
    computer = game.seats.get(position=1).user
    expect(thinking).to_have_text(f"{computer.name} is thinking…")  # its own name: "Masha (rule of thumb)"
    expect(a.table.locator(".opponent.thinking")).to_have_count(1)
    assert due
    version = a.version()
    game.refresh_from_db()
    assert bots.bot_play(game_id=game.pk, version=game.version)
    a.wait_version(version + 1)
    expect(thinking).to_have_count(0)
    expect(a.table.locator(".status strong")).to_have_text("Your move.")
    expect(a.table.locator(".card.last-played")).to_have_count(1)  # the computer's attack
