"""Chat, a report and a moderator in real browsers.

Alice and Bob play a game; Alice writes something rude in the players' chat (with an HTML
tag that must stay text). Bob sees it arrive by polling, reports it from the chat with a
reason and is thanked. The moderator logs in through the site's log-in page, finds the
report in the admin's queue, hides the message with the report queue's action (giving a
reason), and resolves the report. Bob's open page then shows the message as hidden, without
a reload. Screenshots go to ``test-artifacts/browser/``.
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from chat.models import ChatMessage
from moderation import services as moderation
from moderation.models import AuditEntry, Report
from tests.factories import LONGER_DEAL, PASSWORD, UserFactory, started_game

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 10_000
RUDE = "<b>you</b> play like a potato"


def log_in(page: Page, base_url: str, username: str, next_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/?next={next_url}")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base_url}{next_url}")


def test_a_player_reports_a_chat_message_and_a_moderator_hides_it(
    browser: Browser, live_server: Any, settings: Any, artifacts: Path
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    mod = UserFactory(username="mod")
    moderation.moderator_grant(user=mod, actor=None, reason="browser test")
    game_url = f"/games/{game.pk}/"
    base = live_server.url

    pages = {}
    for user in (alice, bob, mod):
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        pages[user.username] = page
    alice_page, bob_page, mod_page = pages[alice.username], pages[bob.username], pages["mod"]
    try:
        log_in(alice_page, base, alice.username, game_url)
        log_in(bob_page, base, bob.username, game_url)
        expect(bob_page.locator("#chat-log")).to_contain_text("No messages yet.")

        # Alice writes; Bob's page shows it by polling, as text (the tag is not bold).
        alice_page.fill("#chat-form input[name=text]", RUDE)
        alice_page.locator("#chat-form").get_by_role("button", name="Send").click()
        expect(alice_page.locator("#chat-log")).to_contain_text(RUDE)
        expect(alice_page.locator("#chat-form input[name=text]")).to_have_value("")
        message_line = bob_page.locator(".chat-message", has_text=RUDE)
        expect(message_line).to_be_visible()
        expect(bob_page.locator("#chat-log b")).to_have_count(0)
        bob_page.screenshot(path=str(artifacts / "chat-1-message.png"), full_page=True)

        # Bob reports it.
        message_line.get_by_role("link", name="report").click()
        expect(bob_page.locator("h1")).to_have_text("Report a chat message")
        bob_page.get_by_label("abusive or offensive language").check()
        bob_page.fill("#id_details", "insulting me")
        bob_page.screenshot(path=str(artifacts / "chat-2-report-form.png"), full_page=True)
        bob_page.get_by_role("button", name="Send the report").click()
        bob_page.wait_for_url(f"{base}{game_url}")
        expect(bob_page.locator(".messages")).to_contain_text("your report is in the moderators' queue")
        report = Report.objects.get()
        assert (report.reporter, report.reported_user, report.message.text) == (bob, alice, RUDE)

        # The moderator logs in through the site's log-in (the admin has none of its own).
        mod_page.goto(f"{base}/admin/moderation/report/")
        expect(mod_page).to_have_url(f"{base}/accounts/login/?next=/admin/moderation/report/")
        mod_page.fill("#id_login", "mod")
        mod_page.fill("#id_password", PASSWORD)
        mod_page.get_by_role("button", name="Sign In").click()
        mod_page.wait_for_url(f"{base}/admin/moderation/report/")
        row = mod_page.locator("#result_list tbody tr", has_text="potato")
        expect(row).to_have_count(1)
        mod_page.screenshot(path=str(artifacts / "chat-3-report-queue.png"), full_page=True)

        # Hide the reported message, with a reason.
        row.locator("input.action-select").check()
        mod_page.select_option("select[name=action]", "hide_messages")
        mod_page.get_by_role("button", name="Go").click()
        expect(mod_page.locator("h1")).to_contain_text("Hide chat messages")
        mod_page.fill("#id_reason", "insult")
        mod_page.screenshot(path=str(artifacts / "chat-4-hide-form.png"), full_page=True)
        mod_page.locator("input[type=submit][value='Hide chat messages']").click()
        expect(mod_page.locator(".messagelist")).to_contain_text("Hidden: 1.")

        # Then resolve the report with a note.
        mod_page.locator("#result_list tbody tr", has_text="potato").locator("input.action-select").check()
        mod_page.select_option("select[name=action]", "resolve")
        mod_page.get_by_role("button", name="Go").click()
        mod_page.fill("#id_note", "message hidden")
        mod_page.locator("input[type=submit][value='Resolve reports']").click()
        expect(mod_page.locator(".messagelist")).to_contain_text("Resolved: 1.")
        mod_page.screenshot(path=str(artifacts / "chat-5-resolved.png"), full_page=True)

        # Bob's page, never reloaded, now shows the message hidden.
        expect(bob_page.locator("#chat-log")).to_contain_text("message hidden by a moderator")
        expect(bob_page.locator("#chat-log")).not_to_contain_text("potato")
        bob_page.screenshot(path=str(artifacts / "chat-6-hidden.png"), full_page=True)

        assert ChatMessage.objects.get().hidden_by == mod
        assert list(AuditEntry.objects.filter(actor=mod).values_list("action", flat=True).order_by("id")) == [
            "hide_message",
            "resolve_report",
        ]
        report.refresh_from_db()
        assert report.status == "resolved"

        # The audit log, as the moderator reads it.
        mod_page.goto(f"{base}/admin/moderation/auditentry/")
        expect(mod_page.locator("#result_list")).to_contain_text("hid a chat message")
        mod_page.screenshot(path=str(artifacts / "chat-7-audit-log.png"), full_page=True)
    finally:
        for page in pages.values():
            page.context.close()
