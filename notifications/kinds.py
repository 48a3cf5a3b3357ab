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
    #: A tournament's news (``tournaments.signals``): registration open (to the creator's friends
    #: and, for an official one, earlier tournaments' players), closing soon (to its players),
    #: a round's game of the player's started (in place of that game's "game started"), and
    #: the end, with the player's final place (or that it was cancelled).
    TOURNAMENT_OPEN = "tournament_open", _("tournament registration open")
    TOURNAMENT_SOON = "tournament_soon", _("tournament starting soon")
    TOURNAMENT_ROUND = "tournament_round", _("tournament round started")
    TOURNAMENT_ENDED = "tournament_ended", _("tournament ended")


#: Kinds about players, not a game: no ``Notification.game``; their links go to the friends page.
FRIEND_KINDS = frozenset({Kind.FRIEND_REQUEST, Kind.FRIEND_ACCEPTED})

#: Kinds about a tournament (``Notification.tournament`` set); their links go to its page, but a
#: round's, which is about a game (``Notification.game``) and links to it.
TOURNAMENT_KINDS = frozenset(
    {Kind.TOURNAMENT_OPEN, Kind.TOURNAMENT_SOON, Kind.TOURNAMENT_ROUND, Kind.TOURNAMENT_ENDED}
)

#: Kinds whose pending e-mails of one player go as one e-mail ("3 of your tournament games have
#: started"), besides the "your move"s (which have their own claim: ``services._claim_your_moves``).
BATCHED_EMAIL_KINDS = frozenset({Kind.TOURNAMENT_ROUND})
