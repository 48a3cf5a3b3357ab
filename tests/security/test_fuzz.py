"""Fuzzing every form and API body with garbage: never a 5xx, and a 4xx changes nothing.

A player with a running game (Olga, of ``tests.security.world``) posts to every POST URL of
``tests.security.routes`` (and the forms that routes lists by their GET), with the fields each
takes filled from text with control characters, huge and negative numbers, far dates, deep
and huge JSON; and sends every POST/PUT/PATCH operation of the API's schema bodies of random
JSON, raw deep nesting, oversized and malformed text. Each answer is below 500; when it is a
4xx, the rows of every app (games, seats, moves, chat, notifications, accounts, series, stats,
moderation, tournaments) are exactly as before.

Deterministic (``derandomize``) and bounded: per page form, each value of ``SWEEP`` in all
its fields at once and in each field of a valid request alone, then 15 random bodies; 200
random API bodies.
"""

import json
import re
from datetime import date
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.forms import GameCreateForm
from notifications.forms import PreferencesForm, TimeZoneForm

from .routes import ROUTES, Route
from .world import World, build_world

pytestmark = pytest.mark.django_db

HIGH_RATES = {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"}

#: Apps whose rows a refused request must leave alone, and the columns that change on a mere
#: visit (log-in time, a seat's "last seen", a token's last use) and so are not compared.
APPS = (
    "accounts",
    "account",
    "games",
    "chat",
    "notifications",
    "stats",
    "series",
    "replays",
    "moderation",
    "matchmaking",
    "tournaments",
)
VOLATILE = {"last_login", "last_seen_at", "last_used", "last_active_at"}  # a visit writes them

# --- what each form takes ------------------------------------------------------------------------

#: Fields of the page forms, beyond what ``routes.py`` posts (its bodies are a valid request).
FORM_FIELDS: dict[str, list[str]] = {
    "games:create": [*GameCreateForm().fields, "against"],
    "games:move": ["action", "expected_version"],
    "games:join": ["token"],
    "games:invite": ["username"],
    "games:vacation": ["starts_on", "days"],
    "chat:post": ["text"],
    "notifications:read": ["open"],
    "notifications:settings": [*PreferencesForm().fields, *TimeZoneForm().fields],
    "series:rematch_offer": ["games_agreed"],
    "set_language": ["language", "next"],
    "account_login": ["login", "password", "remember"],
    "account_signup": ["username", "email", "password1", "password2"],
    "account_reset_password": ["email"],
    "account_change_password": ["oldpassword", "password1", "password2"],
    "account_email": ["email", "action_add"],
    "moderation:report": ["reason", "details", "message", "user", "game"],
}
#: Forms ``routes.py`` lists by their GET that also take a POST.
POST_TOO = ["account_signup", "account_reset_password", "account_change_password", "account_email"]
#: Never fuzzed: logging out ends the session the other examples run in.
SKIPPED = {"account_logout"}


def page_posts() -> list[str]:
    names = [name for name, route in ROUTES.items() if route.method == "POST" and not route.api]
    return sorted({*names, *(name for name in POST_TOO if name in ROUTES), "moderation:report"} - SKIPPED)


# --- garbage -------------------------------------------------------------------------------------

DEEP = "[" * 200_000
NASTY_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x01\x02\x1f",
    "\x1b[31m",
    "two\nlines\r\n\ttab",
    "\x7f",
    "\ufeff",
    "\u202e",
    "²",
    "٣",
    "NaN",
    "Infinity",
    "1e999",
    "-0",
    "true",
    "none",
    "9" * 30,
    "-" + "9" * 30,
    "9" * 5000,
    "2147483648",
    "32768",
    "9999-12-31",
    "0001-01-01",
    "10000-01-01",
    "2026-02-30",
    "x" * 70_000,
    DEEP,
    "[" * 30 + "]" * 30,
    '{"type": "attack", "cards": ["6S"]}',
    '{"type": "attack", "cards": ["6S\\u0000"]}',
    '{"type": "timeout", "player": 0}',
    '{"type": ' + "[" * 1000 + "]" * 1000 + "}",
    "%00",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "http://evil.example/",
    "//evil.example/",
]
#: Posted in every field of every form at once, one value per request, before the random ones.
SWEEP = [
    "a\x00b",
    "\x1b[31m",
    "9" * 30,
    "-" + "9" * 30,
    "9" * 5000,
    "9999-12-31",
    "10000-01-01",
    "²",
    "1e999",
    "x" * 70_000,
    DEEP,
    '{"type": ' + "[" * 1000 + "]" * 1000 + "}",
]
characters = st.characters(codec="utf-8", max_codepoint=0x10FFFF) | st.characters(max_codepoint=0x20)
nasty = st.sampled_from(NASTY_TEXT)
texts = st.one_of(
    nasty,  # half of the values are picked garbage, the rest random
    nasty,
    nasty,
    st.text(characters, max_size=40),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)).map(date.isoformat),
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    texts.filter(lambda text: len(text) < 1000),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(characters, max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def form_bodies(draw: st.DrawFn, fields: list[str]) -> dict[str, str]:
    """``fields`` or some of them (and now and then a field nobody asked for), with garbage."""
    chosen = fields
    some_only = draw(st.booleans())
    if fields and some_only:
        chosen = draw(st.lists(st.sampled_from(fields), unique=True, max_size=len(fields)))
    body = {field: draw(texts) for field in chosen}
    if draw(st.booleans()):
        body[draw(st.text(characters, min_size=1, max_size=10))] = draw(texts)
    return body


@st.composite
def api_bodies(draw: st.DrawFn, fields: list[str]) -> str:
    """A JSON body: the operation's fields with random JSON, or any JSON, or raw bad text."""
    kind = draw(st.sampled_from(["fields", "fields", "fields", "any", "raw"]))
    if kind == "raw":
        return draw(
            st.sampled_from(
                [
                    DEEP,
                    DEEP[:60_000],
                    '{"a": ' * 30 + "1" + "}" * 30,
                    "x" * 70_000,
                    json.dumps({"pad": "x" * 70_000}),
                    "{",
                    "NaN",
                    '{"action": {"type": "attack\\u0000"}}',
                    '{"name": "\\ud800"}',
                    "\x00",
                    "",
                    "1" * 5000,
                ]
            )
        )
    if kind == "any" or not fields:
        return json.dumps(draw(json_values))
    chosen = fields
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(fields), unique=True, max_size=len(fields)))
    return json.dumps({field: draw(json_values) for field in chosen})


