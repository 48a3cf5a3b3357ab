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
