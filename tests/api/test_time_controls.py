"""Time controls through the API: created like the page's choices, deadlines shown, late moves refused."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import Game, Move, Seat
from tests.api.conftest import token_client
from tests.factories import LONGER_DEAL, UserFactory, started_game

pytestmark = pytest.mark.django_db


def create(client: Any, time_control: Any, **extra: Any) -> Any:
    return client.post(
        "/api/games/",
        {"preset": "classic", "players": 2, "time_control": time_control, **extra},
        format="json",
    )


def test_a_game_created_with_a_live_time_control_shows_its_deadline_once_dealt() -> None:
    alice, bob = UserFactory(), UserFactory()
    response = create(token_client(alice), {"kind": "live", "seconds": 120})
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["time_control"] == {"kind": "live", "seconds": 120, "pause_weekends": False}
    assert created["deadline"] is None  # nobody is on the clock before the deal
    game = Game.objects.get(pk=created["id"])
    assert game.move_time == timedelta(minutes=2)

    before = timezone.now()
    joined = token_client(bob).post(f"/api/games/{game.pk}/join/")
    assert joined.status_code == 200
    detail = token_client(alice).get(f"/api/games/{game.pk}/").json()
    assert detail["status"] == "active"
    deadline = parse_datetime(detail["deadline"])
    assert deadline is not None
    assert before + timedelta(minutes=2) <= deadline <= timezone.now() + timedelta(minutes=2)
    on_clock = [seat for seat in detail["seats"] if seat["awaiting_move"]]
    assert on_clock and all(parse_datetime(seat["deadline"]) >= deadline for seat in on_clock)
    assert min(parse_datetime(seat["deadline"]) for seat in on_clock) == deadline
    assert all(seat["deadline"] is None for seat in detail["seats"] if not seat["awaiting_move"])
    listed = token_client(alice).get("/api/games/?mine=true").json()["results"]
    assert listed[0]["time_control"] == {"kind": "live", "seconds": 120, "pause_weekends": False}


def test_a_correspondence_game_can_pause_at_weekends() -> None:
    response = create(
        token_client(UserFactory()), {"kind": "correspondence", "seconds": 86400, "pause_weekends": True}
    )
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert (game.move_time, game.pause_weekends, game.time_control) == (
        timedelta(days=1),
        True,
        "correspondence",
    )


@pytest.mark.parametrize("body", [{"time_control": None}, {}], ids=["null", "left out"])
def test_no_time_control(body: dict[str, Any]) -> None:
    response = token_client(UserFactory()).post(
        "/api/games/", {"preset": "classic", "players": 2, **body}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["time_control"] is None and response.json()["deadline"] is None
    assert Game.objects.get(pk=response.json()["id"]).move_time is None


@pytest.mark.parametrize(
    ("time_control", "field"),
    [
        ({"kind": "live", "seconds": 3600}, "seconds"),  # an hour is correspondence
        ({"kind": "correspondence", "seconds": 120}, "seconds"),
        ({"kind": "live", "seconds": 30, "pause_weekends": True}, "pause_weekends"),
        ({"kind": "live", "seconds": 0}, "seconds"),
        ({"kind": "correspondence", "seconds": 31 * 86400}, "seconds"),
        ({"kind": "blitz", "seconds": 30}, "kind"),
        ({"seconds": 30}, "kind"),
    ],
)
def test_a_bad_time_control_is_refused_with_the_field(time_control: dict[str, Any], field: str) -> None:
    response = create(token_client(UserFactory()), time_control)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["errors"]["time_control"]
    assert not Game.objects.exists()


def test_a_late_move_is_refused_with_a_clear_message_and_the_timeout_is_applied() -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=30))
    past = timezone.now() - timedelta(seconds=2)
    Seat.objects.filter(game=game, position=0).update(deadline=past)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    client = token_client(users[0])
    response = client.post(
        f"/api/games/{game.pk}/actions/",
        {"action": {"type": "attack", "cards": ["6S"]}, "expected_version": game.version},
        format="json",
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "time_expired"
    assert body["detail"].startswith("Too late: your time for this move ran out at ")
    assert "the move was not played" in body["detail"]
    assert list(Move.objects.filter(game=game).values_list("position", "action")) == [
        (None, {"type": "timeout", "player": 0})
    ]
    detail = client.get(f"/api/games/{game.pk}/").json()
    assert detail["status"] == "finished" and detail["deadline"] is None
    assert detail["result"]["reason"] == "timeout" and detail["result"]["loser"] == 0
