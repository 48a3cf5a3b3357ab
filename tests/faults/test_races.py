"""Drill: one player's twenty requests at once, through the real server, for every write that can
lose a race to itself (issue 28).

A double click, a client's retries or a script send the same request many times at once. Each
request runs in a thread of its own in the ASGI server (``site``), with its own database
connection: the services' locks put them one after the other, and each later one finds what the
one before did. Every answer is the normal one or a 409 (never a 5xx, never an error page the
player cannot act on), and the database ends as one request would have left it: one queue entry,
one seat, one offer, one next game, one move; as many games as the answers name.

Twenty requests a round (``AT_ONCE``), three rounds, on 127.0.0.1; the server's pool holds a
connection for each request (the pool's own limit answers 503 "try again", a matter of capacity
that ``test_unavailable_answers`` drills), and the API's rates are lifted (the throttle's 429
is another limit).
"""

import re
import threading
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import httpx
import pytest

from accounts.models import User
from games import services as games
from games.models import Game, Invitation, Seat
from matchmaking.models import QueueEntry
from notifications.models import Kind, Notification
from series.models import RematchOffer, SeriesGame
from tests.factories import LONGER_DEAL, GameFactory, UserFactory, backdate
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script

from .conftest import NO_KEEPALIVE, Site, database_url_of_tests, login_session, site_env
from .snapshots import assert_consistent

AT_ONCE = 20
ROUNDS = 3
#: The server for these drills: a database connection for every request at once, no throttle.
SERVER = {
    "DATABASE_POOL_SIZE": str(AT_ONCE + 4),
    "API_RATE_USER": "100000/min",
    "API_RATE_IP": "100000/min",
}
HTMX = {"HX-Request": "true"}

Answer = httpx.Response


