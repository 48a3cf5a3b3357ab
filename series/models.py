"""A series: the same players play an agreed number of games; the fool deals the next one,
and whoever was the fool least often wins."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: The agreed number of games when nobody says otherwise, and the most a series may have.
DEFAULT_GAMES = 5
MAX_GAMES = 500


class Series(models.Model):
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    games_agreed = models.PositiveSmallIntegerField(default=DEFAULT_GAMES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return f"Series {self.pk} ({self.games_agreed} games)"


class SeriesGame(models.Model):
    """Game number ``number`` (1, 2, ...) of a series."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="series_entry")
    number = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["series", "number"], name="series_game_unique_number")]
        ordering = ["series", "number"]

    def __str__(self) -> str:
        return f"game {self.number} of series {self.series_id}"


#: How long an offer of a rematch waits for every player's answer.
REMATCH_OFFER_LIFETIME = timedelta(days=1)


class RematchOffer(models.Model):
    """A player of a finished game proposes the next one; it starts once every player has
    accepted (``series.services.rematch_accept``). The offerer (and every computer player) has
    accepted from the start. At most one offer of a game is open or accepted at a time: a
    declined or expired one leaves room for a new offer."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for answers")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        EXPIRED = "expired", _("expired")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rematch_offers")
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    #: The series length proposed; unused when the game's series goes on (its length is agreed).
    games_agreed = models.PositiveSmallIntegerField(default=DEFAULT_GAMES)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    #: Who declined, and when it was declined, accepted by the last player, or found expired.
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    next_game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status__in=["open", "accepted"]),
                name="rematch_one_live_offer_per_game",
            ),
            models.CheckConstraint(
                condition=models.Q(status="accepted") | models.Q(next_game__isnull=True),
                name="rematch_next_game_only_when_accepted",
            ),
        ]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"rematch offer {self.pk} after game {self.game_id} ({self.status})"


class RematchAcceptance(models.Model):
    """One player's yes to an offer."""

    offer = models.ForeignKey(RematchOffer, on_delete=models.CASCADE, related_name="acceptances")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["offer", "user"], name="rematch_one_acceptance_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} accepts rematch offer {self.offer_id}"
