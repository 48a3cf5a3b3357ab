"""The rules pages and the first-game tutorial in a real browser: the tutorial played to the end with
taps on a phone and with the keyboard alone on a desktop, in Russian and English; every guide page
without sideways scrolling or serious axe-core violations. Screenshots: test-artifacts/browser/tutorial-*.png."""

import importlib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

import durak
from guide.tutorial import MAIN_LINE

pytestmark = pytest.mark.django_db(transaction=True)

PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
#: axe-core as bundled with axe-playwright-python (which ships no type hints).
AXE: Any = importlib.import_module("axe_playwright_python.sync_playwright").Axe()


def overflow(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def serious_violations(page: Page) -> list[str]:
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']}"
        for violation in AXE.run(page).response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def test_the_tutorial_played_with_taps_on_a_phone_in_russian(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="ru-RU")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/rules/tutorial/")
        expect(page.locator("h1")).to_have_text("Ваша первая игра")
        page.screenshot(path=str(artifacts / "tutorial-phone-ru-1.png"), full_page=True)
        for number in range(len(MAIN_LINE)):
            suggested = page.locator("button.suggested")
            expect(suggested).to_have_count(1)
            if not suggested.is_visible():
                # A card move, as at the real table: tap the marked card, then its target.
                page.locator(".pick.suggested-card").first.tap()
                expect(suggested).to_be_visible()
            box = suggested.bounding_box()
            assert box is not None and box["height"] >= 44, "a touch target of at least 44 px"
            assert overflow(page) == 0
            with page.expect_navigation():
                suggested.tap()
            if number == 3:
                page.screenshot(path=str(artifacts / "tutorial-phone-ru-4.png"), full_page=True)
        expect(page.locator("#step-heading")).to_have_text("Игра окончена")
        expect(page.locator("#tip")).to_contain_text("он дурак")
        expect(page.locator(".tutorial-actions")).to_have_count(0)
        expect(page.locator("button.card-action")).to_have_count(0)
        page.screenshot(path=str(artifacts / "tutorial-phone-ru-end.png"), full_page=True)
    finally:
        context.close()


def test_the_tutorial_played_with_the_keyboard_alone_on_a_desktop(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/rules/tutorial/")
        for _ in MAIN_LINE:
            # Tab to the suggested button, or first to its card (Enter picks it, as at the real
            # table, and its targets appear), then press Enter.
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.classList.contains('suggested-card')"):
                    page.keyboard.press("Enter")
                if page.evaluate("document.activeElement.classList.contains('suggested')"):
                    break
            else:
                pytest.fail("the suggested move cannot be reached with the Tab key")
            with page.expect_navigation():
                page.keyboard.press("Enter")
        expect(page.locator("#step-heading")).to_have_text("The game is over")
        expect(page.locator("#tip")).to_contain_text("they are the durak")
        page.screenshot(path=str(artifacts / "tutorial-desktop-en-end.png"), full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_guide_pages_fit_the_screen_and_pass_axe(
    browser: Browser, live_server: Any, artifacts: Path, viewport: ViewportSize, locale: str
) -> None:
    context = browser.new_context(viewport=viewport, locale=locale, has_touch=viewport is PHONE)
    page = context.new_page()
    paths = [
        "/rules/",
        *[f"/rules/{name}/" for name in durak.PRESETS],
        "/rules/tutorial/",
        "/rules/tutorial/?moves=" + ",".join(MAIN_LINE[:4]),
    ]
    problems = []
    try:
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response is not None and response.ok, path
            if overflow(page) > 0:
                problems.append(f"{path} scrolls sideways at {viewport['width']} px")
            problems += [f"{path}: {violation}" for violation in serious_violations(page)]
        page.goto(f"{live_server.url}/rules/black_book/#options")
        page.screenshot(path=str(artifacts / f"guide-options-{viewport['width']}-{locale}.png"))
    finally:
        context.close()
    assert not problems, "\n".join(problems)
