"""A table of three computers in a real browser (two against two, rule of thumb): each seat has
its own name with its level beside it, on the table and in its history, in English and in
Russian. The English desktop table is the README's screenshot: docs/screenshots/named-computers.png."""

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Browser, expect

from games import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

WAIT_MS = 60_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NAMES = {
    "en": ["Masha (rule of thumb)", "Petya (rule of thumb)", "Dasha (rule of thumb)"],
    "ru": ["Маша (по правилам)", "Петя (по правилам)", "Даша (по правилам)"],
}
# Four players in partners, hearts trump, no stock: the computer in seat 1 leads, so the
# history names computers before the host's first move.
DEAL: dict[str, Any] = {
    "hands": [
        ["6S", "9D", "QC", "KH", "7C", "8H"],
        ["7S", "10D", "JC", "AH", "6C", "9S"],
        ["8S", "JD", "KC", "6H", "10C", "QS"],
        ["9C", "QD", "AC", "7H", "8C", "KS"],
    ],
    "stock": [],
    "trump": "H",
    "first_attacker": 1,
}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_table_of_three_computers_names_each_of_them(
    browser: Browser, live_server: Any, artifacts: Path, language: str
) -> None:
    host = UserFactory(username="anna", language=language)
    game = services.game_against_computer(
        creator=host,
        level="rules",
        preset="classic",
        num_players=4,
        overrides={"teams": "partners"},
        deal=DEAL,
    )
    client = Client()
    client.force_login(host)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=language)
    context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            },
            {"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        opponents = page.locator("#table .opponent .name")
        expect(opponents).to_have_count(3)
        shown = [opponents.nth(i).inner_text() for i in range(3)]
        for name in NAMES[language]:
            assert any(name in line for line in shown), (name, shown)
        # The computers moved before the host: the history and the last move name them.
        history = page.locator(".history")
        expect(history).to_contain_text(NAMES[language][1].split(" ")[0])
        assert "Computer (" not in page.content() and "computer-rules" not in page.inner_text("body")
        page.screenshot(path=str(artifacts / f"named-computers-{language}.png"))
        if language == "en":
            page.screenshot(path=str(SCREENSHOTS / "named-computers.png"))
    finally:
        context.close()