# --- the world and its rows ----------------------------------------------------------------------


def snapshot_query() -> str:
    """One query for a digest of every table of the project's apps, ``(label, md5)`` rows, over
    every column but those a visit may touch: one round trip before and after each request."""
    quote = connection.ops.quote_name
    parts = []
    for model in apps.get_models():
        if model._meta.app_label not in APPS:
            continue
        columns = ", ".join(
            quote(str(field.column)) for field in model._meta.concrete_fields if field.name not in VOLATILE
        )
        parts.append(
            f"SELECT '{model._meta.label}', md5(coalesce(string_agg(ROW({columns})::text, '|' "
            f"ORDER BY {quote(str(model._meta.pk.column))}), '')) FROM {quote(model._meta.db_table)}"
        )
    return " UNION ALL ".join(parts)


def snapshot() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(SNAPSHOT)
        return dict(cursor.fetchall())


@pytest.fixture
def world(settings: Any) -> World:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    settings.CHAT_FLOOD_MESSAGES = 1000
    settings.AXES_ENABLED = False  # failed log-ins are the point here, not lock-outs
    cache.clear()
    return build_world()


SNAPSHOT = snapshot_query()


def player(world: World) -> Client:
    """Olga: seated in the running game, creator of the private one, with a finished series."""
    client = Client()
    client.force_login(world.olga)
    return client


def assert_harmless(response: Any, before: dict[str, Any], where: str) -> None:
    assert response.status_code < 500, f"{where}: {response.status_code}"
    if 400 <= response.status_code < 500:
        after = snapshot()
        changed = [label for label in before if before[label] != after.get(label)]
        assert not changed, f"{where}: a {response.status_code} changed {changed}"


