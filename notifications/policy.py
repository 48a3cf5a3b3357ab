"""When a notification may interrupt its player: one policy for e-mails and pushes.

The bell row of a notification is always written (``services.notify``); whether it also goes
out by e-mail or push is decided here, by the e-mail task and the push task just before they
send, never when the change is made:

- **Nothing while looking.** While the player has the game's page open and visible
  (``present``: the page says so, ``games.services.seat_presence``) no "your move" is even
  written for it: the page shows it.
- **Quiet while watching.** Nothing is sent about a game the player has open, or was active
  in during the last ``NOTIFY_QUIET_MINUTES``: the game page marks the seat seen when it opens,
  and its table poll refreshes that mark while it stays open, at most every 30 seconds, and
  whenever it is shown a change (the live stream makes it poll on every change)
  (``Seat.last_seen_at``, ``games.services.seat_watching``). Such a player's bell rows are
  written already read.
- **Coalesced.** Every e-mail and push waits ``NOTIFY_COALESCE_SECONDS`` (``send_delay``)
  before it is decided. The "your move"s of one player that are pending then go out as one
  message: the e-mail and the push each claim all of them in one UPDATE (``services``,
  ``push_batch``).
- **Once per game start.** A tournament's game is announced by its round's notification
  (``tournament_news``), never by a "game started" as well.
- **Per channel.** The player's preferences for the kind; a "your move" e-mail never with the
  daily digest; a "time almost up" reminder by push when the player chose push and has a
  browser subscribed, else by e-mail.

``should_send`` only reads, without locks: the e-mail claim (``services``) and the push claim
(``push_batch``) decide with it inside their own short transactions (docs/locking.md).

Beneath the push and the services, which ask it; above the models and ``vapid`` (whether the
site pushes), the only modules of the app it imports.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from tournaments.models import Table

from . import vapid
from .models import Kind, Notification, Preferences, PushSubscription

EMAIL = "email"
PUSH = "push"
#: Kinds about a turn: worth sending only while the game still cannot go on without the player.
TURN_KINDS = frozenset({Kind.YOUR_MOVE, Kind.TIME_LOW})


class _Unset:
    """``should_send``'s seat not given: it reads it."""


_UNSET = _Unset()


def quiet_since(now: datetime) -> datetime:
    """Activity in a game after this moment keeps its notifications quiet."""
    return now - timedelta(minutes=settings.NOTIFY_QUIET_MINUTES)


def send_delay() -> float:
    """Seconds an e-mail or push task waits before it decides (the coalescing window)."""
    return float(settings.NOTIFY_COALESCE_SECONDS)


def watching(seat: Seat | None, *, now: datetime | None = None) -> bool:
    """Whether the seat's player has the game open, or was active in it in the last
    ``NOTIFY_QUIET_MINUTES``.

    >>> from datetime import UTC
    >>> noon = datetime(2026, 3, 2, 12, tzinfo=UTC)
    >>> watching(Seat(last_seen_at=noon - timedelta(minutes=1)), now=noon)
    True
    >>> watching(Seat(last_seen_at=noon - timedelta(minutes=10)), now=noon)
    False
    >>> watching(Seat(last_seen_at=None), now=noon), watching(None, now=noon)
    (False, False)
    """
    if seat is None or seat.last_seen_at is None:
        return False
    return seat.last_seen_at >= quiet_since(now or timezone.now())


def present(seat: Seat | None, *, now: datetime | None = None) -> bool:
    """Whether the seat's player has the game's page open and visible now
    (``Seat.present_until``, kept by the page: ``games.services.seat_presence``). No "your move"
    is written, mailed or pushed for such a game: the page shows it.

    >>> from datetime import UTC
    >>> noon = datetime(2026, 3, 2, 12, tzinfo=UTC)
    >>> present(Seat(present_until=noon + timedelta(seconds=30)), now=noon)
    True
    >>> present(Seat(present_until=noon - timedelta(seconds=1)), now=noon), present(None, now=noon)
    (False, False)
    """
    if seat is None or seat.present_until is None:
        return False
    return seat.present_until > (now or timezone.now())


#: Where a user's preferences are kept once read with the user (``select_related`` of the
#: reverse one-to-one, as ``services.with_notification_facts`` does): None when they have none.
_LOADED = User.notification_preferences.related


def preferences_of(user: User) -> Preferences:
    """The user's preferences (the defaults, unsaved, for a user who never changed them): those
    read with the user if they were, else one query."""
    return preferences_of_each([user])[user.pk]


