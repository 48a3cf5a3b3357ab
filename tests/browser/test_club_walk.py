"""Issue 30's walk, by clicks: two players become friends, one invites the other from the
friends page and they play it to its end; a third player, blocked, can neither join the blocker's game nor be
matched with them by "Play now"; the lobby shows each player's reliability."""

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import Block, Friendship, User
from games.models import Game, Seat
from matchmaking.models import QueueEntry
from notifications.models import Kind, Notification
from tests.factories import SHORT_DEAL, UserFactory
from tests.faults.conftest import login_session

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def wait_until(condition: Any, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.2)


def page_of(browser: Browser, live_server: Any, user: User) -> Page:
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": "sessionid", "value": login_session(user), "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def press_play_now(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/")
    block = page.locator("#play-now")
    block.get_by_label("Rules:", exact=True).select_option("classic")
    block.get_by_label("Players:", exact=True).select_option("2")
    block.get_by_label("Time control:", exact=True).select_option("2m")
    block.get_by_label("Computer players:", exact=True).select_option("never")
    block.get_by_role("button", name="Play now").click()


def test_friends_invite_and_play_and_a_blocked_player_is_kept_apart(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    base = live_server.url
    # Alice has finished 25 games and left one: 96%; Bob is new.
    alice = UserFactory(username="alice", reliability_games=25, reliability_left=1, confirm_moves="never")
    bob = UserFactory(username="bob", confirm_moves="never")
    carol = UserFactory(username="carol", reliability_games=20, reliability_left=0)
    a, b, c = (page_of(browser, live_server, user) for user in (alice, bob, carol))

    # Alice asks Bob from her friends page; Bob accepts on his.
    a.goto(f"{base}/friends/")
    a.get_by_placeholder("user name").fill("bob")
    a.get_by_role("button", name="Send request").click()
    expect(a.locator(".messages")).to_contain_text("bob")
    b.goto(f"{base}/friends/")
    b.get_by_role("button", name="Accept").click()
    expect(b.locator(".messages")).to_contain_text("friends")
    assert Friendship.objects.filter(user=alice, friend=bob).exists()
    assert Notification.objects.filter(user=bob, kind=Kind.FRIEND_REQUEST).exists()
    assert Notification.objects.filter(user=alice, kind=Kind.FRIEND_ACCEPTED).exists()

    # Alice invites Bob from the friends page: the create form comes with Bob in it.
    a.goto(f"{base}/friends/")
    a.get_by_role("link", name="Invite to a game").click()
    expect(a.get_by_label("Invite a player:")).to_have_value("bob")
    a.get_by_role("button", name="Open the game").click()
    a.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(creator=alice)
    assert game.invitations.filter(user=bob).exists()
    # A short stacked deal, so that the game is played to its end in two moves: Alice (seat 0)
    # leads 6S, Bob beats it with his only card and is out; the stock is empty: Alice is the fool.
    Game.objects.filter(pk=game.pk).update(deal=SHORT_DEAL)

    # Carol's lobby shows the open game with Alice's reliability beside her name.
    c.goto(f"{base}/")
    row = c.locator("tr", has=c.locator(f'form[action="/games/{game.pk}/join/"]'))
    expect(row).to_contain_text("alice")
    expect(row.locator(".reliability-tag")).to_have_text("96%")

    # Bob takes the seat from his invitation; the cards are dealt and they play to the end.
    b.goto(f"{base}/games/{game.pk}/")
    b.get_by_role("button", name="Take a seat").click()
    expect(b.locator("#table .hand")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    a.goto(f"{base}/games/{game.pk}/")
    a.locator('#table [data-pick="6S"]').click()
    a.locator("#table .card-action.armed").filter(has_text="Attack with 6♠").click()
    wait_until(lambda: Game.objects.get(pk=game.pk).moves_made >= 1, "the attack is recorded")
    b.goto(f"{base}/games/{game.pk}/")
    b.locator('#table [data-pick="8S"]').click()
    b.locator("#table .card-action.armed").filter(has_text="Beat 6♠ with 8♠").click()
    wait_until(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, "the game ends")
    expect(b.locator("#table .status")).to_contain_text("The game is over: you won, alice is the fool.")
    a.goto(f"{base}/games/{game.pk}/")
    expect(a.locator("#table .status")).to_contain_text("The game is over: you are the fool.")

    # Alice blocks Carol from Carol's profile; Carol is not told.
    a.goto(f"{base}/players/carol/")
    a.get_by_role("button", name="Block").click()
    expect(a.get_by_role("button", name="Unblock")).to_be_visible()
    assert Block.objects.filter(blocker=alice, blocked=carol).exists()

    # Alice opens a public game: it is not in Carol's lobby, and its link offers her no seat.
    a.goto(f"{base}/")
    a.get_by_role("button", name="Open the game").click()
    a.wait_for_url(f"{base}/games/*/")
    second = Game.objects.filter(creator=alice, status=Game.Status.OPEN).get()
    c.goto(f"{base}/")
    expect(c.locator(f'form[action="/games/{second.pk}/join/"]')).to_have_count(0)
    b.goto(f"{base}/")
    expect(b.locator(f'form[action="/games/{second.pk}/join/"]')).to_have_count(1)  # Bob may
    c.goto(f"{base}/games/{second.pk}/")
    expect(c.locator(".join-refusal")).to_have_text("You cannot join this game.")
    expect(c.get_by_role("button", name="Take a seat")).to_have_count(0)
    assert "block" not in c.content().lower()
    c.screenshot(path=str(artifacts / "club-refused.png"), full_page=True)

    # Play now: Alice and Carol seek the same game and are not paired; Bob is paired with Alice.
    press_play_now(a, base)
    a.wait_for_url(f"{base}/play/")
    press_play_now(c, base)
    c.wait_for_url(f"{base}/play/")
    assert set(QueueEntry.objects.values_list("status", flat=True)) == {QueueEntry.Status.WAITING}
    assert not Game.objects.filter(seats__user=carol).exists()
    press_play_now(b, base)
    b.wait_for_url(f"{base}/games/*/")
    matched = QueueEntry.objects.get(user=bob).game
    assert matched is not None
    assert sorted(Seat.objects.filter(game=matched).values_list("user__username", flat=True)) == [
        "alice",
        "bob",
    ]
    assert QueueEntry.objects.get(user=carol).status == QueueEntry.Status.WAITING
    for page in (a, b, c):
        page.context.close()
