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
from collections.abc import Callable
from functools import partial

import httpx
import pytest

from accounts.models import User
from games.models import Game
from matchmaking.models import QueueEntry
from tests.factories import UserFactory

from .conftest import Site, login_session

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


def start(site: Site, **extra: str) -> None:
    site.start(**{**SERVER, **extra})


def page_clients(site: Site, user: User, path: str, count: int = AT_ONCE) -> list[httpx.Client]:
    """``count`` browsers of ``user`` (one session), each with the CSRF token ``path`` set."""
    session = login_session(user)
    clients = []
    for _ in range(count):
        client = httpx.Client(base_url=site.url, timeout=60, follow_redirects=False)
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


def at_once(clients: list[httpx.Client], send: Callable[[httpx.Client], Answer]) -> list[Answer]:
    """``send`` from each of ``clients``, in threads released together; the answers."""
    barrier = threading.Barrier(len(clients))
    answers: list[Answer | BaseException | None] = [None] * len(clients)

    def run(index: int, call: Callable[[], Answer]) -> None:
        try:
            barrier.wait(timeout=60)
            answers[index] = call()
        except BaseException as error:  # surfaced below
            answers[index] = error

    threads = [
        threading.Thread(target=run, args=(index, partial(send, client)))
        for index, client in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    failed = [answer for answer in answers if not isinstance(answer, httpx.Response)]
    assert not failed, failed
    return [answer for answer in answers if isinstance(answer, httpx.Response)]


def statuses(answers: list[Answer]) -> list[int]:
    return sorted(answer.status_code for answer in answers)


def assert_only(answers: list[Answer], allowed: set[int]) -> None:
    """Every answer is one of ``allowed`` (never a 5xx); their bodies say no traceback."""
    codes = statuses(answers)
    assert set(codes) <= allowed, [
        (a.status_code, a.text[:300]) for a in answers if a.status_code not in allowed
    ]


def assert_clean_log(site: Site) -> None:
    log = site.all_logs()
    assert "Traceback" not in log, log[-5000:]
    assert "Internal Server Error" not in log, log[-5000:]


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


def queue_clients(site: Site, user: User, kind: str) -> list[httpx.Client]:
    return api_clients(site, user) if kind == "api" else page_clients(site, user, "/play/")


@pytest.mark.parametrize("kind", ["page", "api"])
def test_twenty_joins_at_once_leave_one_entry_and_answer_each(site: Site, kind: str) -> None:
    """The audit's finding: a join re-read its entry after the commit, which a join of the same
    player at the same moment had replaced already: a 500 for a join that had done its work."""
    user = UserFactory()
    start(site)
    clients = queue_clients(site, user, kind)
    for _round in range(ROUNDS):
        answers = at_once(clients, partial(queue_join, kind))
        if kind == "api":
            assert statuses(answers) == [201] * AT_ONCE, [(a.status_code, a.text[:300]) for a in answers]
            assert {answer.json()["status"] for answer in answers} == {"waiting"}
        else:
            assert statuses(answers) == [302] * AT_ONCE, [(a.status_code, a.text[:300]) for a in answers]
            assert {answer.headers["location"] for answer in answers} == {"/play/"}
        entries = list(QueueEntry.objects.filter(user=user))
        assert len(entries) == 1 and entries[0].status == QueueEntry.Status.WAITING
    assert not Game.objects.exists()
    assert_clean_log(site)


@pytest.mark.parametrize("kind", ["page", "api"])
def test_twenty_leaves_at_once_remove_the_entry_once(site: Site, kind: str) -> None:
    user = UserFactory()
    start(site)
    clients = queue_clients(site, user, kind)
    for _round in range(ROUNDS):
        assert queue_join(kind, clients[0]).status_code in (201, 302)
        assert QueueEntry.objects.filter(user=user).count() == 1
        answers = at_once(clients, partial(queue_leave, kind))
        if kind == "api":
            assert statuses(answers) == [200] + [409] * (AT_ONCE - 1)
            assert all(a.json()["code"] == "wrong_status" for a in answers if a.status_code == 409)
        else:
            assert statuses(answers) == [302] * AT_ONCE
        assert not QueueEntry.objects.filter(user=user).exists()
    assert_clean_log(site)