def preferences_of_each(users: Iterable[User]) -> dict[int, Preferences]:
    """:func:`preferences_of` for several users, by id: one query for those whose preferences
    were not read with them, none if all were."""
    found: dict[int, Preferences] = {}
    unread: list[User] = []
    for user in users:
        if _LOADED.is_cached(user):
            found[user.pk] = cast(Preferences | None, _LOADED.get_cached_value(user)) or Preferences(
                user=user
            )
        else:
            unread.append(user)
    if unread:
        saved = {
            prefs.user_id: prefs for prefs in Preferences.objects.filter(user_id__in=[u.pk for u in unread])
        }
        found.update({user.pk: saved.get(user.pk) or Preferences(user=user) for user in unread})
    return found


def reminders_by_push(user: User, prefs: Preferences) -> bool:
    """Whether the user's "time almost up" reminders go by push (then not by e-mail): the site
    pushes, they chose it and have a browser subscribed."""
    return (
        vapid.enabled()
        and prefs.wants_push(Kind.TIME_LOW)
        and PushSubscription.objects.filter(user_id=user.pk).exists()
    )


def should_send(
    *,
    user: User,
    game: Game | None,
    channel: str,
    kind: str,
    seat: Seat | _Unset | None = _UNSET,
    prefs: Preferences | None = None,
    now: datetime | None = None,
) -> bool:
    """Whether a notification of ``kind`` about ``game`` may reach ``user`` by ``channel``
    (``EMAIL`` or ``PUSH``) now. ``seat`` (the user's in ``game``) and ``prefs`` save a query
    each when the caller has them. Plain reads, no lock."""
    if user.is_bot or not user.is_active:
        return False
    prefs = prefs or preferences_of(user)
    if channel == EMAIL:
        if not user.email or not prefs.wants_email(kind):
            return False
        if kind == Kind.YOUR_MOVE and prefs.daily_digest:
            return False
        if kind == Kind.TIME_LOW and reminders_by_push(user, prefs):
            return False
    elif channel == PUSH:
        if not prefs.wants_push(kind):
            return False
    else:
        raise ValueError(f"unknown channel {channel!r}")
    if game is None:
        return True
    if kind == Kind.GAME_STARTED and Table.objects.filter(game_id=game.pk).exists():
        # A tournament's game: its start is the round's news (``tournament_news.round_opened``).
        return False
    if isinstance(seat, _Unset):
        seat = Seat.objects.filter(game=game, user=user).first()
    if watching(seat, now=now) or present(seat, now=now):
        return False
    if kind in TURN_KINDS:  # while the game cannot go on without them (``Seat.must_move``)
        return seat is not None and seat.must_move and game.status == Game.Status.ACTIVE
    if kind == Kind.CLAIM_POSSIBLE:  # while the game still waits for them
        return seat is not None and seat.awaiting_move and game.status == Game.Status.ACTIVE
    return True


