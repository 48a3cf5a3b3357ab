"""Each error the API answers with: status, code and message, and that nothing changed."""

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Move
from tests.api.conftest import token_client
from tests.factories import SHORT_DEAL, GameFactory, UserFactory, started_game

pytestmark = pytest.mark.django_db


def post_action(client: APIClient, game: Game, action: dict[str, Any], version: int | None = None) -> Any:
    body = {"action": action, "expected_version": game.version if version is None else version}
    return client.post(f"/api/games/{game.pk}/actions/", body, format="json")


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def assert_unchanged(game: Game) -> None:
    before = (game.version, game.state, Move.objects.filter(game=game).count())
    game.refresh_from_db()
    assert (game.version, game.state, Move.objects.filter(game=game).count()) == before


def test_an_illegal_action_is_400_with_the_engines_message() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    body = assert_error(
        post_action(token_client(users[0]), game, {"type": "attack", "cards": ["7S"]}), 400, "illegal_move"
    )
    assert body["detail"] == "you do not hold 7♠"  # the engine's message in words (durak_site.engine_text)
    assert_unchanged(game)


def test_an_action_out_of_turn_gets_the_engines_message() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    assert post_action(token_client(users[0]), game, {"type": "attack", "cards": ["6S"]}).status_code == 200
    game.refresh_from_db()
    body = assert_error(post_action(token_client(users[0]), game, {"type": "take"}), 400, "illegal_move")
    assert body["detail"]
    assert_unchanged(game)


def test_a_stale_version_is_409() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    assert_error(
        post_action(token_client(users[0]), game, {"type": "attack", "cards": ["6S"]}, game.version - 1),
        409,
        "stale_version",
    )
    assert_unchanged(game)


def test_someone_not_seated_is_403() -> None:
    game, _ = started_game(deal=SHORT_DEAL)
    assert_error(
        post_action(token_client(UserFactory()), game, {"type": "attack", "cards": ["6S"]}),
        403,
        "not_allowed",
    )
    assert_unchanged(game)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "timeout"},
        {"type": "resign"},
        {"type": "attack", "cards": []},
        {"type": "attack", "cards": ["6X"]},
        {"type": "defend", "card": "8S"},
        {"type": "fly"},
        {"type": {}, "card": "6S"},
        "attack",
    ],
)
def test_a_malformed_or_system_action_is_400_and_changes_nothing(action: Any) -> None:
    game, users = started_game(deal=SHORT_DEAL)
    body = assert_error(post_action(token_client(users[0]), game, action), 400, "invalid")
    assert "action" in body["errors"]
    assert_unchanged(game)


def test_a_field_the_action_type_lacks_is_the_engines_to_refuse() -> None:
    """The API checks the declared fields' types; what the engine's ``apply`` refuses (a field
    the type does not have, here) comes back as an illegal move in the engine's words."""
    game, users = started_game(deal=SHORT_DEAL)
    body = assert_error(
        post_action(token_client(users[0]), game, {"type": "attack", "cards": ["6S"], "card": "6S"}),
        400,
        "illegal_move",
    )
    assert body["detail"] == "unexpected field card in a attack action"
    assert_unchanged(game)


def test_a_move_for_another_seat_is_refused() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    assert_error(
        post_action(token_client(users[0]), game, {"type": "attack", "cards": ["6S"], "player": 1}),
        403,
        "not_allowed",
    )
    assert_unchanged(game)


def test_a_missing_version_is_400() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    response = token_client(users[0]).post(
        f"/api/games/{game.pk}/actions/", {"action": {"type": "take"}}, format="json"
    )
    assert "expected_version" in assert_error(response, 400, "invalid")["errors"]


def test_a_move_in_a_game_not_running_is_409() -> None:
    game = GameFactory()
    assert_error(post_action(token_client(game.creator), game, {"type": "take"}), 409, "wrong_status")


def test_no_such_game_is_404() -> None:
    client = token_client(UserFactory())
    for url in ("/api/games/999999/", "/api/games/999999/moves/", "/api/games/999999/wait/?version=0"):
        assert_error(client.get(url), 404, "game_not_found")
    assert_error(client.post("/api/games/999999/join/"), 404, "game_not_found")


