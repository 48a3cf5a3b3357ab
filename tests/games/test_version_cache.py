"""The table poll answers "nothing changed" from the shared cache without a query, and never
hides a change: every commit that moves a game on publishes its version."""

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import versions
from tests.factories import play_moves, started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def version_cache(settings: Any) -> None:
    settings.GAME_VERSION_CACHE_SECONDS = 10
    cache.clear()


def poll(client: Any, game_id: int, version: int) -> Any:
    return client.get(f"/games/{game_id}/poll/", {"version": version}, headers={"HX-Request": "true"})


def test_an_unchanged_poll_needs_no_query_and_a_move_is_seen_at_once(client: Any) -> None:
    game, users = started_game()
    client.force_login(users[0], backend="moderation.backends.ModelBackend")
    assert versions.cached(game.pk) == game.version  # the deal's commit published it
    # The first poll of a page marks its seat seen (at most every 30 s, notifications.policy);
    # the polls after it, until something changes, ask no database.
    assert poll(client, game.pk, game.version).status_code == 204
    with CaptureQueriesContext(connection) as queries:
        assert poll(client, game.pk, game.version).status_code == 204
    assert len(queries) == 0
    before = game.version
    moved = play_moves(game, users, 1)
    assert versions.cached(game.pk) == moved.version == before + 1
    answer = poll(client, game.pk, before)
    assert answer.status_code == 200 and f'data-version="{moved.version}"' in answer.content.decode()


def test_a_stale_or_missing_cache_entry_falls_back_to_the_database(client: Any) -> None:
    game, users = started_game()
    client.force_login(users[0], backend="moderation.backends.ModelBackend")
    before = game.version
    moved = play_moves(game, users, 1)
    cache.delete(f"game-version:{game.pk}")
    assert poll(client, game.pk, before).status_code == 200
    assert poll(client, moved.pk, moved.version).status_code == 204
    assert poll(client, 999999, 0).status_code == 404


def test_with_the_cache_off_nothing_is_cached(client: Any, settings: Any) -> None:
    settings.GAME_VERSION_CACHE_SECONDS = 0
    game, users = started_game()
    assert versions.cached(game.pk) is None
    client.force_login(users[0], backend="moderation.backends.ModelBackend")
    with CaptureQueriesContext(connection) as queries:
        assert poll(client, game.pk, game.version).status_code == 204
    assert len(queries) >= 1
