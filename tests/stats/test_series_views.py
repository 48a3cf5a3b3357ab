""" "Play again" from a finished game's page: one next game even if both players click."""

import pytest
from django.test import Client

from games.models import Game
from series.models import SeriesGame
from tests.factories import SHORT_DEAL, started_game

from .helpers import play_script

pytestmark = pytest.mark.django_db


def test_play_again_from_the_game_page_makes_one_next_game() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    play_script(
        game,
        users,
        [
            {"type": "attack", "player": 0, "cards": ["6S"]},
            {"type": "defend", "player": 1, "target": "6S", "card": "8S"},
        ],
    )
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    page = clients[0].get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/play-again/"' in page and f"/games/{game.pk}/replay/" in page
    first = clients[0].post(f"/games/{game.pk}/play-again/", {"games_agreed": "3"})
    second = clients[1].post(f"/games/{game.pk}/play-again/")
    assert first.status_code == second.status_code == 302 and first["Location"] == second["Location"]
    following = Game.objects.get(pk=int(first["Location"].strip("/").split("/")[-1]))
    assert following.status == Game.Status.ACTIVE and following.dealer == 0 and not following.first_game
    assert [s.user for s in following.seats.order_by("position")] == users
    entry = SeriesGame.objects.get(game=following)
    assert entry.number == 2 and entry.series.games_agreed == 3
    series_page = Client().get(f"/series/{entry.series_id}/").content.decode()
    assert "1 of 3 played" in series_page
    outsider = Client()
    assert outsider.post(f"/games/{game.pk}/play-again/").status_code == 302  # to the log-in page
    assert SeriesGame.objects.count() == 2