FUZZ = settings(
    max_examples=15,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


# --- the page forms ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", page_posts())
def test_garbage_in_a_page_form_is_never_a_server_error_and_a_refusal_changes_nothing(
    name: str, world: World
) -> None:
    route: Route = ROUTES.get(name) or Route("POST")
    kwargs, query = route.targets(world)[0]
    if name == "moderation:report":
        query = f"message={world.players_message.pk}"
    url = reverse(name, kwargs=kwargs) + (f"?{query}" if query else "")
    fields = sorted({*FORM_FIELDS.get(name, []), *route.data(world)})
    client = player(world)
    valid = {key: str(value) for key, value in route.data(world).items()}
    # Each value of SWEEP in every field at once; then in each field of the valid request alone
    # (so that a check of another field does not refuse it first).
    sweeps = [dict.fromkeys(fields, value) for value in SWEEP]
    sweeps += [{**valid, key: value} for key in valid for value in SWEEP]
    for number, body in enumerate(sweeps):
        before = snapshot()
        response = client.post(url, body, headers={"HX-Request": "true"} if number % 2 else {})
        assert_harmless(response, before, f"POST {url} {body!r:.300}")

    @FUZZ
    @given(body=form_bodies(fields), htmx=st.booleans(), multipart=st.booleans())
    def post_garbage(body: dict[str, str], htmx: bool, multipart: bool) -> None:
        before = snapshot()
        headers = {"HX-Request": "true"} if htmx else {}
        if multipart:
            response = client.post(url, body, headers=headers)
        else:
            form = urlencode(body)
            response = client.post(
                url, form, content_type="application/x-www-form-urlencoded", headers=headers
            )
        assert_harmless(response, before, f"POST {url} {body!r:.300}")

    post_garbage()


# --- the API -------------------------------------------------------------------------------------


def api_operations(world: World) -> list[tuple[str, str, list[str]]]:
    """(method, path, body fields) of every POST/PUT/PATCH operation in the API's schema, with
    ``{game_id}`` aimed at the running game and other ids at 1."""
    schema = Client().get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    operations = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method not in ("post", "put", "patch"):
                continue
            fields: list[str] = []
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            ref = content.get("schema", {}).get("$ref", "")
            if ref:
                fields = sorted(components[ref.rsplit("/", 1)[1]].get("properties", {}))
            concrete = path.replace("{game_id}", str(world.running.pk))
            concrete = re.sub(r"\{\w+\}", "1", concrete)
            operations.append((method, concrete, fields))
    return operations


def test_the_api_schema_has_operations_with_bodies_to_fuzz(world: World) -> None:
    operations = api_operations(world)
    assert ("post", f"/api/games/{world.running.pk}/actions/", ["action", "expected_version"]) in operations
    assert any(path == "/api/games/" and "preset" in fields for _, path, fields in operations)


def test_garbage_api_bodies_are_never_a_server_error_and_a_refusal_changes_nothing(world: World) -> None:
    client = player(world)
    operations = api_operations(world)

    @settings(FUZZ, max_examples=200)
    @given(operation=st.sampled_from(operations), data=st.data())
    def send_garbage(operation: tuple[str, str, list[str]], data: st.DataObject) -> None:
        method, path, fields = operation
        body = data.draw(api_bodies(fields))
        before = snapshot()
        response = getattr(client, method)(path, body, content_type="application/json")
        where = f"{method.upper()} {path} {body!r:.300}"
        assert_harmless(response, before, where)
        if response.status_code >= 400:
            assert response["Content-Type"].startswith("application/json"), f"{where}: not the API's error"
            assert {"detail", "code"} <= set(response.json()), where

    send_garbage()


# --- URL parameters ------------------------------------------------------------------------------

#: Query parameters some page or API list reads (a view ignores those it does not know).
QUERY_PARAMETERS = [
    "version", "vs", "step", "page", "players", "mode", "message", "user", "game", "moves",
    "invite", "channel", "marker", "status", "mine", "open_to_join", "waiting_for_me", "next",
]  # fmt: skip
QUERY_VALUES = ["9" * 30, "-" + "9" * 30, "9" * 5000, "²", "1e999", "x" * 3000, "[" * 3000, "2147483648"]


def test_garbage_in_url_parameters_is_never_a_server_error(world: World, settings: Any) -> None:
    """Every GET address of routes.py (but the long poll) with every parameter set to one
    garbage value at a time: numbers out of any column's range, digits int() refuses, long
    text. (Control characters in a URL are refused before any view, see test_bad_input.)"""
    settings.API_WAIT_SECONDS = 0
    client = player(world)
    for name, route in sorted(ROUTES.items()):
        if route.method != "GET":
            continue
        kwargs, _ = route.targets(world)[0]
        url = reverse(name, kwargs=kwargs)
        for value in QUERY_VALUES:
            response = client.get(url, dict.fromkeys(QUERY_PARAMETERS, value))
            assert response.status_code < 500, f"GET {url} with {value!r:.40}: {response.status_code}"
