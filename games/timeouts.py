"""Time controls: when each player's time runs out, and what pauses it.

The engine says whom a game waits for, what a timeout does and which actions are moves
(``durak.is_move``); this module only says *when*. After every move each player the engine
waits for gets the full move time again (``set_deadlines``); after a preference (which is no
move) only a player the game starts waiting for gets a clock, and the others keep theirs. Every
waited-for player's seat says since when the game has waited for them (``turn_started_at``,
clock or not): what a claim's wait is measured from (``services.waited_since``). In correspondence games (a move time of an
hour or more) the clock stands still on that player's vacation days and, if the
game says so, on their Saturdays and Sundays, both counted in the player's own
time zone. Applying a timeout is ``services.game_timeout`` / ``services.sweep_expired``
(through ``games.write``).

This module sits beneath ``games.write``, which calls it on every change: it reads and
computes, never locks or saves a game, and queues its task by name (``games.tasks`` is the top
of the app: it imports the services, which import the write core, which imports this).
"""

import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from accounts.models import User
from durak_site.celery import app

from . import hooks
from .exceptions import GameError
from .models import Game, Seat, Vacation

logger = logging.getLogger(__name__)

#: Shares (percent) of a correspondence move time after which a "time almost up" reminder goes
#: out, each at most once per turn (notifications' ``send_time_warnings``, a ``hooks.sweep``
#: step; a reminder's ``params["share"]`` records which one it was). ``Seat.warn_at`` is when the next one is due.
REMINDER_SHARES = (50, 90)
#: A deadline never lies further than this many paused days ahead (guards the day walk).
_MAX_DAYS = 3 * 366


class VacationRefused(GameError):
    pass


def deadline_after(
    start: datetime, move_time: timedelta, *, tz: ZoneInfo, paused: Callable[[date], bool] | None = None
) -> datetime:
    """``start`` plus ``move_time`` of running clock, the clock stopping on every local day
    of ``tz`` for which ``paused(day)`` is true.

    >>> from zoneinfo import ZoneInfo
    >>> friday_noon = datetime(2025, 1, 3, 12, tzinfo=UTC)
    >>> str(deadline_after(friday_noon, timedelta(days=1), tz=ZoneInfo("UTC")))
    '2025-01-04 12:00:00+00:00'
    >>> weekend = lambda day: day.weekday() >= 5
    >>> str(deadline_after(friday_noon, timedelta(days=1), tz=ZoneInfo("UTC"), paused=weekend))
    '2025-01-06 12:00:00+00:00'
    """
    if paused is None:
        return start + move_time
    remaining = move_time
    moment = start.astimezone(UTC)
    for _ in range(_MAX_DAYS + move_time.days + 2):
        day = moment.astimezone(tz).date()
        # Aware arithmetic in UTC: subtracting two times of one zone would ignore DST changes.
        next_midnight = datetime.combine(day + timedelta(days=1), time(), tzinfo=tz).astimezone(UTC)
        if not paused(day):
            left_today = next_midnight - moment
            if remaining <= left_today:
                return moment + remaining
            remaining -= left_today
        moment = next_midnight
    return moment + remaining


#: The annotation ``with_clock_facts`` puts on each seat of a correspondence game: its user has
#: a vacation that has not ended (one that may pause their clock).
MAY_BE_AWAY = "clock_may_be_away"


def with_clock_facts(seats: QuerySet[Seat], game: Game) -> QuerySet[Seat]:
    """``seats`` of ``game`` with what ``set_deadlines`` needs to know in the same query: for a
    correspondence game, whether each player has a vacation that has not ended (an ``EXISTS``),
    so that a move reads the vacations only of players who have one (``vacations_of``)."""
    if game.time_control != "correspondence":
        return seats
    # Two days' margin: a vacation's days are in the player's zone, up to a day off UTC's.
    current = Vacation.objects.filter(
        user_id=OuterRef("user_id"), ends_on__gte=_utc_today() - timedelta(days=2)
    )
    return seats.annotate(**{MAY_BE_AWAY: Exists(current)})


def _utc_today() -> date:
    return timezone.now().astimezone(UTC).date()


def vacations_of(user_ids: Iterable[int], since: date) -> dict[int, set[date]]:
    """The vacation days from ``since`` on (a day early, at least) of each of these users, in
    one query; a user with none is left out."""
    users = sorted(set(user_ids))
    days: dict[int, set[date]] = {}
    if not users:
        return days
    rows = Vacation.objects.filter(user_id__in=users, ends_on__gte=since).values_list(
        "user_id", "starts_on", "ends_on"
    )
    for user_id, starts_on, ends_on in rows:
        days.setdefault(user_id, set()).update(
            starts_on + timedelta(days=n) for n in range((ends_on - starts_on).days + 1)
        )
    return days


