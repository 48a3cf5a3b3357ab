"""Nobody gets another player's cards, the stock or the seed from any endpoint.

Asserted on the raw JSON of every response, for each seat and for a stranger, at
several moments of a game (``tests.api.helpers.Player`` checks each response).
"""

import pytest

from tests.api.conftest import token_client
from tests.api.helpers import Player, assert_nothing_hidden, hidden_from
from tests.factories import UserFactory, play_moves, started_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("moves", [0, 4, 15])
def test_no_endpoint_shows_a_hidden_card(moves: int) -> None:
    game, users = started_game(players=3, seed=2024)
    game = play_moves(game, users, moves)
    assert hidden_from(game, None, set()), "there is something to hide"
    stranger = UserFactory()
    for user in [*users, stranger]:
        Player(user, token_client(user), game).look_at_everything()


def test_a_player_does_get_their_own_hand() -> None:
    game, users = started_game(players=2, seed=77)
    body = token_client(users[1]).get(f"/api/games/{game.pk}/").json()
    assert sorted(body["view"]["hand"]) == sorted(game.state["hands"][1])


def test_the_check_itself_catches_a_leak() -> None:
    game, _ = started_game(players=2, seed=5)
    leaked = sorted(hidden_from(game, 0, set()) & set(game.state["hands"][1]))[0]
    with pytest.raises(AssertionError):
        assert_nothing_hidden(f'{{"hand": ["{leaked}"]}}', game, 0, set())
    with pytest.raises(AssertionError):
        assert_nothing_hidden(f'{{"seed": {game.seed}}}', game, 0, set())
