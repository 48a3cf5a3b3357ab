"""Games, their seats and their append-only move logs.

The engine's full state lives in ``Game.state`` and is the truth; ``Seat``
columns (``awaiting_move``, ``result``, ``place``) are copies of it kept for
queries such as "my games, those waiting for me first". Replaying the move
log from the seed (or the stacked ``deal``) gives ``state`` back; the
``check_replays`` command verifies that.

``seed``, ``deal`` and ``state`` hold hidden cards: pages and APIs read only
``durak.Game.view(player)``, never these columns.
"""

from datetime import timedelta
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

import durak

#: Move times from this long up are correspondence play: vacations and weekend pauses apply.
CORRESPONDENCE_FROM = timedelta(hours=1)


#: A game's tournament round, if it is one's (``tournaments.Table``, the reverse one-to-one
#: ``Game.tournament_table``): read with the game row by whatever names the tournament.
TOURNAMENT_TABLE = "tournament_table__round__tournament"


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("game status", "open")
        ACTIVE = "active", pgettext_lazy("game status", "active")
        FINISHED = "finished", pgettext_lazy("game status", "finished")
        ABORTED = "aborted", pgettext_lazy("game status", "aborted")

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
    moves_made = models.PositiveIntegerField(
        default=0,
        help_text="How many Move rows the game has: the next one is numbered moves_made + 1 "
        "(games.write), so a move never counts the log.",
    )
    seed = models.BigIntegerField(help_text="Secret: the shuffle seed.")
    deal = models.JSONField(
        null=True, blank=True, help_text="Secret: a stacked deal used instead of the seed (tests)."
    )
    dealer = models.PositiveSmallIntegerField(default=0)
    first_game = models.BooleanField(
        default=True,
        help_text="False for the later games of a series: the engine's own rule picks the first attacker.",
    )
    seed_hash = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="Public: sha256 of the deal's canonical string, fixed when the cards are dealt "
        "(replays.fairness); the seed itself is shown only once the game is over.",
    )
    state = models.JSONField(null=True, blank=True, help_text="Secret: durak.Game.to_dict().")
    move_time = models.DurationField(
        null=True, blank=True, help_text="Time for each move; empty for no time control."
    )
    pause_weekends = models.BooleanField(
        default=False, help_text="Correspondence clocks stop on each player's Saturday and Sunday."
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="The earliest seat deadline: what the timeout sweep looks at."
    )
    private = models.BooleanField(
        default=False, help_text="Not listed in the lobby: seats are taken by invitation or share link."
    )
    invite_token = models.CharField(
        max_length=32, blank=True, default="", help_text="Secret of the share link that lets anyone join."
    )
    bot_level = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="Computer players of this level (accounts.BOT_LEVELS) may take empty seats; empty: people only.",
    )

    # Who may join (set by the creator; ``games.limits`` decides, the lobby hides the rest).
    #: A tournament may be unrated (``tournaments``): its games change no rating or stat.
    rated = models.BooleanField(
        default=True, help_text="Counted in the players' ratings and stats (stats.services.game_finished)."
    )
    join_friends_only = models.BooleanField(
        default=False, help_text="Only friends of the creator may take a seat."
    )
    join_min_reliability = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Only players whose reliability is at least this many percent (new players: no).",
    )
    join_rating_min = models.IntegerField(
        null=True, blank=True, help_text="Only players rated at least this (the rating shown, in its mode)."
    )
    join_rating_max = models.IntegerField(
        null=True, blank=True, help_text="Only players rated at most this (the rating shown, in its mode)."
    )
    join_language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        help_text="Only players whose site language is this; empty: any.",
    )

    claim_warn_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a claim of this game without a clock becomes possible, if nobody moves before: "
        "the players it would be against are told then, once (notifications' claim warning sweep).",
    )

    class Meta:
        # Nothing a move changes is indexed here, so a move's update of the row stays in its
        # page (HOT): the sweeps find deadlines and claim warnings through ``GameTimer``.
        indexes = [models.Index(fields=["status", "-created_at"], name="game_lobby_idx")]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.preset}, {self.status})"

    @cached_property
    def has_teams(self) -> bool:
        """Whether its players play in two teams (the engine's ``durak.Rules.has_teams``)."""
        return durak.Rules.from_dict(self.rules).has_teams

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def engine(self, *, fresh: bool = False) -> durak.Game:
        """The engine game of the stored ``state`` (which must be set): the one way the site turns
        a stored game into a ``durak.Game``.

        By default it is made once for this instance and this state, and read only: the write core
        hands over the one it has just played (:meth:`hold_engine`), so a move's answer, its view and
        its claim build no second one; assigning or refreshing ``state`` makes a new one.
        ``fresh=True``: a new game of the caller's own, never held, for code that applies actions
        to it (``games.write.apply``, tests that play on)."""
        assert self.state is not None, "the game has not started"
        if fresh:
            return durak.Game.from_dict(self.state)
        held = self.__dict__.get("_held_engine")
        if held is None or held[0] is not self.state:
            held = (self.state, durak.Game.from_dict(self.state))
            self.__dict__["_held_engine"] = held
        return held[1]

    def hold_engine(self, engine: durak.Game) -> None:
        """``engine`` is what ``state`` now stores (just written from it): :meth:`engine` gives
        it back until the state is replaced (a refresh, the next change)."""
        self.__dict__["_held_engine"] = (self.state, engine)

    @property
    def time_control(self) -> str:
        """ "none", "live" (seconds or minutes a move) or "correspondence" (an hour or more)."""
        if self.move_time is None:
            return "none"
        return "correspondence" if self.move_time >= CORRESPONDENCE_FROM else "live"


