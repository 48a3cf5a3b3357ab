"""The API's side of "don't wait for me to throw in": posted like a move, shown in the view,
typed in the move log; bad values are a 400 that changes nothing."""

import pytest

from games.models import Move
from tests.api.conftest import token_client
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


def test_auto_pass_is_posted_like_a_move_and_shows_in_the_view_and_the_log() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client = token_client(users[1])
    answer = client.post(
        f"/api/games/{game.pk}/actions/",
        {"action": {"type": "auto_pass", "on": True}, "expected_version": game.version},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["view"]["auto_pass"] == [1] and body["view"]["format"] == 2
    assert all(action["type"] != "auto_pass" for action in body["legal_actions"])
    (entry,) = client.get(f"/api/games/{game.pk}/moves/").json()["results"]
    assert entry["action"] == {"type": "auto_pass", "on": True} and entry["player"] == 1
    assert token_client(users[0]).get(f"/api/games/{game.pk}/").json()["view"]["auto_pass"] == [1]


@pytest.mark.parametrize("action", [{"type": "auto_pass"}, {"type": "auto_pass", "on": "maybe"}])
def test_a_bad_auto_pass_is_refused(action: dict[str, object]) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    answer = token_client(users[1]).post(
        f"/api/games/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
    )
    assert answer.status_code == 400
    assert not Move.objects.filter(game=game).exists()


def test_setting_it_twice_is_an_illegal_move() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    client = token_client(users[1])
    first = client.post(
        f"/api/games/{game.pk}/actions/",
        {"action": {"type": "auto_pass", "on": True}, "expected_version": game.version},
        format="json",
    ).json()
    again = client.post(
        f"/api/games/{game.pk}/actions/",
        {"action": {"type": "auto_pass", "on": True}, "expected_version": first["version"]},
        format="json",
    )
    assert again.status_code == 400 and again.json()["code"] == "illegal_move"
    assert "already does not wait" in again.json()["detail"]
