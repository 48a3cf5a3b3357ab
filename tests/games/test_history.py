"""The game page's history: the public move log in words, newest first, the moves since the
player last looked marked, built from one read of the log and naming only public cards."""

import re
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Move, Seat
from tests.factories import UserFactory, play_moves, started_game
from tests.games.helpers import card_traces

pytestmark = pytest.mark.django_db

#: Hearts are trumps (the 9♥ face up), the rest of the deck is in the discard.
HANDS_A = [["6S", "7D", "QC", "AH"], ["8S", "9D", "6C", "KS"]]
STOCK = ["10C", "9H"]
#: A bout beaten off (player 0 draws the stock, the 9♥ last), then player 0 takes the 9♦.
SCRIPT: list[tuple[int, dict[str, Any]]] = [
    (0, {"type": "attack", "player": 0, "cards": ["6S"]}),
    (1, {"type": "defend", "player": 1, "target": "6S", "card": "8S"}),
    (0, {"type": "pass", "player": 0}),
    (1, {"type": "attack", "player": 1, "cards": ["9D"]}),
    (0, {"type": "take", "player": 0}),
    (1, {"type": "pass", "player": 1}),
]
#: Clubs are trumps, the J♣ face up; player 0 swaps the 6♣ for it.
SWAP_DEAL = {"hands": [["6C", "7S", "8S"], ["9D", "10D", "QS"]], "stock": ["AH", "JC"], "first_attacker": 0}


#: Two whole decks (nothing in the discard) differing only in two cards of player 1's hand,
#: 6♣ K♠ or 7♣ K♥, swapped with two cards deep in the stock: all hidden from player 0.
_DECK = [rank + suit for suit in "SHDC" for rank in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
_P0 = ["6S", "7D", "QC", "AH", "8C", "9C"]
_P1 = ["8S", "9D", "JD", "10H"]
_REST = [card for card in _DECK if card not in [*_P0, *_P1, "6C", "KS", "7C", "KH", "9H"]]
WHOLE_A = {"hands": [_P0, [*_P1, "6C", "KS"]], "stock": [*_REST[:8], "7C", "KH", *_REST[8:], "9H"]}
WHOLE_B = {"hands": [_P0, [*_P1, "7C", "KH"]], "stock": [*_REST[:8], "6C", "KS", *_REST[8:], "9H"]}


def deal(hands: list[list[str]]) -> dict[str, Any]:
    return {"hands": hands, "stock": STOCK, "first_attacker": 0}


def play(game: Game, users: list[User], script: list[tuple[int, dict[str, Any]]]) -> Game:
    for position, action in script:
        game.refresh_from_db()
        services.make_move(
            user=users[position], game_id=game.pk, action=action, expected_version=game.version
        )
    game.refresh_from_db()
    return game


def page_of(game: Game, user: User, **headers: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:detail", args=[game.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def history_html(page: str) -> str:
    match = re.search(r'<details class="history".*?</details>', page, re.DOTALL)
    assert match, "the page has no history"
    return match.group(0)


def history_lines(page: str) -> list[str]:
    """The entries' words, newest first, without their times and marks."""
    entries = re.findall(
        r'<li class="history-entry[^"]*" data-seq="\d+">(.*?)</li>', history_html(page), re.DOTALL
    )
    lines = []
    for entry in entries:
        entry = re.sub(r"<time.*?</time>|<span class=\"new-mark\".*?</span>", "", entry, flags=re.DOTALL)
        lines.append(" ".join(re.sub(r"<[^>]+>", " ", entry).split()))
    return lines


def test_the_history_tells_every_move_newest_first_in_words() -> None:
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT)
    lines = history_lines(page_of(game, users[0]))
    name = users[1].username
    assert lines == [
        f"{name}: done. 9♦ goes to your hand.",
        "You take the cards.",
        f"{name} attacks with 9♦.",
        "You: done. Bito: 6♠ 8♠ go to the discard. You draw 2 cards. The last one is the face-up trump, 9♥.",
        f"{name} beats 6♠ with 8♠.",
        "You attack with 6♠.",
    ]


def test_two_deals_differing_in_a_hidden_hand_give_the_same_history() -> None:
    """Everything player 0 reads in the history is the same whichever cards player 1 holds
    unseen; and the cards drawn from the stock (the 7♠ player 0 drew) are never named."""
    viewer = UserFactory(username="viewer")
    other = UserFactory(username="other")
    seen = []
    for stacked in (WHOLE_A, WHOLE_B):
        game = services.game_create(
            creator=viewer, preset="classic", num_players=2, deal={**stacked, "first_attacker": 0}
        )
        services.game_join(user=other, game_id=game.pk)
        game.refresh_from_db()
        users = {seat.position: seat.user for seat in game.seats.select_related("user")}
        game = play(game, [users[0], users[1]], SCRIPT)
        html = history_html(page_of(game, users[0]))
        seen.append(re.sub(r"<time.*?</time>", "", html, flags=re.DOTALL))
    assert seen[0] == seen[1]
    hidden = {*WHOLE_A["hands"][1], *WHOLE_A["stock"][:-1], *WHOLE_B["hands"][1]} - {"8S", "9D"}
    assert "7S" in hidden
    for card in hidden:
        for trace in card_traces(card):
            assert trace not in seen[0], f"{card} shows as {trace!r}"


def test_the_moves_since_the_player_last_looked_are_marked() -> None:
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT[:1])
    page_of(game, users[0])  # player 0 looks after their attack
    Seat.objects.filter(game=game, position=0).update(last_seen_at=timezone.now() - timedelta(seconds=1))
    game = play(game, users, SCRIPT[1:4])  # 8♠ beats 6♠; player 0 passes (on another device); 9♦
    page = page_of(game, users[0])
    marked = re.findall(r'<li class="history-entry new[^"]*" data-seq="(\d+)"', page)
    assert marked == ["4", "2"], "the others' moves since, not player 0's own pass"
    assert "2 new moves since you last looked" in page
    again = page_of(game, users[0])
    assert 'class="history-entry new' not in again and "since you last looked" not in again


