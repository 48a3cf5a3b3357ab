"""Time controls: when each player's time runs out, and what pauses it.

The engine says whom a game waits for and what a timeout does; this module only
says *when*. After every change each player the engine waits for gets the full
move time again (``set_deadlines``); in correspondence games (a move time of an
hour or more) the clock stands still on that player's vacation days and, if the
game says so, on their Saturdays and Sundays, both counted in the player's own
time zone. Applying a timeout is ``services.game_timeout`` / ``services.sweep_expired``.
"""

import logging
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from durak_site.celery import publish_on_commit

from . import versions
from .exceptions import GameError
from .models import Game, Seat, Vacation

logger = logging.getLogger(__name__)

#: Shares (percent) of a correspondence move time after which a "time almost up" reminder goes
#: out, each at most once per turn (``notifications.services.send_time_warnings``; a reminder's
#: ``params["share"]`` records which one it was). ``Seat.warn_at`` is when the next one is due.
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


def _vacation_days(user_id: int, since: date) -> set[date]:
    days: set[date] = set()
    for starts_on, ends_on in Vacation.objects.filter(user_id=user_id, ends_on__gte=since).values_list(
        "starts_on", "ends_on"
    ):
        days.update(starts_on + timedelta(days=n) for n in range((ends_on - starts_on).days + 1))
    return days


def pauses_for(game: Game, user: User, since: datetime) -> Callable[[date], bool] | None:
    """The days on which ``user``'s clock stands still in ``game`` (None: it never does)."""
    if game.time_control != "correspondence":
        return None
    away = _vacation_days(user.pk, since.astimezone(user.tz).date() - timedelta(days=1))
    weekends = game.pause_weekends
    if not away and not weekends:
        return None
    return lambda day: day in away or (weekends and day.weekday() >= 5)


def set_deadlines(game: Game, seats: Iterable[Seat], *, now: datetime, restart: bool = True) -> None:
    """Set each seat's deadline from its ``awaiting_move`` flag and the game's move time,
    and ``game.deadline`` to the earliest. The caller saves seats and game.

    ``restart``: every waited-for player gets the full move time again from ``now`` (after
    a move); otherwise the clocks keep their start (a vacation was added) and only the
    deadlines are recomputed.
    """
    earliest: datetime | None = None
    for seat in seats:
        # A computer player has no clock: it is never timed out (games.bots re-queues a lost move).
        if (
            not seat.awaiting_move
            or game.move_time is None
            or game.status != Game.Status.ACTIVE
            or seat.user.is_bot
        ):
            seat.turn_started_at = seat.deadline = seat.warn_at = None
            continue
        fresh = restart or seat.turn_started_at is None
        if fresh:
            seat.turn_started_at = now
        start = seat.turn_started_at
        assert start is not None
        seat.deadline = deadline_after(
            start, game.move_time, tz=seat.user.tz, paused=pauses_for(game, seat.user, start)
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
    """The shares whose reminders this seat's player got in this turn (one plain read)."""
    if seat.turn_started_at is None or seat.pk is None:
        return set()
    from notifications.services import reminders_sent as sent

    return sent(user_id=seat.user_id, game_id=seat.game_id, since=seat.turn_started_at)


def due_seat(seats: Iterable[Seat], now: datetime) -> Seat | None:
    """The seat whose time ran out first (ties: the lower seat), or None."""
    due = [s for s in seats if s.awaiting_move and s.deadline is not None and s.deadline <= now]
    return min(due, key=lambda s: (s.deadline, s.position)) if due else None


def schedule_timeout(game: Game) -> None:
    """After the commit, queue an ETA task for the game's next deadline if it is near enough;
    the beat sweep covers the rest."""
    if game.deadline is None:
        return
    game_id, version, deadline = game.pk, game.version, game.deadline
    horizon = timedelta(seconds=settings.TIMEOUT_ETA_HORIZON_SECONDS)
    if deadline - timezone.now() > horizon:
        return
    publish_on_commit(lambda: _queue_timeout(game_id, version, deadline), f"apply_timeout({game_id})")


def _queue_timeout(game_id: int, version: int, deadline: datetime) -> None:
    from . import tasks

    # The expiry keeps a message that outlived its deadline by far (a broker down for a day)
    # from running at all: the sweep will have handled that game long before.
    horizon = timedelta(seconds=settings.TIMEOUT_ETA_HORIZON_SECONDS)
    tasks.apply_timeout.apply_async((game_id, version), eta=deadline, expires=deadline + horizon)


def arm_upcoming(*, within: timedelta) -> int:
    """Queue a fresh ETA task for every running game whose deadline falls within ``within``
    from now; returns how many. The beat sweep calls it with a little more than its interval,
    so a deadline whose own ETA message was lost (a killed worker holding it, a broker
    restarted) still fires on time, provided one sweep ran before it; only deadlines that
    expire with no sweep in between wait for the next sweep. A duplicate of a message that was
    not lost does nothing: ``apply_timeout`` re-checks version and deadline under the lock."""
    now = timezone.now()
    upcoming = list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__gt=now, deadline__lte=now + within)
        .order_by("deadline")
        .values_list("pk", "version", "deadline")
    )
    for game_id, version, deadline in upcoming:
        assert deadline is not None  # filtered on it
        _queue_timeout(game_id, version, deadline)
    return len(upcoming)