def pauses_for(
    game: Game, user: User, since: datetime, *, away: set[date] | None = None
) -> Callable[[date], bool] | None:
    """The days on which ``user``'s clock stands still in ``game`` (None: it never does).
    ``away``: the user's vacation days, if the caller read them (else one query)."""
    if game.time_control != "correspondence":
        return None
    if away is None:
        away = vacations_of([user.pk], since.astimezone(user.tz).date() - timedelta(days=1)).get(
            user.pk, set()
        )
    weekends = game.pause_weekends
    if not away and not weekends:
        return None
    return lambda day: day in away or (weekends and day.weekday() >= 5)


def waited_since(game: Game, seats: Iterable[Seat]) -> datetime | None:
    """Since when ``game`` has waited on the players it waits for now: the latest of their
    seats' ``turn_started_at`` (a move starts every waited-for player's wait again; a preference,
    which is no move, only that of a player it starts waiting for: :func:`set_deadlines`).
    None for a game that is not running."""
    if game.status != Game.Status.ACTIVE:
        return None
    starts = [seat.turn_started_at for seat in seats if seat.awaiting_move and seat.turn_started_at]
    return max(starts, default=game.started_at)


def _clocked(game: Game, seat: Seat) -> bool:
    # A computer player has no clock: it is never timed out (games.bots re-queues a lost move).
    return (
        seat.awaiting_move
        and game.move_time is not None
        and game.status == Game.Status.ACTIVE
        and not seat.user.is_bot
    )


def _vacations_for(game: Game, seats: list[Seat], *, now: datetime, restart: bool) -> Mapping[int, set[date]]:
    """The vacation days of the players whose clocks ``set_deadlines`` sets, in one query: none
    for a game not played by correspondence, and, for clocks that start ``now``, none when no
    such player may be away (``with_clock_facts`` said so)."""
    if game.time_control != "correspondence":
        return {}
    clocked = [seat for seat in seats if _clocked(game, seat)]
    if restart:
        clocked = [seat for seat in clocked if getattr(seat, MAY_BE_AWAY, True)]
    if not clocked:
        return {}
    starts = [now if restart or seat.turn_started_at is None else seat.turn_started_at for seat in clocked]
    since = min(starts).astimezone(UTC).date() - timedelta(days=2)
    return vacations_of((seat.user_id for seat in clocked), since)


def set_deadlines(game: Game, seats: Iterable[Seat], *, now: datetime, restart: bool = True) -> None:
    """Set each seat's ``turn_started_at`` and deadline from its ``awaiting_move`` flag and the
    game's move time, and ``game.deadline`` to the earliest. The caller saves seats and game.

    ``restart``: every waited-for player starts waiting again from ``now``, with the full move
    time (after a move); otherwise those already waited for keep their start (after a preference,
    or a vacation added), only a player the game starts waiting for starts now, and the deadlines
    are recomputed.
    """
    seats = list(seats)
    away = _vacations_for(game, seats, now=now, restart=restart)
    earliest: datetime | None = None
    for seat in seats:
        if not (seat.awaiting_move and game.status == Game.Status.ACTIVE):
            seat.turn_started_at = seat.deadline = seat.warn_at = None
            continue
        fresh = restart or seat.turn_started_at is None
        if fresh:
            seat.turn_started_at = now
        if not _clocked(game, seat):
            seat.deadline = seat.warn_at = None
            continue
        assert game.move_time is not None  # _clocked
        start = seat.turn_started_at
        assert start is not None
        seat.deadline = deadline_after(
            start,
            game.move_time,
            tz=seat.user.tz,
            paused=pauses_for(game, seat.user, start, away=away.get(seat.user_id, set())),
        )
        if game.time_control != "correspondence":
            seat.warn_at = None  # a live game's page is open: no reminder
        elif fresh:
            seat.warn_at = reminder_at(seat, REMINDER_SHARES[0])
        elif seat.warn_at is not None:  # a reminder of this turn is still to go: its new moment
            seat.warn_at = next_reminder_at(seat, after=max(reminders_sent(seat), default=0))
        earliest = seat.deadline if earliest is None else min(earliest, seat.deadline)
    game.deadline = earliest


def reminder_at(seat: Seat, share: int) -> datetime:
    """When ``share`` percent of the seat's time for this turn has run (clock pauses included).

    >>> start = datetime(2026, 3, 2, 12, tzinfo=UTC)
    >>> seat = Seat(turn_started_at=start, deadline=start + timedelta(hours=10))
    >>> [str(reminder_at(seat, share).time()) for share in REMINDER_SHARES]
    ['17:00:00', '21:00:00']
    """
    assert seat.turn_started_at is not None and seat.deadline is not None
    return seat.turn_started_at + (seat.deadline - seat.turn_started_at) * share / 100


