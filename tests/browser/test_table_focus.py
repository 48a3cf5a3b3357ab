"""Focus at the table (issue 29, WCAG 2.4.7 and 2.4.3): after a move the focus goes to the next
control the player needs (a card to play, else the line that says whose move it is), never to
``<body>``, and the live region says the move and whose move it is; every card of the hand that
can take the focus shows a ring when it has it (the playable cards' own ring used to hide it)."""

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.table_pages import game_of, open_seat, user

pytestmark = pytest.mark.django_db(transaction=True)

SHADOW = "(el) => getComputedStyle(el.querySelector('.card')).boxShadow"


def test_after_a_move_the_focus_goes_to_the_next_control_and_is_announced(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob])
    a = open_seat(browser, alice, live_server.url, game)
    b = open_seat(browser, bob, live_server.url, game)

    # Alice attacks with the keyboard: Enter on 6♠ goes to its target, Enter plays it.
    a.card("6S").focus()
    a.page.keyboard.press("Enter")
    assert a.focused() == "Attack with 6♠"
    version = a.version()
    a.page.keyboard.press("Enter")
    a.wait_version(version + 1)
    # She may throw in 6♦ next: the focus is on it, not on <body>.
    expect(a.card("6D")).to_be_focused()
    expect(a.page.locator("#announcer")).to_have_text("You attack with 6♠. Your move. (bob may act too.)")

    # Bob beats it; nothing is left for him to do: the focus goes to the line saying so.
    b.wait_version(version + 1)
    b.card("8S").focus()
    b.page.keyboard.press("Enter")
    assert b.focused() == "Beat 6♠ with 8♠"
    b.page.keyboard.press("Enter")
    b.wait_version(version + 2)
    expect(b.table.locator("#table-status")).to_be_focused()
    expect(b.page.locator("#announcer")).to_contain_text("You beat 6♠ with 8♠.")
    expect(b.page.locator("#announcer")).to_contain_text("Waiting for alice.")

    # Alice's table is redrawn by the poll: her focus stays on her card.
    a.wait_version(version + 2)
    expect(a.card("6D")).to_be_focused()


def test_every_focusable_card_of_the_hand_shows_a_focus_ring(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob])
    a = open_seat(browser, alice, live_server.url, game)
    playable = a.table.locator(".hand .pick.playable")
    expect(playable).to_have_count(4)
    unfocused = a.card("QH").evaluate(SHADOW)
    a.card("6S").focus()
    a.page.keyboard.press("Home")  # the keyboard's focus: :focus-visible
    for index in range(playable.count()):
        pick = playable.nth(index)
        expect(pick).to_be_focused()
        ring = pick.evaluate(SHADOW)
        assert ring != unfocused and "0px 0px 0px 6px" in ring, f"{pick.get_attribute('data-pick')}: {ring}"
        a.page.keyboard.press("ArrowRight")
    # A picked card (standing up, with its own gold ring) shows the focus ring too.
    a.page.keyboard.press("Home")
    a.page.keyboard.press("Enter")  # picks 6♠; the focus goes to its target
    expect(a.card("6S")).to_have_attribute("aria-pressed", "true")
    picked = a.card("6S").evaluate(SHADOW)
    a.card("6S").focus()  # back on it, the keyboard's way
    focused = a.card("6S").evaluate(SHADOW)
    assert "0px 0px 0px 6px" in focused and focused != picked
