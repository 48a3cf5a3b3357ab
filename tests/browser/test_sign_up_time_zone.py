"""Sign-up proposes the browser's time zone (issue 19): a browser in Vladivostok finds
"Vladivostok" chosen and signs up with it; a zone picked by hand wins over the proposal."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_proposes_the_browser_s_zone(browser: Browser, live_server: Any, artifacts: Path) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, timezone_id="Asia/Vladivostok", locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/accounts/signup/")
    zone = page.locator("select[name=time_zone]")
    expect(zone).to_have_value("Asia/Vladivostok")
    page.locator("input[name=username]").fill("vlad")
    page.locator("input[name=email]").fill("vlad@example.com")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    zone.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "sign-up-time-zone.png"), full_page=True)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/signup/" not in url)
    assert User.objects.get(username="vlad").time_zone == "Asia/Vladivostok"

    # Chosen by hand: kept, whatever the browser says.
    other = browser.new_context(timezone_id="Asia/Vladivostok").new_page()
    other.goto(f"{live_server.url}/accounts/signup/")
    expect(other.locator("select[name=time_zone]")).to_have_value("Asia/Vladivostok")
    other.locator("select[name=time_zone]").select_option("Europe/Lisbon")
    other.locator("input[name=username]").fill("rita")
    other.locator("input[name=email]").fill("rita@example.com")
    other.locator("input[name=password1]").fill(PASSWORD)
    other.locator("input[name=password2]").fill(PASSWORD)
    other.locator("main form button[type=submit]").first.click()
    other.wait_for_url(lambda url: "/signup/" not in url)
    assert User.objects.get(username="rita").time_zone == "Europe/Lisbon"
