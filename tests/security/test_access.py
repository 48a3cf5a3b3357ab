"""Object-level permissions on every URL: an anonymous visitor and a stranger pointed at other
people's games, seats, moves, chats and notifications get a refusal or a public view, never
data, and change nothing (``tests/security/routes.py`` lists what each URL may answer)."""

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import services

from .routes import LOGIN, ROUTES, UNNAMED, Route
from .world import World, build_world, fingerprint

pytestmark = pytest.mark.django_db


def url_patterns(
    patterns: list[Any] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str | None, URLPattern]]:
    """(route, full name or None, pattern) for every URL pattern of the site."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            name = pattern.name and (f"{namespace}:{pattern.name}" if namespace else pattern.name)
            yield prefix + str(pattern.pattern), name, pattern


SITE_URLS = [(route, name) for route, name, _ in url_patterns() if not route.startswith("admin/")]
ADMIN_URL_NAMES = sorted({name for route, name, _ in url_patterns() if route.startswith("admin/") and name})
PRESENT = sorted(name for _, name in SITE_URLS if name in ROUTES)


def test_every_url_says_who_may_use_it() -> None:
    missing = [
        name or route for route, name in SITE_URLS if (name not in ROUTES if name else route not in UNNAMED)
    ]
    assert not missing, (
        f"URLs without an access expectation: {missing}. Add each to tests/security/routes.py "
        "(who may use it, and the owners' ids to point it at)."
    )
    stale = set(ROUTES) - {name for _, name in SITE_URLS if name}
    assert not stale, f"tests/security/routes.py lists URLs the site no longer has: {sorted(stale)}"


@pytest.fixture
def world() -> World:
    cache.clear()  # API throttles and axes counters from other tests
    return build_world()


def visitors(world: World) -> dict[str, Client]:
    stranger = Client()
    stranger.force_login(world.stranger)
    return {"anonymous": Client(), "stranger": stranger}


def request(client: Client, route: Route, name: str, world: World, target: tuple[dict[str, Any], str]) -> Any:
    kwargs, query = target
    url = reverse(name, kwargs=kwargs) + (f"?{query}" if query else "")
    if route.method == "GET":
        return client.get(url)
    if route.api:
        return client.post(url, json.dumps(route.data(world)), content_type="application/json")
    return client.post(url, route.data(world))


def assert_gives_nothing_away(
    response: Any, world: World, where: str, demo_cards: frozenset[str] = frozenset()
) -> None:
    text = response.content.decode(errors="replace") + " " + response.get("Location", "")
    for what, secret in world.secrets.items():
        assert secret not in text, f"{where}: {what} leaks"
    for card, trace in world.hidden_traces():
        assert card in demo_cards or trace not in text, f"{where}: the hidden card {card} leaks as {trace!r}"


def assert_expected_status(response: Any, expected: frozenset[Any], where: str) -> None:
    if expected == LOGIN:
        assert response.status_code == 302, f"{where}: {response.status_code}, not a redirect to log in"
        assert response["Location"].startswith(reverse("account_login")), (
            f"{where}: to {response['Location']}"
        )
    else:
        assert response.status_code in expected, f"{where}: {response.status_code}, expected {set(expected)}"


@pytest.mark.parametrize("name", PRESENT)
def test_strangers_and_anonymous_visitors_get_no_data_and_change_nothing(name: str, world: World) -> None:
    route = ROUTES[name]
    for who, client in visitors(world).items():
        aimed = [(target, getattr(route, who)) for target in route.targets(world)]
        aimed += [(target, getattr(route, f"{who}_private")) for target in route.private(world)]
        for target, expected in aimed:
            before = fingerprint(world)
            response = request(client, route, name, world, target)
            where = f"{who} {route.method} {name} {target}"
            assert_expected_status(response, expected, where)
            assert_gives_nothing_away(response, world, where, route.demo_cards)
            assert fingerprint(world) == before, f"{where} changed the owners' rows"


def test_the_owner_does_get_what_strangers_are_refused(world: World) -> None:
    """The refusals above are about who asks: the same requests work for the owners."""
    olga = Client()
    olga.force_login(world.olga)
    response = olga.post(reverse("notifications:read", args=[world.notification.pk]))
    assert response.status_code == 302
    world.notification.refresh_from_db()
    assert world.notification.read_at is not None
    report = olga.get(reverse("moderation:report") + f"?message={world.players_message.pk}")
    assert report.status_code == 200
    assert world.secrets["the players' chat"] in report.content.decode()
    world.running.refresh_from_db()
    engine_waits_for = ROUTES["games:move"].data(world)
    mover = world.olga if world.running.seats.get(user=world.olga).awaiting_move else world.boris
    client = Client()
    client.force_login(mover)
    version = world.running.version
    assert client.post(reverse("games:move", args=[world.running.pk]), engine_waits_for).status_code == 302
    world.running.refresh_from_db()
    assert world.running.version == version + 1


def admin_url(name: str, world: World) -> str:
    """The admin URL ``name`` pointed at the owners' rows, where its parameters allow."""
    values = {
        "object_id": str(world.running.pk),
        "app_label": "games",
        "content_type_id": "1",
        "id": str(world.running.pk),
    }
    pattern = next(pattern for route, full, pattern in url_patterns() if full == name)
    params = re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", str(pattern.pattern))
    kwargs = {param: values[param] for pair in params for param in pair if param}
    return reverse(name, kwargs=kwargs)


def test_the_admin_is_for_moderators_only(world: World) -> None:
    assert len(ADMIN_URL_NAMES) > 20, ADMIN_URL_NAMES
    for name in ADMIN_URL_NAMES:
        url = admin_url(name, world)
        for who, client in visitors(world).items():
            before = fingerprint(world)
            response = client.post(url) if name == "admin:logout" else client.get(url)
            where = f"{who} {name}"
            if who == "anonymous":
                assert response.status_code == 302, f"{where}: {response.status_code}"
                assert response["Location"].startswith(reverse("account_login")), where
            else:
                assert response.status_code == 403, f"{where}: {response.status_code}"
            assert_gives_nothing_away(response, world, where)
            assert fingerprint(world) == before, f"{where} changed the owners' rows"


def test_private_games_are_listed_to_nobody_else(world: World) -> None:
    """Not in the lobby, nor in any of the API's lists, for anyone but their players and invitees."""
    stranger = visitors(world)["stranger"]
    assert f"/games/{world.private.pk}/" not in stranger.get(reverse("games:lobby")).content.decode()
    for query in ("", "?open_to_join=true", "?status=open"):
        listed = [game["id"] for game in stranger.get(reverse("api:games") + query).json()["results"]]
        assert world.private.pk not in listed, query
    olga = Client()
    olga.force_login(world.olga)
    assert world.private.pk in [game["id"] for game in olga.get(reverse("api:games")).json()["results"]]
    services.game_invite(user=world.olga, game_id=world.private.pk, username=world.stranger.username)
    listed = [
        game["id"] for game in stranger.get(reverse("api:games") + "?open_to_join=true").json()["results"]
    ]
    assert world.private.pk in listed


def test_debug_is_off_so_errors_show_no_traceback() -> None:
    assert not settings.DEBUG
