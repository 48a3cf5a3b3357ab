"""A rematch through the API: offer, accept, decline, and the offer's state in the game."""

import pytest
from rest_framework.test import APIClient

from games.models import Game
from series.models import RematchOffer
from tests.factories import UserFactory, started_game
from tests.series.helpers import finished_game

from .conftest import token_client

pytestmark = pytest.mark.django_db


def test_offer_and_accept_start_the_next_game_and_both_see_it() -> None:
    game, (alice, bob) = finished_game()
    a, b = token_client(alice), token_client(bob)
    before = b.get(f"/api/games/{game.pk}/").json()["rematch"]
    assert before["status"] == "none" and before["can_offer"] and before["next_game"] is None

    offered = a.post(f"/api/games/{game.pk}/rematch/", {"games_agreed": 3}, format="json")
    assert offered.status_code == 200
    rematch = offered.json()["rematch"]
    assert rematch["status"] == "open" and rematch["offered_by"] == alice.username
    assert rematch["games_agreed"] == 3 and rematch["expires_at"]
    assert rematch["answers"] == [
        {"username": alice.username, "accepted": True},
        {"username": bob.username, "accepted": False},
    ]
    assert not rematch["can_answer"] and not rematch["can_offer"]
    assert b.get(f"/api/games/{game.pk}/").json()["rematch"]["can_answer"]

    accepted = b.post(f"/api/games/{game.pk}/rematch/accept/")
    assert accepted.status_code == 200
    following = accepted.json()["rematch"]["next_game"]
    assert accepted.json()["rematch"]["status"] == "accepted"
    assert a.get(f"/api/games/{game.pk}/").json()["rematch"]["next_game"] == following
    assert a.get(f"/api/games/{following}/").json()["status"] == "active"


def test_decline_ends_it_and_refusals_are_clear() -> None:
    game, (alice, bob) = finished_game()
    a, b = token_client(alice), token_client(bob)
    assert b.post(f"/api/games/{game.pk}/rematch/accept/").status_code == 409  # nothing offered
    bad = a.post(f"/api/games/{game.pk}/rematch/", {"games_agreed": "abc"}, format="json")
    assert bad.status_code == 400 and not RematchOffer.objects.exists()
    assert a.post(f"/api/games/{game.pk}/rematch/", {"games_agreed": 0}, format="json").status_code == 400
    assert a.post(f"/api/games/{game.pk}/rematch/", {}, format="json").status_code == 200
    again = b.post(f"/api/games/{game.pk}/rematch/", {}, format="json")
    assert again.status_code == 409 and "offered already" in again.json()["detail"]
    stranger = token_client(UserFactory())
    assert stranger.post(f"/api/games/{game.pk}/rematch/accept/").status_code == 403
    declined = b.post(f"/api/games/{game.pk}/rematch/decline/")
    assert declined.status_code == 200
    rematch = declined.json()["rematch"]
    assert rematch["status"] == "declined" and rematch["declined_by"] == bob.username
    assert Game.objects.count() == 1
    assert APIClient().post(f"/api/games/{game.pk}/rematch/").status_code == 401


def test_a_running_game_has_no_rematch() -> None:
    game, users = started_game()
    client = token_client(users[0])
    assert client.get(f"/api/games/{game.pk}/").json()["rematch"] is None
    assert client.post(f"/api/games/{game.pk}/rematch/", {}, format="json").status_code == 409


def test_the_schema_names_the_rematch() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert "/api/games/{game_id}/rematch/" in paths
    assert (
        "/api/games/{game_id}/rematch/accept/" in paths and "/api/games/{game_id}/rematch/decline/" in paths
    )
    assert "rematch" in schema["components"]["schemas"]["GameDetail"]["properties"]
    assert "games_agreed" in schema["components"]["schemas"]["RematchOfferRequest"]["properties"]
