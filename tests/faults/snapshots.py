"""What a move changes, read back from the database, to tell "all of it" from "none of it"."""

from typing import Any

from games.management.commands.check_replays import replay_mismatch
from games.models import Game, Move, Seat
from notifications.models import Notification


def game_snapshot(game_id: int) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    return {
        "version": game.version,
        "status": game.status,
        "state": game.state,
        "deadline": game.deadline,
        "moves": list(
            Move.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "position", "action")
        ),
        "seats": list(
            Seat.objects.filter(game_id=game_id)
            .order_by("position")
            .values_list("position", "awaiting_move", "result", "place", "deadline")
        ),
        "notifications": Notification.objects.filter(game_id=game_id).count(),
    }


def assert_consistent(game_id: int) -> None:
    """The game's rows agree with each other: the move log has no gap, and replaying it from
    the deal gives the stored state."""
    game = Game.objects.get(pk=game_id)
    seqs = list(Move.objects.filter(game_id=game_id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert replay_mismatch(game) is None
