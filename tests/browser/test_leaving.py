"""Leaving a game by clicks: a player resigns after confirming; in a game without a clock whose
opponent has not moved for the rule's days (set back in the database), the other player reads
from when a claim is possible and claims the game. Both confirmations are ``<details>`` below the
hand: nothing covers the cards. Screenshots: test-artifacts/browser/leave-*.png."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from accounts.models import User
from games import services
from games.models import Game, Seat
from tests.browser.test_history import DEAL, DESKTOP, PHONE, logged_in
from tests.factories import backdate

pytestmark = pytest.mark.django_db(transaction=True)


def two_player_game(alice: User, bob: User, **kwargs: Any) -> Game:
    game = services.game_create(creator=alice, preset="classic", num_players=2, deal=DEAL, **kwargs)
    services.game_join(user=bob, game_id=game.pk)
    game.refresh_from_db()
    return game


def people() -> tuple[User, User]:
    alice = User.objects.create_user(
        username="alice", email="alice@example.com", password="x-long-password-1"
    )
    bob = User.objects.create_user(username="bob", email="bob@example.com", password="x-long-password-2")
    return alice, bob


def looks_like_a_button(page: Page, summary: Locator) -> None:
    """A folded confirmation's <summary> is drawn as a button (a fill and a border, not plain
    text on the felt), at least 44 px each way, and shows an outline when reached by the keyboard."""
    box = summary.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44, box
    look = summary.evaluate(
        "el => { const s = getComputedStyle(el); return [s.backgroundColor, s.borderTopStyle, s.borderTopWidth, s.cursor]; }"
    )
    assert look[0] not in ("transparent", "rgba(0, 0, 0, 0)") and look[1] != "none" and look[2] != "0px", look
    assert look[3] == "pointer", look
    for _ in range(100):  # Tab to it, as a keyboard user would
        if summary.evaluate("el => el === document.activeElement"):
            break
        page.keyboard.press("Tab")
    ring = summary.evaluate(
        "el => { const s = getComputedStyle(el); return [el.matches(':focus-visible'), s.outlineStyle, s.outlineWidth]; }"
    )
    assert ring[0] and ring[1] != "none" and float(ring[2].removesuffix("px")) >= 2, ring


def test_a_player_resigns_by_clicks_after_confirming(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice, bob = people()
    game = two_player_game(alice, bob)
    _context, page = logged_in(browser, bob, live_server.url, **PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    resign = page.locator("details.leave-confirm.resign")
    confirm = resign.get_by_role("button", name="Yes, resign")
    expect(confirm).to_be_hidden()  # folded: one click opens the question, a second answers it
    looks_like_a_button(page, resign.locator("summary"))
    page.screenshot(path=str(artifacts / "leave-resign-folded-phone.png"), full_page=True)
    resign.locator("summary").click()
    expect(confirm).to_be_visible()
    expect(resign).to_contain_text("you are the fool")
    # The question sits below the hand, not over it.
    hand = page.locator("section.hand").bounding_box()
    question = resign.bounding_box()
    assert hand is not None and question is not None and question["y"] >= hand["y"] + hand["height"]
    page.screenshot(path=str(artifacts / "leave-resign-confirm-phone.png"), full_page=True)
    confirm.click()
    expect(page.locator("section.results")).to_be_visible()
    expect(page.locator("section.results")).to_contain_text("bob: the fool")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Seat.objects.get(game=game, user=bob).result == Seat.Result.FOOL


def test_a_player_claims_a_stalled_game_by_clicks(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice, bob = people()
    bob.time_zone = "Europe/Moscow"
    bob.save()
    game = two_player_game(alice, bob, overrides={"claim_after_days": 10})  # the game waits for alice
    backdate(game, days=4 + 1 / 24)
    _context, page = logged_in(browser, bob, live_server.url, **DESKTOP)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    line = page.locator(".claim-line")
    expect(line).to_contain_text("The game has waited for alice for 4 days.")
    expect(line).to_contain_text("You may claim the game from")
    expect(page.locator("details.leave-confirm.claim")).to_have_count(0)

    backdate(game, days=10 + 1 / 24)
    page.reload()
    expect(line).to_contain_text("You may claim the game: alice will be the fool")
    claim = page.locator("details.leave-confirm.claim")
    looks_like_a_button(page, claim.locator("summary"))
    claim.locator("summary").click()
    page.screenshot(path=str(artifacts / "leave-claim-confirm.png"), full_page=True)
    claim.get_by_role("button", name="Yes, claim the game").click()
    expect(page.locator("section.results")).to_contain_text("alice: the fool")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    last = game.moves.order_by("-seq").first()
    assert last is not None and last.action["type"] == "claim" and last.position == 1
