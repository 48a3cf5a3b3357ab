"""A move that was not sent (issue 29): offline (Playwright's ``context.set_offline``), the move
stays in sight as "Attack with 6♠ — not sent." with a Retry button, through the failing polls and
after the connection is back, until it is sent or the player makes another move. Its target is not
armed beside the Retry, and a double click on Retry sends one move."""

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games.models import Move
from tests.browser.table_pages import game_of, move, open_seat, user

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_unsent_move_stays_named_until_it_is_sent_or_changed(
    browser: Browser, live_server: Any, settings: Any
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob])
    a = open_seat(browser, alice, live_server.url, game)
    b = open_seat(browser, bob, live_server.url, game)
    unsent = a.page.locator("#unsent")
    retry = unsent.get_by_role("button", name="Retry")

    a.context.set_offline(True)
    a.card("6S").click()
    a.armed("Attack with 6♠").click()
    expect(unsent).to_be_visible()
    expect(unsent.locator(".unsent-text")).to_have_text("Attack with 6♠ — not sent.")
    expect(a.table.locator(".hand-dock #unsent")).to_have_count(1)  # by the hand, in the dock
    expect(a.armed()).to_have_count(0)  # only the Retry can send it: nothing armed twice
    expect(a.card("6S")).to_have_attribute("aria-pressed", "false")
    expect(a.page.locator("#connection")).to_have_text("Connection lost: retrying…")
    a.page.wait_for_timeout(2500)  # polls fail meanwhile: the notice stays
    expect(unsent.locator(".unsent-text")).to_have_text("Attack with 6♠ — not sent.")
    retry.click()  # still offline
    expect(unsent.locator(".unsent-text")).to_have_text("Attack with 6♠ — still not sent.")
    assert Move.objects.filter(game=game).count() == 0

    a.context.set_offline(False)
    expect(a.page.locator("#connection")).to_have_text("Back online.")
    expect(unsent).to_be_visible()  # not sent by itself: the player says when
    version = a.version()
    retry.dblclick()
    a.wait_version(version + 1)
    b.wait_version(version + 1)
    expect(unsent).to_be_hidden()
    expect(a.table.locator(".error")).to_have_count(0)
    expect(b.table.locator('.pair .attack[data-card="6S"]')).to_have_count(1)
    assert list(Move.objects.filter(game=game).values_list("action__type", flat=True)) == ["attack"]

    # Another move while one is unsent takes its place: the player changed it.
    move(game, bob, {"type": "defend", "target": "6S", "card": "8S"})
    a.wait_version(version + 2)
    a.context.set_offline(True)
    a.card("6D").click()
    a.armed("Throw in 6♦").click()
    expect(unsent.locator(".unsent-text")).to_have_text("Throw in 6♦ — not sent.")
    a.card("8C").click()  # picks another card: the unsent move is given up
    expect(unsent).to_be_hidden()
    expect(a.armed("Throw in 8♣")).to_be_visible()
    a.context.set_offline(False)
    expect(a.page.locator("#connection")).to_have_text("Back online.")
    a.armed("Throw in 8♣").click()
    b.wait_version(version + 3)
    expect(unsent).to_be_hidden()
    assert Move.objects.filter(game=game).count() == 3
