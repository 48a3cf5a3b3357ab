"""How a replay and an export tell the end: the fool (every player of a losing team), the order
out, and the export's result, for a game played out and a team game ended by a resignation."""

from typing import Any

import pytest

from games import services
from games.models import Game
from replays import selectors
from tests.factories import started_game
from tests.stats.helpers import SIX_DEAL, SIX_MOVES, play_script

pytestmark = pytest.mark.django_db


def final_frame_and_export(game: Game) -> tuple[selectors.Frame, dict[str, Any]]:
    game = selectors.finished_game(game_id=game.pk)
    moves = selectors.game_moves(game=game)
    frame = selectors.replay_frame(game=game, moves=moves, step=len(moves))
    return frame, selectors.export(game=game, moves=moves)


def test_a_game_played_out_shows_its_fool_and_the_order_out() -> None:
    game, users = started_game(players=6, deal=SIX_DEAL)
    game = play_script(game, users, SIX_MOVES)
    frame, export = final_frame_and_export(game)
    assert frame.over
    assert [role for _, _, role in frame.hands] == ["", "", "", "", "the fool", ""]
    assert frame.finished == [users[p].name for p in (0, 1, 3, 5, 2)]
    assert export["result"] == {
        "finished": [0, 1, 3, 5, 2],
        "loser": 4,
        "losing_team": None,
        "end": {"reason": "cards", "player": 4},
    }
    # before the end, nobody is the fool yet and only those already out are listed
    moves = selectors.game_moves(game=game)
    earlier = selectors.replay_frame(game=game, moves=moves, step=2)
    assert not earlier.over and "the fool" not in [role for _, _, role in earlier.hands]
    assert earlier.finished == [users[0].name]  # 1 beat the 6S but still holds the 9H


def test_a_team_game_lost_by_a_resignation_makes_both_partners_fools() -> None:
    game, users = started_game(players=4, overrides={"teams": "partners"})
    game = services.player_resign(user=users[1], game_id=game.pk)
    assert game.status == Game.Status.FINISHED
    frame, export = final_frame_and_export(game)
    assert [role for _, _, role in frame.hands] == ["", "team lost", "", "team lost"]
    assert frame.finished == []
    assert export["result"] == {
        "finished": [],
        "loser": None,
        "losing_team": 1,
        "end": {"reason": "resign", "player": 1, "team": 1},
    }
