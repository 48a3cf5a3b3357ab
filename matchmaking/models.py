"""The "Play now" queue: one entry per player, waiting for others who chose the same game.

An entry waits in its *bucket* (the same rule set, number of players and time control) until
``matchmaking.services`` seats it in a game: with the people waiting in that bucket, or, once
its ``fill_at`` has passed, with computer players in the seats nobody took. It is then
``matched`` and names the game, which the player's page goes to.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from games.models import Game


class QueueEntry(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("play-now queue", "waiting")
        MATCHED = "matched", pgettext_lazy("play-now queue", "matched")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="queue_entry",
        help_text="One entry per player: joining again replaces it.",
    )
    preset = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    time_control = models.CharField(max_length=8, help_text="A key of games.forms.TIME_CONTROLS.")
    bot_level = models.CharField(
        max_length=16, help_text="The computer players' level (accounts.BOT_LEVELS) if they are let in."
    )
    fill_after = models.DurationField(
        null=True, blank=True, help_text="How long to wait for people before computers fill in; empty: never."
    )
    min_reliability = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Pair only with players whose reliability is at least this many percent; empty: anyone.",
    )
    # The seeker's side of a game's join limits (games.limits): each must hold both ways.
    friends_only = models.BooleanField(default=False, help_text="Pair only with friends of this player.")
    rating_min = models.SmallIntegerField(
        null=True, blank=True, help_text="Pair only with players rated at least this in the game's mode."
    )
    rating_max = models.SmallIntegerField(
        null=True, blank=True, help_text="Pair only with players rated at most this in the game's mode."
    )
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        help_text="Pair only with players using the site in it; empty: any.",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    fill_at = models.DateTimeField(
        null=True, blank=True, help_text="joined_at + fill_after: what the sweep looks at."
    )
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    matched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "play-now queue entry"
        verbose_name_plural = "play-now queue"
        indexes = [
            models.Index(
                fields=["preset", "num_players", "time_control", "joined_at"],
                name="queue_bucket_idx",
                condition=models.Q(status="waiting"),
            ),
            models.Index(
                fields=["fill_at"],
                name="queue_fill_idx",
                condition=models.Q(status="waiting", fill_at__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status="waiting", game__isnull=True)
                | models.Q(status="matched", game__isnull=False),
                name="queue_matched_has_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.status} for {self.bucket}"

    @property
    def bucket(self) -> tuple[str, int, str]:
        return (self.preset, self.num_players, self.time_control)
