"""A profile with the player's reliability and the viewer's private note, in a real browser:
the note written through the profile's form, then seen beside the player's name at the table on
a phone (360 px) without widening it. Screenshots go to ``test-artifacts/browser/``
(``docs/screenshots/profile-reliability-note.png`` is a copy of the desktop one)."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import User
from games import services
from tests.browser.table_states import log_in
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NOTE = "Plays fast, likes to transfer; always finishes the game."


def test_a_profile_with_reliability_and_a_note_then_the_note_at_the_table(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    anna = UserFactory(username="anna", display_name="Anna")
    boris = UserFactory(username="boris", display_name="Boris")
    User.objects.filter(pk=boris.pk).update(reliability_games=50, reliability_left=2)

    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    log_in(page, live_server, anna, "en")
    page.goto(f"{live_server.url}/players/boris/")
    expect(page.locator(".reliability-line")).to_contain_text("Reliability 96%")
    page.fill("#note-text", NOTE)
    page.click(".note-form button")
    expect(page.locator("#note-text")).to_have_value(NOTE)
    expect(page.locator(".note-form")).to_contain_text("Remove the note")
    page.screenshot(path=str(artifacts / "profile-reliability-note.png"), full_page=True)

    game = GameFactory(creator=anna, num_players=2)
    services.game_join(user=boris, game_id=game.pk)
    phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    log_in(phone, live_server, anna, "en")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    note = phone.locator(".opponent .player-note")
    expect(note).to_have_attribute("title", NOTE)
    expect(phone.locator(".opponent .reliability-tag")).to_have_text("96%")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    phone.screenshot(path=str(artifacts / "table-note-360.png"))
