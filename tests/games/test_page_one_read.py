"""A game page is rendered from one read of the game: a move committed while the page is being
read shows on the next page, never half on this one (the old table with the new last move).

The move is committed by another connection right after the page's first read of the game's
row, as a player's move that lands at that moment would be.
"""

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def first_move(game: Game, users: list[Any]) -> None:
    """The first legal action of the player the game waits for, from another connection."""

    def move() -> None:
        try:
            fresh = Game.objects.get(pk=game.pk)
            engine = fresh.engine()
            player = engine.waiting_for()[0]
            services.make_move(
                user=users[player],
                game_id=game.pk,
                action=engine.legal_json(player)[0],
                expected_version=fresh.version,
            )
        finally:
            connections.close_all()

    thread = threading.Thread(target=move)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive()


def table(client: Client, game: Game) -> str:
    """The table partial as a spectator's poll fetches it, without its per-request token."""
    response = client.get(reverse("games:detail", args=[game.pk]), headers=HTMX)
    assert response.status_code == 200
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def after_the_first_read_of(table_name: str, then: Callable[[], None]) -> Any:
    """A query wrapper that runs ``then`` once, right after the first query reading ``table_name``."""
    done = []

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        if not done and sql.lstrip().upper().startswith("SELECT") and f'FROM "{table_name}"' in sql:
            done.append(True)
            then()
        return result

    return wrapper


def test_a_move_committed_during_the_read_is_not_half_on_the_page() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    spectator = Client()  # a public game: no seat to mark seen, nothing written by the page
    before = table(spectator, game)
    assert "Last move" not in before

    with connection.execute_wrapper(after_the_first_read_of("games_game", lambda: first_move(game, users))):
        during = table(spectator, game)
    game.refresh_from_db()
    assert game.moves.count() == 1  # the move did land while the page was read
    after = table(spectator, game)
    assert "Last move" in after

    # The page read during the move is the page before it, whole: not its table with the new
    # last-move line and history.
    assert during == before
