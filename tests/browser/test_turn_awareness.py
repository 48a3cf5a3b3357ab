"""Your-turn awareness in real browsers: the header's counter and the tab's title follow the
other player's moves without a reload, and the chime plays only for the player who turned it on.

Alice (sound off) and Bob (sound on) play a stacked classic game; the moves are made through the
services, as the other player's browser would make them. pytest-django's live server speaks WSGI,
so there is no live stream here (``/live/`` answers 204): the pages use the fallback, the table
poll on a game page and ``static/js/turns.js``'s own refresh every 30 s elsewhere (its clock is
Playwright's, fast-forwarded, on the lobby).

Whether a chime played is read from ``HTMLMediaElement.play`` calls, recorded by a script the
test adds to every page (no sound card is needed, and the browser's autoplay rule is beside
the point). The header's screenshot goes to ``test-artifacts/browser/turn-counter.png``
(``docs/screenshots/turn-counter.png`` is a copy).

The second test serves the site under ASGI with the live stream (``test_live_stream``'s site):
there the count comes with the stream's bell event, not with a poll.
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.test_accessibility import DESKTOP, PHONE, signed_in
from tests.browser.test_live_stream import DEADLINE_MS, Viewer, site, wait_until  # noqa: F401
from tests.factories import GameFactory, UserFactory
from tests.faults.conftest import Site

pytestmark = pytest.mark.django_db(transaction=True)

# Classic, two players, hearts trump. Alice (seat 0) attacks first.
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}

RECORD_PLAYS = """
window.turnSoundsPlayed = [];
HTMLMediaElement.prototype.play = function () {
  window.turnSoundsPlayed.push(this.currentSrc || this.src);
  return Promise.resolve();
};
"""


def context_for(browser: Browser, live_server: Any, user: User) -> BrowserContext:
    context = signed_in(browser, live_server, user, DESKTOP, "en-GB")
    context.add_init_script(RECORD_PLAYS)
    return context


def plays(page: Page) -> list[str]:
    return list(page.evaluate("window.turnSoundsPlayed"))


def move(user: User, game: Game, action: dict[str, Any]) -> None:
    game.refresh_from_db()
    services.make_move(user=user, game_id=game.pk, action=action, expected_version=game.version)


def expect_count(page: Page, count: int, optional: int = 0) -> None:
    """The counter shows ``count`` games waiting for the player's move and, apart,
    ``optional`` games where they only may throw in (issue 29)."""
    counter = page.locator("#turn-counter")
    if count or optional:
        expect(counter).to_be_visible()
    else:
        expect(counter).to_be_hidden()
    if count:
        expect(counter.locator(".turns-count")).to_have_text(str(count))
    else:
        expect(counter.locator(".turns-count")).to_have_count(0)
    if optional:
        expect(counter.locator(".turns-optional-count")).to_have_text(str(optional))
    else:
        expect(counter.locator(".turns-optional")).to_have_count(0)


def test_counter_title_and_sound_follow_the_other_players_moves(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob", turn_sound=True)
    game = GameFactory(creator=alice, deal=DEAL)
    services.game_join(user=bob, game_id=game.pk)
    url = f"{live_server.url}/games/{game.pk}/"
    game_title = f"Game {game.pk} · durak online"

    alice_page = context_for(browser, live_server, alice).new_page()
    alice_page.goto(url)
    bob_context = context_for(browser, live_server, bob)
    bob_page = bob_context.new_page()
    bob_page.goto(url)
    lobby = bob_context.new_page()
    lobby.clock.install()
    lobby.goto(f"{live_server.url}/")

    expect_count(alice_page, 1)
    expect(alice_page).to_have_title(f"(1) Your move · {game_title}")
    expect_count(bob_page, 0)
    expect(bob_page).to_have_title(game_title)
    expect_count(lobby, 0)
    expect(lobby).to_have_title("Lobby · durak online")
    expect(lobby.locator("#next-game")).to_be_hidden()

    # Alice attacks: the game now cannot go on without Bob; Alice may throw in or say done, but
    # the game goes on without her (issue 29): shown apart, and no title count for it.
    move(alice, game, {"type": "attack", "cards": ["6S"]})
    expect_count(bob_page, 1)
    expect(bob_page).to_have_title(f"(1) Your move · {game_title}")
    expect(bob_page.locator("#table")).to_have_class("game my-turn")
    bob_page.wait_for_function("window.turnSoundsPlayed.length > 0")
    assert plays(bob_page) == [f"{live_server.url}/static/sounds/your-move.wav"]  # one change, one chime
    # Bob's lobby asks every 30 s while there is no stream: the counter, the title and its
    # "next game" button.
    lobby.clock.fast_forward(31_000)
    expect_count(lobby, 1)
    expect(lobby).to_have_title("(1) Your move · Lobby · durak online")
    expect(lobby.locator("#next-game a")).to_have_attribute("href", f"/games/{game.pk}/")
    assert len(plays(lobby)) == 1
    lobby.locator(".site-header").screenshot(path=str(artifacts / "turn-counter.png"))
    expect_count(alice_page, 0, optional=1)
    expect(alice_page).to_have_title(game_title)
    alice_page.locator(".site-header").screenshot(path=str(artifacts / "turn-counter-may-throw-in.png"))

    # Alice says done: nothing waits for her any more.
    move(alice, game, {"type": "pass"})
    expect_count(alice_page, 0)
    expect(alice_page).to_have_title(game_title)

    # Bob beats the six: the bout waits for Alice again (throw in or done). Her sound is off.
    move(bob, game, {"type": "defend", "target": "6S", "card": "8S"})
    expect_count(alice_page, 1)
    expect(alice_page).to_have_title(f"(1) Your move · {game_title}")
    expect(alice_page.locator("#table")).to_have_class("game my-turn")
    expect_count(bob_page, 0)
    expect(bob_page).to_have_title(game_title)
    assert plays(alice_page) == []
    assert len(plays(bob_page)) == 1  # a count going down plays nothing

    # A second game waiting for Alice: the count and the title say 2, and her game page offers
    # the other game.
    other = GameFactory(creator=alice, deal=DEAL)
    services.game_join(user=UserFactory(), game_id=other.pk)
    alice_page.reload()
    expect_count(alice_page, 2)
    expect(alice_page).to_have_title(f"(2) Your move · {game_title}")
    expect(alice_page.locator("#next-game a")).to_have_attribute("href", f"/games/{other.pk}/")
    alice_page.locator("#next-game a").click()
    alice_page.wait_for_url(f"{live_server.url}/games/{other.pk}/")
    expect(alice_page.locator("#next-game a")).to_have_attribute("href", f"/games/{game.pk}/")
    alice_page.screenshot(path=str(artifacts / "next-game.png"))
    assert plays(alice_page) == []

    # On a phone, in Russian: the hourglass and the number fit the header's two rows, a 44 px target.
    alice.language = "ru"
    alice.save(update_fields=["language"])
    phone = signed_in(browser, live_server, alice, PHONE, "ru-RU").new_page()
    phone.goto(f"{live_server.url}/leaderboard/")
    expect(phone).to_have_title("(2) Ваш ход · Рейтинг · durak online")
    link = phone.locator("#turn-counter a")
    expect(link).to_have_attribute("aria-label", "ваш ход: 2 игры ждут")
    box = link.bounding_box()
    assert (
        box is not None
        and box["height"] >= 44
        and box["width"] >= 44
        and box["x"] + box["width"] <= PHONE["width"]
    )
    phone.locator(".site-header").screenshot(path=str(artifacts / "turn-counter-phone-ru.png"))
    header = phone.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 2 * 44 + 20, header
    phone.locator(".site-header").screenshot(path=str(artifacts / "turn-counter-phone-ru.png"))


def test_with_the_live_stream_the_count_comes_with_the_bell_event(browser: Browser, site: Site) -> None:  # noqa: F811
    site.start(GAME_POLL_SECONDS="60")  # no table poll, and turns.js does not poll while the stream is open
    alice, bob = UserFactory(), UserFactory()
    game = GameFactory(creator=alice, deal=DEAL)
    services.game_join(user=bob, game_id=game.pk)
    mover = Viewer(browser, site, alice, game.pk)
    elsewhere = Viewer(browser, site, bob, game.pk)
    elsewhere.url = f"{site.url}/leaderboard/"
    asked: list[str] = []
    elsewhere.page.on(
        "request", lambda request: asked.append(request.url) if "/games/turns/" in request.url else None
    )
    try:
        mover.open()
        elsewhere.open()
        expect(elsewhere.page.locator("#turn-counter")).to_be_hidden()
        assert asked == []
        mover.play("6S", "Attack with 6♠")
        counter = elsewhere.page.locator("#turn-counter .turns-count")
        expect(counter).to_have_text("1", timeout=DEADLINE_MS)  # well before any 30 s poll
        expect(elsewhere.page).to_have_title("(1) Your move · Leaderboard · durak online")
        bells = [event for event in elsewhere.page.evaluate("window.liveEvents") if event["type"] == "bell"]
        assert any('"waiting":1' in event["data"] for event in bells), bells
        assert len(asked) == 1, asked  # one fragment, asked because the bell said so
        # The mover may throw in: counted apart, not in the title (issue 29).
        wait_until(mover.page, "document.querySelector('#turn-counter .turns-optional') !== null")
        assert not mover.page.title().startswith("(")
    finally:
        mover.close()
        elsewhere.close()
