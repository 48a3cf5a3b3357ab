"""Each player's record and rating, kept as aggregated rows.

Rows are written by ``stats.services.game_finished`` in the transaction that finishes a
game, and can be rebuilt from the finished games (``manage.py rebuild_stats``) with the
same numbers: both go through ``stats.ledger.Ledger``. Pages read these rows, never loop
over games. Aborted games never count.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Mode(models.TextChoices):
    """Ratings are kept apart for games with and without transfers."""

    THROW_IN = "throw_in", _("throw-in")
    TRANSFER = "transfer", _("transfer")


class CountedGame(models.Model):
    """A finished game that has been counted: it is never counted twice."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True, related_name="+")
    mode = models.CharField(max_length=16, choices=Mode.choices)
    counted_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"counted game {self.game_id}"


class PlayerStats(models.Model):
    """One player's record over all games, the games of one preset, or of one number of players."""

    class Scope(models.TextChoices):
        ALL = "all", _("all games")
        PRESET = "preset", _("preset")
        PLAYERS = "players", _("number of players")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats")
    scope = models.CharField(max_length=8, choices=Scope.choices)
    key = models.CharField(
        max_length=32, blank=True, default="", help_text="The preset or number of players."
    )
    games = models.PositiveIntegerField(default=0)
    fools = models.PositiveIntegerField(
        default=0, help_text="Times the fool (a team's loss counts for both)."
    )
    draws = models.PositiveIntegerField(default=0)
    went_out = models.PositiveIntegerField(default=0, help_text="Games in which the player shed all cards.")
    place_total = models.PositiveIntegerField(default=0, help_text="Sum of places out, over went_out games.")
    current_streak = models.PositiveIntegerField(default=0, help_text="Games not lost in a row, up to now.")
    best_streak = models.PositiveIntegerField(default=0)
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "scope", "key"], name="player_stats_unique"),
        ]
        verbose_name = _("player stats")
        verbose_name_plural = _("player stats")

    def __str__(self) -> str:
        return f"stats of {self.user_id} ({self.scope} {self.key})"

    @property
    def fool_rate(self) -> float | None:
        return self.fools / self.games if self.games else None

    @property
    def average_place(self) -> float | None:
        return self.place_total / self.went_out if self.went_out else None

    @property
    def not_lost(self) -> int:
        return self.games - self.fools


class PairStats(models.Model):
    """Two players' games together: head-to-head records and the rating-farming check.
    ``low`` is always the player with the smaller id."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    low_fools = models.PositiveIntegerField(default=0)
    high_fools = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    low_ahead = models.PositiveIntegerField(default=0, help_text="Games where low finished better than high.")
    high_ahead = models.PositiveIntegerField(default=0)
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="pair_stats_unique"),
            models.CheckConstraint(condition=models.Q(low__lt=models.F("high")), name="pair_stats_ordered"),
        ]
        indexes = [models.Index(fields=["high"], name="pair_stats_high_idx")]
        verbose_name = _("pair stats")
        verbose_name_plural = _("pair stats")

    def __str__(self) -> str:
        return f"{self.low_id} and {self.high_id}: {self.games} games"


class Rating(models.Model):
    """An openskill (Plackett-Luce) rating in one mode; ``players`` 0 is over every number of
    players, 2..6 over the games of that size only (for the leaderboard's filter)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    mode = models.CharField(max_length=16, choices=Mode.choices)
    players = models.PositiveSmallIntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text=_("mu - 3 sigma: the conservative rating shown and sorted on."))
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "mode", "players"], name="rating_unique"),
        ]
        indexes = [models.Index(fields=["mode", "players", "-ordinal"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.mode}/{self.players}: {self.ordinal:.1f}"

    #: A rating is provisional while it has fewer games than this behind it ...
    PROVISIONAL_GAMES = 10
    #: ... or while its uncertainty is still above this (openskill starts every player at 25/3,
    #: about 8.3; ten two-player games bring it to about 6.4).
    PROVISIONAL_SIGMA = 6.5

    @property
    def provisional(self) -> bool:
        """Too few games for the number to mean much: shown marked, and listed apart on the
        leaderboard (after one game a player reads -1.8 +/- 24.2).

        >>> Rating(mu=22.4, sigma=8.07, ordinal=-1.8, games=1).provisional
        True
        >>> Rating(mu=30.3, sigma=6.4, ordinal=11.1, games=10).provisional
        False
        """
        return self.games < self.PROVISIONAL_GAMES or self.sigma > self.PROVISIONAL_SIGMA


class RatingChange(models.Model):
    """A rating after one game: the rating history."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    mode = models.CharField(max_length=16, choices=Mode.choices)
    players = models.PositiveSmallIntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    delta = models.FloatField(help_text="Change of the ordinal in this game.")
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["user", "mode", "players", "-at"], name="rating_change_user_idx"),
            # The profile's history (all modes, players=0, newest first): an ordered index scan
            # that stops after the rows shown, not a scan of every change (benchmarks/scale.py).
            models.Index(fields=["user", "players", "-at", "-id"], name="rating_change_history_idx"),
        ]
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id} after game {self.game_id}: {self.ordinal:.1f}"
