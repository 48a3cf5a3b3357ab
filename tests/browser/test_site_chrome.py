"""The site's chrome and its own pages on a phone, in Russian: the header fits 360 px with 44 px
targets, the skip link and the language switcher work from the keyboard alone, and each page
(leaderboard, profile, settings, notifications, series, replay, report, chat, log-in, sign-up)
is Russian and does not scroll sideways. Screenshots go to ``test-artifacts/browser/``."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import User
from tests.browser.test_accessibility import (  # noqa: F401
    DESKTOP,
    PHONE,
    Site,
    horizontal_overflow,
    signed_in,
    site,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_my_pages_in_russian_on_a_phone(
    browser: Browser,
    live_server: Any,
    site: Site,  # noqa: F811
    artifacts: Path,
) -> None:
    site.alice.language = "ru"
    site.alice.save(update_fields=["language"])
    page = signed_in(browser, live_server, site.alice, PHONE, "ru-RU").new_page()
    pages = {
        "leaderboard": ("/leaderboard/", "Рейтинг"),
        "profile": (f"/players/{site.alice.username}/?vs={site.bob.username}", "Друг против друга"),
        "settings": ("/notifications/settings/", "Настройки"),
        "notifications": ("/notifications/", "Уведомления"),
        "series": (f"/series/{site.series_id}/", "Серия из 3 игр"),
        "replay": (f"/games/{site.finished.pk}/replay/", "Честная раздача"),
        "report": (f"/reports/new/?user={site.bob.pk}&game={site.running.pk}", "Отправить жалобу"),
        "chat": (f"/games/{site.running.pk}/chat/", "Чат"),
    }
    problems = []
    for name, (path, words) in pages.items():
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == "ru", name
        expect(page.locator("main")).to_contain_text(words)
        page.screenshot(path=str(artifacts / f"phone-ru-{name}.png"), full_page=True)
        if horizontal_overflow(page) > 0:
            problems.append(f"{name}: {horizontal_overflow(page)}px too wide")
    assert not problems, problems

    # Every link and button of the header is a 44 px touch target and the header stays inside the screen.
    page.goto(live_server.url + "/leaderboard/")
    for target in page.locator(".site-header a, .site-header button").all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"], (
            target.inner_text(),
            box,
        )

    # On a desktop the header is one row; on the phone two (brand and language, then the nav).
    desktop = signed_in(browser, live_server, site.alice, DESKTOP, "en-GB").new_page()
    desktop.goto(live_server.url + "/leaderboard/")
    header = desktop.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 60, header
    desktop.screenshot(path=str(artifacts / "desktop-leaderboard.png"))
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 2 * 44 + 20, header

    visitor = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True).new_page()
    for name, path, words in (
        ("login", "/accounts/login/", "Войти"),
        ("signup", "/accounts/signup/", "Зарегистрируйтесь"),
    ):
        visitor.goto(live_server.url + path)
        expect(visitor.locator("main")).to_contain_text(words)
        assert horizontal_overflow(visitor) == 0, name
        visitor.screenshot(path=str(artifacts / f"phone-ru-{name}.png"), full_page=True)


def test_skip_link_and_language_switcher_by_keyboard(
    browser: Browser,
    live_server: Any,
    site: Site,  # noqa: F811
) -> None:
    page = signed_in(browser, live_server, site.alice, PHONE, "en-GB").new_page()
    page.goto(live_server.url + "/leaderboard/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the main content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()

    page.goto(live_server.url + "/leaderboard/")
    switcher = page.get_by_role("button", name="Русский")
    for _ in range(20):  # reach it with Tab alone
        page.keyboard.press("Tab")
        if switcher.evaluate("button => button === document.activeElement"):
            break
    expect(switcher).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("h1")).to_have_text("Рейтинг")
    assert page.url.endswith("/leaderboard/")
    assert User.objects.get(pk=site.alice.pk).language == "ru"
    page.goto(live_server.url + "/notifications/settings/")
    expect(page.locator("h1")).to_have_text("Настройки")
