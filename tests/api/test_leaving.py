"""The API's resign and claim: their own addresses, the game's ``claim``, the logged actions."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, Move, Seat
from tests.factories import LONGER_DEAL, started_game

from .conftest import token_client

pytestmark = pytest.mark.django_db


def stalled(days: float, **kwargs: Any) -> tuple[Game, list[Any]]:
    """LONGER_DEAL, dealt ``days`` ago and waiting for player 0 ever since."""
    game, users = started_game(deal=LONGER_DEAL, **kwargs)
    then = timezone.now() - timedelta(days=days)
    Game.objects.filter(pk=game.pk).update(started_at=then)
    Seat.objects.filter(game=game, turn_started_at__isnull=False).update(turn_started_at=then)
    game.refresh_from_db()
    return game, users


def test_resign_ends_the_game_and_the_log_names_it() -> None:
    game, users = stalled(0)
    client = token_client(users[1])
    answer = client.post(f"/api/games/{game.pk}/resign/", {"expected_version": game.version}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "finished" and body["result"]["reason"] == "resign"
    assert body["result"]["loser"] == 1 and body["claim"] is None
    log = client.get(f"/api/games/{game.pk}/moves/").json()["results"]
    assert log[-1]["action"] == {"type": "resign"} and log[-1]["player"] == 1 and not log[-1]["by_server"]


def test_the_game_says_when_a_claim_is_possible_and_the_claim_ends_it() -> None:
    game, users = stalled(9)
    client = token_client(users[1])
    body = client.get(f"/api/games/{game.pk}/").json()
    assert body["claim"]["possible"] is False and body["claim"]["against"] == [0]
    assert body["view"]["rules"]["claim_after_days"] == 14
    assert token_client(users[0]).get(f"/api/games/{game.pk}/").json()["claim"] is None
    Seat.objects.filter(game=game, awaiting_move=True).update(
        turn_started_at=timezone.now() - timedelta(days=15)
    )
    assert client.get(f"/api/games/{game.pk}/").json()["claim"]["possible"] is True
    answer = client.post(f"/api/games/{game.pk}/claim/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["result"] == {
        "reason": "claim",
        "loser": 0,
        "loser_username": users[0].username,
        "losing_team": None,
        "losers": [0],
        "order_out": [],
        "draw": False,
    }
    entry = client.get(f"/api/games/{game.pk}/moves/").json()["results"][-1]
    assert entry["action"]["type"] == "claim" and entry["action"]["waited"] >= 15 * 86400
    assert entry["events"] == [{"type": "game_over", "reason": "claim", "player": 0, "team": None}]
    again = client.post(f"/api/games/{game.pk}/claim/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "wrong_status"
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    ("case", "message"),
    [("too_early", "waited 14 days"), ("waited_on", "waiting for you"), ("clocked", "with a clock")],
)
def test_a_refused_claim_is_a_400_with_the_engines_words_and_changes_nothing(case: str, message: str) -> None:
    game, users = stalled(
        3 if case == "too_early" else 30, move_time=timedelta(days=20) if case == "clocked" else None
    )
    client = token_client(users[0] if case == "waited_on" else users[1])
    answer = client.post(f"/api/games/{game.pk}/claim/", {"expected_version": game.version}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "illegal_move" and message in answer.json()["detail"]
    assert (
        Game.objects.get(pk=game.pk).version == game.version and not Move.objects.filter(game=game).exists()
    )


def test_a_stale_version_and_a_bad_body_are_refused() -> None:
    game, users = stalled(30)
    client = token_client(users[1])
    stale = client.post(f"/api/games/{game.pk}/claim/", {"expected_version": game.version + 5}, format="json")
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    bad = client.post(f"/api/games/{game.pk}/resign/", {"expected_version": "soon"}, format="json")
    assert bad.status_code == 400 and "expected_version" in bad.json()["errors"]
    assert not Move.objects.filter(game=game).exists()


def test_claim_is_a_system_action_never_sent_as_a_move() -> None:
    game, users = stalled(30)
    answer = token_client(users[1]).post(
        f"/api/games/{game.pk}/actions/",
        {"action": {"type": "claim", "waited": 10**9}, "expected_version": game.version},
        format="json",
    )
    assert answer.status_code == 400 and "applied by the server" in str(answer.json())
    assert not Move.objects.filter(game=game).exists()


def test_the_schema_documents_resign_and_claim() -> None:
    schema = token_client(started_game()[1][0]).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "post" in schema["paths"]["/api/games/{game_id}/resign/"]
    claim = schema["paths"]["/api/games/{game_id}/claim/"]["post"]
    assert "claim_after_days" in claim["description"] and {"200", "400", "403", "409"} <= set(
        claim["responses"]
    )
    assert "claim" in schema["components"]["schemas"]["GameDetail"]["properties"]
    assert "ClaimAction" in str(schema["components"]["schemas"]["LoggedAction"])
