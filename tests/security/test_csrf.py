"""CSRF: a POST to any URL of the site without the CSRF token is refused and changes nothing,
even from the logged-in owner whose request it would otherwise be (a forged form on another
site posts with their cookies)."""

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from .routes import ROUTES, Route
from .test_access import PRESENT, SITE_URLS
from .world import World, build_world, fingerprint

pytestmark = pytest.mark.django_db

#: URLs a cross-site POST may reach, and why that is harmless.
CSRF_EXEMPT = {
    "api:token": "answers a token to whoever gives the password; a forged form cannot read the answer",
}


@pytest.fixture
def world() -> World:
    cache.clear()
    return build_world()


def owner_client(world: World, *, enforce: bool) -> Client:
    client = Client(enforce_csrf_checks=enforce)
    client.force_login(world.olga)
    return client


def post(client: Client, name: str, route: Route, world: World) -> Any:
    kwargs, query = route.targets(world)[0]
    url = reverse(name, kwargs=kwargs) + (f"?{query}" if query else "")
    data = route.data(world) if route.method == "POST" else {}
    if route.api:
        return client.post(url, json.dumps(data), content_type="application/json")
    return client.post(url, data)


def test_every_url_is_covered() -> None:
    assert {name for _, name in SITE_URLS if name} - set(ROUTES) == set()
    assert sum(ROUTES[name].method == "POST" for name in PRESENT) >= 20


@pytest.mark.parametrize("name", [name for name in PRESENT if name not in CSRF_EXEMPT])
def test_a_post_without_the_csrf_token_is_refused(name: str, world: World) -> None:
    before = fingerprint(world)
    response = post(owner_client(world, enforce=True), name, ROUTES[name], world)
    assert response.status_code == 403, f"{name}: {response.status_code}"
    if name != "api:docs":  # drf-spectacular's HTML renderer answers a bare "403 Forbidden"
        assert b"CSRF" in response.content, response.content[:300]
    assert fingerprint(world) == before, f"{name} changed something without a CSRF token"


def test_with_the_token_the_same_posts_go_through(world: World) -> None:
    """The refusals above are the CSRF check's: with the cookie's token the owner's posts work."""
    client = owner_client(world, enforce=True)
    client.get(reverse("games:lobby"))  # sets the CSRF cookie, as a page with a form does
    token = client.cookies["csrftoken"].value
    mover = "games:move"
    before = fingerprint(world)
    waiting = world.running.seats.get(user=world.olga).awaiting_move
    if not waiting:
        client.force_login(world.boris)
        client.get(reverse("games:lobby"))
        token = client.cookies["csrftoken"].value
    data = ROUTES[mover].data(world)
    response = client.post(reverse(mover, args=[world.running.pk]), {**data, "csrfmiddlewaretoken": token})
    assert response.status_code == 302, response.content[:300]
    assert fingerprint(world) != before
    api = client.post(
        reverse("api:actions", args=[world.running.pk]),
        json.dumps(ROUTES["api:actions"].data(world)),
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert api.status_code == 200, api.content[:300]


@pytest.mark.parametrize("name", sorted(CSRF_EXEMPT))
def test_the_exempt_urls_change_nothing_of_the_owners(name: str, world: World) -> None:
    before = fingerprint(world)
    response = post(owner_client(world, enforce=True), name, ROUTES[name], world)
    assert response.status_code in (400, 401, 403), response.status_code
    assert fingerprint(world) == before
