"""A series: the same players play an agreed number of games; the fool deals the next one,
and whoever was the fool least often wins."""

from django.conf import settings
from django.db import models

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
