"""Each endpoint's happy path: auth, lists and their filters, seats, moves, the long poll."""

import json
import threading
import time
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import services
from games.models import Game
from tests.api.conftest import token_client
from tests.factories import PASSWORD, SHORT_DEAL, GameFactory, UserFactory, play_moves, started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded"])
def test_a_token_for_a_username_and_password(content_type: str) -> None:
    user = UserFactory()
    credentials = {"username": user.username, "password": PASSWORD}
    body = json.dumps(credentials) if content_type == "application/json" else urlencode(credentials)
    response = APIClient().post("/api/auth/token/", body, content_type=content_type)
    assert response.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/me/").json()["username"] == user.username


def test_a_wrong_password_gets_no_token() -> None:
    user = UserFactory()
    response = APIClient().post(
        "/api/auth/token/", {"username": user.username, "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert "token" not in response.json()


def test_the_browser_session_works_and_needs_csrf_for_writes() -> None:
    user = UserFactory()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get("/api/me/").status_code == 200
    response = client.post("/api/games/", {"preset": "classic", "players": 2}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_me_counts_the_games_waiting_for_me() -> None:
    _, users = started_game(deal=SHORT_DEAL)
    assert token_client(users[0]).get("/api/me/").json()["games_waiting"] == 1
    assert token_client(users[1]).get("/api/me/").json()["games_waiting"] == 0


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


def test_the_list_filters() -> None:
    me = UserFactory()
    waiting, _ = started_game(deal=SHORT_DEAL)  # seat 0 (the creator) moves first
    services.game_join(user=me, game_id=(mine_open := GameFactory(num_players=3)).pk)
    joinable = GameFactory(num_players=2)
    full_of_others, _ = started_game()
    my_turn = GameFactory(creator=me, num_players=2, deal=SHORT_DEAL)
    services.game_join(user=UserFactory(), game_id=my_turn.pk)
    client = token_client(me)
    assert ids(client.get("/api/games/?mine=true")) == [my_turn.pk, mine_open.pk]
    assert ids(client.get("/api/games/?waiting_for_me=true")) == [my_turn.pk]
    assert ids(client.get("/api/games/?open_to_join=true")) == [joinable.pk]
    assert ids(client.get("/api/games/?status=active")) == [my_turn.pk, full_of_others.pk, waiting.pk]
    assert ids(client.get("/api/games/?status=open&mine=true")) == [mine_open.pk]
    assert client.get("/api/games/?status=nonsense").status_code == 400
    assert client.get("/api/games/?mine=perhaps").status_code == 400


def test_lists_are_paginated() -> None:
    creator = UserFactory()
    for _ in range(5):
        GameFactory(creator=creator)
    client = token_client(creator)
    first = client.get("/api/games/?page_size=2").json()
    assert first["count"] == 5 and len(first["results"]) == 2 and first["next"]
    last = client.get("/api/games/?page_size=2&page=3").json()
    assert len(last["results"]) == 1 and last["next"] is None
    assert client.get("/api/games/?page=99").status_code == 404


def test_creating_a_game_seats_its_creator_and_the_last_join_deals() -> None:
    creator, second, third = UserFactory.create_batch(3)
    response = token_client(creator).post(
        "/api/games/",
        {
            "preset": "perevodnoy",
            "players": 3,
            "options": {"max_attack": None, "transfer": True},
            "time_control": None,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["status"] == "open" and game["view"] is None and game["position"] == 0
    assert game["rules"]["transfer"] is True and game["rules"]["max_attack"] is None
    assert [seat["username"] for seat in game["seats"]] == [creator.username]
    assert token_client(second).post(f"/api/games/{game['id']}/join/").json()["status"] == "open"
    dealt = token_client(third).post(f"/api/games/{game['id']}/join/").json()
    assert dealt["status"] == "active" and dealt["position"] == 2 and len(dealt["view"]["hand"]) == 6
    assert dealt["deadline"] is None and dealt["result"] is None


def test_the_creator_may_start_early_and_leaving_cancels() -> None:
    game = GameFactory(num_players=4)
    services.game_join(user=UserFactory(), game_id=game.pk)
    started = token_client(game.creator).post(f"/api/games/{game.pk}/start/").json()
    assert started["status"] == "active" and started["num_players"] == 2
    other = GameFactory()
    assert token_client(other.creator).post(f"/api/games/{other.pk}/leave/").json()["status"] == "aborted"


def test_legal_actions_are_the_callers_without_player() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    attacker = token_client(users[0]).get(f"/api/games/{game.pk}/").json()
    assert attacker["legal_actions"] == [
        {"type": "attack", "cards": ["6S"]},
        {"type": "attack", "cards": ["7H"]},
    ]
    assert token_client(users[1]).get(f"/api/games/{game.pk}/").json()["legal_actions"] == []
    spectator = token_client(UserFactory()).get(f"/api/games/{game.pk}/").json()
    assert (
        spectator["position"] is None and spectator["view"]["hand"] == [] and spectator["legal_actions"] == []
    )


def test_a_move_answers_with_the_new_view_and_the_game_ends_with_a_result() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    first = token_client(users[0]).post(
        f"/api/games/{game.pk}/actions/",
        {"action": {"type": "attack", "cards": ["6S"]}, "expected_version": game.version},
        format="json",
    )
    assert first.status_code == 200
    assert first.json()["view"]["table"] == [["6S", None]]
    last = (
        token_client(users[1])
        .post(
            f"/api/games/{game.pk}/actions/",
            {
                "action": {"type": "defend", "target": "6S", "card": "8S"},
                "expected_version": first.json()["version"],
            },
            format="json",
        )
        .json()
    )
    assert last["status"] == "finished"
    assert last["result"] == {
        "reason": "cards",
        "loser": 0,
        "loser_username": users[0].username,
        "losing_team": None,
        "losers": [0],
        "order_out": [1],
        "draw": False,
    }
    assert [seat["result"] for seat in last["seats"]] == ["fool", "out"]


def test_the_move_log_is_public_and_paginated() -> None:
    game, users = started_game(players=2, seed=3)
    game = play_moves(game, users, 5)
    log = token_client(UserFactory()).get(f"/api/games/{game.pk}/moves/?page_size=3").json()
    assert log["count"] == 5 and [move["seq"] for move in log["results"]] == [1, 2, 3]
    for move in log["results"]:
        assert "player" not in move["action"] and move["by_server"] is False
        assert move["player"] in (0, 1)


def test_wait_answers_at_once_when_the_version_moved_and_204_when_not() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    client = token_client(users[1])
    assert (
        client.get(f"/api/games/{game.pk}/wait/?version={game.version - 1}").json()["version"] == game.version
    )
    began = time.monotonic()
    assert client.get(f"/api/games/{game.pk}/wait/?version={game.version}").status_code == 204
    assert 0.25 <= time.monotonic() - began < 2
    assert client.get(f"/api/games/{game.pk}/wait/").status_code == 400


@pytest.mark.django_db(transaction=True)
def test_wait_wakes_up_when_another_player_moves(settings: Any) -> None:
    settings.API_WAIT_SECONDS = 10
    game, users = started_game(deal=SHORT_DEAL)
    answers: list[Any] = []

    def wait() -> None:
        try:
            answers.append(token_client(users[1]).get(f"/api/games/{game.pk}/wait/?version={game.version}"))
        finally:
            connection.close()

    waiter = threading.Thread(target=wait)
    began = time.monotonic()
    waiter.start()
    time.sleep(0.3)
    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    waiter.join(timeout=10)
    assert answers and answers[0].status_code == 200
    assert answers[0].json()["view"]["table"] == [["6S", None]]
    assert time.monotonic() - began < 3


def test_schema_and_docs_are_served() -> None:
    client = APIClient()
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/games/{game_id}/actions/" in paths
    assert client.get("/api/docs/").status_code == 200
    assert Game.objects.count() == 0
