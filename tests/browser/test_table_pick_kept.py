"""A pick survives a live update (issue 29): the player's picked card and its targets stay when the
other player moves and the table is redrawn, as long as the card can still be played; when it no
longer can, one line under the hand says so (and the live region reads it). The same for an
attack of several cards half made (two sixes picked).

Two players, each in a browser of their own (pytest-django's live server: the pages poll).
Screenshot: docs/screenshots/pick-kept.png (Bob's table at 1280x800 after Alice threw in).
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.table_pages import DEAL, game_of, move, open_seat, user

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_a_picked_card_and_its_target_stay_when_the_other_player_moves(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob])
    move(game, alice, {"type": "attack", "cards": ["6S"]})
    a = open_seat(browser, alice, live_server.url, game)
    b = open_seat(browser, bob, live_server.url, game)

    # Bob picks 8♠ with the keyboard: the focus goes to its target.
    b.card("8S").focus()
    b.page.keyboard.press("Enter")
    expect(b.armed("Beat 6♠ with 8♠")).to_be_visible()
    assert b.focused() == "Beat 6♠ with 8♠"

    # Alice throws in 6♦ meanwhile; Bob's table is redrawn with it.
    version = a.version()
    a.card("6D").click()
    a.armed("Throw in 6♦").click()
    b.wait_version(version + 1)
    expect(b.table.locator('.pair .attack[data-card="6D"]')).to_have_count(1)
    # His pick is still there, its target armed and focused; nothing says it was lost.
    expect(b.card("8S")).to_have_attribute("aria-pressed", "true")
    expect(b.armed("Beat 6♠ with 8♠")).to_be_visible()
    assert b.focused() == "Beat 6♠ with 8♠"
    expect(b.table.locator(".pick-note")).to_be_hidden()
    b.page.mouse.move(0, 0)
    b.page.screenshot(path=str(SCREENSHOTS / "pick-kept.png"))

    # And he plays it from there.
    b.page.keyboard.press("Enter")
    a.wait_version(version + 2)
    expect(a.table.locator('.pair .defence[data-card="8S"]')).to_have_count(1)


def test_a_pick_that_can_no_longer_be_played_is_dropped_in_one_line(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob, carol = user("alice"), user("bob"), user("carol")
    # Bob holds two cards: a bout against him holds two attack cards at most. Anyone may throw in.
    deal = {
        "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D"], ["6C", "8D", "7H", "JC"]],
        "stock": ["KC", "9H"],
        "first_attacker": 0,
    }
    game = game_of([alice, bob, carol], deal=deal, overrides={"throw_priority": "free"})
    move(game, alice, {"type": "attack", "cards": ["6S"]})
    a = open_seat(browser, alice, live_server.url, game)
    c = open_seat(browser, carol, live_server.url, game)

    c.card("6C").click()
    expect(c.armed("Throw in 6♣")).to_be_visible()
    version = a.version()
    a.card("6D").click()
    a.armed("Throw in 6♦").click()  # the second and last card the bout may hold
    c.wait_version(version + 1)
    expect(c.card("6C")).to_have_attribute("aria-pressed", "false")
    expect(c.armed()).to_have_count(0)
    note = c.table.locator(".pick-note")
    expect(note).to_have_text("6♣ can no longer be played.")
    expect(c.page.locator("#announcer")).to_contain_text("6♣ can no longer be played.")
    expect(c.card("6C")).to_be_disabled()


def test_a_half_made_attack_of_several_cards_stays(browser: Browser, live_server: Any, settings: Any) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob], deal=DEAL)
    a = open_seat(browser, alice, live_server.url, game)
    b = open_seat(browser, bob, live_server.url, game)

    a.card("6S").click()
    expect(a.armed()).to_have_count(2)  # 6♠ alone, or 6♠ with 6♦
    a.card("6D").click()  # joins the pick: only the attack with both stays
    expect(a.armed()).to_have_count(1)
    expect(a.armed("Attack with 6♠ 6♦")).to_be_visible()

    # Bob changes a standing choice: a new version, and Alice's table is redrawn.
    version = a.version()
    b.table.locator(".auto-pass-toggle").click()
    a.wait_version(version + 1)
    expect(a.table.locator(".opponent .auto-pass-tag")).to_have_count(1)
    for card in ("6S", "6D"):
        expect(a.card(card)).to_have_attribute("aria-pressed", "true")
    expect(a.armed()).to_have_count(1)
    expect(a.armed("Attack with 6♠ 6♦")).to_be_visible()
    # A picked card tapped again leaves the pick.
    a.card("6D").click()
    expect(a.armed()).to_have_count(2)
    a.card("6D").click()
    a.armed("Attack with 6♠ 6♦").click()
    b.wait_version(version + 2)
    expect(b.table.locator(".pair .attack")).to_have_count(2)