def poll(client: Client, game: Game, version: int, *, visible: bool) -> str:
    """The table poll of an open page, as live.js asks it (``X-Page-Visible``)."""
    response = client.get(
        reverse("games:poll", args=[game.pk]) + f"?version={version}",
        headers={"HX-Request": "true", "X-Page-Visible": "1" if visible else "0"},
    )
    assert response.status_code == 200
    return response.content.decode()


def marked_seqs(page: str) -> list[str]:
    return re.findall(r'<li class="history-entry new[^"]*" data-seq="(\d+)"', page)


def test_moves_seen_live_on_a_visible_page_are_not_new_and_those_while_hidden_are() -> None:
    """Issue 29: "22 new moves since you last looked" after watching every one of them live.
    What counts is what the player saw on screen (``Seat.seen_moves``), not when they opened it."""
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT[:1])
    client = Client()
    client.force_login(users[0])
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200  # opened
    version = game.version
    game = play(game, users, SCRIPT[1:2])  # 8♠ beats 6♠, swapped into the visible page
    live = poll(client, game, version, visible=True)
    assert marked_seqs(live) == [] and "since you last looked" not in live
    assert Seat.objects.get(game=game, position=0).seen_moves == 2
    game = play(game, users, SCRIPT[2:4])  # player 0 passes; 9♦ comes while the tab is hidden
    hidden = poll(client, game, game.version - 2, visible=False)
    assert marked_seqs(hidden) == ["4"] and "1 new move since you last looked" in hidden
    assert Seat.objects.get(game=game, position=0).seen_moves == 2  # not shown on screen
    # Opened again later: only what was never on screen is new.
    page = page_of(game, users[0])
    assert marked_seqs(page) == ["4"] and "1 new move since you last looked" in page
    assert marked_seqs(page_of(game, users[0])) == []
    # The page says it is shown again, with the table it holds: that is seen too.
    game = play(game, users, SCRIPT[4:5])
    services.seat_presence(game_id=game.pk, user_id=users[0].pk, visible=True, version=game.version)
    assert Seat.objects.get(game=game, position=0).seen_moves == game.moves_made


