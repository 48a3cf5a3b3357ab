"""The chat under the table on a 360 px phone: the box's placeholder is whole (not cut by the
Send button) in English and Russian, and each line shows its time. Screenshots in
test-artifacts/browser/chat-phone-<language>.png."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from chat.models import ChatMessage
from tests.browser.test_table_phone_keyboard import PHONE, logged_in
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db(transaction=True)

#: The placeholder's width as drawn in the box's font, and the room the box has for it.
MEASURE = """(box) => {
  const style = getComputedStyle(box);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [context.measureText(box.placeholder).width, room];
}"""


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_chat_placeholder_fits_a_360_px_phone(
    browser: Browser, live_server: Any, artifacts: Path, language: str
) -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    alice.language = language
    alice.save(update_fields=["language"])
    ChatMessage.objects.create(game=game, author=bob, channel="players", text="good luck")
    context, page = logged_in(browser, alice, live_server.url, locale=language, **PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    box = page.locator("#chat-form input[name=text]")
    expect(page.locator("#chat-log .chat-message .chat-time")).to_have_count(1)
    box.scroll_into_view_if_needed()
    width, room = box.evaluate(MEASURE)
    page.locator("#chat").screenshot(path=str(artifacts / f"chat-phone-{language}.png"))
    assert width <= room, (
        f"the placeholder {box.get_attribute('placeholder')!r} needs {width:.0f} px, the box has {room:.0f}"
    )
    context.close()
