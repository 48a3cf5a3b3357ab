"""Finished games to offer rematches after, played through the services."""

from typing import Any

from accounts.models import User
from games.models import Game
from tests.factories import started_game
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script

# Three players, clubs trump, no stock: 0 leads 6S, 1 beats it with 7S and both are out;
# 2 keeps the 8S and is the fool.
THREE_DEAL: dict[str, Any] = {
    "hands": [["6S"], ["7S"], ["8S"]],
    "stock": [],
    "trump": "C",
    "first_attacker": 0,
}


def finished_game(players: int = 2, **kwargs: Any) -> tuple[Game, list[User]]:
    """A finished public game of ``players`` (2 or 3) people, its users by seat."""
    game, users = started_game(players=players, deal=DRAW_DEAL if players == 2 else THREE_DEAL, **kwargs)
    game = play_script(game, users, DRAW_MOVES)
    assert game.status == Game.Status.FINISHED, game.status
    return game, users