class GameTimer(models.Model):
    """When a game has to be looked at next, in a row of its own: its ``deadline`` (the timeout
    sweep) and its ``claim_warn_at`` (the claim warning sweep), each indexed. A copy the
    database keeps (triggers on ``games_game``, migration ``0014_game_timer``): a row while
    either is set, none once both are cleared, whatever wrote the game (a move, a queryset
    ``update``, a bulk insert). The game's own columns stay the truth and are read everywhere
    else; only the sweeps' searches go through here. Nothing in Python writes it.

    Why: a move rewrites the game's row, and most moves move one of the two; indexed on the
    game they kept PostgreSQL from updating that row in place (HOT), so every move wrote a new
    version and index entries (issue 32, ``benchmarks.hot_updates``)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="timer")
    deadline = models.DateTimeField(null=True, blank=True)
    claim_warn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["deadline"], name="timer_deadline_idx", condition=models.Q(deadline__isnull=False)
            ),
            models.Index(
                fields=["claim_warn_at"],
                name="timer_claim_warn_idx",
                condition=models.Q(claim_warn_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"Timer of game {self.game_id}"


class Seat(models.Model):
    class Result(models.TextChoices):
        NONE = "", pgettext_lazy("seat result", "playing")
        OUT = "out", pgettext_lazy("seat result", "went out")
        FOOL = "fool", pgettext_lazy("seat result", "fool")
        DRAW = "draw", pgettext_lazy("seat result", "draw")
        WON = (
            "won",
            pgettext_lazy("seat result", "won"),
        )  # not the fool, still holding cards when a timeout or resignation ended it

    # No index of their own: (game, position), (game, user) and (user, game) below lead with
    # them, and every index more is one more entry each non-HOT update writes.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    position = models.PositiveSmallIntegerField(help_text="The engine's player number.")
    awaiting_move = models.BooleanField(
        default=False, help_text="The engine waits for this player (copied after every move)."
    )
    must_move = models.BooleanField(
        default=False,
        help_text="The game cannot go on without this player's move (the engine's must_act(), copied "
        "after every move): a game waiting for their move. Waited for but not this: they may act.",
    )
    result = models.CharField(max_length=8, choices=Result.choices, default=Result.NONE, blank=True)
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 for the first player out, and so on."
    )
    #: How this player left a finished game before its end, if they did: the engine's
    #: ``Outcome.reason`` when its ``Outcome.player`` is this seat's (``games.write``). What
    #: reliability counts (``games.reliability``).
    left_by = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=[
            ("", pgettext_lazy("how a player left", "did not leave")),
            ("timeout", pgettext_lazy("how a player left", "ran out of time")),
            ("resign", pgettext_lazy("how a player left", "resigned")),
            ("claim", pgettext_lazy("how a player left", "claimed against")),
        ],
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    turn_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the game last started waiting for this player."
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When this player runs out of time (set by the services)."
    )
    warn_at = models.DateTimeField(
        null=True, blank=True, help_text="When to warn that time is almost up (80% used); cleared once sent."
    )
    last_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player last opened the game's page."
    )
    seen_moves = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="How many moves of the log the player has seen on screen (the page shown, visible); "
        "empty until they first looked. The history marks the others' moves after these as new.",
    )
    present_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The player has the game's page open and visible until then (its heartbeat moves it "
        "on; hidden, it is cleared): no 'your move' is written, mailed or pushed meanwhile.",
    )

    class Meta:
        # A seat's update is in place (HOT: benchmarks/hot_updates.py) only if no indexed column
        # changes: so no index on ``deadline`` (the timeout sweep reads ``Game.deadline``), which a
        # clocked move changes in every seat it waits for. ``awaiting_move`` (the header's count)
        # and ``warn_at`` (the reminder sweep) keep theirs: docs/scale.md.
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [
            models.Index(fields=["user", "-awaiting_move"], name="seat_my_games_idx"),
            # A player's game ids without reading their seat rows (index-only scans): "my games",
            # the profile's count of running games (benchmarks/scale.py).
            models.Index(fields=["user", "game"], name="seat_user_game_idx"),
            models.Index(fields=["warn_at"], name="seat_warn_idx", condition=models.Q(warn_at__isnull=False)),
        ]
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.user} at seat {self.position} of game {self.game_id}"


class Move(models.Model):
    """One applied engine action. Rows are only ever added, never changed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(help_text="1, 2, 3, ... within the game.")
    position = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Seat that chose the action; empty for actions of the server (a timeout), "
        "whose player is in the action.",
    )
    action = models.JSONField()
    events = models.JSONField(
        default=list,
        blank=True,
        help_text="What the action led to, as the engine reported it (durak.Game.events): public facts "
        "only (a bout's end and its cards, draws as counts, who went out, a trump swap, the end).",
    )
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


class Vacation(models.Model):
    """Whole days, in the player's time zone, on which their correspondence clocks stand still.

    Limited to ``settings.VACATION_DAYS_PER_YEAR`` days per calendar year; taken through
    ``games.services.vacation_take``.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    starts_on = models.DateField()
    ends_on = models.DateField(help_text="The last day of the vacation (inclusive).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="vacation_order"
            ),
        ]
        indexes = [models.Index(fields=["user", "ends_on"], name="vacation_user_idx")]
        ordering = ["starts_on"]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts_on}..{self.ends_on}"

    @property
    def days(self) -> int:
        return (self.ends_on - self.starts_on).days + 1


class Invitation(models.Model):
    """A user invited by name to take a seat (also in a private game)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="invitation_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} invited to game {self.game_id}"
