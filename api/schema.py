"""Names for choice sets that several fields share (``SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]``)."""

from typing import get_args

import durak

FIRST_ATTACKER_CHOICES = next(
    option["choices"] for option in durak.Rules.describe_options() if option["name"] == "first_attacker"
)

#: How a bout ended, in the last bout of a view and in the move log's events.
BOUT_RESULTS = list(get_args(durak.BoutResult))
#: A seat's result once the game is over (``games.models.Seat.Result`` without "playing").
SEAT_RESULTS = ["out", "fool", "draw", "won"]
#: Why a game ended: played out, a timeout, a resignation, or a claim (the players it waited on lose).
END_REASONS = list(get_args(durak.EndReason))
#: A game's status (``games.models.Game.Status``): named, as several components have a "status".
GAME_STATUSES = ["open", "active", "finished", "aborted"]
