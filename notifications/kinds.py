"""What a notification is about: its kind. The app's lowest module, beneath the words
(``notifications.messages``) and the rows (``notifications.models``), which both name it."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    YOUR_MOVE = "your_move", _("your move")
    GAME_STARTED = "game_started", _("game started")
    INVITED = "invited", _("invitation")
    GAME_FINISHED = "game_finished", _("game finished")
    TIME_LOW = "time_low", _("time almost up")
    #: An offer of a rematch after a finished game (``series``): its own kind, not an invitation's.
    REMATCH = "rematch", _("rematch offer")
    #: The game has waited on the player so long that another may now claim it (``games.leaving``).
    CLAIM_POSSIBLE = "claim_possible", _("a claim is possible")
    #: Another player asks to be friends (``accounts.relations``), and a request was accepted.
    FRIEND_REQUEST = "friend_request", _("friend request")
    FRIEND_ACCEPTED = "friend_accepted", _("friend request accepted")


#: Kinds about players, not a game: no ``Notification.game``; their links go to the friends page.
FRIEND_KINDS = frozenset({Kind.FRIEND_REQUEST, Kind.FRIEND_ACCEPTED})
