"""Profile, leaderboard, series and replay pages cost a fixed number of queries, whatever the
number of games: they read aggregated rows and prefetch, never loop over games."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.models import Game
from series.models import SeriesGame
from series.services import start_next_game
from tests.factories import UserFactory, started_game

from .helpers import time_out

pytestmark = pytest.mark.django_db

# 12, one for the header's count of games waiting for my move (games.context_processors), and on
# a profile one for the viewer's own private note about the player (accounts.relations.notes_by),
# one for what the reader has to do with the player (club.selectors.standing) and one for the
# player's tournament places (tournaments.selectors.podium_of).
MAX_QUERIES = 16


def grow_series(last: Game, user: Any, games: int) -> Game:
    for _ in range(games):
        last = time_out(start_next_game(user=user, game_id=last.pk, games_agreed=400))
    return last


def page_queries(client: Client, urls: list[str]) -> list[int]:
    counts = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        counts.append(len(queries))
    return counts


def test_pages_cost_the_same_queries_with_two_games_and_with_two_hundred(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    game, users = started_game(move_time=timedelta(minutes=5))
    me, other = users
    last = grow_series(time_out(game), me, 1)
    series_id = SeriesGame.objects.get(game=last).series_id
    viewer = UserFactory()
    client.force_login(viewer)
    urls = [
        f"/players/{me.username}/?vs={other.username}",
        "/leaderboard/",
        "/leaderboard/?mode=throw_in&players=2",
        f"/series/{series_id}/",
        f"/games/{last.pk}/replay/?step=1",
    ]
    few = page_queries(client, urls)

    last = grow_series(last, me, 199)
    assert Game.objects.filter(seats__user=me, status=Game.Status.FINISHED).count() == 201
    # Growing the series may take over a minute: the viewer is seen again now, as in the first run
    # (presence writes at most once a minute, accounts.presence; the comparison is of the pages).
    User.objects.filter(pk=viewer.pk).update(last_active_at=timezone.now())
    many = page_queries(client, urls)
    assert many == few
    for url in urls:
        with django_assert_max_num_queries(MAX_QUERIES):
            client.get(url)
    page = client.get(f"/series/{series_id}/").content.decode()
    assert page.count("<tr>") >= 201
    profile = client.get(f"/players/{me.username}/").content.decode()
    assert "201" in profile
