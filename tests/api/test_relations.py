"""The club over the API (``api/relations.py``): friends, requests, blocks and notes, through
``accounts.relations`` as the pages are; refusals in the usual error body, 404 for a player who
does not exist, authentication required, and nothing of anyone else's relations in an answer."""

from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import relations
from accounts.models import Block, FriendRequest, Friendship, PlayerNote, User
from tests.api.conftest import token_client
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna() -> User:
    return UserFactory(username="anna")


@pytest.fixture
def boris() -> User:
    return UserFactory(username="boris")


def test_a_friend_request_sent_accepted_listed_and_removed(anna: User, boris: User) -> None:
    a, b = token_client(anna), token_client(boris)
    sent = a.post("/api/friend-requests/", {"username": "boris"}, format="json")
    assert sent.status_code == 201
    request_id = sent.json()["request"]["id"]
    assert sent.json()["status"] == "requested"
    lists = b.get("/api/friend-requests/").json()
    assert [r["id"] for r in lists["incoming"]] == [request_id] and lists["outgoing"] == []
    assert [r["id"] for r in a.get("/api/friend-requests/").json()["outgoing"]] == [request_id]

    accepted = b.post(f"/api/friend-requests/{request_id}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["friend"]["username"] == "anna"
    friends = a.get("/api/friends/").json()["results"]
    assert [f["friend"]["username"] for f in friends] == ["boris"]
    assert friends[0]["online"] is True  # presence_to "everyone", active just now

    assert a.delete("/api/friends/boris/").status_code == 204
    assert not Friendship.objects.exists()
    assert b.get("/api/friends/").json()["results"] == []


def test_asking_someone_who_asked_you_makes_friends(anna: User, boris: User) -> None:
    relations.friend_request_send(sender=boris, recipient=anna)
    answer = token_client(anna).post("/api/friend-requests/", {"username": "boris"}, format="json")
    assert answer.status_code == 200 and answer.json() == {"status": "friends", "request": None}
    assert relations.are_friends(anna, boris)


def test_declining_and_cancelling(anna: User, boris: User) -> None:
    a, b = token_client(anna), token_client(boris)
    first = a.post("/api/friend-requests/", {"username": "boris"}, format="json").json()["request"]["id"]
    assert b.post(f"/api/friend-requests/{first}/decline/").status_code == 204
    assert not FriendRequest.objects.exists()
    second = a.post("/api/friend-requests/", {"username": "boris"}, format="json").json()["request"]["id"]
    # Only its sender cancels it, only its recipient answers it.
    refused = b.delete(f"/api/friend-requests/{second}/")
    assert refused.status_code == 400 and refused.json()["code"] == "relation_error"
    assert a.post(f"/api/friend-requests/{second}/accept/").status_code == 400
    assert a.delete(f"/api/friend-requests/{second}/").status_code == 204
    assert not FriendRequest.objects.exists()


def test_refusals_use_the_error_body_and_change_nothing(anna: User) -> None:
    a = token_client(anna)
    yourself = a.post("/api/friend-requests/", {"username": "anna"}, format="json")
    assert yourself.status_code == 400
    assert yourself.json() == {"detail": "You cannot be your own friend.", "code": "relation_error"}
    missing = a.post("/api/friend-requests/", {"username": "nobody"}, format="json")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    invalid = a.post("/api/friend-requests/", {}, format="json")
    assert invalid.status_code == 400 and invalid.json()["code"] == "invalid"
    assert a.post("/api/blocks/", {"username": "anna"}, format="json").status_code == 400
    for url in ("/api/friends/nobody/", "/api/blocks/nobody/", "/api/notes/nobody/"):
        assert a.delete(url).status_code == 404
    assert a.get("/api/notes/nobody/").status_code == 404
    own = a.put("/api/notes/anna/", {"text": "x"}, format="json")
    assert own.status_code == 400 and own.json()["detail"] == "A note is about another player."
    assert not (FriendRequest.objects.exists() or Block.objects.exists() or PlayerNote.objects.exists())


def test_russian_refusals(anna: User) -> None:
    a = token_client(anna)
    answer = a.post("/api/friend-requests/", {"username": "anna"}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 400 and answer.json()["detail"] != "You cannot be your own friend."


def test_blocks_listed_added_and_removed_and_silent(anna: User, boris: User) -> None:
    a, b = token_client(anna), token_client(boris)
    relations.friend_request_send(sender=anna, recipient=boris)
    relations.friend_request_accept(user=boris, request_id=FriendRequest.objects.get().pk)
    made = a.post("/api/blocks/", {"username": "boris"}, format="json")
    assert made.status_code == 201 and made.json()["blocked"]["username"] == "boris"
    assert [row["blocked"]["username"] for row in a.get("/api/blocks/").json()["results"]] == ["boris"]
    assert b.get("/api/blocks/").json()["results"] == []  # Boris cannot tell
    assert not relations.are_friends(anna, boris)  # the block ended the friendship
    # Boris's request to Anna is answered as any other, and she never sees it.
    sent = b.post("/api/friend-requests/", {"username": "anna"}, format="json")
    assert sent.status_code == 201 and sent.json()["status"] == "requested"
    assert a.get("/api/friend-requests/").json()["incoming"] == []
    assert a.delete("/api/blocks/boris/").status_code == 204
    assert not Block.objects.exists()


def test_notes_are_their_authors_alone(anna: User, boris: User) -> None:
    carla = UserFactory(username="carla")
    a, b, c = token_client(anna), token_client(boris), token_client(carla)
    assert a.get("/api/notes/boris/").json() == {"username": "boris", "text": "", "updated_at": None}
    written = a.put("/api/notes/boris/", {"text": "  slow   but fair "}, format="json")
    assert written.status_code == 200 and written.json()["text"] == "slow but fair"
    assert a.get("/api/notes/boris/").json()["text"] == "slow but fair"
    # Nobody else reads it: not the player it is about, not a third player, not in any answer.
    assert b.get("/api/notes/boris/").json()["text"] == ""  # about himself: none
    assert c.get("/api/notes/boris/").json()["text"] == ""
    for client in (b, c):
        for url in ("/api/me/", "/api/friends/", "/api/friend-requests/", "/api/blocks/", "/api/games/"):
            assert "slow but fair" not in client.get(url).content.decode()
    too_long = a.put("/api/notes/boris/", {"text": "x" * (relations.NOTE_MAX + 1)}, format="json")
    assert too_long.status_code == 400 and too_long.json()["code"] == "relation_error"
    assert a.get("/api/notes/boris/").json()["text"] == "slow but fair"
    assert a.put("/api/notes/boris/", {"text": ""}, format="json").json()["text"] == ""
    a.put("/api/notes/boris/", {"text": "again"}, format="json")
    assert a.delete("/api/notes/boris/").status_code == 204
    assert not PlayerNote.objects.exists()


def test_privacy_read_and_changed_as_on_the_settings_page(anna: User, boris: User) -> None:
    a = token_client(anna)
    assert a.get("/api/me/privacy/").json() == {"presence_to": "everyone", "invites_from": "everyone"}
    changed = a.patch("/api/me/privacy/", {"presence_to": "nobody"}, format="json")
    assert changed.status_code == 200
    assert changed.json() == {"presence_to": "nobody", "invites_from": "everyone"}  # left out: kept
    changed = a.patch("/api/me/privacy/", {"invites_from": "friends"}, format="json")
    assert changed.json() == {"presence_to": "nobody", "invites_from": "friends"}
    anna.refresh_from_db()
    assert (anna.presence_to, anna.invites_from) == ("nobody", "friends")
    # The rules read the settings, whichever way they were changed.
    assert relations.presence_of(viewer=boris, subject=anna) is None
    assert not relations.may_invite(inviter=boris, invitee=anna)
    assert token_client(boris).get("/api/me/privacy/").json()["presence_to"] == "everyone"  # own only


def test_a_privacy_value_not_offered_is_refused_and_changes_nothing(anna: User) -> None:
    a = token_client(anna)
    wrong = a.patch("/api/me/privacy/", {"presence_to": "strangers", "invites_from": "nobody"}, format="json")
    assert wrong.status_code == 400
    body = wrong.json()
    assert body["code"] == "invalid" and set(body["errors"]) == {"presence_to", "invites_from"}
    assert all(isinstance(message, str) for messages in body["errors"].values() for message in messages)
    anna.refresh_from_db()
    assert (anna.presence_to, anna.invites_from) == ("everyone", "everyone")


def test_reliability_in_me_and_in_the_seats(anna: User, boris: User) -> None:
    User.objects.filter(pk=anna.pk).update(reliability_games=20, reliability_left=1)
    me = token_client(anna).get("/api/me/").json()
    assert (me["reliability"], me["reliability_games"], me["reliability_left"]) == (95, 20, 1)
    game = GameFactory(creator=anna, num_players=3)
    seats = token_client(boris).get(f"/api/games/{game.pk}/").json()["seats"]
    assert [(s["username"], s["reliability"]) for s in seats] == [("anna", 95)]
    assert token_client(boris).get("/api/me/").json()["reliability"] is None  # new


def test_every_endpoint_wants_a_log_in(anna: User) -> None:
    anonymous = APIClient()
    for method, url in [
        ("get", "/api/friends/"),
        ("delete", "/api/friends/anna/"),
        ("get", "/api/friend-requests/"),
        ("post", "/api/friend-requests/"),
        ("post", "/api/friend-requests/1/accept/"),
        ("post", "/api/friend-requests/1/decline/"),
        ("delete", "/api/friend-requests/1/"),
        ("get", "/api/blocks/"),
        ("post", "/api/blocks/"),
        ("delete", "/api/blocks/anna/"),
        ("get", "/api/notes/anna/"),
        ("put", "/api/notes/anna/"),
        ("delete", "/api/notes/anna/"),
        ("get", "/api/me/privacy/"),
        ("patch", "/api/me/privacy/"),
    ]:
        assert getattr(anonymous, method)(url).status_code == 401, (method, url)


def test_writes_are_throttled_like_the_rest(anna: User, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "3/min", "ip": "100/min", "auth": "100/min"},
    }
    cache.clear()
    a = token_client(anna)
    answers = [a.put("/api/notes/nobody/", {"text": "x"}, format="json").status_code for _ in range(5)]
    assert answers[-1] == 429


def test_the_schema_lists_the_club() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path, methods in {
        "/api/friends/": {"get"},
        "/api/friends/{username}/": {"delete"},
        "/api/friend-requests/": {"get", "post"},
        "/api/friend-requests/{request_id}/": {"delete"},
        "/api/friend-requests/{request_id}/accept/": {"post"},
        "/api/friend-requests/{request_id}/decline/": {"post"},
        "/api/blocks/": {"get", "post"},
        "/api/blocks/{username}/": {"delete"},
        "/api/notes/{username}/": {"get", "put", "delete"},
        "/api/me/privacy/": {"get", "patch"},
    }.items():
        assert methods <= set(paths[path]), path
    assert "reliability" in schema["components"]["schemas"]["User"]["properties"]
    assert "reliability" in schema["components"]["schemas"]["Seat"]["properties"]
    assert settings.REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] == [
        "rest_framework.permissions.IsAuthenticated"
    ]
