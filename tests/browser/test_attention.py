"""Notifications that respect attention, in a real browser (issue 29).

Alice plays a live game with its page open: the page tells the server it is open and visible
(``static/js/live.js``, ``#presence``), so none of her turns writes a "your move"; the history
marks none of the moves she watched arrive as new. Then her tab is hidden (another tab in
front: ``document.visibilityState`` is "hidden" and the page hears ``visibilitychange``): her
next turn is told again, and the moves that came meanwhile are new when she looks again. The
notifications list holds a row or two for the game, not one per turn.

The moves are made through the services, as each player's other device would make them; the
page follows the game by its table poll (pytest-django's live server has no live stream).
The list's screenshot: ``test-artifacts/browser/attention-notifications.png``.
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games import services
from games.models import Game, Seat
from notifications.models import Kind, Notification
from tests.browser.test_accessibility import DESKTOP, signed_in
from tests.celery_processes import wait_until
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 60_000


def turns_of(user: User, game: Game) -> int:
    return Notification.objects.filter(user=user, game=game, kind=Kind.YOUR_MOVE).count()


def play_until_alice_must_move(game: Game, users: dict[int, User], alice: User) -> bool:
    """Moves (the first legal action of whoever must act) until the game newly needs alice;
    False if it ended first."""
    for _step in range(12):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return False
        engine = game.engine()
        player = engine.must_act()[0]
        was_needed = Seat.objects.get(game=game, user=alice).must_move
        services.make_move(
            user=users[player],
            game_id=game.pk,
            action=engine.legal_json(player)[0],
            expected_version=game.version,
        )
        if not was_needed and Seat.objects.get(game=game, user=alice).must_move:
            return True
    return False


def shown_version(page: Page, game: Game) -> None:
    game.refresh_from_db()
    expect(page.locator("#table")).to_have_attribute("data-version", str(game.version), timeout=TIMEOUT_MS)


def hide(page: Page) -> None:
    """Another tab in front: the page is hidden, and hears so."""
    page.evaluate(
        """() => {
          Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
          Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )


def show(page: Page) -> None:
    page.evaluate(
        """() => {
          delete document.visibilityState;
          delete document.hidden;
          document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )


def test_a_live_game_played_with_the_page_open_writes_no_your_move_rows(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = GameFactory(creator=alice, seed=20260302)
    services.game_join(user=bob, game_id=game.pk)
    game.refresh_from_db()
    users = {seat.position: seat.user for seat in game.seats.select_related("user")}
    page = signed_in(browser, live_server, alice, DESKTOP, "en-GB").new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    wait_until(
        lambda: Seat.objects.get(game=game, user=alice).present_until is not None, 60, "alice's page present"
    )
    before = turns_of(alice, game)  # her first turn, if the deal gave her the lead, came before

    turns_watched = 0
    for _turn in range(6):
        if not play_until_alice_must_move(game, users, alice):
            break
        turns_watched += 1
        shown_version(page, game)
    assert turns_watched >= 3, "the game gave alice too few turns to watch"
    assert turns_of(alice, game) == before, "no 'your move' while her page is open and visible"
    history = page.locator("#history")
    expect(history.locator(".history-entry.new")).to_have_count(0)  # seen live is seen
    expect(history.locator(".history-new-count")).to_have_count(0)

    # Another tab in front: her next turn is told again, and what comes meanwhile is new to her.
    hide(page)
    wait_until(
        lambda: Seat.objects.get(game=game, user=alice).present_until is None, 60, "alice's page hidden"
    )
    assert play_until_alice_must_move(game, users, alice)
    shown_version(page, game)
    assert turns_of(alice, game) == before + 1
    expect(history.locator(".history-entry.new").first).to_be_visible()
    show(page)
    wait_until(
        lambda: Seat.objects.get(game=game, user=alice).present_until is not None,
        60,
        "alice's page shown again",
    )

    listing = signed_in(browser, live_server, alice, DESKTOP, "en-GB").new_page()
    listing.goto(f"{live_server.url}/notifications/")
    rows = listing.locator(".notification-list li", has_text=f"Your move in game {game.pk}")
    expect(rows).to_have_count(before + 1)
    listing.screenshot(path=str(artifacts / "attention-notifications.png"), full_page=True)


def test_the_waited_for_player_sees_the_claim_warning_on_the_table_and_in_the_bell(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    from notifications import services as notifications
    from tests.factories import LONGER_DEAL, backdate

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob", language="ru")
    game = GameFactory(creator=alice, deal=LONGER_DEAL, overrides={"claim_after_days": 3})
    services.game_join(user=bob, game_id=game.pk)
    game.refresh_from_db()
    game = services.make_move(
        user=alice, game_id=game.pk, action={"type": "attack", "cards": ["6S"]}, expected_version=game.version
    )
    services.make_move(user=alice, game_id=game.pk, action={"type": "pass"}, expected_version=game.version)
    backdate(game, days=3.5)
    assert notifications.send_claim_warnings() == 1

    page = signed_in(browser, live_server, bob, DESKTOP, "ru-RU").new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{live_server.url}/notifications/")
    expect(page.locator(".notification-list li.unread").first).to_contain_text(
        f"alice может забрать игру {game.pk} с "  # noqa: RUF001
    )
    page.screenshot(path=str(artifacts / "claim-warning-bell-ru.png"))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    warning = page.locator("#table .claim-warning")
    expect(warning).to_contain_text("alice может забрать игру уже сейчас")
    expect(warning).to_contain_text("если вы не сделаете ход, она закончится так, как если бы вы сдались")
    warning.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "claim-warning-ru.png"))
