"""The create form's join limits (issue 30) in a real browser: desktop and phone, both
languages; a refused limit says what is wrong beside its field. The desktop English form is
docs/screenshots/join-limits.png."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games.models import Game
from tests.browser.table_states import log_in
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.mark.parametrize(
    "language, width, legend, error",
    [
        ("en", 1280, "Who may join", "The minimum reliability must be between 0 and 100."),
        ("ru", 360, "Кто может сесть за игру", "Минимальная надёжность должна быть от 0 до 100."),
    ],
)
def test_the_join_limits_on_the_create_form(
    browser: Browser, live_server: Any, artifacts: Path, language: str, width: int, legend: str, error: str
) -> None:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    UserFactory(username="misha")
    log_in(page, live_server, UserFactory(username="anya"), language)
    page.goto(f"{live_server.url}/?invite=misha")
    limits = page.locator("fieldset.join-limits")
    expect(limits.locator("legend")).to_have_text(legend)
    expect(page.locator("#id_invite")).to_have_value("misha")
    # Nothing sticks out of a phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = limits.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.check("#id_join_friends_only")
    page.fill("#id_join_min_reliability", "90")
    page.fill("#id_join_rating_min", "10")
    page.select_option("#id_join_language", "en")
    limits.scroll_into_view_if_needed()
    if language == "en" and width > 1000:
        page.fill("#id_join_rating_max", "25")
        limits.screenshot(path=str(SCREENSHOTS / "join-limits.png"))
    page.screenshot(path=str(artifacts / f"join-limits-{language}-{width}.png"), full_page=True)
    page.fill("#id_join_min_reliability", "150")
    page.click("form.create-form button:not([name])")
    expect(page.locator("fieldset.join-limits")).to_contain_text(error)
    assert not Game.objects.exists()