def test_without_a_token_every_endpoint_is_401() -> None:
    game = GameFactory()
    anonymous = APIClient()
    for url in ("/api/me/", "/api/games/", f"/api/games/{game.pk}/", f"/api/games/{game.pk}/moves/"):
        assert_error(anonymous.get(url), 401, "not_authenticated")
    assert_error(anonymous.post(f"/api/games/{game.pk}/join/"), 401, "not_authenticated")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert_error(bad.get("/api/me/"), 401, "authentication_failed")


def test_joining_twice_leaving_unseated_and_starting_as_not_creator() -> None:
    game = GameFactory(num_players=3)
    other = UserFactory()
    # Joining again is the same answer; a seat that is not there is the game's state (409).
    assert token_client(game.creator).post(f"/api/games/{game.pk}/join/").status_code == 200
    assert_error(token_client(other).post(f"/api/games/{game.pk}/leave/"), 409, "wrong_status")
    assert token_client(other).post(f"/api/games/{game.pk}/join/").status_code == 200
    assert_error(token_client(other).post(f"/api/games/{game.pk}/start/"), 403, "not_allowed")


def test_joining_a_running_game_is_409() -> None:
    game, _ = started_game()
    assert_error(token_client(UserFactory()).post(f"/api/games/{game.pk}/join/"), 409, "wrong_status")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"preset": "poker", "players": 2}, "invalid", "preset"),
        ({"preset": "classic", "players": 1}, "invalid", "players"),
        ({"preset": "classic", "players": 2, "options": {"colour": "red"}}, "invalid", "options"),
        ({"preset": "classic", "players": 2, "options": {"trump_swap": "always"}}, "invalid", "options"),
        ({"preset": "classic", "players": 2, "time_control": {"minutes": 5}}, "invalid", "time_control"),
        ({"preset": "classic", "players": 7}, "invalid_rules", None),
        ({"preset": "classic", "players": 2, "options": {"hand_size": 40}}, "invalid_rules", None),
    ],
)
def test_creating_a_game_with_bad_input_is_400(body: dict[str, Any], code: str, field: str | None) -> None:
    response = token_client(UserFactory()).post("/api/games/", body, format="json")
    error = assert_error(response, 400, code)
    if field:
        assert field in error["errors"]
    assert not Game.objects.exists()


def test_the_invalid_rules_message_is_the_engines() -> None:
    response = token_client(UserFactory()).post(
        "/api/games/", {"preset": "classic", "players": 2, "options": {"hand_size": 40}}, format="json"
    )
    assert "hand_size" in response.json()["detail"]


def test_too_many_requests_is_429(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "3/min", "ip": "1000/min", "auth": "1000/min"},
    }
    client = token_client(UserFactory())
    for _ in range(3):
        assert client.get("/api/me/").status_code == 200
    assert_error(client.get("/api/me/"), 429, "throttled")
    assert token_client(UserFactory()).get("/api/me/").status_code == 200  # another user has their own count


def test_the_ip_rate_counts_every_user_behind_one_address(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1000/min", "ip": "4/min", "auth": "1000/min"},
    }
    for _ in range(4):
        assert token_client(UserFactory()).get("/api/me/").status_code == 200
    assert_error(token_client(UserFactory()).get("/api/me/"), 429, "throttled")


def test_logging_in_is_throttled_per_address(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1000/min", "ip": "1000/min", "auth": "2/min"},
    }
    client = APIClient()
    for _ in range(2):
        assert (
            client.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json").status_code
            == 400
        )
    assert_error(
        client.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json"), 429, "throttled"
    )


def test_a_body_the_view_cannot_read_is_400_and_changes_nothing() -> None:
    """No Content-Type, or one the view has no parser for: the usual 400 (the schema lists it for
    every call), not DRF's 415."""
    game, users = started_game(deal=SHORT_DEAL)
    client = token_client(users[0])
    body = json.dumps({"action": {"type": "attack", "cards": ["6S"]}, "expected_version": game.version})
    for content_type in ("text/plain", ""):
        response = client.generic("POST", f"/api/games/{game.pk}/actions/", body, content_type=content_type)
        assert_error(response, 400, "unsupported_media_type")
    assert_unchanged(game)
    user = UserFactory()
    response = APIClient().generic(
        "POST", "/api/auth/token/", f"username={user.username}&password=x", content_type=""
    )
    assert_error(response, 400, "unsupported_media_type")
