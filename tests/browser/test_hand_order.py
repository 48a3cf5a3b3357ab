"""A player sets the order of their hand on the settings page and sees their table laid out in it
(``User.hand_order``; the server's side is ``tests/games/test_hand_order.py``)."""

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.games.test_hand_order import DEAL

from .table_pages import game_of, open_seat, user

pytestmark = pytest.mark.django_db(transaction=True)


def hand(seat: Any) -> list[str]:
    return [card.get_attribute("data-pick") for card in seat.table.locator(".hand [data-pick]").all()]


def test_the_order_chosen_in_the_settings_is_the_order_on_the_table(
    browser: Browser, live_server: Any
) -> None:
    alice, bob = user("alice"), user("bob")
    game = game_of([alice, bob], deal=DEAL)
    seat = open_seat(browser, alice, live_server.url, game)
    assert hand(seat) == ["7H", "AH", "6D", "9C", "6S", "10S"]  # by suit, trumps (spades) last

    page = seat.page
    page.goto(f"{live_server.url}/notifications/settings/")
    page.get_by_label("Order of my hand").select_option(label="By rank, trumps first")
    page.locator("form").filter(has=page.get_by_label("Order of my hand")).get_by_role(
        "button", name="Save"
    ).click()
    expect(page.locator(".messages")).to_be_visible()

    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(seat.table).to_be_visible()
    assert hand(seat) == ["6S", "10S", "6D", "7H", "9C", "AH"]
    seat.context.close()
