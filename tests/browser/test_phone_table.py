"""The table on a phone with seven cards in hand (issue 19), in chromium at 360x740 and 390x844:

- the hand is one row (the cards overlap to fit), nothing sideways;
- "Take the cards" is on the screen without scrolling, and so is the confirm bar once a card is
  picked and its target tapped, and neither covers a card of the hand (bounding boxes);
- the face-up trump's rank and suit are visible beside the stock, not hidden under it, and so is
  the trump's caption, not under the docked hand.

At 1280x800 the same table still shows the hand in one row with its actions on the screen.
Its screenshots go to test-artifacts/browser/ (docs/screenshots/ is the newcomer's walk's).
"""

from collections.abc import Iterator
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

TIMEOUT_MS = 30_000
# Classic with hands of seven; diamonds trump (the 9♦ face up under a stock of three). Alice
# leads 6♠; Bob, on the phone, holds seven cards and may beat it (7♠, Q♠) or take.
HAND = ["7S", "QS", "8H", "10C", "JD", "KH", "AC"]
DEAL: dict[str, Any] = {
    "hands": [["6S", "6H", "7C", "8C", "9C", "JH", "QH"], HAND],
    "stock": ["KS", "AS", "9D"],
    "first_attacker": 0,
}
SIZES = {
    "360": {
        "viewport": {"width": 360, "height": 740},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "390": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "1280": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for context in made:
        context.close()


def bob_page(
    browser: Browser, contexts: list[BrowserContext], live_server: Any, bob: User, size: str
) -> Page:
    client = Client()
    client.force_login(bob)
    context = browser.new_context(**SIZES[size])
    contexts.append(context)
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
    page.set_default_timeout(TIMEOUT_MS)
    return page


def seven_card_game() -> tuple[Game, User]:
    alice = User.objects.create_user("alice", "alice@example.com", "x-long-password-1")
    bob = User.objects.create_user("bob", "bob@example.com", "x-long-password-2")
    game = services.game_create(
        creator=alice,
        preset="classic",
        num_players=2,
        overrides={"hand_size": 7},
        deal=DEAL,
        move_time=timedelta(days=1),  # correspondence: every move waits on the confirm bar
    )
    services.game_join(user=bob, game_id=game.pk)
    game.refresh_from_db()
    services.make_move(
        user=alice, game_id=game.pk, action={"type": "attack", "cards": ["6S"]}, expected_version=game.version
    )
    game.refresh_from_db()
    return game, bob


def in_viewport(page: Page, box: dict[str, float] | None) -> bool:
    size = page.viewport_size
    assert box and size
    return (
        box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= size["height"] + 0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
    )


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def card_boxes(page: Page) -> list[dict[str, float]]:
    boxes = []
    for pick in page.locator("#table .hand .pick").all():
        box = pick.locator(".card").bounding_box()
        assert box
        boxes.append(box)
    return boxes


def check_table(page: Page, size: str) -> None:
    table = page.locator("#table")
    expect(table.locator(".hand .pick")).to_have_count(7)
    assert page.evaluate("window.scrollY") == 0
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways at {size}: {width}"

    # One row: every card of the hand at the same height (within the fan's tilt).
    boxes = card_boxes(page)
    tops = [box["y"] for box in boxes]
    assert max(tops) - min(tops) < boxes[0]["height"] / 2, f"the hand wraps at {size}: {tops}"
    # Each card's corner (its rank and suit) shows: the card drawn at that point is this card.
    for code in HAND:
        corner = table.locator(f'.hand [data-pick="{code}"] .card .corner').first
        box = corner.bounding_box()
        assert box
        hit = page.evaluate(
            "([x, y]) => { const el = document.elementFromPoint(x, y); const card = el && el.closest('.card'); return card && card.dataset.card; }",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit == code, f"{code}'s corner is covered (by {hit}) at {size}"

    # "Take the cards" is on the screen as the page opens, and covers no card.
    take = table.locator(".other-actions button.take")
    expect(take).to_be_visible()
    take_box = take.bounding_box()
    assert in_viewport(page, take_box), f"'Take the cards' is off the screen at {size}: {take_box}"
    assert take_box and not any(overlaps(take_box, box) for box in boxes)

    # The face-up trump: its corner (rank and suit) is visible, not under the stock.
    trump_corner = table.locator(".stock .trump-card .corner").first
    corner_box = trump_corner.bounding_box()
    assert corner_box
    hit = page.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y); const card = el && el.closest('.card'); return card && card.dataset.card; }",
        [corner_box["x"] + corner_box["width"] / 2, corner_box["y"] + corner_box["height"] / 2],
    )
    assert hit == "9D", f"the trump's corner is covered (by {hit!r}) at {size}"
    assert in_viewport(page, corner_box)

    # The trump's caption ("Trump: ♦ diamonds") is on the screen, and the docked hand lies not over it.
    caption = table.locator(".deck .trump")
    expect(caption).to_contain_text("diamonds")
    caption_box, dock_box = caption.bounding_box(), table.locator(".hand-dock").bounding_box()
    assert in_viewport(page, caption_box), f"the trump's caption is off the screen at {size}: {caption_box}"
    assert caption_box and dock_box and not overlaps(caption_box, dock_box), (
        f"the docked hand covers the trump's caption at {size}: {caption_box} under {dock_box}"
    )


@pytest.mark.parametrize("size", ["360", "390", "1280"])
def test_seven_cards_one_row_actions_and_trump_in_sight(
    browser: Browser, contexts: list[BrowserContext], live_server: Any, artifacts: Path, size: str
) -> None:
    game, bob = seven_card_game()
    page = bob_page(browser, contexts, live_server, bob, size)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("#table")).to_have_attribute("data-confirm", "on")
    check_table(page, size)
    page.screenshot(path=str(artifacts / f"phone-table-7-cards-{size}.png"))

    # Pick a card and its target: the confirm bar is on the screen and covers no card.
    table = page.locator("#table")
    pick = table.locator('[data-pick="7S"]')
    if size == "1280":
        pick.click()
    else:
        pick.tap()
    target = table.locator(".card-action.armed").first
    expect(target).to_be_visible()
    if size == "1280":
        target.click()
    else:
        target.tap()
    bar = table.locator(".confirm-bar")
    expect(bar).to_be_visible()
    bar_box = bar.bounding_box()
    assert in_viewport(page, bar_box), f"the confirm bar is off the screen at {size}: {bar_box}"
    covered = [
        code for code, box in zip(HAND, card_boxes(page), strict=True) if bar_box and overlaps(bar_box, box)
    ]
    assert covered == [], f"the confirm bar covers {covered} at {size}"
    page.screenshot(path=str(artifacts / f"phone-table-7-cards-{size}-confirm.png"))
    table.locator(".confirm-yes").click()
    expect(table).to_have_attribute("data-version", str(game.version + 1))
    expect(table.locator(".pair.beaten")).to_have_count(1)
