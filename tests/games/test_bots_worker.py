"""A game against the computer played to the end through the pages, with a real Celery worker
(a subprocess on Redis and the test database) making every move of the bots."""

import json
import re
import time

from django.test import Client
from django.urls import reverse

from games.models import Game, Move, Seat
from tests.celery_processes import CeleryEnv, celery_env
from tests.factories import UserFactory
from tests.games.helpers import action_buttons, assert_no_hidden_cards, version_on_page

__all__ = ["celery_env"]  # the fixture, imported for the test below


def test_a_game_against_two_search_bots_is_played_to_the_end_through_the_pages(celery_env: CeleryEnv) -> None:
    celery_env.start_worker(concurrency=2)
    human = UserFactory()
    client = Client()
    client.force_login(human)
    response = client.post(
        reverse("games:create"),
        {"preset": "classic", "num_players": "3", "bot_level": "search", "against": "computer"},
    )
    assert response.status_code == 302
    game = Game.objects.get(creator=human)
    assert game.status == Game.Status.ACTIVE
    url = reverse("games:detail", args=[game.pk])
    human_moves = checked = 0
    deadline = time.monotonic() + 480  # a generous wait for a loaded machine, not a speed bound
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        response = client.get(url)
        page = response.content.decode()
        match = re.search(r'data-version="(\d+)"', page)
        assert match, f"the page shows no version ({response.status_code}): {page[:3000]}"
        shown = int(match.group(1))
        game.refresh_from_db()
        if game.version == shown:  # else a bot moved meanwhile: the state is not the page's
            assert_no_hidden_cards(page, game.engine(), 0, game)
            checked += 1
        actions = action_buttons(page)
        if not actions:
            time.sleep(0.05)  # the bots' turn: the worker moves them
            continue
        version = version_on_page(page)
        response = client.post(
            reverse("games:move", args=[game.pk]),
            {"action": json.dumps(actions[0]), "expected_version": str(version)},
        )
        # 302: played; 409: a bot moved between the page and the post (a stale version).
        assert response.status_code in (302, 409), response.content.decode()[:500]
        human_moves += response.status_code == 302
    final = client.get(url).content.decode()
    assert ">Result</h2>" in final and final.count('class="bot-badge"') >= 2
    bot_moves = Move.objects.filter(game=game, position__in=[1, 2]).count()
    assert human_moves > 0 and bot_moves > 0 and checked > 0
    assert Move.objects.filter(game=game, position__isnull=True).count() == 0  # no timeouts, no server moves
    assert Seat.objects.filter(game=game).exclude(result="").count() == 3
    assert "Task games.tasks.bot_move[" in celery_env.log("worker")
