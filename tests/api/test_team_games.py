"""A team game through the API only: four token clients, to the end, with the result in the
stats of both partners. Every response is checked for cards its caller must not see."""

import pytest

from games.models import Game, Seat
from stats.models import PlayerStats, RatingChange
from tests.api.conftest import token_client
from tests.api.helpers import Player
from tests.api.test_full_games import play_to_the_end, seat_players
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_team_game_needs_a_player_count_its_rules_allow() -> None:
    creator = token_client(UserFactory())
    response = creator.post(
        "/api/games/",
        {"preset": "classic", "players": 3, "options": {"teams": "partners"}, "time_control": None},
        format="json",
    )
    assert response.status_code == 400
    assert "team play with these rules is for 4/6 players, not 3" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(("teams", "seed"), [("partners", 3), ("black_book", 8)])
def test_four_token_clients_play_a_team_game_to_the_end(teams: str, seed: int) -> None:
    users = UserFactory.create_batch(4)
    response = token_client(users[0]).post(
        "/api/games/",
        {"preset": "classic", "players": 4, "options": {"teams": teams}, "time_control": None},
        format="json",
    )
    assert response.status_code == 201, response.content
    table = seat_players(response.json(), users)
    # Seats alternate in the order of joining: the even seats are one team, the odd the other.
    assert [player.user for player in table] == users
    first = table[0].detail()
    assert first["view"]["teams"] == [[0, 2], [1, 3]]

    watcher = UserFactory()
    final = play_to_the_end(table, Player(watcher, token_client(watcher), table[0].game), seed=seed)
    assert final["status"] == "finished"
    losing_team = final["result"]["losing_team"]
    assert losing_team in (0, 1), final["result"]  # random play can end in a draw; these seeds do not
    assert final["result"]["loser"] is None and final["result"]["draw"] is False
    assert final["result"]["losers"] == [p for p in range(4) if p % 2 == losing_team]
    assert final["view"]["losing_team"] == losing_team

    game = table[0].game
    for position, user in enumerate(users):
        lost = position % 2 == losing_team
        seat = Seat.objects.get(game=game, user=user)
        assert (seat.result == Seat.Result.FOOL) == lost
        overall = PlayerStats.objects.get(user=user, scope=PlayerStats.Scope.ALL)
        assert (overall.games, overall.fools) == (1, int(lost))
        # Rated as two teams: both partners of a side move the same way.
        assert (RatingChange.objects.get(user=user, game_id=game.pk).delta < 0) == lost
    seats = {seat["position"]: seat["result"] for seat in final["seats"]}
    assert [seats[p] == "fool" for p in range(4)] == [p % 2 == losing_team for p in range(4)]


def test_a_resignation_in_a_team_game_loses_for_both_partners() -> None:
    """The result is the engine's outcome: no single fool, the resigning player's side lost."""
    users = UserFactory.create_batch(4)
    response = token_client(users[0]).post(
        "/api/games/",
        {"preset": "classic", "players": 4, "options": {"teams": "partners"}, "time_control": None},
        format="json",
    )
    table = seat_players(response.json(), users)
    answer = token_client(users[1]).post(f"/api/games/{table[0].game.pk}/resign/", {}, format="json")
    assert answer.status_code == 200, answer.content
    result = answer.json()["result"]
    assert result["reason"] == "resign" and result["loser"] is None and result["loser_username"] is None
    assert result["losing_team"] == 1 and result["losers"] == [1, 3] and result["draw"] is False
    assert [seat["result"] for seat in answer.json()["seats"]] == ["won", "fool", "won", "fool"]
