"""Reads of games. Everything a page shows of a running game comes from
``durak.Game.view(player)`` through ``game_view``; nothing here returns hidden cards.
"""

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

import durak
from accounts.models import User

from .exceptions import GameNotFound
from .models import Game, Invitation, Move, Seat

_SEATS_WITH_USERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


def game_version(*, game_id: int) -> int | None:
    """The game's version alone: one query, no state loaded (for polling)."""
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def game_get(*, game_id: int) -> Game:
    """The game with its seats and their users (two queries)."""
    try:
        return Game.objects.prefetch_related(_SEATS_WITH_USERS).get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(f"There is no game {game_id}.") from None


def seat_of(*, game: Game, user: User | Any) -> Seat | None:
    """The user's seat in a game fetched by ``game_get`` (no query)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


@dataclass(frozen=True)
class GameView:
    """What one user may see of a game: the engine's view for their seat (or a spectator's)."""

    game: Game
    seat: Seat | None
    view: dict[str, Any] | None  # None until the game has started

    @property
    def position(self) -> int | None:
        return None if self.seat is None else self.seat.position


def game_view(*, game: Game, user: User | Any) -> GameView:
    seat = seat_of(game=game, user=user)
    if game.state is None:
        return GameView(game=game, seat=seat, view=None)
    engine = durak.Game.from_dict(game.state)
    return GameView(game=game, seat=seat, view=engine.view(None if seat is None else seat.position))


def lobby_open_games(*, limit: int = 50) -> QuerySet[Game]:
    return (
        Game.objects.filter(status=Game.Status.OPEN, private=False)
        .select_related("creator")
        .prefetch_related(_SEATS_WITH_USERS)
        .order_by("-created_at")[:limit]
    )


def user_games(*, user: User, limit: int = 50) -> QuerySet[Game]:
    """The user's open, running and recently finished games: those waiting for their move first."""
    my_turn = Seat.objects.filter(game=OuterRef("pk"), user=user, awaiting_move=True)
    return (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.ABORTED)
        .annotate(
            my_turn=Exists(my_turn),
            status_order=Case(
                When(status=Game.Status.ACTIVE, then=Value(0)),
                When(status=Game.Status.OPEN, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
        )
        .prefetch_related(_SEATS_WITH_USERS)
        .order_by("-my_turn", "status_order", "-updated_at")[:limit]
    )


def game_list(
    *,
    user: User,
    status: str | None = None,
    mine: bool = False,
    waiting_for_me: bool = False,
    open_to_join: bool = False,
) -> QuerySet[Game]:
    """Games newest first, narrowed by every filter given; hidden columns are not loaded.

    ``mine``: the user has a seat. ``waiting_for_me``: running and the engine waits for the
    user. ``open_to_join``: open, with a free seat, and the user not seated yet.
    """
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    invited = Invitation.objects.filter(game=OuterRef("pk"), user=user)
    # A private game is listed only to its players and invitees (the lobby lists none).
    games = Game.objects.defer("state", "seed", "deal").filter(
        Q(private=False) | Exists(seated) | Exists(invited)
    )
    if status:
        games = games.filter(status=status)
    if mine:
        games = games.filter(Exists(seated))
    if waiting_for_me:
        games = games.filter(Exists(seated.filter(awaiting_move=True)), status=Game.Status.ACTIVE)
    if open_to_join:
        taken = Seat.objects.filter(game=OuterRef("pk")).values("game").annotate(n=Count("pk")).values("n")
        games = (
            games.filter(status=Game.Status.OPEN)
            .exclude(Exists(seated))
            .annotate(seats_taken=Coalesce(Subquery(taken), 0))
            .filter(seats_taken__lt=F("num_players"))
        )
    return games.select_related("creator").prefetch_related(_SEATS_WITH_USERS).order_by("-created_at", "-pk")


def game_moves(*, game_id: int) -> QuerySet[Move]:
    """The game's move log in order. Every logged action is public: played cards lie face up."""
    return Move.objects.filter(game_id=game_id).order_by("seq")


@dataclass(frozen=True)
class Clock:
    """One running deadline, as a viewer reads it."""

    name: str
    position: int
    deadline: datetime
    local: str  # in the viewer's time zone, with the zone's name
    mine: bool


def game_clocks(*, game: Game, seats: list[Seat], viewer: User | Any) -> list[Clock]:
    """The deadlines of the players the game waits for (no query: seats come with their users)."""
    if game.status != Game.Status.ACTIVE:
        return []
    authenticated = getattr(viewer, "is_authenticated", False)
    tz = viewer.tz if authenticated else ZoneInfo("UTC")
    zone = viewer.time_zone if authenticated else "UTC"
    return [
        Clock(
            name=seat.user.username,
            position=seat.position,
            deadline=seat.deadline,
            local=f"{seat.deadline.astimezone(tz):%a %d %b, %H:%M:%S} ({zone})",
            mine=authenticated and seat.user_id == viewer.pk,
        )
        for seat in sorted(seats, key=lambda s: (s.deadline or datetime.max.replace(tzinfo=UTC), s.position))
        if seat.awaiting_move and seat.deadline is not None
    ]
