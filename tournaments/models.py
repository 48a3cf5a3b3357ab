"""A tournament's rows: the tournament, its players, its rounds and each round's tables.

What a tournament decides (who meets whom, the standings) is ``tournaments.pairing``'s, pure;
what happens to these rows is ``tournaments.services``'s. A table's game is an ordinary
``games.Game``: its result is read from the game's seats, never copied here.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

#: Correspondence means an hour a move or more; below that a tournament is live.
CORRESPONDENCE_FROM = timedelta(hours=1)


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")
        TABLES = "tables", _("table rounds")

    class Status(models.TextChoices):
        REGISTRATION = "registration", pgettext_lazy("tournament status", "registration")
        RUNNING = "running", pgettext_lazy("tournament status", "under way")
        FINISHED = "finished", pgettext_lazy("tournament status", "finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament status", "cancelled")

    class Scoring(models.TextChoices):
        #: 1 point to each player who is not the fool.
        NOT_FOOL = "not_fool", _("1 point to each player who is not the fool")
        #: At a table of n: n-1 points to the first out, n-2 to the next, ... 0 to the fool.
        PLACES = "places", _("points by place (the first out scores most)")

    name = models.CharField(max_length=80)
    description = models.TextField(max_length=1000, blank=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    official = models.BooleanField(default=False, help_text="Marked by a moderator.")
    format = models.CharField(max_length=12, choices=Format.choices)
    preset = models.CharField(max_length=32)
    rule_overrides = models.JSONField(default=dict, blank=True)
    rules = models.JSONField(help_text="The full durak.Rules.to_dict() every game is played with.")
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="Players a game: 2 for Swiss and round robin, 3 to 6 for table rounds."
    )
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.NOT_FOOL)
    move_time = models.DurationField(help_text="Each player's time for each move.")
    round_time = models.DurationField(
        null=True,
        blank=True,
        help_text="Live: each round's scheduled length; the next round opens at its end (or when "
        "its last game ends, if later). Correspondence: empty; the next round opens as soon as "
        "every game of the round has ended.",
    )
    rounds = models.PositiveSmallIntegerField(
        help_text="Round robin: set from the number of players at the start."
    )
    max_players = models.PositiveIntegerField(default=64)
    registration_opens_at = models.DateTimeField()
    starts_at = models.DateTimeField(help_text="Registration closes and round 1 opens.")
    rating_min = models.IntegerField(null=True, blank=True)
    rating_max = models.IntegerField(null=True, blank=True)
    min_reliability = models.PositiveSmallIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    round_number = models.PositiveSmallIntegerField(default=0, help_text="The round under way (0: none yet).")
    next_round_at = models.DateTimeField(
        null=True, blank=True, help_text="Live: when the round under way is scheduled to end."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: Told once each (``tournaments.services.sweep``): registration open, closing soon.
    opening_told = models.BooleanField(default=False)
    closing_told = models.BooleanField(default=False)
    #: Moves on with every change the tournament's page shows (live push, ETag).
    version = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["status", "starts_at"],
                name="tournament_due_idx",
                condition=Q(status__in=["registration", "running"]),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=6), name="tournament_table_size_range"
            ),
            models.CheckConstraint(
                condition=Q(starts_at__gte=models.F("registration_opens_at")),
                name="tournament_registration_before_start",
            ),
        ]
        ordering = ["-starts_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def live(self) -> bool:
        return self.move_time < CORRESPONDENCE_FROM

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.CANCELLED}


class Player(models.Model):
    """A registration. Withdrawn players keep their row (and their results) but are not paired."""

    class Withdrawn(models.TextChoices):
        NO = "", pgettext_lazy("tournament withdrawal", "playing")
        BY_PLAYER = "player", pgettext_lazy("tournament withdrawal", "withdrew")
        TIMEOUTS = "timeouts", pgettext_lazy("tournament withdrawal", "ran out of time twice in a row")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    #: The rating the pairing seeds by, read when the tournament starts.
    seed_rating = models.IntegerField(default=0)
    withdrawn = models.CharField(max_length=8, choices=Withdrawn.choices, default=Withdrawn.NO, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    #: The final standings' rank, written when the tournament finishes (the podium on profiles).
    final_rank = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_unique")
        ]
        indexes = [
            models.Index(
                fields=["user", "final_rank"], name="tournament_podium_idx", condition=Q(final_rank__lte=3)
            )
        ]
        ordering = ["registered_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    opened_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Live: the scheduled end.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_unique")
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    """One game of a round, or a bye (no game, one player, who scores as for a win)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    board = models.PositiveSmallIntegerField(help_text="1 for the top table, and so on.")
    game = models.OneToOneField(
        "games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    bye = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="tournament_table_unique_board"),
            models.CheckConstraint(
                condition=Q(game__isnull=True, bye__isnull=False) | Q(game__isnull=False, bye__isnull=True),
                name="tournament_table_game_or_bye",
            ),
        ]
        ordering = ["round", "board"]

    def __str__(self) -> str:
        return f"board {self.board} of {self.round}"
