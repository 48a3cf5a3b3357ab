"""Drill: the same move posted twice (a double click, a client's retry) is applied once.

``tests/games/test_concurrency.py`` races two calls of the service in one process; here the
two requests go through the real server side by side (ASGI: each request's view in a thread
of its own, with its own database connection), from the page (plain and htmx) and from the API, and then once
more after the first succeeded, as a retry would. The second is answered 409 with the
"the game has moved on" message (the API's ``stale_version`` code), never a 500.
"""

import json
import threading
from typing import Any

import httpx
import pytest

from games.models import Move
from tests.factories import LONGER_DEAL, started_game

from .conftest import Site
from .snapshots import assert_consistent

ATTACK = {"type": "attack", "cards": ["6S"]}


def post(kind: str, client: httpx.Client, game_id: int, version: int) -> httpx.Response:
    if kind == "api":
        return client.post(
            f"/api/games/{game_id}/actions/", json={"expected_version": version, "action": ATTACK}
        )
    headers = {"HX-Request": "true"} if kind == "htmx" else {}
    return client.post(
        f"/games/{game_id}/move/",
        data={"expected_version": str(version), "action": json.dumps(ATTACK)},
        headers=headers,
    )


def assert_stale(kind: str, response: httpx.Response) -> None:
    assert response.status_code == 409, (response.status_code, response.text[:500])
    if kind == "api":
        assert response.json()["code"] == "stale_version"
    else:
        assert "moved on since you looked" in response.text


@pytest.mark.parametrize("kind", ["page", "htmx", "api"])
def test_the_same_move_twice_at_once_and_again_later_is_applied_once(site: Site, kind: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    version = game.version
    site.start()
    clients = [
        site.api_client(users[0]) if kind == "api" else site.page_client(users[0], game.pk) for _ in range(2)
    ]
    success = {"page": 302, "htmx": 200, "api": 200}[kind]
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def click(client: httpx.Client) -> None:
        barrier.wait(timeout=10)
        try:
            answers.append(post(kind, client, game.pk, version))
        except httpx.HTTPError as error:
            answers.append(error)

    threads = [threading.Thread(target=click, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answer.status_code for answer in answers) == sorted([success, 409]), answers
    assert_stale(kind, next(answer for answer in answers if answer.status_code == 409))

    retry = post(kind, clients[0], game.pk, version)  # the first one succeeded; this is a retry
    assert_stale(kind, retry)

    game.refresh_from_db()
    assert game.version == version + 1
    assert list(Move.objects.filter(game=game).values_list("action", flat=True)) == [{**ATTACK, "player": 0}]
    assert_consistent(game.pk)
    assert "Traceback" not in site.log()
