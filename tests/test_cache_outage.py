"""With the shared Redis cache down, the site keeps working: polls ask the database, the API's
throttles and the log-in's rate limits start again, nothing answers 500."""

import socket
from typing import Any

import pytest
from django.core.cache import caches
from django.test import override_settings

from games import versions
from tests.factories import play_moves, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cache_down() -> Any:
    unreachable = {
        "default": {
            "BACKEND": "durak_site.cache.NamespacedRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.2, "SOCKET_TIMEOUT": 0.2},
        }
    }
    # override_settings(CACHES=...) makes Django drop its cache connections (setting_changed).
    with override_settings(CACHES=unreachable, GAME_VERSION_CACHE_SECONDS=10):
        assert caches["default"].get("anything", "missed") == "missed"
        yield


def test_polls_moves_and_the_api_work_with_the_cache_down(cache_down: None, client: Any) -> None:
    game, users = started_game()
    assert versions.cached(game.pk) is None
    client.force_login(users[0], backend="moderation.backends.ModelBackend")
    poll = client.get(f"/games/{game.pk}/poll/", {"version": game.version}, headers={"HX-Request": "true"})
    assert poll.status_code == 204
    before = game.version
    moved = play_moves(game, users, 1)
    assert moved.version == before + 1
    poll = client.get(f"/games/{game.pk}/poll/", {"version": before}, headers={"HX-Request": "true"})
    assert poll.status_code == 200
    api = client.get(f"/api/games/{game.pk}/")  # throttled view: its counters live in the cache
    assert api.status_code == 200, api.content[:300]
    login = client.post("/accounts/login/", {"login": users[1].username, "password": "wrong"})
    assert login.status_code in (200, 429), login.status_code
