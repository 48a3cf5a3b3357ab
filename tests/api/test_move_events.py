"""The public move log's events: what each action led to, stored with the move, typed in the API,
and never a card that was not face up."""

import json
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.management.commands.check_replays import replay_mismatch
from games.models import Game, Move, Seat
from tests.api.conftest import token_client
from tests.factories import LONGER_DEAL, UserFactory, started_game

pytestmark = pytest.mark.django_db

CARD = re.compile(r'"((?:[2-9]|10|[JQKA])[SHDC])"')


def log(client: Any, game: Game) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{game.pk}/moves/?page_size=100")
    assert response.status_code == 200
    return response.json()["results"]


def last_entry(client: Any, game: Game) -> dict[str, Any]:
    """The newest entry of the public log (the log is paginated, at most 100 a page)."""
    count = Move.objects.filter(game=game).count()
    response = client.get(f"/api/games/{game.pk}/moves/?page_size=1&page={count}")
    assert response.status_code == 200
    (entry,) = response.json()["results"]
    assert entry["seq"] == count
    return entry


def face_up_now(game: Game) -> set[str]:
    """Cards lying face up for everyone right now: the table, the face-up trump, the discard."""
    view = game.engine().view(None)
    cards = {card for pair in view["table"] for card in pair if card}
    cards |= set(view.get("discarded") or view.get("discard") or [])
    if view["trump_card"]:
        cards.add(view["trump_card"])
    return cards


@pytest.mark.parametrize(
    ("preset", "players", "seed"), [("classic", 2, 3), ("perevodnoy", 4, 8), ("classic", 3, 21)]
)
def test_events_name_only_cards_that_were_face_up(preset: str, players: int, seed: int) -> None:
    """A shuffled game played to the end with random legal moves and the odd timeout (gentle
    rule): after every move the spectator's log holds no card that has not been face up."""
    rng = random.Random(seed)
    game, users = started_game(
        players=players, preset=preset, overrides={"on_timeout": "auto"}, move_time=timedelta(hours=1)
    )
    watcher = token_client(UserFactory())
    public = face_up_now(game)
    kinds: set[str] = set()
    for _ in range(600):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        engine = game.engine()
        if rng.random() < 0.05:  # someone's clock runs out
            past = timezone.now() - timedelta(seconds=1)
            Seat.objects.filter(game=game, awaiting_move=True).update(deadline=past)
            Game.objects.filter(pk=game.pk).update(deadline=past)
            assert services.game_timeout(game_id=game.pk) is True
        else:
            player = rng.choice(engine.waiting_for())
            swaps = [a for a in engine.legal_json(player) if a["type"] == "swap_trump"]
            action = swaps[0] if swaps else rng.choice(engine.legal_json(player))
            services.make_move(
                user=users[player], game_id=game.pk, action=action, expected_version=game.version
            )
        game.refresh_from_db()
        public |= face_up_now(game)
        last = last_entry(watcher, game)
        stored = Move.objects.get(game=game, seq=last["seq"]).events
        assert [event["type"] for event in last["events"]] == [event["type"] for event in stored]
        action = last["action"]
        public |= set(action.get("cards", [])) | {action[key] for key in ("card", "target") if key in action}
        kinds |= {event["type"] for event in last["events"]}
        named = set(CARD.findall(json.dumps(last["events"])))
        assert named <= public, f"hidden card(s) {named - public} in the events of move {last['seq']}"
        hands = {card for hand in game.engine().hands for card in hand}
        for card in named & hands:  # a card now in a hand is named only because it was face up before
            assert card in public
    assert game.status == Game.Status.FINISHED
    assert {"bout_end", "drew", "game_over"} <= kinds
    assert replay_mismatch(game) is None
    # Every move's events are the engine's, as a replay gives them.
    engine = services.initial_engine(game)
    for move in Move.objects.filter(game=game).order_by("seq"):
        engine.apply(move.action)
        assert move.events == json.loads(json.dumps(engine.events))


def test_the_log_shows_a_bout_end_and_draws_and_a_gentle_timeout_shows_its_automatic_move() -> None:
    game, users = started_game(
        deal=LONGER_DEAL, overrides={"on_timeout": "auto"}, move_time=timedelta(minutes=5)
    )
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game=game, awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    assert services.game_timeout(game_id=game.pk) is True  # player 0 attacks with the lowest non-trump
    game.refresh_from_db()
    services.make_move(user=users[1], game_id=game.pk, action={"type": "take"}, expected_version=game.version)
    game.refresh_from_db()
    # the attacker says he is done: the defender picks up
    services.make_move(user=users[0], game_id=game.pk, action={"type": "pass"}, expected_version=game.version)
    entries = log(token_client(users[0]), game)
    assert [entry["action"] for entry in entries] == [{"type": "timeout"}, {"type": "take"}, {"type": "pass"}]
    assert entries[0]["by_server"] is True and entries[0]["player"] == 0
    assert entries[0]["events"] == [{"type": "automatic", "action": {"type": "attack", "cards": ["6S"]}}]
    assert entries[1]["events"] == []
    assert entries[2]["events"][0] == {
        "type": "bout_end",
        "attacker": 0,
        "defender": 1,
        "result": "taken",
        "cards": ["6S"],
    }
    draws = entries[2]["events"][1:]
    assert draws and all(set(event) <= {"type", "player", "count", "face_up"} for event in draws)
    assert [event["type"] for event in draws] == ["drew"] * len(draws)


def test_check_replays_catches_tampered_events() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    services.make_move(user=users[1], game_id=game.pk, action={"type": "take"}, expected_version=game.version)
    game.refresh_from_db()
    assert replay_mismatch(game) is None
    call_command("check_replays", str(game.pk))
    Move.objects.filter(game=game, seq=2).update(events=[{"type": "bout_end", "cards": ["AH"]}])
    assert replay_mismatch(game) == "move 2's logged events differ from the replay's"


def test_the_schema_types_the_events() -> None:
    client = token_client(UserFactory())
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    components = schema.json()["components"]["schemas"]
    assert "Event" in components
    move = components["Move"]["properties"]["events"]
    assert move["type"] == "array" and move["items"]["$ref"].endswith("/Event")
    for name in ("BoutEndEvent", "DrewEvent", "OutEvent", "SwapEvent", "AutomaticEvent", "GameOverEvent"):
        assert name in components
