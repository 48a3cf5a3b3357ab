"""Content-Security-Policy: every answer carries the policy, and no page the site renders needs
an exception to it (no inline <script> or <style>, no on*= handler, no style= attribute, no
javascript: URL). The browser's side is tests/security/test_csp_browser.py."""

import contextlib
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import NoReverseMatch, reverse

from games import services
from games.models import Game
from moderation import services as moderation_services

from .world import World, build_world

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "base-uri": "'self'",
    "object-src": "'none'",
}
#: <script type=...> that a browser does not run (data for a script file to read).
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}


def policy_of(response: Any) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    directives = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {directive[0]: directive[1] if len(directive) > 1 else "" for directive in directives}


class InlineCode(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would refuse."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        position = f"line {self.getpos()[0]}"
        if tag == "script" and "src" not in names and (names.get("type") or "") not in DATA_SCRIPT_TYPES:
            self.found.append(f"inline <script> at {position}")
        if tag == "style":
            self.found.append(f"inline <style> at {position}")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...> at {position}")
            if name == "style":
                self.found.append(f'<{tag} style="{value}"> at {position}')
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}=javascript:...> at {position}")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found


def test_the_check_finds_each_kind_of_inline_code() -> None:
    page = (
        '<script>alert(1)</script><script src="/static/x.js"></script><script type="application/json">{}</script>'
        '<style>p{}</style><button onclick="go()">x</button><p style="color:red">y</p><a href="javascript:go()">z</a>'
        '<form hx-on::after-request="x"></form>'
    )
    assert len(inline_code(page)) == 5, inline_code(page)


@pytest.fixture
def world() -> World:
    cache.clear()
    return build_world()


def client_for(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


HTMX = {"HX-Request": "true"}


def pages(world: World) -> list[tuple[str, Client, str, dict[str, str]]]:
    """(what, client, URL, headers): every page template a seeded site shows, as its users see it."""
    olga, anonymous = client_for(world.olga), client_for()
    moderator = world.stranger
    moderation_services.moderator_grant(user=moderator, actor=None, reason="CSP test")
    mod = client_for(moderator)
    aborted = services.game_create(creator=world.boris, preset="classic", num_players=2)
    services.game_leave(user=world.boris, game_id=aborted.pk)
    assert Game.objects.get(pk=aborted.pk).status == Game.Status.ABORTED
    games = {
        "open": world.private.pk,
        "active": world.running.pk,
        "finished": world.finished.pk,
        "aborted": aborted.pk,
    }
    found: list[tuple[str, Client, str, dict[str, str]]] = [
        ("lobby", anonymous, reverse("games:lobby"), {}),
        ("lobby, logged in", olga, reverse("games:lobby"), {}),
        ("log in", anonymous, reverse("account_login"), {}),
        ("sign up", anonymous, reverse("account_signup"), {}),
        ("password reset", anonymous, reverse("account_reset_password"), {}),
        ("account email", olga, reverse("account_email"), {}),
        ("leaderboard", anonymous, reverse("stats:leaderboard"), {}),
        ("profile", anonymous, reverse("stats:profile", args=[world.olga.username]), {}),
        ("profile vs", olga, reverse("stats:profile", args=[world.boris.username]) + "?vs=olga", {}),
        ("notifications", olga, reverse("notifications:list"), {}),
        ("settings", olga, reverse("notifications:settings"), {}),
        ("API tokens", olga, reverse("accounts:api_tokens"), {}),
        ("series", olga, reverse("series:detail", args=[world.series_id]), {}),
        ("replay", anonymous, reverse("replays:replay", args=[world.finished.pk]), {}),
        ("replay step 1", anonymous, reverse("replays:replay", args=[world.finished.pk]) + "?step=1", {}),
        ("chat page", olga, reverse("chat:log", args=[world.running.pk]), {}),
        ("chat log partial", olga, reverse("chat:log", args=[world.running.pk]), HTMX),
        ("report", olga, reverse("moderation:report") + f"?game={world.running.pk}", {}),
        ("farming list", mod, reverse("stats:farming"), {}),
        ("admin index", mod, reverse("admin:index"), {}),
        ("admin games", mod, reverse("admin:games_game_changelist"), {}),
        ("admin game", mod, reverse("admin:games_game_change", args=[world.running.pk]), {}),
        ("API docs", anonymous, reverse("api:docs"), {}),
        ("not found", anonymous, "/no-such-page/", {}),
    ]
    guide = [("guide:index", {}), ("guide:tutorial", {}), ("guide:preset", {"preset": "classic"})]
    for name, kwargs in guide:
        with contextlib.suppress(NoReverseMatch):  # pages this version of the site may not have yet
            found.append((name, anonymous, reverse(name, kwargs=kwargs), {}))
    for status, game_id in games.items():
        detail = reverse("games:detail", args=[game_id])
        found += [
            (f"{status} game, player", olga, detail, {}),
            (f"{status} game, spectator", anonymous, detail, {}),
            (f"{status} game, table partial", olga, detail, HTMX),
            (f"{status} game, poll", olga, reverse("games:poll", args=[game_id]) + "?version=-1", HTMX),
        ]
    return found


def test_every_page_carries_the_policy(world: World) -> None:
    for what, client, url, headers in pages(world):
        response = client.get(url, headers=headers)
        assert response.status_code in (200, 404), f"{what}: {response.status_code}"
        assert policy_of(response) == POLICY, what


def test_no_page_needs_inline_code(world: World) -> None:
    problems = []
    for what, client, url, headers in pages(world):
        response = client.get(url, headers=headers)
        assert response.status_code in (200, 404), f"{what}: {response.status_code}"
        problems += [f"{what} ({url}): {problem}" for problem in inline_code(response.content.decode())]
    assert not problems, "\n".join(problems)


def test_swagger_ui_loads_its_script_from_a_file() -> None:
    client = Client()
    page = client.get(reverse("api:docs")).content.decode()
    assert '<script src="/api/docs/?script="></script>' in page
    script = client.get(reverse("api:docs") + "?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