def next_reminder_at(seat: Seat, *, after: int) -> datetime | None:
    """When the first reminder of a share above ``after`` is due this turn, or None."""
    later = [share for share in REMINDER_SHARES if share > after]
    return reminder_at(seat, later[0]) if later else None


def reminder_due(seat: Seat, now: datetime) -> tuple[int | None, datetime | None]:
    """For a seat whose ``warn_at`` has passed: which reminder to send now (a share, or None if
    every one of this turn went), and when the next is due (the new ``warn_at``). A sweep that
    comes late sends only the latest share that has passed: no "half your time" at 95%."""
    pending = [share for share in REMINDER_SHARES if share > max(reminders_sent(seat), default=0)]
    if not pending or seat.turn_started_at is None or seat.deadline is None:
        return None, None
    passed = [share for share in pending if reminder_at(seat, share) <= now]
    share = max(passed) if passed else pending[0]
    return share, next_reminder_at(seat, after=share)


def reminders_sent(seat: Seat) -> set[int]:
    """The shares whose reminders this seat's player got in this turn (``hooks.reminders_sent``:
    notifications answers, with one plain read)."""
    if seat.turn_started_at is None or seat.pk is None:
        return set()
    sent: set[int] = set()
    for answer in hooks.reminders_sent:
        sent |= answer(user_id=seat.user_id, game_id=seat.game_id, since=seat.turn_started_at)
    return sent


def due_seat(seats: Iterable[Seat], now: datetime) -> Seat | None:
    """The seat whose time ran out first (ties: the lower seat), or None."""
    due = [s for s in seats if s.awaiting_move and s.deadline is not None and s.deadline <= now]
    return min(due, key=lambda s: (s.deadline, s.position)) if due else None


def eta_wanted(deadline: datetime | None) -> bool:
    """Whether a deadline is near enough for an ETA task of its own (``TIMEOUT_ETA_HORIZON_SECONDS``);
    the beat sweep covers the rest, so a far deadline sends no broker message."""
    horizon = timedelta(seconds=settings.TIMEOUT_ETA_HORIZON_SECONDS)
    return deadline is not None and deadline - timezone.now() <= horizon


def queue_timeout(game_id: int, version: int, deadline: datetime) -> None:
    """Queue ``games.tasks.apply_timeout`` for the game at ``version`` to run at ``deadline``
    (after a commit: ``games.write`` registers it). By the task's name: see the module's note."""
    # The expiry keeps a message that outlived its deadline by far (a broker down for a day)
    # from running at all: the sweep will have handled that game long before.
    horizon = timedelta(seconds=settings.TIMEOUT_ETA_HORIZON_SECONDS)
    app.signature(APPLY_TIMEOUT, args=(game_id, version)).apply_async(
        eta=deadline, expires=deadline + horizon
    )


#: The task that applies a due timeout (``games.tasks.apply_timeout``).
APPLY_TIMEOUT = "games.tasks.apply_timeout"


def arm_upcoming(*, within: timedelta) -> int:
    """Queue a fresh ETA task for every running game whose deadline falls within ``within``
    from now; returns how many. The beat sweep calls it with a little more than its interval,
    so a deadline whose own ETA message was lost (a killed worker holding it, a broker
    restarted) still fires on time, provided one sweep ran before it; only deadlines that
    expire with no sweep in between wait for the next sweep. A duplicate of a message that was
    not lost does nothing: ``apply_timeout`` re-checks version and deadline under the lock."""
    now = timezone.now()
    upcoming = list(
        Game.objects.filter(
            status=Game.Status.ACTIVE, timer__deadline__gt=now, timer__deadline__lte=now + within
        )
        .order_by("timer__deadline")
        .values_list("pk", "version", "deadline")
    )
    for game_id, version, deadline in upcoming:
        assert deadline is not None  # filtered on it
        queue_timeout(game_id, version, deadline)
    return len(upcoming)


def local_today(user: User) -> date:
    return timezone.now().astimezone(user.tz).date()


def vacation_days_used(user: User, year: int) -> int:
    first, last = date(year, 1, 1), date(year, 12, 31)
    used = 0
    for vacation in Vacation.objects.filter(user=user, starts_on__lte=last, ends_on__gte=first):
        used += (min(vacation.ends_on, last) - max(vacation.starts_on, first)).days + 1
    return used


def vacation_days_left(user: User) -> int:
    """Vacation days the user can still book this (local) year."""
    return max(0, int(settings.VACATION_DAYS_PER_YEAR) - vacation_days_used(user, local_today(user).year))
