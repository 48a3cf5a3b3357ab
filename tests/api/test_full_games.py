"""Whole games played by token clients through the API only, to the end.

Every response of every endpoint is checked for cards the caller must not see.
"""

import random
from typing import Any

import pytest

from games.models import Game
from tests.api.conftest import token_client
from tests.api.helpers import Player
from tests.factories import LONGER_DEAL, UserFactory

pytestmark = pytest.mark.django_db


def seat_players(creator_body: dict[str, Any], users: list[Any]) -> list[Player]:
    """Everyone but the creator joins through the API; returns the players by seat."""
    game = Game.objects.get(pk=creator_body["id"])
    players = [Player(user, token_client(user), game) for user in users]
    for player in players[1:]:
        player.call("post", f"/api/games/{game.pk}/join/")
    return sorted(players, key=lambda player: player.position)


def play_to_the_end(
    players: list[Player], spectator: Player, seed: int, max_moves: int = 2000
) -> dict[str, Any]:
    """Each turn: every player reads the game; one who has legal actions posts a random one."""
    rng = random.Random(seed)
    game_id = players[0].game.pk
    for move in range(max_moves):
        details = [player.detail() for player in players]
        versions = {detail["version"] for detail in details}
        assert len(versions) == 1
        if details[0]["status"] == "finished":
            break
        face_up = details[0]["view"]["trump_card"]
        for player in [*players, spectator]:
            if face_up:
                player.seen_face_up.add(face_up)
        movers = [
            (player, detail)
            for player, detail in zip(players, details, strict=True)
            if detail["legal_actions"]
        ]
        assert movers, "the game waits for nobody"
        player, detail = rng.choice(movers)
        assert detail["view"]["hand"], "a player with actions holds cards"
        action = rng.choice(detail["legal_actions"])
        assert "player" not in action
        after = player.call(
            "post",
            f"/api/games/{game_id}/actions/",
            {"action": action, "expected_version": detail["version"]},
        )
        assert after["version"] == detail["version"] + 1
        if move % 7 == 0:
            rng.choice(players).look_at_everything()
            spectator.look_at_everything()
    else:
        raise AssertionError("the game did not end")
    final = details[0]
    for player in [*players, spectator]:
        player.look_at_everything()
    return final


def test_two_token_clients_play_a_stacked_deal_to_the_end() -> None:
    users = UserFactory.create_batch(2)
    from games import services

    game = services.game_create(creator=users[0], preset="classic", num_players=2, deal=LONGER_DEAL)
    creator = Player(users[0], token_client(users[0]), game)
    body = creator.detail()
    assert body["status"] == "open" and body["view"] is None
    players = seat_players(body, users)
    watcher = UserFactory()
    spectator = Player(watcher, token_client(watcher), game)
    final = play_to_the_end(players, spectator, seed=1)
    assert final["status"] == "finished"
    assert final["result"]["reason"] == "cards"
    moves = players[0].call("get", f"/api/games/{game.pk}/moves/?page_size=100")
    assert moves["count"] == final["version"] - 1  # one version for the join, one per move


@pytest.mark.parametrize(("players", "preset", "seed"), [(2, "classic", 11), (4, "durak24", 5)])
def test_token_clients_play_a_shuffled_game_to_the_end(players: int, preset: str, seed: int) -> None:
    users = UserFactory.create_batch(players)
    creator = token_client(users[0])
    response = creator.post(
        "/api/games/",
        {"preset": preset, "players": players, "options": {}, "time_control": None},
        format="json",
    )
    assert response.status_code == 201, response.content
    table = seat_players(response.json(), users)
    watcher = UserFactory()
    spectator = Player(watcher, token_client(watcher), table[0].game)
    final = play_to_the_end(table, spectator, seed=seed)
    assert final["status"] == "finished"
    seats = final["seats"]
    assert len(seats) == players
    fools = [seat for seat in seats if seat["result"] == "fool"]
    assert len(fools) == (0 if final["result"]["loser"] is None else 1)
    assert final["legal_actions"] == []
