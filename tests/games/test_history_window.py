"""The game page's history shows the latest moves only (``selectors.HISTORY_PAGE``), read as a
window of the log, with "Earlier moves" pages before them (``games:history``): the page costs the
same however long the game, and every page reads as the whole history would."""

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import selectors, services, words
from games.models import Game, Invitation, Move
from tests.factories import UserFactory, play_moves, started_game
from tests.games.test_history import history_html, history_lines

pytestmark = pytest.mark.django_db

PAGE = selectors.HISTORY_PAGE
Policy = Callable[[list[dict[str, Any]]], dict[str, Any]]


def first_action(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return actions[0]


def always_take(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """The defender always takes: with three players the game goes on as long as one likes."""
    return next((action for action in actions if action["type"] == "take"), actions[0])


def play(game: Game, users: list[User], count: int, policy: Policy = first_action) -> Game:
    """Up to ``count`` real moves, chosen by ``policy`` (``factories.play_moves``)."""
    return play_moves(game, users, count, choose=policy)


def seqs(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<li class="history-entry[^"]*" data-seq="(\d+)"', html)]


def earlier_before(html: str) -> int | None:
    """The ``before`` of the "Earlier moves" control in ``html``, if it has one."""
    match = re.search(r'<li class="history-earlier">.*?name="before" value="(\d+)"', html, re.DOTALL)
    return int(match.group(1)) if match else None


def entry_lines(html: str) -> list[str]:
    """The entries' words (as ``test_history.history_lines``), of a page or a fragment."""
    return history_lines(f'<details class="history">{html}</details>')


def whole_history(game: Game, me: int | None) -> words.History:
    names = {seat.position: words.seat_name(seat.user) for seat in game.seats.select_related("user")}
    engine = game.engine() if game.state else None
    outcome = engine.outcome() if engine is not None else None
    return words.history(
        list(Move.objects.filter(game=game).order_by("seq")), me=me, names=names, outcome=outcome
    )


def queries(client: Client, url: str, **headers: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers=headers)
    assert response.status_code == 200
    return len(captured), response.content.decode()


def test_the_page_at_move_300_costs_what_it_costs_at_move_10() -> None:
    game, users = started_game(players=3, seed=4242)
    client = Client()
    client.force_login(users[0])
    page_url = reverse("games:detail", args=[game.pk])
    poll_url = reverse("games:poll", args=[game.pk]) + "?version=0"
    game = play(game, users, 10, always_take)
    client.get(page_url)
    short_page, short_html = queries(client, page_url)
    short_poll, _ = queries(client, poll_url, **{"HX-Request": "true"})
    assert seqs(history_html(short_html)) == list(range(10, 0, -1))
    assert earlier_before(short_html) is None

    game = play(game, users, 290, always_take)
    assert game.moves_made == 300 and game.status == Game.Status.ACTIVE
    long_page, long_html = queries(client, page_url)
    long_poll, long_partial = queries(client, poll_url, **{"HX-Request": "true"})
    assert (long_page, long_poll) == (short_page, short_poll)
    for html in (long_html, long_partial):
        assert seqs(history_html(html)) == list(range(300, 300 - PAGE, -1))
        assert earlier_before(html) == 300 - PAGE + 1
    assert 'reversed start="300"' in long_html  # numbered by the move's place in the log


def test_every_window_reads_as_the_same_moves_of_the_whole_history() -> None:
    """A window starts at its bout's first move, so a pass on beaten cards («Бито») and the
    last-move line read as from the whole log, wherever the window begins."""
    game, users = started_game(players=3, seed=4243)
    game = play(game, users, 400)
    assert game.status == Game.Status.FINISHED and game.moves_made > 3 * PAGE
    names = {seat.position: words.seat_name(seat.user) for seat in game.seats.select_related("user")}
    log = list(Move.objects.filter(game=game).order_by("seq"))
    all_on_beaten = words.passes_on_beaten(log)
    assert all_on_beaten, "the game has passes on beaten cards to tell"
    for me in (None, 1):
        whole = {entry.seq: entry for entry in whole_history(game, me)}
        for before in range(2, game.moves_made + 2):
            window = selectors.history_window(game_id=game.pk, before=before)
            told = words.history(window.moves, me=me, names=names, since=window.first)
            expected = [whole[seq] for seq in range(before - 1, max(before - 1 - PAGE, 0), -1)]
            assert [(e.seq, e.move, e.mine) for e in told] == [(e.seq, e.move, e.mine) for e in expected]
            assert window.first == max(before - PAGE, 1)
            shown = {move.seq for move in window.shown}
            assert words.passes_on_beaten(window.moves) & shown == all_on_beaten & shown


def test_the_last_move_line_reaches_back_past_a_page_of_preferences() -> None:
    game, users = started_game(players=3, seed=4242)
    idle = None
    while idle is None:  # a player the game does not wait for, whose preferences change nothing
        game = play(game, users, 1)
        waiting = game.engine().waiting_for()
        idle = next((position for position in range(3) if position not in waiting), None)
    client = Client()
    client.force_login(users[1])
    url = reverse("games:detail", args=[game.pk])
    line = client.get(url).context["table"].last_move_line
    assert line
    for turn in range(PAGE + 2):
        game.refresh_from_db()
        services.make_move(
            user=users[idle],
            game_id=game.pk,
            action={"type": "auto_pass", "player": idle, "on": turn % 2 == 0},
            expected_version=game.version,
        )
    page = client.get(url)
    assert page.context["table"].last_move_line == line
    assert len(page.context["history"]) == PAGE


def follow_earlier(client: Client, game: Game, html: str, **headers: str) -> tuple[list[int], list[str]]:
    """Every "Earlier moves" page after ``html``'s, one after the other: their seqs and words."""
    found, lines = [], []
    before = earlier_before(html)
    while before is not None:
        response = client.get(reverse("games:history", args=[game.pk]) + f"?before={before}", headers=headers)
        assert response.status_code == 200
        fragment = response.content.decode()
        assert "<html" not in fragment
        found += seqs(fragment)
        lines += entry_lines(fragment)
        assert len(seqs(fragment)) <= PAGE
        before = earlier_before(fragment)
    return found, lines


@pytest.mark.parametrize("viewer", ["spectator", "anonymous", "player"])
def test_earlier_pages_chain_to_the_first_move_as_the_whole_public_history(viewer: str) -> None:
    game, users = started_game(players=3, seed=4243)
    game = play(game, users, 400)
    client = Client()
    me = None
    if viewer == "spectator":
        client.force_login(UserFactory())
    elif viewer == "player":
        client.force_login(users[2])
        me = 2
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    history = history_html(page)
    found, lines = follow_earlier(client, game, history, **{"HX-Request": "true"})
    shown = seqs(history) + found
    assert shown == list(range(game.moves_made, 0, -1)), "no gap, no move twice"
    whole = whole_history(game, me)
    told = [" ".join(f"{entry.move} {' '.join(entry.events)}".split()) for entry in whole]
    assert history_lines(page) + lines == told


def test_the_earlier_moves_work_without_javascript_as_a_page() -> None:
    game, users = started_game(players=3, seed=4242)
    game = play(game, users, 2 * PAGE + 5, always_take)
    User.objects.filter(pk=users[0].pk).update(language="ru")
    client = Client()
    client.force_login(User.objects.get(pk=users[0].pk))
    url = reverse("games:history", args=[game.pk]) + f"?before={PAGE + 6}"
    response = client.get(url, headers={"Accept-Language": "ru"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html and f'href="{reverse("games:detail", args=[game.pk])}"' in html
    assert seqs(html) == list(range(PAGE + 5, 5, -1)) and earlier_before(html) == 6
    assert f'reversed start="{PAGE + 5}"' in html
    assert "Более ранние ходы" in html and "Игра" in html


def test_earlier_moves_cost_the_same_queries_wherever_they_start() -> None:
    game, users = started_game(players=3, seed=4242)
    game = play(game, users, 3 * PAGE, always_take)
    client = Client()
    client.force_login(UserFactory())
    url = reverse("games:history", args=[game.pk])
    counts = {
        queries(client, f"{url}?before={before}", **{"HX-Request": "true"})[0] for before in (5, 30, 60)
    }
    assert counts == {5}  # the session, the user, the game, its seats with their users, the window


def test_a_private_game_s_earlier_moves_are_a_404_to_a_stranger() -> None:
    creator, invited = UserFactory(), UserFactory()
    game = services.game_create(creator=creator, preset="classic", num_players=2, private=True)
    Invitation.objects.create(game=game, user=invited, invited_by=creator)
    services.game_join(user=invited, game_id=game.pk)
    game.refresh_from_db()
    users = [seat.user for seat in game.seats.select_related("user").order_by("position")]
    game = play(game, users, PAGE + 5)
    url = reverse("games:history", args=[game.pk]) + "?before=10"
    stranger = Client()
    stranger.force_login(UserFactory())
    missing = stranger.get(reverse("games:history", args=[game.pk + 1000]) + "?before=10")
    assert missing.status_code == 404
    for client in (stranger, Client()):
        response = client.get(url)
        assert response.status_code == 404
        assert response.content == missing.content
    player = Client()
    player.force_login(users[1])
    assert seqs(player.get(url).content.decode()) == list(range(9, 0, -1))


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?before=",
        "?before=abc",
        "?before=-1",
        "?before=0",
        "?before=1.5",
        "?before=%C2%B2",
        "?before=+7",
        "?before=2147483648",
        "?before=" + "9" * 5000,
        "?before=5&seen=x",
        "?before=5&seen=-1",
    ],
)
def test_bad_earlier_moves_requests_are_a_400_with_words(query: str) -> None:
    game, users = started_game(players=2, seed=4242)
    game = play(game, users, 3)
    client = Client()
    client.force_login(users[0])
    response = client.get(reverse("games:history", args=[game.pk]) + query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain") and b"number" in response.content


def test_new_moves_before_the_page_are_counted_and_marked_on_the_earlier_pages() -> None:
    """The player looked at move 2, then the others made many moves: the count says all of
    them, and the earlier pages mark those the page does not show."""
    game, users = started_game(players=3, seed=4242)
    game = play(game, users, 2, always_take)
    client = Client()
    client.force_login(users[0])
    url = reverse("games:detail", args=[game.pk])
    client.get(url)  # seen: 2 moves
    game = play(game, users, 3 * PAGE, always_take)
    page = client.get(url)
    html = page.content.decode()
    expected = words.history(list(Move.objects.filter(game=game).order_by("seq")), me=0, names={}, seen=2)
    assert page.context["history"].new_count == expected.new_count > PAGE
    assert f"{expected.new_count} new moves since you last looked" in html
    marked = [int(seq) for seq in re.findall(r'class="history-entry new[^"]*" data-seq="(\d+)"', html)]
    assert 'name="seen" value="2"' in html
    marked_earlier = []
    before = earlier_before(history_html(html))
    while before is not None:
        fragment = client.get(
            reverse("games:history", args=[game.pk]) + f"?before={before}&seen=2",
            headers={"HX-Request": "true"},
        ).content.decode()
        marked_earlier += [
            int(seq) for seq in re.findall(r'class="history-entry new[^"]*" data-seq="(\d+)"', fragment)
        ]
        before = earlier_before(fragment)
    assert marked + marked_earlier == [entry.seq for entry in expected if entry.new]
