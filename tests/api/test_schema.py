"""The OpenAPI schema: it covers the engine's actions, and the API keeps to it (schemathesis)."""

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

import durak
from api.engine_json import CARD_PATTERN, LOGGED_ACTIONS, PLAYER_ACTIONS, ActionField, without_player
from games import services
from tests.factories import LONGER_DEAL, SHORT_DEAL, GameFactory, UserFactory, api_token, started_game
from tests.tournaments import helpers as tournament_helpers
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

SECRET_KEYS = ('"stock"', '"hands"', '"seed"', '"deal"', '"state"', '"discard"')


def no_secret_keys(ctx: Any, response: Any, case: Any) -> bool | None:
    """No response carries a field of the stored state (hidden cards, the seed)."""
    for key in SECRET_KEYS:
        assert key not in response.text, f"{key} in a response of {case.operation.label}"
    return None


CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
    no_secret_keys,
]


def test_the_action_union_has_every_engine_action() -> None:
    assert set(durak.ACTION_TYPES) <= set(PLAYER_ACTIONS)
    assert set(LOGGED_ACTIONS) >= set(durak.ACTION_TYPES) | set(durak.SYSTEM_ACTION_TYPES)
    assert not set(PLAYER_ACTIONS) & set(durak.SYSTEM_ACTION_TYPES)


@pytest.mark.parametrize("preset", list(durak.PRESETS))
def test_every_legal_action_of_a_playout_goes_through_the_api_unchanged(preset: str) -> None:
    """What the engine offers, the API accepts and shows as it is (less "player")."""
    rng = random.Random(preset)
    field = ActionField()
    for seed in range(2):
        engine = durak.Game.new(durak.Rules.preset(preset), 3, seed=seed)
        while not engine.over:
            offered = [action for player in range(engine.players) for action in engine.legal_json(player)]
            for action in offered:
                bare = without_player(action)
                assert field.to_internal_value(bare) == bare
                assert field.to_representation(bare) == bare
            engine.apply(rng.choice(offered))


def test_the_schema_types_the_action_union_and_errors() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    union = components["ActionRequest"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == set(PLAYER_ACTIONS)
    actions = schema["paths"]["/api/games/{game_id}/actions/"]["post"]["responses"]
    for status in ("400", "403", "404", "409"):
        assert actions[status]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }


def test_the_schema_says_the_token_endpoint_answers_429_with_retry_after() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    refused = schema["paths"]["/api/auth/token/"]["post"]["responses"]["429"]
    assert refused["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert refused["headers"]["Retry-After"]["schema"] == {"type": "integer"}
    assert "`locked_out`" in refused["description"] and "`throttled`" in refused["description"]


@dataclass
class World:
    token: str
    game_ids: list[int]
    tournament_ids: list[int]


@pytest.fixture
def world(db: Any) -> World:
    """A user with games in every state to aim the generated requests at."""
    user = UserFactory()
    open_mine = GameFactory(creator=user, num_players=3)
    open_other = GameFactory(num_players=2)
    running, _ = started_game(deal=LONGER_DEAL)
    services.game_join(user=user, game_id=(seated := GameFactory(num_players=2, deal=SHORT_DEAL)).pk)
    finished, players = started_game(deal=SHORT_DEAL)
    services.make_move(
        user=players[0],
        game_id=finished.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=finished.version,
    )
    finished.refresh_from_db()
    services.make_move(
        user=players[1],
        game_id=finished.pk,
        action={"type": "defend", "target": "6S", "card": "8S"},
        expected_version=finished.version,
    )
    game_ids = [open_mine.pk, open_other.pk, running.pk, seated.pk, finished.pk]
    return World(token=api_token(user), game_ids=game_ids, tournament_ids=tournaments_of(user))


def tournaments_of(user: Any) -> list[int]:
    """One the user may register for, and one under way with a round played (a bye, a game
    over, a game running) that they play in."""
    upcoming = tournament_helpers.tournament()
    running = tournament_helpers.tournament(rounds=3)
    tournament_services.tournament_register(user=user, tournament_id=running.pk)
    tournament_helpers.with_players(running, 4)
    running = tournament_helpers.started(running)
    tournament_helpers.finish(tournament_helpers.round_games(running)[0])
    return [upcoming.pk, running.pk]


@pytest.fixture
def api_schema(db: Any, settings: Any) -> Iterator[Any]:
    """The project's own schema, called in process through WSGI inside the test's transaction."""
    settings.API_WAIT_SECONDS = 0.05
    # As Django's test client does: a request must not close the test transaction's connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@hypothesis_settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_schema(case: Any, world: World) -> None:
    for name, ids in (("game_id", world.game_ids), ("tournament_id", world.tournament_ids)):
        number = case.path_parameters.get(name) if case.path_parameters else None
        if isinstance(number, int) and number % 4:  # three in four aim at a real one, the rest at none
            case.path_parameters[name] = ids[number % len(ids)]
    # "identity": the WSGI transport hands the body over as sent, and a gzipped one (the site
    # compresses an API answer for a client that accepts it: durak_site.compression) is no JSON.
    headers = {"Authorization": f"Token {world.token}", "Accept-Encoding": "identity"}
    case.call_and_validate(headers=headers, checks=CHECKS)


def test_the_view_serializer_declares_every_key_of_the_engines_view() -> None:
    """The view reaches clients through a whitelist built from ``durak.View``: every key but
    ``actions`` (the game's ``legal_actions``), and nothing else."""
    from api.engine_json import EngineViewSerializer

    engine = durak.Game.new(durak.Rules.preset("classic"), 2, seed=1)
    assert set(engine.view(0)) - {"actions"} == set(EngineViewSerializer().fields)


def test_the_schemas_actions_and_events_have_the_engines_fields() -> None:
    """Each member of the unions declares what the engine's TypedDicts declare, required as there."""
    components = APIClient().get("/api/schema/?format=json").json()["components"]["schemas"]
    for name, shape in durak.ACTION_SHAPES.items():
        member = components["".join(part.capitalize() for part in name.split("_")) + "Action"]
        assert set(member["properties"]) == set(shape.__annotations__) - {"player"}, name
        assert set(member["required"]) == shape.__required_keys__ - {"player"}, name
        assert member["description"].startswith(durak.meaning_of(shape)), name
    for name, shape in durak.EVENT_SHAPES.items():
        member = components["".join(part.capitalize() for part in name.split("_")) + "Event"]
        assert set(member["properties"]) == set(shape.__annotations__), name
        assert set(member["required"]) == shape.__required_keys__, name
    view = components["EngineView"]
    assert set(view["properties"]) == set(durak.View.__annotations__) - {"actions"}
    assert components["DefendActionRequest"]["properties"]["target"]["pattern"] == CARD_PATTERN


def test_the_schema_names_every_seat_result() -> None:
    from api.schema import SEAT_RESULTS
    from games.models import Seat

    assert sorted(SEAT_RESULTS) == sorted(value for value in Seat.Result.values if value)
