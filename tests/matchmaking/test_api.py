"""``/api/queue/``: see, join and leave the play-now queue; in the OpenAPI schema."""

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import Game, Seat
from matchmaking.models import QueueEntry
from tests.factories import UserFactory, api_token

pytestmark = pytest.mark.django_db

URL = "/api/queue/"
JOIN = {"preset": "classic", "players": 2, "time_control": "30s"}


@pytest.fixture(autouse=True)
def _high_rates(settings: Any) -> None:
    rates = {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


def test_nobody_waiting() -> None:
    body = client_of(UserFactory()).get(URL).json()
    assert body["status"] == "none"
    assert body["game"] is None and body["queue"] == [] and body["waiting_with"] == []
    assert body["online"] == 1  # the caller, just now


def test_join_wait_and_be_matched() -> None:
    alice, bob = UserFactory.create_batch(2)
    alice_api, bob_api = client_of(alice), client_of(bob)
    response = alice_api.post(URL, {**JOIN, "fill_after_seconds": 60}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "waiting"
    assert (body["preset"], body["players"], body["time_control"]) == ("classic", 2, "30s")
    assert body["fill_after_seconds"] == 60 and body["bot_level"] == "rules"
    assert bob_api.get(URL).json()["queue"] == [
        {"preset": "classic", "players": 2, "time_control": "30s", "waiting": 1}
    ]
    body = bob_api.post(URL, JOIN, format="json").json()
    game = Game.objects.get()
    assert body["status"] == "matched" and body["game"] == game.pk
    assert alice_api.get(URL).json()["game"] == game.pk
    assert Seat.objects.filter(game=game).count() == 2


def test_who_waits_with_you_and_leaving() -> None:
    alice, bob = UserFactory.create_batch(2)
    client_of(alice).post(URL, {**JOIN, "players": 3}, format="json")
    bob_api = client_of(bob)
    body = bob_api.post(URL, {**JOIN, "players": 3}, format="json").json()
    assert body["waiting_with"] == [{"username": alice.username, "name": alice.name, "online": True}]
    response = bob_api.delete(URL)
    assert response.status_code == 200 and response.json()["status"] == "none"
    response = bob_api.delete(URL)
    assert response.status_code == 409
    assert response.json() == {"detail": "You are not waiting for a game.", "code": "wrong_status"}
    assert list(QueueEntry.objects.values_list("user_id", flat=True)) == [alice.pk]


@pytest.mark.parametrize(
    "body",
    [
        {**JOIN, "preset": "nonsense"},
        {**JOIN, "players": 7},
        {**JOIN, "time_control": "5m"},
        {**JOIN, "fill_after_seconds": -1},
        {**JOIN, "fill_after_seconds": 7200},
        {**JOIN, "bot_level": "genius"},
        {"preset": "classic"},
    ],
)
def test_a_bad_request_is_a_400_and_changes_nothing(body: dict[str, Any]) -> None:
    response = client_of(UserFactory()).post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert not QueueEntry.objects.exists()


def test_rules_that_do_not_seat_that_many_are_a_400_with_the_engines_words() -> None:
    response = client_of(UserFactory()).post(URL, {**JOIN, "preset": "durak24", "players": 6}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_rules"


def test_it_needs_a_caller() -> None:
    assert APIClient().get(URL).status_code == 401
    assert APIClient().post(URL, JOIN, format="json").status_code == 401


def test_the_schema_has_the_queue() -> None:
    schema = client_of(UserFactory()).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operations = schema["paths"]["/api/queue/"]
    assert set(operations) >= {"get", "post", "delete"}
    assert operations["post"]["tags"] == ["play now"]
    assert "QueueJoinRequest" in schema["components"]["schemas"]
    assert "fill_after_seconds" in schema["components"]["schemas"]["QueueJoinRequest"]["properties"]
