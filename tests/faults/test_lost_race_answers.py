"""The net under the services' locks: a write that a unique constraint refused, because a request
at the same moment wrote the row first, is a 409 ("look again"), never a 500; pages, fragments
and the API each get their shape. Any other integrity error stays a bug (a 500).

The refusals here are PostgreSQL's own (a second seat for the same player, inserted by hand
where a service would have locked first), raised from inside the views the site serves.
"""

from typing import Any

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from api.views import GameJoinView
from durak_site.middleware import lost_race
from games import services
from games.models import Game, Seat
from tests.factories import GameFactory, UserFactory, api_token

pytestmark = pytest.mark.django_db

LOOK_AGAIN = "Another request changed this at the same moment"


def second_seat(*, user: Any, game_id: int, **_: Any) -> Game:
    """A join that lost its race: the player's seat is there already (the unique constraint)."""
    with transaction.atomic():
        Seat.objects.create(game_id=game_id, user=Game.objects.get(pk=game_id).creator, position=7)
    raise AssertionError("the database took a second seat")


def test_a_unique_constraints_refusal_is_a_lost_race_and_other_integrity_errors_are_not() -> None:
    game = GameFactory()
    with pytest.raises(IntegrityError) as unique:
        second_seat(user=game.creator, game_id=game.pk)
    assert lost_race(unique.value)
    with pytest.raises(IntegrityError) as check, transaction.atomic():
        Seat.objects.create(game_id=game.pk, user=UserFactory(), position=-1)  # positions are >= 0
    assert not lost_race(check.value)
    assert not lost_race(ValueError("duplicate key"))


def test_the_api_answers_a_lost_race_409_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameFactory(num_players=3)
    monkeypatch.setattr(GameJoinView, "service", staticmethod(second_seat))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(UserFactory())}")
    answer = client.post(f"/api/games/{game.pk}/join/")
    assert answer.status_code == 409
    assert answer.json()["code"] == "conflict" and LOOK_AGAIN in answer.json()["detail"]
    assert game.seats.count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_a_page_answers_a_lost_race_409_in_the_readers_language(
    monkeypatch: pytest.MonkeyPatch, htmx: bool
) -> None:
    game = GameFactory(num_players=3)
    monkeypatch.setattr(services, "game_join", second_seat)
    client = Client()
    client.force_login(UserFactory())
    headers = {"HX-Request": "true"} if htmx else {}
    answer = client.post(f"/games/{game.pk}/join/", headers=headers)
    assert answer.status_code == 409
    page = answer.content.decode()
    assert LOOK_AGAIN in page and ("<html" in page) is not htmx
    reader = Client()
    reader.force_login(UserFactory(language="ru"))
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    russian = reader.post(f"/games/{game.pk}/join/", headers=headers)
    assert russian.status_code == 409
    assert "Другой запрос изменил это в тот же момент" in russian.content.decode()
    assert game.seats.count() == 1
