"""Names for choice sets that several fields share (``SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]``)."""

import durak

FIRST_ATTACKER_CHOICES = next(
    option["choices"] for option in durak.Rules.describe_options() if option["name"] == "first_attacker"
)

#: How a bout ended, in the last bout of a view and in the move log's events.
BOUT_RESULTS = ["beaten", "taken"]
#: A seat's result once the game is over (``games.models.Seat.Result`` without "playing").
SEAT_RESULTS = ["out", "fool", "draw", "won"]
