"""Every page has a ``<meta name="description">`` of its own, in English and in Russian
(``durak_site.descriptions``).

The pages of a small site (``tests/security/world.py``: a running game, a finished one with its
replay and series, a player's notifications and settings), each rule set's page, the log-in,
sign-up and password pages: each has exactly one description, a sentence long, that no other
page has; the Russian one is in Russian and is not the English one.
"""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import get_resolver
from django.urls.resolvers import URLPattern, URLResolver

import durak
from durak_site.descriptions import DESCRIPTIONS
from tests.security.world import World, build_world

pytestmark = pytest.mark.django_db

CYRILLIC = re.compile("[\u0400-\u04ff]")


class Descriptions(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        fields = dict(attrs)
        if tag == "meta" and fields.get("name") == "description":
            self.found.append(fields.get("content") or "")


def description_of(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    parser = Descriptions()
    parser.feed(response.content.decode())
    assert len(parser.found) == 1, (path, parser.found)
    return parser.found[0]


def pages(world: World) -> tuple[list[str], list[str]]:
    """(pages a visitor sees, pages Olga sees logged in)."""
    anonymous = [
        "/",
        "/rules/",
        "/rules/tutorial/",
        *(f"/rules/{preset}/" for preset in durak.PRESETS),
        "/leaderboard/",
        "/players/olga/",
        "/players/boris/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
    ]
    logged_in = [
        f"/games/{world.running.pk}/",
        f"/games/{world.finished.pk}/",
        f"/games/{world.finished.pk}/replay/",
        f"/games/{world.running.pk}/chat/",
        f"/series/{world.series_id}/",
        "/play/",
        "/notifications/",
        "/notifications/settings/",
        "/accounts/tokens/",
        "/accounts/password/change/",
        "/accounts/email/",
        "/accounts/logout/",
    ]
    return anonymous, logged_in


def descriptions(world: World, language: str) -> dict[str, str]:
    anonymous, logged_in = pages(world)
    visitor = Client(headers={"Accept-Language": language})
    world.olga.language = language
    world.olga.save(update_fields=["language"])
    olga = Client(headers={"Accept-Language": language})
    olga.force_login(world.olga)
    found = {path: description_of(visitor, path) for path in anonymous}
    found |= {path: description_of(olga, path) for path in logged_in}
    return found


def test_each_page_has_a_description_of_its_own_in_english_and_in_russian() -> None:
    world = build_world()
    english, russian = descriptions(world, "en"), descriptions(world, "ru")
    for language, found in (("en", english), ("ru", russian)):
        short = {path: text for path, text in found.items() if len(text) < 25 or len(text) > 200}
        assert short == {}, f"{language}: a description is a sentence, 25 to 200 characters"
        by_text: dict[str, list[str]] = {}
        for path, text in found.items():
            by_text.setdefault(text, []).append(path)
        shared = {text: paths for text, paths in by_text.items() if len(paths) > 1}
        assert shared == {}, f"{language}: pages share a description"
    untranslated = {
        path: text for path, text in russian.items() if text == english[path] or not CYRILLIC.search(text)
    }
    assert untranslated == {}
    assert not any(CYRILLIC.search(text) for text in english.values())


def test_every_page_named_in_the_table_exists() -> None:
    def names(patterns: list[URLPattern | URLResolver], namespace: str = "") -> set[str]:
        found: set[str] = set()
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                found |= names(pattern.url_patterns, inner)
            elif pattern.name:
                found.add(namespace + pattern.name)
        return found

    assert set(DESCRIPTIONS) - names(get_resolver().url_patterns) == set()
