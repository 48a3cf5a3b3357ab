"""A seated player gets nothing hidden from them from any URL of the site: not the other hand,
not the stock, not the seed of a running game, also in error answers.

tests/games/test_hidden_information.py and tests/api/test_hidden_information.py check the game
pages and the API endpoints as a game goes on; tests/security/test_access.py checks every URL
for strangers and anonymous visitors. This covers every URL for the players themselves.
"""

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.models import Seat
from moderation import services as moderation_services
from tests.api.helpers import hidden_from
from tests.games.helpers import card_traces

from .routes import ROUTES, a_legal_move, api_move
from .test_access import PRESENT
from .world import World, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    cache.clear()
    return build_world()


def assert_nothing_hidden_from(
    user: Any, world: World, text: str, where: str, demo_cards: frozenset[str] = frozenset()
) -> None:
    running = world.running
    running.refresh_from_db()
    assert running.state is not None
    position = Seat.objects.get(game=running, user=user).position
    shown = {running.state["shown_trump"]} - {None}
    for card in hidden_from(running, position, shown) - demo_cards:
        for trace in card_traces(card):
            if trace.startswith(('"', "'", "&", ">")):
                assert trace not in text, f"{where}: {card} (hidden from {user.username}) leaks as {trace!r}"
    for what in ("the running game's seed", "the private game's seed", "the series game's seed"):
        assert world.secrets[what] not in text, f"{where}: {what} leaks"
    for secret_key in ('"stock":', '"hands":', '"seed":', '"deal":', '"state":'):  # JSON keys
        assert secret_key not in text, f"{where}: {secret_key} leaks"


@pytest.mark.parametrize("who", ["olga", "boris"])
def test_no_url_shows_a_player_what_is_hidden_from_them(who: str, world: World) -> None:
    user = getattr(world, who)
    client = Client()
    client.force_login(user)
    checked = 0
    for name in PRESENT:
        route = ROUTES[name]
        if route.method != "GET":
            continue
        for kwargs, query in route.targets(world):
            url = reverse(name, kwargs=kwargs) + (f"?{query}" if query else "")
            response = client.get(url)
            if name == "api:wait" and response.status_code == 200:
                assert "view" in response.json() or response.json(), url
            assert_nothing_hidden_from(
                user, world, response.content.decode(errors="replace"), f"{who} GET {url}", route.demo_cards
            )
            checked += 1
    assert checked > 25


def test_refused_moves_and_their_error_pages_show_nothing_hidden(world: World) -> None:
    """An illegal, a stale and a malformed move, on the page (full and HTMX) and in the API."""
    running = world.running
    move = a_legal_move(world)
    mover_position = move["action"]["player"]
    mover = Seat.objects.get(game=running, position=mover_position).user
    other = world.boris if mover == world.olga else world.olga
    url = reverse("games:move", args=[running.pk])
    api_url = reverse("api:actions", args=[running.pk])
    stale = {"action": json.dumps(move["action"]), "expected_version": move["expected_version"] - 1}
    hidden_card = sorted(hidden_from(running, mover_position, set()))[0]  # one the mover does not hold
    illegal = {
        "action": json.dumps({**move["action"], "type": "attack", "cards": [hidden_card]}),
        "expected_version": move["expected_version"],
    }
    for user in (mover, other):
        client = Client()
        client.force_login(user)
        answers = {
            "stale": client.post(url, stale),
            "stale htmx": client.post(url, stale, headers={"HX-Request": "true"}),
            "illegal": client.post(url, illegal),
            "malformed": client.post(url, {"action": "{not json", "expected_version": "x"}),
            "api stale": client.post(
                api_url,
                json.dumps({**api_move(world), "expected_version": move["expected_version"] - 1}),
                content_type="application/json",
            ),
            "api illegal": client.post(
                api_url,
                json.dumps({"action": {"type": "attack", "cards": [hidden_card]}, "expected_version": 0}),
                content_type="application/json",
            ),
        }
        for what, response in answers.items():
            assert response.status_code in (400, 403, 409), f"{what}: {response.status_code}"
            text = response.content.decode()
            if user == mover:
                # The mover may be told "you do not hold X"; X is theirs to name. The rest stays hidden.
                text = text.replace(f'"{hidden_card}"', "").replace(f"&quot;{hidden_card}&quot;", "")
            assert_nothing_hidden_from(user, world, text, f"{user.username}: {what}")


def test_moderators_do_not_see_the_secrets_of_a_running_game_in_the_admin(world: World) -> None:
    """Moderators play too: the admin has no seed, deal or state column."""
    moderator = world.stranger
    moderation_services.moderator_grant(user=moderator, actor=None, reason="hidden-information test")
    client = Client()
    client.force_login(moderator)
    running = world.running
    urls = [
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[running.pk]),
        reverse("admin:games_move_changelist") + f"?game__id__exact={running.pk}",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        for card in hidden_from(running, None, {running.state["shown_trump"]} - {None}):  # type: ignore[index]
            for trace in card_traces(card):
                if trace.startswith(('"', "&", ">")):
                    assert trace not in text, f"{url}: {card} leaks as {trace!r}"
        assert world.secrets["the running game's seed"] not in text, url
