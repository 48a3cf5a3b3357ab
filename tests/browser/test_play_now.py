"""Play now in two real browsers: Alice and Bob press "Play now" in the lobby with the same
choice; Alice waits on the queue page, Bob's press starts the game, and Alice's page goes to it
by itself (the live server has no stream: her waiting block polls), without a reload.

The queue page as Alice waits is ``test-artifacts/browser/play-now-queue.png`` (the newcomer's
walk, ``test_newcomer_walk.py``, takes ``docs/screenshots/play-now-queue.png`` on a phone).
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games.models import Game, Seat
from matchmaking.models import QueueEntry
from tests.browser.test_live_stream import DEADLINE_MS, site, wait_until  # noqa: F401 (the fixture)
from tests.factories import UserFactory
from tests.faults.conftest import Site, login_session

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}


def lobby_page(browser: Browser, live_server: Any, user: User, viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/")
    return page


def press_play_now(page: Page) -> None:
    block = page.locator("#play-now")
    block.get_by_label("Rules:", exact=True).select_option("perevodnoy")
    block.get_by_label("Players:", exact=True).select_option("2")
    block.get_by_label("Time control:", exact=True).select_option("2m")
    block.get_by_label("Computer players:", exact=True).select_option("never")
    block.get_by_role("button", name="Play now").click()


def test_two_people_press_play_now_and_land_in_the_same_game(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    UserFactory(username="carol", last_active_at=None)  # never seen: not in the lobby's list
    alice_page = lobby_page(browser, live_server, alice, DESKTOP)
    bob_page = lobby_page(browser, live_server, bob, PHONE)

    press_play_now(alice_page)
    alice_page.wait_for_url(f"{live_server.url}/play/")
    status = alice_page.locator("#play-now .queue-status")
    expect(status).to_have_text(
        "Looking for players: Perevodnoy (transfer), 2 players, live: 2 minutes a move."
    )
    expect(alice_page.locator("#play-now")).to_contain_text("Nobody else yet.")
    expect(alice_page.locator("#play-now .online-now")).to_have_text("1 other player online: bob")
    alice_page.wait_for_timeout(300)  # the spinner's first turn, for the picture
    alice_page.screenshot(path=str(artifacts / "play-now-queue.png"), full_page=True)

    # Bob's lobby, refreshed, shows who waits for what and who is online.
    bob_page.reload()
    expect(bob_page.locator("#queue-news")).to_contain_text("1 waiting: Perevodnoy (transfer), 2 players")
    expect(bob_page.locator("#queue-news .online-now")).to_contain_text("alice")
    expect(bob_page.locator("#queue-news .online-now")).not_to_contain_text("carol")
    bob_page.screenshot(path=str(artifacts / "play-now-lobby-phone.png"), full_page=True)
    alice_page.evaluate("window.waitedHere = true")

    press_play_now(bob_page)
    bob_page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert bob_page.url == f"{live_server.url}/games/{game.pk}/"
    # Alice did nothing: her waiting page goes to the same game by itself.
    alice_page.wait_for_url(f"{live_server.url}/games/{game.pk}/", timeout=60_000)
    expect(alice_page.locator("#table")).to_be_visible()
    expect(bob_page.locator("#table")).to_be_visible()
    assert game.status == Game.Status.ACTIVE and game.preset == "perevodnoy"
    assert sorted(Seat.objects.filter(game=game).values_list("user__username", flat=True)) == ["alice", "bob"]
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {QueueEntry.Status.MATCHED}
    alice_page.screenshot(path=str(artifacts / "play-now-game-alice.png"))


#: Before the page's scripts: when the stream opened, and how many "queue" events the tab's
#: streams delivered (in the tab's session storage: it outlives the page going to the game).
LISTEN = """
window.liveOpened = 0;
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(...args) {
    super(...args);
    this.addEventListener("queue", () => {
      sessionStorage.setItem("queueEvents", String(Number(sessionStorage.getItem("queueEvents") || 0) + 1));
    });
  }
};
document.addEventListener("durak:live", (event) => { if (event.detail.open) window.liveOpened += 1; });
"""


def test_the_waiting_page_hears_of_its_game_through_the_live_stream(
    browser: Browser,
    site: Site,  # noqa: F811
) -> None:
    site.start(GAME_POLL_SECONDS="60")  # no poll: the stream (or the 30 s heartbeat) must bring it
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    pages = {}
    for user in (alice, bob):
        context = browser.new_context(viewport=DESKTOP)
        context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": site.url}])
        context.add_init_script(LISTEN)
        pages[user.username] = context.new_page()
        pages[user.username].set_default_timeout(DEADLINE_MS)
    alice_page, bob_page = pages["alice"], pages["bob"]
    alice_page.goto(f"{site.url}/")
    press_play_now(alice_page)
    alice_page.wait_for_url(f"{site.url}/play/")
    wait_until(alice_page, "window.liveOpened > 0")
    bob_page.goto(f"{site.url}/")
    press_play_now(bob_page)
    bob_page.wait_for_url(f"{site.url}/games/*/")
    game = Game.objects.get()
    alice_page.wait_for_url(f"{site.url}/games/{game.pk}/", timeout=DEADLINE_MS)
    expect(alice_page.locator("#table")).to_be_visible()
    assert int(alice_page.evaluate("sessionStorage.getItem('queueEvents') || '0'")) >= 1
    assert sorted(Seat.objects.filter(game=game).values_list("user__username", flat=True)) == ["alice", "bob"]