def push_batch(notification: Notification, *, now: datetime | None = None) -> list[Notification] | None:
    """What the push of ``notification`` to one browser should carry, now that its task's turn
    has come (the coalescing window after it was written): None to send nothing, else the
    notifications it reports. Call with no transaction open; the caller then pushes.

    Anything but a "your move" is itself or nothing (``should_send``). The "your move"s of a
    player are claimed as e-mails are: the first task whose turn comes claims, in one UPDATE,
    every pending "your move" of the player that is due (``should_send``; the newest row of
    each game), marking them ``pushed_by`` its notification (and ``pushed_with`` its
    ``created_at``), and drops, in one more, those no longer due (``pushed_by`` 0). That task,
    and the same notification's tasks for the player's other browsers, push the claimed batch
    ("It's your move in 3 games"); the tasks of the notifications it carried push nothing. A
    "your move" moved up by a later turn is pending again (``services.notify``).

    Locks (docs/locking.md): the player's advisory lock of "your move" claims (the e-mail claims
    take it too: :func:`your_move_claims_take_turns`), then the notification's own row (waited for: what holds it, an email claim or a move, waits for
    nothing a push claim holds), then the others, by the two UPDATEs, with ``SKIP LOCKED``;
    never a game or a seat.
    """
    now = now or timezone.now()
    user, game = notification.user, notification.game
    prefs = preferences_of(user)
    if notification.kind != Kind.YOUR_MOVE or game is None:
        if should_send(user=user, game=game, channel=PUSH, kind=notification.kind, prefs=prefs, now=now):
            return [notification]
        return None
    with transaction.atomic():
        your_move_claims_take_turns(user_id=user.pk)
        batch = _claimed_by(notification)
        if batch:  # claimed already, for another of the player's browsers (or a try that failed)
            due, _gone = split_due(user=user, rows=batch, channel=PUSH, prefs=prefs, now=now)
            return due or None
        # Its own row is waited for, never skipped: the email claim of the same "your move"
        # (services._claim_your_moves) holds it for a moment, which must not cost the push.
        state = (
            Notification.objects.select_for_update()
            .filter(pk=notification.pk)
            .values_list("pushed_by", "created_at")
            .first()
        )
        if state is None or state[0] is not None or state[1] != notification.created_at:
            return None  # carried by another push, dropped, or moved up since it was read
        subscribed = PushSubscription.objects.filter(user_id=user.pk).order_by("created").first()
        since = max(now - timedelta(days=1), subscribed.created if subscribed else now)
        pending = list(
            Notification.objects.select_related("game")
            .filter(user=user, kind=Kind.YOUR_MOVE, game__isnull=False, pushed_by=None)
            .filter(Q(pk=notification.pk) | Q(created_at__gte=since))
            .order_by("-created_at", "-pk")
        )
        due, dropped = split_due(user=user, rows=pending, channel=PUSH, prefs=prefs, now=now)
        if dropped:
            _free_as_read(dropped).update(pushed_by=0)
        if due:
            _free_as_read(due).update(pushed_by=notification.pk, pushed_with=notification.created_at)
        return _claimed_by(notification) or None


def split_due(
    *,
    user: User,
    rows: list[Notification],
    channel: str,
    prefs: Preferences,
    now: datetime,
    besides: set[int] | None = None,
    seats: dict[int, Seat] | None = None,
) -> tuple[list[Notification], list[Notification]]:
    """Of a player's "your move" notifications, newest first: those that may go by ``channel``
    now (``should_send``), the newest of each game, and the rest. ``besides``: games that must
    not (for e-mail: those emailed since the player last opened them). ``seats``: the player's,
    by game, if the caller has read them (else one query)."""
    if seats is None:
        seats = {
            seat.game_id: seat
            for seat in Seat.objects.filter(user=user, game_id__in={n.game_id for n in rows})
        }
    taken = set(besides or ())
    due: list[Notification] = []
    rest: list[Notification] = []
    for row in rows:
        game_id = row.game_id or 0
        if game_id not in taken and should_send(
            user=user,
            game=row.game,
            channel=channel,
            kind=Kind.YOUR_MOVE,
            seat=seats.get(game_id),
            prefs=prefs,
            now=now,
        ):
            due.append(row)
            taken.add(game_id)  # an older row of this game is reported by this one
        else:
            rest.append(row)
    return due, rest


def _claimed_by(notification: Notification) -> list[Notification]:
    """The notifications the push of ``notification`` claimed (as it is now), itself first."""
    rows = list(
        Notification.objects.select_related("user", "game")
        .filter(user_id=notification.user_id, pushed_by=notification.pk, pushed_with=notification.created_at)
        .order_by("-created_at", "-pk")
    )
    return sorted(rows, key=lambda row: row.pk != notification.pk)


def _free_as_read(rows: list[Notification]) -> QuerySet[Notification]:
    """Those of ``rows`` still pending as they were read (same ``created_at``) that no other
    transaction holds, for one UPDATE (``FOR UPDATE SKIP LOCKED`` in a subquery)."""
    as_read = Q(pk__in=[])
    for row in rows:
        as_read |= Q(pk=row.pk, created_at=row.created_at)
    free = (
        Notification.objects.filter(as_read, pushed_by=None).select_for_update(skip_locked=True).values("pk")
    )
    return Notification.objects.filter(pk__in=free)


def your_move_claims_take_turns(*, user_id: int) -> None:
    """Until the end of the transaction, no other claim of this player's "your move"s, e-mail or
    push (PostgreSQL's transaction-level advisory lock; SQLite runs one writer anyway).

    One lock for both: the e-mail and the push tasks of a "your move" have the same countdown and
    run side by side, and each claims the player's other due rows with ``SKIP LOCKED``. With a
    lock each, a push skipped the rows the e-mail claim held for that moment and the player got
    two pushes ("in 2 games", then one more) instead of one. Taken first, holding no row."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"notifications.your_move_claims:{user_id}"]
        )
