"""A preference is not a move: it restarts no clock and no claim's wait, and it is nobody's "last
move" or news "since you last looked".

The engine says which action types are moves (``durak.is_move``); every type it does not count
is tried here, switched on and off, by the player the game waits for (the one who would gain
time by it).
"""

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

import durak
from games import services
from games.models import Game, Move, Seat
from tests.factories import LONGER_DEAL, started_game
from tests.games.test_leaving import attack_once, waited

pytestmark = pytest.mark.django_db

#: One action of each preference type, switched on and then off again (the player is filled in).
PREFERENCES: dict[str, list[dict[str, Any]]] = {
    "auto_pass": [{"type": "auto_pass", "on": True}, {"type": "auto_pass", "on": False}],
}


def test_every_action_type_the_engine_does_not_count_as_a_move_is_tried_here() -> None:
    assert set(PREFERENCES) == set(durak.PREFERENCE_ACTION_TYPES)
    assert all(not durak.is_move(kind) for kind in PREFERENCES)
    assert all(durak.is_move(kind) for kind in (*durak.ACTION_TYPES, *durak.SYSTEM_ACTION_TYPES))


def prefer(game: Game, user: Any, action: dict[str, Any]) -> Game:
    game.refresh_from_db()
    return services.make_move(user=user, game_id=game.pk, action=action, expected_version=game.version)


def clocks(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return {
        "game": (game.deadline, game.updated_at),
        "seats": list(
            Seat.objects.filter(game=game).values_list(
                "position", "awaiting_move", "turn_started_at", "deadline", "warn_at"
            )
        ),
    }


@pytest.mark.parametrize("kind", sorted(PREFERENCES))
@pytest.mark.parametrize(
    "move_time", [timedelta(minutes=2), timedelta(days=1)], ids=["live", "correspondence"]
)
def test_a_preference_of_the_waited_for_player_does_not_move_their_deadline(
    kind: str, move_time: timedelta
) -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=move_time)
    # The game has waited for player 0 (the attacker) a while: half their time is gone.
    started = timezone.now() - move_time / 2
    warn_at = started + move_time / 2 if move_time >= timedelta(hours=1) else None  # the 50% reminder
    Seat.objects.filter(game=game, awaiting_move=True).update(
        turn_started_at=started, deadline=started + move_time, warn_at=warn_at
    )
    Game.objects.filter(pk=game.pk).update(deadline=started + move_time)
    before = clocks(game)
    assert before["seats"][0][1:4] == (True, started, started + move_time)
    for action in PREFERENCES[kind]:
        prefer(game, users[0], action)
        assert clocks(game) == before, action
    assert game.moves_made == len(PREFERENCES[kind])  # logged all the same


@pytest.mark.parametrize("kind", sorted(PREFERENCES))
def test_a_preference_of_the_waited_for_player_does_not_start_the_claims_wait_again(kind: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    game = attack_once(game, users)  # the game waits for player 1 alone
    waited(game, 14.01)
    for action in PREFERENCES[kind]:
        prefer(game, users[1], action)
    game = services.game_claim(user=users[0], game_id=game.pk)
    assert game.status == Game.Status.FINISHED
    claim = Move.objects.filter(game=game).last()
    assert claim is not None and claim.action["type"] == "claim" and claim.action["player"] == 0
    assert claim.action["waited"] >= 14 * 24 * 3600


def test_a_player_the_game_starts_waiting_for_after_a_preference_gets_a_clock_from_then() -> None:
    # LONGER_DEAL: 0 leads 6S, 1 beats it; the bout waits for 0 to say "done". Not waiting for 0
    # any more, it is over, and 1 attacks: 1's clock starts there, 0's is gone.
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(days=1))
    game = services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    game = services.make_move(
        user=users[1],
        game_id=game.pk,
        action={"type": "defend", "target": "6S", "card": "8S"},
        expected_version=game.version,
    )
    before = timezone.now()
    prefer(game, users[0], {"type": "auto_pass", "on": True})
    seats = {seat.position: seat for seat in Seat.objects.filter(game=game)}
    assert not seats[0].awaiting_move and seats[0].deadline is None and seats[0].turn_started_at is None
    assert seats[1].awaiting_move and seats[1].turn_started_at is not None
    assert seats[1].turn_started_at >= before
    assert seats[1].deadline == seats[1].turn_started_at + timedelta(days=1)


@pytest.mark.parametrize("kind", sorted(PREFERENCES))
def test_a_preference_is_no_last_move_and_no_news_since_you_last_looked(client: Any, kind: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    game = attack_once(game, users)
    client.force_login(users[1])
    url = reverse("games:detail", args=[game.pk])
    looked = client.get(url)  # marks the seat seen
    last_line = looked.context["table"].last_move_line
    assert last_line
    updated_at = Game.objects.get(pk=game.pk).updated_at

    for action in PREFERENCES[kind]:
        prefer(game, users[0], action)
    assert Game.objects.get(pk=game.pk).updated_at == updated_at  # "waiting since" in My games

    again = client.get(url)
    assert again.context["history"].new_count == 0
    assert again.context["table"].last_move_line == last_line
    assert len(again.context["history"]) == 2 + len(PREFERENCES[kind])  # still in the log