def test_a_spectator_reads_the_history_with_nothing_marked() -> None:
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT[:2])
    page = page_of(game, UserFactory())
    assert history_lines(page)[0] == f"{users[1].username} beats 6♠ with 8♠."
    assert "You " not in history_html(page) and 'class="history-entry new' not in page


def test_the_history_comes_with_the_table_when_it_is_swapped() -> None:
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT[:2])
    client = Client()
    client.force_login(users[0])
    partial = client.get(
        reverse("games:poll", args=[game.pk]) + "?version=0", headers={"HX-Request": "true"}
    ).content.decode()
    assert "<html" not in partial
    assert history_lines(partial)[0] == f"{users[1].username} beats 6♠ with 8♠."


def test_a_trump_swap_shows_the_card_put_face_up() -> None:
    game, users = started_game(deal=SWAP_DEAL)
    game = play(game, users, [(0, {"type": "swap_trump", "player": 0})])
    assert history_lines(page_of(game, users[1])) == [
        f"{users[0].username} swaps the trump card. Face up now: 6♣; J♣ goes into the hand."
    ]


def test_the_page_costs_the_same_queries_however_long_the_log() -> None:
    game, users = started_game(players=3, seed=7)
    game = play_moves(game, users, 2)
    client = Client()
    client.force_login(users[0])
    url = reverse("games:detail", args=[game.pk])
    client.get(url)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    short = queries()
    game = play_moves(game, users, 20)
    assert game.moves.count() >= 15
    assert queries() == short


def test_the_russian_history_names_no_player_in_a_gendered_form() -> None:
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT)
    User.objects.filter(pk=users[1].pk).update(language="ru")
    lines = " ".join(
        history_lines(page_of(game, User.objects.get(pk=users[1].pk), **{"Accept-Language": "ru"}))
    )
    assert "ходит: 6♠" in lines and "Вы бьёте 6♠ картой 8♠" in lines
    for masculine in ("отбился", "взял ", "сходил", "вышел", "пасовал", "сдался"):
        assert masculine not in lines


@pytest.mark.parametrize(
    ("language", "today", "older"),
    [("en", "3:07 p.m.", "Jan. 5, 2026, 9:30 a.m."), ("ru", "15:07", "5 января 2026 г. 9:30")],  # noqa: RUF001 (the year mark)
)
def test_the_history_times_read_like_the_pages_other_dates(language: str, today: str, older: str) -> None:
    """Today's moves show the time alone, older ones the date and time, in the formats of the
    clocks ("Dec. 2, 2026, 11:56 a.m."), not the short numeric ones ("12/01/2026 11:56 a.m."),
    in the reader's language and time zone."""
    game, users = started_game(deal=deal(HANDS_A))
    game = play(game, users, SCRIPT[:2])
    reader = users[0]
    reader.language, reader.time_zone = language, "Europe/Moscow"
    reader.save(update_fields=["language", "time_zone"])
    moscow = ZoneInfo("Europe/Moscow")
    this_day = timezone.localtime(timezone.now(), moscow).date()
    first, second = game.moves.order_by("seq")
    Move.objects.filter(pk=first.pk).update(
        created_at=datetime(2026, 1, 5, 6, 30, tzinfo=UTC)
    )  # 9:30 in Moscow
    Move.objects.filter(pk=second.pk).update(created_at=datetime.combine(this_day, time(15, 7), moscow))
    shown = re.findall(
        r'<time class="history-time"[^>]*>([^<]*)</time>',
        history_html(page_of(game, reader, **{"Accept-Language": language})),
    )
    assert shown == [today, older]