@pytest.fixture(scope="module")
def server(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One server for the whole module (a boot costs seconds on a loaded machine): the test
    database it serves is the same for every test, emptied after each."""
    served = Site(logs=tmp_path_factory.mktemp("races"), env=site_env(database_url_of_tests(), **SERVER))
    served.start()
    try:
        yield served
    finally:
        served.kill()


@pytest.fixture
def site(server: Site, transactional_db: None) -> Iterator[Site]:
    """The module's server; its log must hold no error from this test."""
    before = len(server.log())
    yield server
    log = server.log()[before:]
    assert "Traceback" not in log, log[-5000:]
    assert "Internal Server Error" not in log, log[-5000:]


def page_clients(site: Site, user: User, path: str, count: int = AT_ONCE) -> list[httpx.Client]:
    """``count`` browsers of ``user`` (one session), each with the CSRF token ``path`` set."""
    session = login_session(user)
    clients = []
    for _ in range(count):
        client = httpx.Client(base_url=site.url, timeout=60, follow_redirects=False, limits=NO_KEEPALIVE)
        client.cookies.set("sessionid", session)
        response = client.get(path)
        assert response.status_code == 200, response.text[:500]
        client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
        clients.append(client)
    return clients


def api_clients(site: Site, user: User, count: int = AT_ONCE) -> list[httpx.Client]:
    clients = [site.api_client(user) for _ in range(count)]
    for client in clients:
        client.timeout = httpx.Timeout(60)
    return clients


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """``calls``, in threads released together; their answers, in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Answer | BaseException | None] = [None] * len(calls)

    def run(index: int, call: Callable[[], Answer]) -> None:
        try:
            barrier.wait(timeout=60)
            answers[index] = call()
        except BaseException as error:  # surfaced below
            answers[index] = error

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    failed = [answer for answer in answers if not isinstance(answer, httpx.Response)]
    assert not failed, failed
    return [answer for answer in answers if isinstance(answer, httpx.Response)]


def from_each(clients: list[httpx.Client], send: Callable[[httpx.Client], Answer]) -> list[Answer]:
    """``send`` from each of ``clients`` at once."""
    return at_once([partial(send, client) for client in clients])


def statuses(answers: list[Answer]) -> list[int]:
    return sorted(answer.status_code for answer in answers)


def assert_answers(answers: list[Answer], expected: list[int]) -> None:
    assert statuses(answers) == sorted(expected), [(a.status_code, a.text[:300]) for a in answers]


def codes(answers: list[Answer], status: int) -> set[str]:
    """The API's error codes of the answers with ``status``."""
    return {answer.json()["code"] for answer in answers if answer.status_code == status}


def game_of_location(answer: Answer) -> int | None:
    found = re.fullmatch(r"/games/(\d+)/", answer.headers.get("location", ""))
    return int(found.group(1)) if found else None


# Play now: joining and leaving the queue.

QUEUE_API = "/api/queue/"
PEOPLE_ONLY = {"preset": "classic", "players": 3, "time_control": "2m"}
PAGE_PEOPLE_ONLY = {"preset": "classic", "num_players": "3", "time_control": "2m", "fill_after": "never"}


def queue_join(kind: str, client: httpx.Client) -> Answer:
    if kind == "api":
        return client.post(QUEUE_API, json=PEOPLE_ONLY)
    return client.post("/play/", data=PAGE_PEOPLE_ONLY)


def queue_leave(kind: str, client: httpx.Client) -> Answer:
    if kind == "api":
        return client.delete(QUEUE_API)
    return client.post("/play/leave/", data={"next": "/play/"})


def clients_of(site: Site, user: User, kind: str) -> list[httpx.Client]:
    """``AT_ONCE`` clients of ``user``: the API's (a token), or browsers ("page": plain forms,
    "htmx": the same forms as HTMX posts them)."""
    return api_clients(site, user) if kind == "api" else page_clients(site, user, "/play/")


@pytest.mark.parametrize("kind", ["page", "api"])
def test_twenty_joins_at_once_leave_one_entry_and_answer_each(site: Site, kind: str) -> None:
    """The audit's finding: a join re-read its entry after the commit, which a join of the same
    player at the same moment had replaced already: a 500 for a join that had done its work."""
    user = UserFactory()
    clients = clients_of(site, user, kind)
    for _round in range(ROUNDS):
        answers = from_each(clients, partial(queue_join, kind))
        if kind == "api":
            assert_answers(answers, [201] * AT_ONCE)
            assert {answer.json()["status"] for answer in answers} == {"waiting"}
        else:
            assert_answers(answers, [302] * AT_ONCE)
            assert {answer.headers["location"] for answer in answers} == {"/play/"}
        entries = list(QueueEntry.objects.filter(user=user))
        assert len(entries) == 1 and entries[0].status == QueueEntry.Status.WAITING
    assert not Game.objects.exists()


@pytest.mark.parametrize("kind", ["page", "api"])
def test_twenty_leaves_at_once_remove_the_entry_once(site: Site, kind: str) -> None:
    user = UserFactory()
    clients = clients_of(site, user, kind)
    for _round in range(ROUNDS):
        assert queue_join(kind, clients[0]).status_code in (201, 302)
        assert QueueEntry.objects.filter(user=user).count() == 1
        answers = from_each(clients, partial(queue_leave, kind))
        if kind == "api":
            assert_answers(answers, [200] + [409] * (AT_ONCE - 1))
            assert codes(answers, 409) == {"wrong_status"}
        else:
            assert_answers(answers, [302] * AT_ONCE)
        assert not QueueEntry.objects.filter(user=user).exists()


# A seat in an open game: join, leave, computer players, invitations.


def seat_write(kind: str, what: str, game_id: int, client: httpx.Client) -> Answer:
    prefix = "/api" if kind == "api" else ""
    return client.post(f"{prefix}/games/{game_id}/{what}/")


@pytest.mark.parametrize("kind", ["page", "api"])
def test_twenty_joins_of_one_game_at_once_seat_the_player_once(site: Site, kind: str) -> None:
    """The join that takes the last seat deals; the others find the player seated: the same answer."""
    joiner = UserFactory()
    clients = clients_of(site, joiner, kind)
    for _round in range(ROUNDS):
        game = GameFactory(num_players=2)
        answers = from_each(clients, partial(seat_write, kind, "join", game.pk))
        if kind == "api":
            assert_answers(answers, [200] * AT_ONCE)
            assert {answer.json()["status"] for answer in answers} == {"active"}
        else:
            assert_answers(answers, [302] * AT_ONCE)
            assert {game_of_location(answer) for answer in answers} == {game.pk}
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE and game.version == 1
        seats = list(game.seats.order_by("position").values_list("user_id", "position"))
        assert seats == [(game.creator_id, 0), (joiner.pk, 1)]
        assert_consistent(game.pk)


@pytest.mark.parametrize("kind", ["page", "api"])
def test_twenty_leaves_at_once_give_the_seat_up_once(site: Site, kind: str) -> None:
    """A player's seat is given up once, the others are told it is gone (409); the creator's
    leave cancels the game once."""
    joiner, creator = UserFactory(), UserFactory()
    joiner_clients, creator_clients = clients_of(site, joiner, kind), clients_of(site, creator, kind)
    for _round in range(ROUNDS):
        game = GameFactory(num_players=3, creator=creator)
        games.game_join(user=joiner, game_id=game.pk)
        answers = from_each(joiner_clients, partial(seat_write, kind, "leave", game.pk))
        if kind == "api":
            assert_answers(answers, [200] + [409] * (AT_ONCE - 1))
            assert codes(answers, 409) == {"wrong_status"}
        else:
            assert_answers(answers, [302] * AT_ONCE)
        game.refresh_from_db()
        assert game.status == Game.Status.OPEN and game.version == 2
        assert list(game.seats.values_list("user_id", flat=True)) == [creator.pk]

        answers = from_each(creator_clients, partial(seat_write, kind, "leave", game.pk))
        if kind == "api":
            assert_answers(answers, [200] + [409] * (AT_ONCE - 1))
            assert codes(answers, 409) == {"wrong_status"}
        else:
            assert_answers(answers, [302] * AT_ONCE)
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED and game.version == 3


def test_twenty_fills_with_computers_at_once_seat_them_once(site: Site) -> None:
    """The page's button (the API has none): the first fill seats the computers and deals; the
    others find the game under way, said in the reader's words."""
    creator = UserFactory()
    clients = clients_of(site, creator, "page")
    for _round in range(ROUNDS):
        game = GameFactory(num_players=3, creator=creator, bot_level="random")
        answers = from_each(clients, partial(seat_write, "page", "fill-with-bots", game.pk))
        assert_answers(answers, [302] * AT_ONCE)
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        seats = list(game.seats.select_related("user").order_by("position"))
        assert [seat.user.is_bot for seat in seats] == [False, True, True]
        assert len({seat.user_id for seat in seats}) == 3
        assert_consistent(game.pk)


def test_twenty_invitations_at_once_invite_once(site: Site) -> None:
    creator, guest = UserFactory(), UserFactory()
    clients = clients_of(site, creator, "page")

    def invite(game_id: int, client: httpx.Client) -> Answer:
        return client.post(f"/games/{game_id}/invite/", data={"username": guest.username})

    for _round in range(ROUNDS):
        game = GameFactory(num_players=3, creator=creator, private=True)
        assert_answers(from_each(clients, partial(invite, game.pk)), [302] * AT_ONCE)
        assert list(Invitation.objects.filter(game=game).values_list("user_id", flat=True)) == [guest.pk]
        assert Notification.objects.filter(game=game, user=guest, kind=Kind.INVITED).count() == 1


# Leaving a running game: resign, claim.


def two_player_game(first: User, second: User, **options: Any) -> Game:
    """A game of ``first`` (seat 0) and ``second`` (seat 1), dealt."""
    game = GameFactory(num_players=2, creator=first, **options)
    return games.game_join(user=second, game_id=game.pk)


def waited_days(game: Game, days: float) -> None:
    backdate(game, days=days)


def leave_write(kind: str, what: str, game_id: int, version: int, client: httpx.Client) -> Answer:
    if kind == "api":
        return client.post(f"/api/games/{game_id}/{what}/", json={"expected_version": version})
    return client.post(f"/games/{game_id}/{what}/", data={"expected_version": str(version)}, headers=HTMX)


@pytest.mark.parametrize("what", ["resign", "claim"])
@pytest.mark.parametrize("kind", ["htmx", "api"])
def test_twenty_resignations_or_claims_at_once_end_the_game_once(site: Site, kind: str, what: str) -> None:
    """The first ends the game; the others find it over (409)."""
    player = UserFactory()
    clients = clients_of(site, player, kind)
    for _round in range(ROUNDS):
        # LONGER_DEAL waits for seat 0 first: seat 1 may claim once the game has waited long enough.
        game = two_player_game(UserFactory(), player, deal=LONGER_DEAL)
        waited_days(game, 15)
        answers = from_each(clients, partial(leave_write, kind, what, game.pk, game.version))
        assert_answers(answers, [200] + [409] * (AT_ONCE - 1))
        if kind == "api":
            assert codes(answers, 409) == {"wrong_status"}
        else:
            assert all("This game is over already." in a.text for a in answers if a.status_code == 409)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.version == 2
        assert list(game.moves.values_list("action__type", flat=True)) == [what]
        assert_consistent(game.pk)


# A rematch: offer, accept, decline.


def rematch_write(kind: str, what: str, game_id: int, client: httpx.Client) -> Answer:
    if kind == "api":
        path = f"/api/games/{game_id}/rematch/" + ("" if what == "offer" else f"{what}/")
        return client.post(path, json={"games_agreed": 3} if what == "offer" else None)
    data = {"games_agreed": "3"} if what == "offer" else {}
    return client.post(f"/games/{game_id}/rematch/{what}/", data=data, headers=HTMX)


@pytest.mark.parametrize("kind", ["htmx", "api"])
def test_twenty_offers_then_twenty_answers_at_once_make_one_offer_and_one_next_game(
    site: Site, kind: str
) -> None:
    """Twenty offers make one (the others: 409, one is open). Then the other player's twenty
    answers, accepts and declines mixed: whichever comes first decides, once; a later accept is
    the same yes (200), anything else finds the offer decided (409)."""
    alice, bob = UserFactory(), UserFactory()
    alice_clients, bob_clients = clients_of(site, alice, kind), clients_of(site, bob, kind)
    for round_ in range(ROUNDS):
        game = play_script(two_player_game(alice, bob, deal=DRAW_DEAL), [alice, bob], DRAW_MOVES)
        assert game.status == Game.Status.FINISHED
        answers = from_each(alice_clients, partial(rematch_write, kind, "offer", game.pk))
        assert_answers(answers, [200] + [409] * (AT_ONCE - 1))
        if kind == "api":
            assert codes(answers, 409) == {"wrong_status"}
        offer = RematchOffer.objects.get(game=game)
        assert offer.status == RematchOffer.Status.OPEN

        # Round 0: all accept; round 1: all decline; round 2: half and half, interleaved.
        answers_of = ["accept", "decline", "mixed"][round_]
        whats = [
            ("accept" if answers_of == "accept" or (answers_of == "mixed" and i % 2) else "decline")
            for i in range(AT_ONCE)
        ]
        answers = at_once(
            [
                partial(rematch_write, kind, what, game.pk, client)
                for what, client in zip(whats, bob_clients, strict=True)
            ]
        )
        offer.refresh_from_db()
        by_what: dict[str, list[int]] = {"accept": [], "decline": []}
        for what, answer in zip(whats, answers, strict=True):
            by_what[what].append(answer.status_code)
        following = list(Game.objects.filter(pk__gt=game.pk))
        if offer.status == RematchOffer.Status.ACCEPTED:
            assert by_what["accept"] == [200] * len(by_what["accept"]) and set(by_what["decline"]) <= {409}
            assert [offer.next_game_id] == [next_game.pk for next_game in following]
            assert SeriesGame.objects.filter(game=following[0], number=2).count() == 1
            assert following[0].status == Game.Status.ACTIVE and following[0].seats.count() == 2
        else:
            assert offer.status == RematchOffer.Status.DECLINED
            assert sorted(by_what["decline"]) == [200] + [409] * (len(by_what["decline"]) - 1)
            assert set(by_what["accept"]) <= {409}
            assert following == []
        assert answers_of != "accept" or offer.status == RematchOffer.Status.ACCEPTED
        assert answers_of != "decline" or offer.status == RematchOffer.Status.DECLINED


# Games with computer players: at most BOT_GAMES_PER_USER (10, the server's default) per creator.

LIMIT = 10
AGAINST_COMPUTER = {"preset": "classic", "num_players": "2", "bot_level": "random", "against": "computer"}
QUEUE_WITH_COMPUTERS = {"preset": "classic", "players": 2, "time_control": "2m", "fill_after_seconds": 0}


def bot_games_of(user: User) -> list[int]:
    return sorted(
        Game.objects.filter(creator=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).values_list(
            "pk", flat=True
        )
    )


def test_twenty_games_against_the_computer_at_once_at_the_limit_less_one_make_one(site: Site) -> None:
    """The page's "play against the computer" (the API has no such call: its way is play now,
    below): the player's row lock counts each request after the one before."""
    user = UserFactory()
    for _ in range(LIMIT - 1):
        games.game_against_computer(creator=user, level="random", preset="classic", num_players=2)
    clients = clients_of(site, user, "page")
    for _round in range(ROUNDS):
        before = bot_games_of(user)
        assert len(before) == LIMIT - 1
        answers = from_each(clients, lambda client: client.post("/games/new/", data=AGAINST_COMPUTER))
        assert_answers(answers, [302] + [409] * (AT_ONCE - 1))
        assert all("as one player may have at once (10)" in a.text for a in answers if a.status_code == 409)
        after = bot_games_of(user)
        (made,) = [game_of_location(answer) for answer in answers if answer.status_code == 302]
        assert made is not None and after == sorted([*before, made])
        new = Game.objects.get(pk=made)
        assert new.status == Game.Status.ACTIVE and new.seats.count() == 2
        games.game_abort(game_id=new.pk)  # room for the next round's one


def test_twenty_play_now_joins_with_computers_at_once_make_as_many_games_as_answers_say(site: Site) -> None:
    """Each join with a wait of zero starts a game with a computer at once, until the limit: ten
    answers name ten games (each its own), ten are refused (409), one queue entry is left."""
    user = UserFactory()
    clients = clients_of(site, user, "api")
    for _round in range(ROUNDS):
        answers = from_each(clients, lambda client: client.post(QUEUE_API, json=QUEUE_WITH_COMPUTERS))
        assert_answers(answers, [201] * LIMIT + [409] * (AT_ONCE - LIMIT))
        assert codes(answers, 409) == {"too_many_bot_games"}
        named = sorted(answer.json()["game"] for answer in answers if answer.status_code == 201)
        assert {answer.json()["status"] for answer in answers if answer.status_code == 201} == {"matched"}
        assert named == bot_games_of(user) and len(set(named)) == LIMIT
        for game_id in named:
            seats = list(Seat.objects.filter(game_id=game_id).select_related("user").order_by("position"))
            assert [(seat.user_id == user.pk, seat.user.is_bot) for seat in seats] == [
                (True, False),
                (False, True),
            ]
        entry = QueueEntry.objects.get(user=user)
        assert entry.status == QueueEntry.Status.MATCHED and entry.game_id in named
        for game_id in named:
            games.game_abort(game_id=game_id)
