""" "Play again" is a rematch by consent: from a finished game's page, one next game even if
both players click, and only once both have agreed."""

import pytest
from django.test import Client

from games.models import Game
from series.models import SeriesGame
from tests.factories import SHORT_DEAL, started_game

from .helpers import play_script

pytestmark = pytest.mark.django_db


def test_a_rematch_from_the_game_page_makes_one_next_game() -> None:
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
    assert f'action="/games/{game.pk}/rematch/offer/"' in page and f"/games/{game.pk}/replay/" in page
    assert "play-again" not in page
    assert clients[0].post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": "3"}).status_code == 302
    assert Game.objects.count() == 1  # nobody is seated before they agree
    # Both click "accept" (the offerer has accepted by offering): one next game.
    first = clients[1].post(f"/games/{game.pk}/rematch/accept/")
    second = clients[0].post(f"/games/{game.pk}/rematch/accept/")
    assert first.status_code == second.status_code == 302
    assert Game.objects.count() == 2
    following = Game.objects.exclude(pk=game.pk).get()
    assert following.status == Game.Status.ACTIVE and following.dealer == 0 and not following.first_game
    assert [s.user for s in following.seats.order_by("position")] == users
    entry = SeriesGame.objects.get(game=following)
    assert entry.number == 2 and entry.series.games_agreed == 3
    series_page = Client().get(f"/series/{entry.series_id}/").content.decode()
    assert "1 of 3 played" in series_page
    outsider = Client()
    assert outsider.post(f"/games/{game.pk}/rematch/offer/").status_code == 302  # to the log-in page
    assert SeriesGame.objects.count() == 2
