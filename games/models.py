"""Games, their seats and their append-only move logs.

The engine's full state lives in ``Game.state`` and is the truth; ``Seat``
columns (``awaiting_move``, ``result``, ``place``) are copies of it kept for
queries such as "my games, those waiting for me first". Replaying the move
log from the seed (or the stacked ``deal``) gives ``state`` back; the
``check_replays`` command verifies that.

``seed``, ``deal`` and ``state`` hold hidden cards: pages and APIs read only
``durak.Game.view(player)``, never these columns.
"""

from typing import Any

from django.conf import settings
from django.db import models


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        ACTIVE = "active", "active"
        FINISHED = "finished", "finished"
        ABORTED = "aborted", "aborted"

    preset = models.CharField(max_length=32)
    rule_overrides = models.JSONField(default=dict, blank=True)
    rules = models.JSONField(help_text="The full durak.Rules.to_dict() the game is played with.")
    num_players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every change a player can see; moves name the one they saw."
    )
    seed = models.BigIntegerField(help_text="Secret: the shuffle seed.")
    deal = models.JSONField(
        null=True, blank=True, help_text="Secret: a stacked deal used instead of the seed (tests)."
    )
    dealer = models.PositiveSmallIntegerField(default=0)
    state = models.JSONField(null=True, blank=True, help_text="Secret: durak.Game.to_dict().")

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="game_lobby_idx"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.preset}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class Seat(models.Model):
    class Result(models.TextChoices):
        NONE = "", "playing"
        OUT = "out", "went out"
        FOOL = "fool", "fool"
        DRAW = "draw", "draw"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="The engine's player number.")
    awaiting_move = models.BooleanField(
        default=False, help_text="The engine waits for this player (copied after every move)."
    )
    result = models.CharField(max_length=8, choices=Result.choices, default=Result.NONE, blank=True)
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 for the first player out, and so on."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [
            models.Index(fields=["user", "-awaiting_move"], name="seat_my_games_idx"),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.user} at seat {self.position} of game {self.game_id}"


class Move(models.Model):
    """One applied engine action. Rows are only ever added, never changed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(help_text="1, 2, 3, ... within the game.")
    position = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seat that acted; empty for actions of the server."
    )
    action = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
        ]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"Move {self.seq} of game {self.game_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("The move log is append-only.")
        super().save(*args, **kwargs)
