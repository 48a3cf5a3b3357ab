"""Reads of the play-now queue and of presence, for the pages and the API."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import BooleanField, Count, ExpressionWrapper
from django.utils import timezone

from accounts import presence, relations
from accounts.models import User

from .models import QueueEntry
from .services import Bucket

#: The most names the lobby lists of who is online (the count is always whole).
ONLINE_LISTED = 20


@dataclass(frozen=True)
class Waiting:
    """A bucket of the queue and how many wait in it."""

    preset: str
    num_players: int
    time_control: str
    count: int

    @property
    def bucket(self) -> Bucket:
        return (self.preset, self.num_players, self.time_control)


@dataclass(frozen=True)
class QueueState:
    """What the play-now block shows one viewer."""

    #: The viewer's entry: waiting, or matched with a game that is still running; else None.
    entry: QueueEntry | None
    #: The others waiting with the viewer, in the order they joined, each with ``online``.
    waiting_with: list[User] = field(default_factory=list)
    #: Every bucket someone waits in, the most crowded first.
    buckets: list[Waiting] = field(default_factory=list)
    #: The people online but the viewer (who knows they are here): a visitor is nobody to leave out.
    online_count: int = 0
    #: Up to ``ONLINE_LISTED`` of them, the most recently active first.
    online: list[User] = field(default_factory=list)

    @property
    def waiting(self) -> bool:
        return self.entry is not None and self.entry.status == QueueEntry.Status.WAITING

    @property
    def matched_game_id(self) -> int | None:
        if self.entry is not None and self.entry.status == QueueEntry.Status.MATCHED:
            return self.entry.game_id
        return None

    @property
    def seats_left(self) -> int:
        if self.entry is None:
            return 0
        return max(0, self.entry.num_players - 1 - len(self.waiting_with))


def current_entry(*, user: Any) -> QueueEntry | None:
    """The user's entry while it matters: waiting, or matched to a game not over yet."""
    if not getattr(user, "is_authenticated", False):
        return None
    entry = QueueEntry.objects.filter(user_id=user.pk).select_related("game").first()
    if entry is None:
        return None
    if entry.status == QueueEntry.Status.MATCHED and (entry.game is None or entry.game.is_over):
        return None
    return entry


def waiting_buckets() -> list[Waiting]:
    rows = (
        QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
        .values("preset", "num_players", "time_control")
        .annotate(count=Count("pk"))
        .order_by("-count", "preset", "num_players", "time_control")
    )
    return [Waiting(**row) for row in rows]


def waiting_with(*, entry: QueueEntry, now: datetime | None = None) -> list[User]:
    """The other players waiting in ``entry``'s bucket, each with ``online`` set: only as their
    privacy settings let ``entry``'s player see it (``accounts.relations.presence_shown``)."""
    now = now or timezone.now()
    shown = relations.presence_shown(entry.user_id, prefix="user__", id_field="user_id")
    entries = (
        QueueEntry.objects.filter(
            status=QueueEntry.Status.WAITING,
            preset=entry.preset,
            num_players=entry.num_players,
            time_control=entry.time_control,
        )
        .exclude(user_id=entry.user_id)
        .select_related("user")
        .annotate(presence_shown=ExpressionWrapper(shown, output_field=BooleanField()))
        .order_by("joined_at", "pk")
    )
    others = []
    for other in entries:
        user = other.user
        user.online = bool(other.presence_shown) and presence.is_online(user, now=now)  # type: ignore[attr-defined]
        others.append(user)
    return others


def queue_state(*, user: Any, now: datetime | None = None, joined: QueueEntry | None = None) -> QueueState:
    """Everything the play-now block shows ``user`` (anyone, signed in or not): five queries at
    most, whatever the size of the queue. ``joined``: the entry a join of ``user`` just made, as
    the join left it, shown instead of the one stored now (a join of the same player at the same
    moment may have replaced it already: each join is answered with its own)."""
    now = now or timezone.now()
    entry = joined if joined is not None else current_entry(user=user)
    # Only those who let the reader see them (``accounts.relations.presence_shown``), in the
    # same query: a privacy setting of "nobody", "friends" for a stranger, or a block.
    online = presence.online_users(now=now).filter(relations.presence_shown(user))
    if getattr(user, "is_authenticated", False):
        online = online.exclude(pk=user.pk)
    return QueueState(
        entry=entry,
        waiting_with=waiting_with(entry=entry, now=now)
        if entry is not None and entry.status == QueueEntry.Status.WAITING
        else [],
        buckets=waiting_buckets(),
        online_count=online.count(),
        online=list(online[:ONLINE_LISTED]),
    )


def waited(entry: QueueEntry, *, now: datetime | None = None) -> timedelta:
    return (now or timezone.now()) - entry.joined_at