def local_today(user: User) -> date:
    return timezone.now().astimezone(user.tz).date()


def vacation_days_used(user: User, year: int) -> int:
    first, last = date(year, 1, 1), date(year, 12, 31)
    used = 0
    for vacation in Vacation.objects.filter(user=user, starts_on__lte=last, ends_on__gte=first):
        used += (min(vacation.ends_on, last) - max(vacation.starts_on, first)).days + 1
    return used


@transaction.atomic
def vacation_take(*, user: User, starts_on: date, days: int) -> Vacation:
    """Book ``days`` whole days of vacation from ``starts_on`` (today or later, in the user's
    zone), within ``VACATION_DAYS_PER_YEAR`` per calendar year, and push back the deadlines
    of the user's running correspondence games.

    Locks the user row, so two bookings cannot both squeeze under the limit.
    """
    User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if days < 1:
        raise VacationRefused("A vacation is at least one day.")
    if starts_on < local_today(user):
        raise VacationRefused("A vacation cannot start in the past.")
    ends_on = starts_on + timedelta(days=days - 1)
    if Vacation.objects.filter(user=user, starts_on__lte=ends_on, ends_on__gte=starts_on).exists():
        raise VacationRefused("You already have a vacation on some of those days.")
    limit = settings.VACATION_DAYS_PER_YEAR
    for year in range(starts_on.year, ends_on.year + 1):
        first, last = max(starts_on, date(year, 1, 1)), min(ends_on, date(year, 12, 31))
        wanted = (last - first).days + 1
        used = vacation_days_used(user, year)
        if used + wanted > limit:
            raise VacationRefused(
                f"That is {wanted} day(s) in {year}, and you have {limit - used} of your {limit} left."
            )
    vacation = Vacation.objects.create(user=user, starts_on=starts_on, ends_on=ends_on)
    game_ids = list(
        Seat.objects.filter(
            user=user, awaiting_move=True, game__status=Game.Status.ACTIVE, game__move_time__isnull=False
        ).values_list("game_id", flat=True)
    )
    for game_id in game_ids:
        recompute_deadlines(game_id=game_id)
    return vacation


def recompute_deadlines(*, game_id: int) -> None:
    """Recompute a running game's deadlines from their clocks' starts (after a vacation was
    booked). Locks the game row; bumps the version, so a pending ETA task for the old deadline
    does nothing and the open pages redraw."""
    from .services import _lock_game

    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.ACTIVE or game.move_time is None:
            return
        seats = list(game.seats.select_related("user"))
        set_deadlines(game, seats, now=timezone.now(), restart=False)
        Seat.objects.bulk_update(seats, ["turn_started_at", "deadline", "warn_at"])
        game.version += 1
        game.save(update_fields=["deadline", "version", "updated_at"])
        versions.publish(game.pk, game.version)
        schedule_timeout(game)


def vacation_days_left(user: User) -> int:
    """Vacation days the user can still book this (local) year."""
    return max(0, int(settings.VACATION_DAYS_PER_YEAR) - vacation_days_used(user, local_today(user).year))
