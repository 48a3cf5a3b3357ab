"""Chat past the flood limit in a real browser: the refusal shows in the chat, the table stays.

Alice sends six messages by clicks within the flood window (five allowed in ten seconds); the
sixth is refused with "Slow down…" shown at the chat form, and the game page around it (the
table, the log with her five messages) is still there, without a reload.
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from chat.models import ChatMessage
from tests.browser.test_chat_moderation import log_in
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 15_000


def test_the_sixth_message_in_the_window_is_refused_in_the_chat_and_the_table_stays(
    browser: Browser, live_server: Any, settings: Any, artifacts: Path
) -> None:
    settings.CHAT_FLOOD_MESSAGES = 5
    settings.CHAT_FLOOD_SECONDS = 600  # a slow machine's six clicks all fall in one window
    game, (alice, _bob) = started_game(deal=LONGER_DEAL)
    game_url = f"/games/{game.pk}/"
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        log_in(page, live_server.url, alice.username, game_url)
        expect(page.locator("#chat-log")).to_contain_text("No messages yet.")
        box = page.locator("#chat-form input[name=text]")
        send = page.locator("#chat-form").get_by_role("button", name="Send")
        for n in range(1, 6):
            box.fill(f"message {n}")
            send.click()
            expect(page.locator("#chat-log")).to_contain_text(f"message {n}")
            expect(box).to_have_value("")
        box.fill("message 6")
        send.click()
        refusal = page.locator("#chat-form [role=alert]")
        expect(refusal).to_contain_text("Slow down: at most 5 messages in 600 seconds.")
        page.screenshot(path=str(artifacts / "chat-flood.png"), full_page=True)
        # The page is whole: the table, the chat's title and log, the form with the unsent text.
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#chat-title")).to_be_visible()
        expect(page.locator("#chat-log")).to_contain_text("message 5")
        expect(page.locator("#chat-log")).not_to_contain_text("message 6")
        expect(box).to_have_value("message 6")
        assert page.url == f"{live_server.url}{game_url}"
        assert ChatMessage.objects.filter(author=alice).count() == 5
        # The next accepted message clears the refusal.
        settings.CHAT_FLOOD_MESSAGES = 10
        send.click()
        expect(page.locator("#chat-log")).to_contain_text("message 6")
        expect(refusal).to_have_count(0)
        expect(page.locator("#table")).to_be_visible()
    finally:
        context.close()
