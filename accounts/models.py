import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a time zone (e.g. Europe/Moscow).")


#: Languages a player may choose for the site's own texts (Django's and allauth's are translated).
LANGUAGES = [("en", "English"), ("ru", "Русский")]

#: Computer players' levels: durak.bots.RandomBot, RuleBot and SearchBot.
BOT_LEVELS = [("random", "beginner (random)"), ("rules", "rule of thumb"), ("search", "search (strongest)")]


class User(AbstractUser):
    """A player. Its own model from the first migration, so fields can be added later."""

    display_name = models.CharField(
        max_length=40, blank=True, default="", help_text="Shown on profiles and leaderboards instead of the user name."
    )
    language = models.CharField(max_length=8, choices=LANGUAGES, default="en")

    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text="Deadlines are shown, and vacation days and weekends counted, in this zone.",
    )

    four_colour_deck = models.BooleanField(
        default=False,
        help_text="Diamonds blue and clubs green, so every suit has its own colour.",
    )
    confirm_moves = models.CharField(
        max_length=16,
        choices=[
            ("correspondence", "In correspondence games"),
            ("always", "Always"),
            ("never", "Never"),
        ],
        default="correspondence",
        help_text="Ask before a move is sent, so a slip of the thumb costs nothing.",
    )

    is_bot = models.BooleanField(
        default=False,
        help_text="A computer player (games.bots): no password, cannot log in, kept off the leaderboard.",
    )
    bot_level = models.CharField(
        max_length=16,
        blank=True,
        default="",
        choices=BOT_LEVELS,
        help_text="Which durak.bots player moves for this account; empty for people.",
    )

    def __str__(self) -> str:
        return self.username

    @property
    def name(self) -> str:
        """What others see: the display name if one is set, else the user name."""
        return self.display_name or self.username

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")
