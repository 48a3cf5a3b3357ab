"""Writing notifications and sending their emails.

Rows are written inside the transaction of the change they report (the game
services call ``game_changed`` and ``invited``), so a rolled-back move notifies
nobody; a move's "your move"s cost it one statement (``game_changed`` with seats read
``with_notification_facts``). Emails go out afterwards: after the commit
``queue.email_after_commit`` queues ``tasks.send_notification_email`` with the row's id, and
``email_notification`` decides whether it is still worth sending:

- nothing about a game the player has open or was active in during the last
  ``NOTIFY_QUIET_MINUTES``, and every email waits ``NOTIFY_COALESCE_SECONDS`` before it is
  decided (``notifications.policy``, the same rules as for pushes);
- "your move": only while the player is still waited for, and never a second email for a
  game until the player has opened it (``Seat.last_seen_at``) since the last one;
  with ``daily_digest`` there is no such email at all, only the daily list. The "your move"s
  of a player pending when one's turn comes go as one email ("It's your move in 3 games"),
  all claimed in one UPDATE;
- "time almost up": written by ``send_time_warnings`` at 50% and at 90% of a correspondence
  move time, each once per turn, only if the player has not opened the game since their turn
  began; by push instead of email when the player chose push and has a browser subscribed.

**No lock is held while the mail server is talked to** (docs/locking.md). An email is
claimed in a short transaction (``email_claimed_at``), sent with no transaction open, and
recorded as sent (``emailed_at``) by one UPDATE; a move is never made to wait for a mail
server, and a transaction that could be a deadlock's victim never contains a send, so an
email is never sent and then rolled back to be sent again. Each email goes **exactly once**
in normal operation; after a crash between the send and its record it goes **at most once**
(``send_pending_emails`` never resends a claim, see ``EMAIL_CLAIM_TIMEOUT``).

Where it sits (``notifications.queue`` has the app's whole order): above the models, the
policy, the push and ``queue``, beneath the tasks, which call it; the tasks are queued through
``queue``, by name, so nothing here imports them.
"""

import json
import logging
import smtplib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import DatabaseError, connection, transaction
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, QuerySet, Value, When
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

import durak
from accounts import relations
from accounts.models import FriendRequest, User
from durak_site import live
from durak_site.engine_text import preset_name
from games import timeouts
from games.models import Game, Seat
from games.selectors import turn_count_rows, turn_counts_of

from . import messages, policy, push, queue
from .kinds import BATCHED_EMAIL_KINDS, FRIEND_KINDS
from .messages import format_local
from .models import Kind, Notification, Preferences, PushSubscription

logger = logging.getLogger(__name__)

#: A claim this old with no ``emailed_at`` means the sender died (or lost the database) between
#: claiming the email and recording it, perhaps after the mail server took the message. Such an
#: email is never sent again: at most once, as befits a notification (a second "your move" is
#: worse than none; the bell still shows it). ``send_pending_emails`` clears and logs it.
EMAIL_CLAIM_TIMEOUT = timedelta(minutes=10)


#: The annotation ``with_notification_facts`` puts on each seat: its user has a browser subscribed.
PUSH_SUBSCRIBED = "notify_push_subscribed"


def preferences_for(user: User) -> Preferences:
    """The user's preferences (the defaults, unsaved, for a user who never changed them): those
    loaded with the user (``with_notification_facts``) if they were, else one query."""
    return policy.preferences_of(user)


def with_notification_facts(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """``seats`` with everything ``game_changed`` needs read in the same one query: each seat's
    user and their preferences (a LEFT JOIN: a user who never saved any has none, and gets the
    defaults), and whether they have a browser subscribed to pushes (an ``EXISTS`` annotation,
    ``PUSH_SUBSCRIBED``). Seats loaded without it still work, at a few queries more.

    To lock the seats as well, lock only them: ``select_for_update(of=("self",))`` (PostgreSQL
    refuses ``FOR UPDATE`` on the nullable side of the preferences' outer join)."""
    subscribed = PushSubscription.objects.filter(user_id=OuterRef("user_id"))
    return seats.select_related("user", "user__notification_preferences").annotate(
        **{PUSH_SUBSCRIBED: Exists(subscribed)}
    )


def game_url(game_id: int) -> str:
    return f"{settings.SITE_URL}{reverse('games:detail', args=[game_id])}"


@dataclass(frozen=True)
class _Write:
    """One notification to write, as its reader's preferences want it (``_planned``)."""

    user: User
    kind: str
    params: dict[str, Any]
    #: Under the bell: a "your move" then moves up the game's unread one instead of adding one.
    web: bool
    #: Its email is to be sent (decided when its task runs): the user wants it and has an address.
    email_due: bool
    #: Written already read: not for the bell, or about a game its player is watching.
    read_at: datetime | None
    #: Its push task is to be queued: the site pushes, the user wants the kind pushed and has a
    #: browser subscribed (None: whether they have one was not read with the seat).
    push: bool | None
    #: The tournament it is about (``kinds.TOURNAMENT_KINDS``), and its game when not given to
    #: ``row`` (a bulk write of many games' rows: ``notify_each``).
    tournament_id: int | None = None
    game_id: int | None = None

    def row(self, game: Game | None = None) -> Notification:
        notification = Notification(
            user=self.user,
            kind=self.kind,
            read_at=self.read_at,
            email_pending=self.email_due,
            tournament_id=self.tournament_id,
        )
        if game is not None:
            notification.game = game
        else:
            notification.game_id = self.game_id
        notification.set_params(self.params)
        return notification


def _planned(
    *,
    user: User,
    kind: str,
    params: dict[str, Any],
    prefs: Preferences,
    seat: Seat | None,
    push_subscribed: bool | None,
    now: datetime,
) -> _Write | None:
    """What the user's preferences want of one notification, or None for nothing at all. No
    query: ``prefs`` and ``push_subscribed`` are what the caller read."""
    web = prefs.wants_web(kind)
    email = prefs.wants_email(kind) and not (kind == Kind.YOUR_MOVE and prefs.daily_digest)
    pushed = push.wanted(kind, prefs)  # written (already read) even with no browser to push to
    if not web and not email and not pushed:
        return None
    return _Write(
        user=user,
        kind=kind,
        params=params,
        web=web,
        email_due=email and bool(user.email),
        read_at=now if not web or policy.watching(seat, now=now) else None,
        push=push_subscribed if pushed else False,
    )


def notify(
    *,
    user: User,
    kind: str,
    params: dict[str, Any],
    game: Game | None = None,
    prefs: Preferences | None = None,
    seat: Seat | None = None,
    push_subscribed: bool | None = None,
    tournament_id: int | None = None,
) -> Notification | None:
    """Record one notification as the user's preferences want it: under the bell, by email,
    pushed to their devices, any of these or none. One that is not for the bell is stored
    already read (it keeps the email's and the push's record), and so is one about a game its
    player is watching (``seat``, theirs in ``game``: ``policy.watching``), so the bell does not
    count what the open page shows. A "your move" under the bell moves up the game's unread one
    if there is one (one per game). Whether the email or push still goes is decided when its
    task runs (``policy.should_send``); its task is queued after the commit, a push's only if
    the user has a browser subscribed (``push_subscribed``, else one query).

    ``params`` are the facts its sentence is made from (``notifications.messages``), so each
    reader gets it in their own language whenever they read it.

    Called inside the change's transaction, after its seats are written (docs/locking.md)."""
    now = timezone.now()
    write = _planned(
        user=user,
        kind=kind,
        params=params,
        prefs=prefs or preferences_for(user),
        seat=seat,
        push_subscribed=push_subscribed,
        now=now,
    )
    if write is None:
        return None
    write = replace(write, tournament_id=tournament_id)
    if kind == Kind.YOUR_MOVE and game is not None:
        [notification] = _write_turns(game=game, writes=[write], now=now)
    else:
        notification = write.row(game)
        notification.save()
    _queue(writes=[write], rows=[notification])
    return notification


@dataclass(frozen=True)
class News:
    """One notification of a bulk write (``notify_each``): for whom, what, about which game or
    tournament, and the user's seat in that game if the caller read it (``watching``)."""

    user: User
    kind: str
    params: dict[str, Any]
    game_id: int | None = None
    tournament_id: int | None = None
    seat: Seat | None = None
    #: Whether the user has a browser subscribed, if the caller read it (else read here, once).
    push_subscribed: bool | None = None


def notify_each(news: Sequence[News], *, batch_size: int = 1000) -> list[Notification]:
    """:func:`notify` for many notifications at once, in a few statements however many there are:
    the preferences of those whose were not read with them (one query), one INSERT per
    ``batch_size`` rows, one query for who has a browser subscribed (those not known), after the
    commit the e-mail and push tasks and the bells. Not for "your move"s (one per game:
    ``_write_turns``). A computer player's news is dropped. Call inside a transaction."""
    now = timezone.now()
    people = [item for item in news if not item.user.is_bot]
    prefs = policy.preferences_of_each(item.user for item in people)
    writes: list[_Write] = []
    for item in people:
        assert item.kind != Kind.YOUR_MOVE, "a turn folds into the game's row: _write_turns"
        write = _planned(
            user=item.user,
            kind=item.kind,
            params=item.params,
            prefs=prefs[item.user.pk],
            seat=item.seat,
            push_subscribed=item.push_subscribed,
            now=now,
        )
        if write is not None:
            writes.append(replace(write, game_id=item.game_id, tournament_id=item.tournament_id))
    rows = Notification.objects.bulk_create([write.row() for write in writes], batch_size=batch_size)
    _queue(writes=writes, rows=rows)
    return rows


#: A "your move"'s ``params`` key: how many turns it reports, when more than one.
TIMES = "times"


def _write_turns(*, game: Game, writes: Sequence[_Write], now: datetime) -> list[Notification]:
    """Write the "your move"s of ``game`` in one statement, each for another user, returned in
    the order of ``writes``. For a user who has the game under the bell a turn **folds** into
    their "your move" of the game instead of adding a row (one per game, not one per turn:
    "Your move in game 2 (3 turns since you last looked)"): into the unread one (at most one:
    ``notification_one_unread_turn``), which counts one turn more (``params["times"]``), else
    into the latest one that never reached them by e-mail or push (read under the bell, or
    written read while they watched), which starts counting again. It moves up: new facts,
    ``created_at`` now, its push pending again (``pushed_by``/``pushed_with`` unset), read if
    they are watching; its email is pending again only if it was never claimed (decided in the
    statement, on the row as it is then: one sent or being sent is never sent twice). Everyone
    else gets a new row (and a row that was mailed or pushed stays as it was, for the record
    of what went out).

    Why not ``INSERT ... ON CONFLICT``: a row written read (its player watching) lies outside
    the partial unique index, so it could not conflict with the unread one it must replace.
    PostgreSQL runs the UPDATE and the INSERT as one statement (data-modifying CTEs); the game's
    lock, held by the caller, keeps any other move of the game from writing its rows meanwhile.
    Elsewhere (SQLite) a read and a write per row."""
    assert len({write.user.pk for write in writes}) == len(writes), "one seat per player in a game"
    if not writes:
        return []
    if connection.vendor != "postgresql":
        return [_write_turn(game=game, write=write, now=now) for write in writes]
    rows = {write.user.pk: write.row(game) for write in writes}
    values: list[str] = []
    args: list[Any] = []
    for write in writes:
        row = rows[write.user.pk]
        values.append("(%s::bigint, %s, %s::jsonb, %s::timestamptz, %s::boolean, %s::boolean)")
        args += [write.user.pk, row.text, json.dumps(row.params), write.read_at, write.email_due, write.web]
    table = Notification._meta.db_table
    # The row a turn folds into (``_folds_into``): the unread one, else the latest that never
    # reached the player by e-mail or push.
    sql = f"""
        WITH turn (user_id, text, params, read_at, email_due, moves_up) AS (VALUES {", ".join(values)}),
        moved AS (
            UPDATE {table} AS n
            SET text = turn.text, created_at = %s, read_at = turn.read_at,
                params = CASE
                    WHEN n.read_at IS NULL THEN jsonb_set(
                        turn.params, '{{{TIMES}}}', to_jsonb(COALESCE((n.params->>'{TIMES}')::int, 1) + 1)
                    )
                    ELSE turn.params
                END,
                email_pending = CASE
                    WHEN turn.email_due AND n.email_claimed_at IS NULL AND n.emailed_at IS NULL THEN TRUE
                    ELSE n.email_pending
                END,
                pushed_by = NULL, pushed_with = NULL
            FROM turn
            WHERE turn.moves_up AND n.id = (
                SELECT m.id FROM {table} AS m
                WHERE m.user_id = turn.user_id AND m.game_id = %s AND m.kind = %s AND (
                    m.read_at IS NULL
                    OR (m.email_claimed_at IS NULL AND m.emailed_at IS NULL AND COALESCE(m.pushed_by, 0) = 0)
                )
                ORDER BY m.read_at IS NULL DESC, m.created_at DESC, m.id DESC
                LIMIT 1
            )
            RETURNING n.id, n.user_id, n.email_pending, n.emailed_at, n.email_claimed_at
        ),
        added AS (
            INSERT INTO {table} (user_id, kind, game_id, text, params, created_at, read_at, email_pending)
            SELECT turn.user_id, %s, %s, turn.text, turn.params, %s, turn.read_at, turn.email_due
            FROM turn
            WHERE turn.user_id NOT IN (SELECT user_id FROM moved)
            RETURNING id, user_id, email_pending, emailed_at, email_claimed_at
        )
        SELECT * FROM moved UNION ALL SELECT * FROM added
    """
    args += [now, game.pk, Kind.YOUR_MOVE, Kind.YOUR_MOVE, game.pk, now]
    with connection.cursor() as cursor:
        cursor.execute(sql, args)
        written = cursor.fetchall()
    for pk, user_id, email_pending, emailed_at, email_claimed_at in written:
        row = rows[user_id]
        row.pk, row.created_at = pk, now
        row.email_pending, row.emailed_at, row.email_claimed_at = email_pending, emailed_at, email_claimed_at
    return [rows[write.user.pk] for write in writes]


def _write_turn(*, game: Game, write: _Write, now: datetime) -> Notification:
    """``_write_turns`` for one user, in a read and a write (databases other than PostgreSQL)."""
    notification = None
    if write.web:
        notification = (
            Notification.objects.filter(user=write.user, game=game, kind=Kind.YOUR_MOVE)
            .filter(
                Q(read_at__isnull=True)
                | Q(Q(pushed_by=None) | Q(pushed_by=0), email_claimed_at=None, emailed_at=None)
            )
            .order_by(F("read_at").asc(nulls_first=True), "-created_at", "-pk")
            .first()
        )
    if notification is None:
        notification = write.row(game)
        notification.save()
        return notification
    times = int((notification.params or {}).get(TIMES) or 1) + 1 if notification.read_at is None else 1
    notification.set_params({**write.params, TIMES: times} if times > 1 else write.params)
    notification.created_at, notification.read_at = now, write.read_at
    notification.pushed_by = notification.pushed_with = None
    never_claimed = When(email_claimed_at=None, emailed_at=None, then=Value(True))
    pending = Case(never_claimed, default=F("email_pending")) if write.email_due else F("email_pending")
    Notification.objects.filter(pk=notification.pk).update(
        text=notification.text,
        params=notification.params,
        created_at=now,
        email_pending=pending,
        read_at=write.read_at,
        pushed_by=None,
        pushed_with=None,
    )
    return notification


def _queue(*, writes: Sequence[_Write], rows: Sequence[Notification]) -> None:
    """After the commit: each written notification's email task (if due; a duplicate for a row
    already claimed does nothing) and push task (if the user has a browser subscribed: read
    here, in one query, only for writes that did not know), and the bells of those it is for.
    ``rows[i]`` is what ``writes[i]`` wrote."""
    unknown = {write.user.pk for write in writes if write.push is None}
    subscribed = (
        set(PushSubscription.objects.filter(user_id__in=unknown).values_list("user_id", flat=True))
        if unknown
        else set()
    )
    for write, row in zip(writes, rows, strict=True):
        if write.email_due:
            queue.email_after_commit(row.pk)
        if write.push or (write.push is None and write.user.pk in subscribed):
            queue.push_after_commit(row.pk, written_at=row.created_at)
    bells_changed(write.user.pk for write in writes if write.web)


def bell_changed(user_id: int) -> None:
    """:func:`bells_changed` for one user."""
    bells_changed([user_id])


#: Where a transaction keeps the users whose bells it changed (``_PendingBells``), on its connection.
_PENDING_BELLS = "_notifications_pending_bells"


class _PendingBells:
    """The users whose bells one transaction changed: told once each, after its commit."""

    def __init__(self, block: str | None) -> None:
        self.block = block
        self.users: set[int] = set()

    def __call__(self) -> None:
        users, self.users = sorted(self.users), set()
        try:
            _send_bells(users)
        except Exception:
            logger.exception("bell events for %s not sent", users)


def bells_changed(user_ids: Iterable[int]) -> None:
    """Tell these users' open pages that their bells changed, once the transaction commits
    (``durak_site.live``, fail-soft): how many notifications are unread, how many running games
    wait for their move and how many only let them act (``games.selectors.turn_counts``), read
    after the commit, two queries for all of them. Nothing else: a user's channel is theirs
    alone, but the page shows only the counts.

    **One bell event per user per change**: every call in one transaction (the seats whose turn
    flipped, the notifications written, read) adds its users to one after-commit send, so a
    player who becomes waited for and gets a "your move" hears one event, not two."""
    users = set(user_ids)
    if not users:
        return
    connection_ = transaction.get_connection()
    if not connection_.in_atomic_block:
        _send_bells(sorted(users))
        return
    # One send per outermost block of the change: the transaction, or the first savepoint of it
    # when the caller's transaction holds several changes (a test's, a bulk script's).
    block = connection_.savepoint_ids[0] if connection_.savepoint_ids else None
    pending: _PendingBells | None = getattr(connection_, _PENDING_BELLS, None)
    # Registered in this block still? Gone once it committed or rolled back (or the savepoint
    # it was registered in did): then a new one.
    if (
        pending is None
        or pending.block != block
        or not any(entry[1] is pending for entry in connection_.run_on_commit)
    ):
        pending = _PendingBells(block)
        setattr(connection_, _PENDING_BELLS, pending)
        transaction.on_commit(pending)
    pending.users |= users


def _send_bells(users: list[int]) -> None:
    """Each user's bell: their unread notifications and the games waiting for them, both counted
    in one statement (a ``UNION ALL`` of the two counts)."""
    if not users:
        return
    zero = Value(0, output_field=IntegerField())
    unread_rows = (
        Notification.objects.filter(user_id__in=users, read_at__isnull=True)
        .order_by()
        .values("user_id")
        .annotate(unread=Count("pk"), total=zero, must=zero)
        .values_list("user_id", "unread", "total", "must")
    )
    rows = list(unread_rows.union(turn_count_rows(users, unread=zero), all=True))
    unread = {user_id: n for user_id, n, _total, _must in rows if n}
    turns = turn_counts_of([(user_id, total, must) for user_id, n, total, must in rows if not n], users)
    for user_id in users:
        live.send(
            live.user_channel(user_id),
            "bell",
            {
                "unread": unread.get(user_id, 0),
                "waiting": turns[user_id].waiting,
                "optional": turns[user_id].optional,
            },
        )


def _push_subscribed(seat: Seat) -> bool | None:
    """Whether the seat's user has a browser subscribed, if it was read with the seat
    (``with_notification_facts``); None if not."""
    subscribed = getattr(seat, PUSH_SUBSCRIBED, None)
    return None if subscribed is None else bool(subscribed)


def game_changed(
    *,
    game: Game,
    seats: Sequence[Seat],
    newly_waiting: Iterable[Seat],
    started: bool,
    finished: bool,
    outcome: durak.Outcome | None = None,
) -> None:
    """The notifications one change of a game causes (called by the game services, in their
    transaction, with the game row locked and the seats written): game started, game finished
    with each player's result (from ``outcome``, the engine's ``Game.outcome()``; from the
    stored state if not given), your move for each of ``newly_waiting`` (among ``seats``).

    With ``seats`` loaded through ``with_notification_facts`` nothing is read: a running change
    costs one statement however many players it waits for (``_write_turns``), a start or an end
    one more (one INSERT of every player's row). Seats loaded without the facts cost a query
    for the preferences and one for the push subscriptions. Emails, pushes and bells are
    queued for after the commit (``_queue``)."""
    now = timezone.now()
    people = [seat for seat in seats if not seat.user.is_bot]  # a computer player reads none
    prefs = policy.preferences_of_each(seat.user for seat in people)

    def planned(seat: Seat, kind: str, params: dict[str, Any]) -> _Write | None:
        if seat.user_id not in prefs:
            return None  # a computer player
        return _planned(
            user=seat.user,
            kind=kind,
            params=params,
            prefs=prefs[seat.user_id],
            seat=seat,
            push_subscribed=_push_subscribed(seat),
            now=now,
        )

    news: list[_Write | None] = []
    if started:
        news += [planned(seat, Kind.GAME_STARTED, {"game": game.pk}) for seat in people]
    if finished:
        if outcome is None:
            outcome = game.engine().outcome()
        users = {seat.position: seat.user for seat in seats}
        news += [
            planned(
                seat,
                Kind.GAME_FINISHED,
                messages.result_params(
                    game=game.pk, position=seat.position, outcome=outcome, users=users, teams=game.has_teams
                ),
            )
            for seat in people
        ]
    writes = [write for write in news if write is not None]
    rows = Notification.objects.bulk_create([write.row(game) for write in writes]) if writes else []
    if not finished:
        turns = [
            planned(seat, Kind.YOUR_MOVE, {"game": game.pk, "deadline": _iso(seat.deadline)})
            for seat in newly_waiting
            if not policy.present(seat, now=now)  # the open, visible page shows it: nothing at all
        ]
        turn_writes = [write for write in turns if write is not None]
        # Written after the start's rows, and dated so: e-mails go in the order written
        # (``_send_earlier_first``), "game 20 has started" before "your move in game 20".
        rows += _write_turns(game=game, writes=turn_writes, now=timezone.now())
        writes += turn_writes
    _queue(writes=writes, rows=rows)


def _iso(moment: datetime | None) -> str:
    return moment.isoformat() if moment is not None else ""


def invited(*, game: Game, user: User, invited_by: User) -> None:
    notify(
        user=user,
        kind=Kind.INVITED,
        game=game,
        params={"game": game.pk, "by": invited_by.username, "preset": game.preset},
    )


def friend_requested(*, request: FriendRequest, **_signal: Any) -> None:
    """ "alice asks to be your friend" (``accounts.relations.friend_requested``, sent after the
    request's commit, never for a request from a player the recipient blocked)."""
    _about_a_player(user=request.recipient, kind=Kind.FRIEND_REQUEST, by=request.sender)


def friend_accepted(*, by: User, requester: User, **_signal: Any) -> None:
    """ "alice accepted your friend request", to the one who asked (after the accept's commit)."""
    _about_a_player(user=requester, kind=Kind.FRIEND_ACCEPTED, by=by)


def _about_a_player(*, user: User, kind: str, by: User) -> None:
    """A notification about another player, not a game, as the user's preferences want it; none
    between two players kept apart by a block (a block made since the signal was queued)."""
    if relations.blocks_between(user, [by]):
        return
    with transaction.atomic():
        notify(user=user, kind=kind, params={"by": by.username})


def friends_url() -> str:
    return f"{settings.SITE_URL}{reverse('club:friends')}"


def rematch_offered(*, game: Game, user: User, params: dict[str, Any]) -> None:
    """An offer of a rematch ("alice offers a rematch") after the finished ``game``
    (``series.services.rematch_offer``), a kind of its own (``Kind.REMATCH``, with its own
    choices in the settings). ``params``: ``game``, ``by``, ``preset`` and ``rematch`` (the
    series length proposed; 0 when the game's series goes on)."""
    notify(user=user, kind=Kind.REMATCH, game=game, params=params)


def game_seen(*, game_id: int, user_id: int) -> None:
    """Read the user's notifications of the game, skipping rows another transaction holds (a move
    writing them): waiting for them joined lock cycles with moves; those are read next visit.
    Call inside a transaction (``FOR UPDATE SKIP LOCKED``)."""
    unread = Notification.objects.filter(user_id=user_id, game_id=game_id, read_at__isnull=True)
    free = unread.select_for_update(skip_locked=True).values("pk")
    if Notification.objects.filter(pk__in=free).update(read_at=timezone.now()):
        bell_changed(user_id)


def mark_read(*, user: User, notification_id: int | None = None) -> int:
    """Mark one of the user's notifications read, or all of them (``None``)."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        unread = unread.filter(pk=notification_id)
    read = unread.update(read_at=timezone.now())
    if read:
        bell_changed(user.pk)
    return read


def send_time_warnings(*, batch: int = 200) -> int:
    """Write the "time almost up" reminders that are due: seats whose ``warn_at`` passed, in
    correspondence games, whose player is still waited for and has not opened the game since
    their turn began. Two per turn at most, at 50% and at 90% of the move time
    (``games.timeouts.REMINDER_SHARES``; a sweep that comes late sends only the latest share
    that has passed). Returns how many reminders were written (their emails and pushes are
    queued after each commit).

    One short transaction per game, taking its locks in the order of docs/locking.md: the game
    row first, with ``skip_locked`` (a game a move holds is left to the next sweep; that move
    gives its waited-for players a fresh clock anyway), then its due seats, then the
    notifications. Never a seat before its game: a notification's foreign key to the game is
    checked at the commit (``FOR KEY SHARE`` on the game row), which would wait for a move
    holding the game while that move waits for the seat. Each seat's ``warn_at`` moves on to
    the next share (or is cleared) under its lock, so two sweeps at once never send one twice.
    """
    written = 0
    now = timezone.now()
    due_games = Seat.objects.filter(warn_at__lte=now).order_by("warn_at").values_list("game_id", flat=True)
    for game_id in dict.fromkeys(due_games[:batch]):
        with transaction.atomic():
            game = (
                Game.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
                .filter(pk=game_id)
                .first()
            )
            if game is None:
                continue
            seats = list(
                Seat.objects.select_for_update(of=("self",))
                .select_related("user")
                .filter(game=game, warn_at__lte=now)
                .order_by("pk")
            )
            for seat in seats:
                share, seat.warn_at = timeouts.reminder_due(seat, now)
                unseen = seat.last_seen_at is None or (
                    seat.turn_started_at is not None and seat.last_seen_at < seat.turn_started_at
                )
                if (
                    share is not None
                    and seat.must_move
                    and game.status == Game.Status.ACTIVE
                    and game.time_control == "correspondence"
                    and seat.deadline is not None
                    and seat.deadline > now
                    and unseen
                ):
                    notify(
                        user=seat.user,
                        kind=Kind.TIME_LOW,
                        game=game,
                        params={"game": game.pk, "deadline": _iso(seat.deadline), "share": share},
                        seat=seat,
                    )
                    written += 1
            Seat.objects.bulk_update(seats, ["warn_at"])
    return written


def send_claim_warnings(*, batch: int = 200) -> int:
    """Tell each player a game without a clock has waited on so long that another may now claim
    it (``Game.claim_warn_at`` passed, which every change of the game sets again: a new wait is
    a new warning): one "a claim is possible" under the bell and by e-mail (and push) each,
    naming who may claim and from when, **exactly once per wait**. The table says it too
    (``games.leaving``). Returns how many warnings were written.

    One short transaction per game, as ``send_time_warnings``: the game row with
    ``skip_locked`` (a game a move holds is left to the next sweep; that move starts a new wait
    anyway), re-checked under its lock, then the notifications; the warning moment is cleared
    (or moved on, if the wait turns out to have started later) under the same lock, so two
    sweeps at once never warn twice. The engine decides who may claim and against whom
    (``claim_wait``, ``why_no_claim``, ``claim_against``)."""
    written = 0
    now = timezone.now()
    due = (
        Game.objects.filter(timer__claim_warn_at__lte=now)
        .order_by("timer__claim_warn_at")
        .values_list("pk", flat=True)
    )
    for game_id in list(due[:batch]):
        with transaction.atomic():
            game = (
                Game.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
                .filter(pk=game_id, claim_warn_at__lte=now)
                .first()
            )
            if game is None:
                continue
            written += _warn_of_claims(game, now)
    return written


def _warn_of_claims(game: Game, now: datetime) -> int:
    """Inside ``send_claim_warnings``'s transaction, ``game`` locked: the warnings of one game."""
    if game.status != Game.Status.ACTIVE or game.move_time is not None or game.state is None:
        game.claim_warn_at = None
        game.save(update_fields=["claim_warn_at"])
        return 0
    engine = game.engine()
    seats = list(with_notification_facts(Seat.objects.filter(game=game)).order_by("position"))
    since = timeouts.waited_since(game, seats)
    assert since is not None
    waited = max(0, int((now - since).total_seconds()))
    claimers = [p for p in range(engine.players) if engine.why_no_claim(p, waited=waited) is None]
    if not claimers:  # the wait started later than the moment said (or nobody may claim)
        waits = [wait for p in range(engine.players) if (wait := engine.claim_wait(p)) is not None]
        later = since + timedelta(seconds=min(waits)) if waits else None
        game.claim_warn_at = later if later is not None and later > now else None
        game.save(update_fields=["claim_warn_at"])
        return 0
    by_position = {seat.position: seat for seat in seats}
    possible_from = since + timedelta(
        seconds=min(w for p in claimers if (w := engine.claim_wait(p)) is not None)
    )
    written = 0
    for position in sorted({p for claimer in claimers for p in engine.claim_against(claimer)}):
        seat = by_position.get(position)
        if seat is None or seat.user.is_bot:
            continue
        names = [
            by_position[claimer].user.name
            for claimer in claimers
            if claimer in by_position and position in engine.claim_against(claimer)
        ]
        notify(
            user=seat.user,
            kind=Kind.CLAIM_POSSIBLE,
            game=game,
            params={"game": game.pk, "by": names, "since": _iso(possible_from)},
            seat=seat,
            push_subscribed=_push_subscribed(seat),
        )
        written += 1
    game.claim_warn_at = None
    game.save(update_fields=["claim_warn_at"])
    return written


def reminders_sent(*, user_id: int, game_id: int, since: datetime) -> set[int]:
    """The shares of the move time (``games.timeouts.REMINDER_SHARES``) whose "time almost up"
    reminders the user got in the game since ``since`` (their turn's start). One plain read."""
    rows = Notification.objects.filter(
        user_id=user_id, game_id=game_id, kind=Kind.TIME_LOW, created_at__gte=since
    ).values_list("params", flat=True)
    # A reminder written before there were two (at 80%) counts as the last one.
    return {int((params or {}).get("share", 90)) for params in rows}


def _message_id(name: str) -> str:
    """A Message-ID naming what the email is for: the same email sent twice would carry the
    same one, so a mail server or client may drop the copy (and the tests count by it)."""
    return f"<{name}@{urlsplit(settings.SITE_URL).hostname or 'localhost'}>"


def _message(
    *, user: User, subject: str, template: str, context: dict[str, object], message_id: str
) -> EmailMultiAlternatives:
    """Render one email; the caller has switched to the recipient's language."""
    context = {**context, "user": user, "site_url": settings.SITE_URL}
    text = render_to_string(f"notifications/email/{template}.txt", context)
    html = render_to_string(f"notifications/email/{template}.html", context)
    message = EmailMultiAlternatives(
        str(subject), text, settings.DEFAULT_FROM_EMAIL, [user.email], headers={"Message-ID": message_id}
    )
    message.attach_alternative(html, "text/html")
    return message


def _deliver(message: EmailMultiAlternatives) -> None:
    """Hand one message to the mail server, with no transaction open. Raises
    (``smtplib.SMTPException``, ``OSError``) if the server did not take it. Once it has, an
    error while saying goodbye (QUIT) is only logged: the message went."""
    mail = get_connection()
    mail.open()
    try:
        mail.send_messages([message])
    finally:
        try:
            mail.close()
        except (smtplib.SMTPException, OSError) as error:
            logger.info("closing the mail server connection failed after sending: %s", error)


@dataclass(frozen=True)
class _Claim:
    """What one sender claimed: the notifications one email reports (one, or the "your move"s
    of several games, each game once) and the claim's moment, which marks them claimed."""

    user: User
    notifications: list[Notification]
    claimed_at: datetime


def email_notification(*, notification_id: int) -> bool:
    """Send the email of one notification if it is still due; returns whether this call sent an
    email. For a "your move" that email reports every game whose "your move" email of the same
    player is pending then ("It's your move in 3 games"). Call it with no transaction open (the
    task does).

    Three steps, and no lock held while the mail server is talked to:

    1. claim, in one short transaction (``_claim_email``): decide whether the email is still
       due (``policy.should_send``: not while the player watches the game, ...), then one
       UPDATE marks what it reports claimed (``email_claimed_at``) and at most one more drops
       what is no longer due (``email_pending`` off); rows claimed by another call (a duplicate
       task, the catch-up sweep, the task of another game's "your move") are left alone;
    2. send, with no transaction open;
    3. record, in one UPDATE: ``emailed_at`` set, ``email_pending`` off.

    If the mail server refuses it or cannot be reached, nothing was sent: the claim is given
    back and the error raised, for the task's retry (or the catch-up sweep) to try again.

    First, the player's e-mails written before this one and still pending go, in order
    (``_send_earlier_first``): a game's start before its first "your move".
    """
    _send_earlier_first(notification_id)
    return _send_one(notification_id)


def _send_one(notification_id: int) -> bool:
    """:func:`email_notification` without first sending the e-mails written before it."""
    claim = _claim_email(notification_id)
    if claim is None:
        return False
    claimed = [notification.pk for notification in claim.notifications]
    try:
        message = _claim_message(claim)
        _deliver(message)
    except Exception:
        # Not taken by the mail server (or not even rendered): give the claim back.
        with transaction.atomic():
            policy.your_move_claims_take_turns(user_id=claim.user.pk)
            Notification.objects.filter(
                pk__in=claimed, email_claimed_at=claim.claimed_at, emailed_at=None
            ).update(email_claimed_at=None)
        raise
    try:
        with transaction.atomic():
            # Under the player's claims lock: a push claim reading these rows meanwhile must wait
            # for this short UPDATE, not skip them as held (and push them again on their own).
            policy.your_move_claims_take_turns(user_id=claim.user.pk)
            Notification.objects.filter(pk__in=claimed).update(emailed_at=timezone.now(), email_pending=False)
    except DatabaseError:
        logger.error(
            "notification(s) %s: the email went, recording that failed: they stay claimed, never resent",
            claimed,
        )
        raise
    return True


class EarlierEmailBeingSent(Exception):
    """An e-mail of the same player written before this one is being sent right now (claimed by
    another task): this one waits its turn (the task retries it in a moment)."""


def _send_earlier_first(notification_id: int) -> None:
    """E-mails in the order things happened: before the e-mail of ``notification_id``, send the
    player's e-mails still pending that were written before it ("game 20 has started" before
    "your move in game 20": both written by one change, their tasks due at once, run in any
    order by the worker), each as its own task would (:func:`email_notification`: still due,
    claimed, sent). "Your move"s are not among them: those of a player go together anyway.
    Raises ``EarlierEmailBeingSent`` while one of them is being sent by another task. Plain
    reads, then each e-mail's own short transactions; no lock held while talking to the mail
    server."""
    row = Notification.objects.filter(pk=notification_id).values("user_id", "created_at").first()
    if row is None:
        return
    earlier = list(
        Notification.objects.filter(
            user_id=row["user_id"],
            email_pending=True,
            emailed_at=None,
            created_at__lte=row["created_at"],
            created_at__gt=row["created_at"] - timedelta(days=1),
        )
        .exclude(kind=Kind.YOUR_MOVE)
        .exclude(pk=notification_id)
        .order_by("created_at", "pk")
        .values_list("pk", "created_at", "email_claimed_at")
    )
    for pk, created_at, claimed_at in earlier:
        if created_at == row["created_at"] and pk > notification_id:
            continue  # written with it, after it
        if claimed_at is not None:
            raise EarlierEmailBeingSent(f"notification {pk} is being e-mailed before {notification_id}")
        _send_one(pk)


def _claim_email(notification_id: int) -> _Claim | None:
    """Claim the email of one notification if it is pending, unclaimed and still due, or drop
    it if it is no longer due; for a "your move", claim with it every other pending "your move"
    email of the player that is due (``_claim_your_moves``). Returns the claim, or None.

    Locks (docs/locking.md): never a game or a seat; notification rows only by the UPDATEs that
    claim or drop them, at the end, each row by one of them. One UPDATE of a row per
    transaction matters: a second one would make PostgreSQL check the row's foreign key to the
    game at the commit (``FOR KEY SHARE`` on the game row), waiting for a move holding the game
    while that move may wait for this row (it moves an unread "your move" up). An UPDATE matches
    only a row as it was read (``created_at``, which ``notify`` moves on), so a turn written
    meanwhile is neither dropped nor claimed with the old facts: its own task decides it.
    """
    with transaction.atomic():
        notification = Notification.objects.select_related("user", "game").filter(pk=notification_id).first()
        if (
            notification is None
            or not notification.email_pending
            or notification.email_claimed_at is not None
            or notification.emailed_at is not None
        ):
            return None
        if notification.kind == Kind.YOUR_MOVE and notification.game_id is not None:
            return _claim_your_moves(notification)
        if notification.kind in BATCHED_EMAIL_KINDS:
            return _claim_together(notification)
        unclaimed = Notification.objects.filter(
            pk=notification_id,
            email_pending=True,
            email_claimed_at=None,
            emailed_at=None,
            created_at=notification.created_at,
        )
        if not _still_due(notification):
            unclaimed.update(email_pending=False)
            return None
        claimed_at = timezone.now()
        if not unclaimed.update(email_claimed_at=claimed_at):
            return None  # claimed by another call, or moved up by a move, since it was read
        notification.email_claimed_at = claimed_at
        return _Claim(user=notification.user, notifications=[notification], claimed_at=claimed_at)


def _claim_your_moves(notification: Notification) -> _Claim | None:
    """Inside ``_claim_email``'s transaction: claim, in one UPDATE, every pending "your move"
    email of the notification's player that is due (``policy.should_send``, and never a second
    one for a game since the player last opened it), the newest row of each game; drop, in one
    more, those no longer due and the older rows of a game already in the email.

    Claims of one player's "your move"s, e-mail and push, take turns (one advisory lock per
    player, ``policy.your_move_claims_take_turns``), so two of them never both pass the
    once-per-visit check nor report the same game, and a push never skips a row an e-mail claim
    holds for a moment.
    Rows are taken with ``SKIP LOCKED``: a row a move holds (moving it up) is left to the task
    that move queues, one that "mark all read" holds to the catch-up sweep; two statements
    that lock several of a player's rows each never wait for each other in a cycle.
    """
    user = notification.user
    policy.your_move_claims_take_turns(user_id=user.pk)
    now = timezone.now()
    pending = list(
        Notification.objects.select_related("game")
        .filter(
            user=user,
            kind=Kind.YOUR_MOVE,
            game__isnull=False,
            email_pending=True,
            email_claimed_at=None,
            emailed_at=None,
        )
        .order_by("-created_at", "-pk")
    )
    if notification.pk not in {row.pk for row in pending}:
        return None  # claimed or dropped by another call since it was read
    seats = {
        seat.game_id: seat
        for seat in Seat.objects.filter(user=user, game_id__in={n.game_id for n in pending})
    }
    emailed = _games_emailed_since_seen(user=user, seats=seats, besides=[row.pk for row in pending])
    due, dropped = policy.split_due(
        user=user,
        rows=pending,
        channel=policy.EMAIL,
        prefs=preferences_for(user),
        now=now,
        besides=emailed,
        seats=seats,
    )
    return _claim_due(user=user, due=due, dropped=dropped, now=now)


def _claim_together(notification: Notification) -> _Claim | None:
    """Inside ``_claim_email``'s transaction: claim, in one UPDATE, every pending e-mail of the
    notification's player of the same kind (``kinds.BATCHED_EMAIL_KINDS``: the round games of
    several tournaments started at once) that is still due, for one e-mail; drop, in one more,
    those no longer due. Rows another transaction holds are skipped (``SKIP LOCKED``): that
    one's claim sends them. Plain reads before: the rows, the player's seats in their games."""
    user = notification.user
    now = timezone.now()
    pending = list(
        Notification.objects.select_related("game")
        .filter(
            user=user,
            kind=notification.kind,
            email_pending=True,
            email_claimed_at=None,
            emailed_at=None,
            created_at__gt=now - timedelta(days=1),
        )
        .order_by("created_at", "pk")
    )
    if notification.pk not in {row.pk for row in pending}:
        return None  # claimed or dropped by another call since it was read
    games = {row.game_id for row in pending if row.game_id is not None}
    seats = (
        {seat.game_id: seat for seat in Seat.objects.filter(user=user, game_id__in=games)} if games else {}
    )
    prefs = preferences_for(user)
    due: list[Notification] = []
    dropped: list[Notification] = []
    for row in pending:
        sent = policy.should_send(
            user=user,
            game=row.game,
            channel=policy.EMAIL,
            kind=row.kind,
            seat=seats.get(row.game_id) if row.game_id is not None else None,
            prefs=prefs,
            now=now,
        )
        (due if sent else dropped).append(row)
    return _claim_due(user=user, due=due, dropped=dropped, now=now)


def _claim_due(
    *, user: User, due: list[Notification], dropped: list[Notification], now: datetime
) -> _Claim | None:
    """Free ``dropped`` from the e-mail queue and claim ``due`` at ``now``: the rows this call
    claimed (another sender may have taken some first), or None."""
    if dropped:
        _free_as_read(dropped).update(email_pending=False)
    if not due:
        return None
    _free_as_read(due).update(email_claimed_at=now)
    claimed = set(
        Notification.objects.filter(user=user, email_claimed_at=now, emailed_at=None).values_list(
            "pk", flat=True
        )
    )
    rows = [row for row in due if row.pk in claimed]
    for row in rows:
        row.email_claimed_at = now
    return _Claim(user=user, notifications=rows, claimed_at=now) if rows else None


def _free_as_read(rows: list[Notification]) -> QuerySet[Notification]:
    """The rows still pending and unclaimed as they were read (same ``created_at``) that no other
    transaction holds, for one UPDATE (``FOR UPDATE SKIP LOCKED`` in a subquery)."""
    as_read = Q(pk__in=[])
    for row in rows:
        as_read |= Q(pk=row.pk, created_at=row.created_at)
    free = (
        Notification.objects.filter(as_read, email_pending=True, email_claimed_at=None, emailed_at=None)
        .select_for_update(skip_locked=True)
        .values("pk")
    )
    return Notification.objects.filter(pk__in=free)


def _games_emailed_since_seen(*, user: User, seats: dict[int, Seat], besides: list[int]) -> set[int]:
    """The games (of ``seats``) whose "your move" was emailed to the user, or is being emailed
    (claimed), since they last opened it: rows other than ``besides``. Plain reads."""
    if not seats:
        return set()
    earlier = (
        Notification.objects.filter(user=user, kind=Kind.YOUR_MOVE, game_id__in=seats)
        .filter(Q(emailed_at__isnull=False) | Q(email_claimed_at__isnull=False))
        .exclude(pk__in=besides)
    )
    seen = [seat.last_seen_at for seat in seats.values()]
    if all(moment is not None for moment in seen):
        since = min(moment for moment in seen if moment is not None)
        earlier = earlier.filter(Q(emailed_at__gt=since) | Q(email_claimed_at__gt=since))
    emailed = set()
    for game_id, emailed_at, claimed_at in earlier.values_list("game_id", "emailed_at", "email_claimed_at"):
        last_seen = seats[game_id].last_seen_at
        moments = [moment for moment in (emailed_at, claimed_at) if moment is not None]
        if last_seen is None or max(moments) > last_seen:
            emailed.add(game_id)
    return emailed


def _still_due(notification: Notification) -> bool:
    """Whether the email of ``notification`` (not a "your move") should still go: plain
    reads, no lock."""
    return policy.should_send(
        user=notification.user, game=notification.game, channel=policy.EMAIL, kind=notification.kind
    )


def _claim_message(claim: _Claim) -> EmailMultiAlternatives:
    if len(claim.notifications) == 1:
        return _notification_message(claim.notifications[0])
    if claim.notifications[0].kind == Kind.TOURNAMENT_ROUND:
        return _tournament_games_message(claim.user, claim.notifications)
    return _your_moves_message(claim.user, claim.notifications)


def _tournament_games_message(user: User, rows: list[Notification]) -> EmailMultiAlternatives:
    """One e-mail for the round games of several tournaments that have started: each one's
    sentence and the link to its game."""
    rows = sorted(rows, key=lambda row: (row.created_at, row.pk))
    with translation.override(user.language or settings.LANGUAGE_CODE):
        items = [{"message": row.message, "link": _link(row)} for row in rows]
        return _message(
            user=user,
            subject=messages.tournament_games_started(len(items)),
            template="games_started",
            context={"items": items, "settings_link": settings.SITE_URL + reverse("notifications:settings")},
            message_id=_message_id("notifications-" + "-".join(str(row.pk) for row in rows)),
        )


def _link(notification: Notification) -> str:
    """The full address of the page the notification is about (the site's home if none)."""
    path = notification.link
    return f"{settings.SITE_URL}{path}" if path else settings.SITE_URL


def _notification_message(notification: Notification) -> EmailMultiAlternatives:
    user, game = notification.user, notification.game
    friends = notification.kind in FRIEND_KINDS
    with translation.override(user.language or settings.LANGUAGE_CODE):
        return _message(
            user=user,
            subject=messages.subject(notification.kind, game.pk if game else "", notification.params),
            template="notification",
            context={
                "message": notification.message,
                "game": game,
                "link": _link(notification),
                "friends": friends,
                "tournament": game is None and notification.tournament_id is not None,
                "settings_link": settings.SITE_URL + reverse("notifications:settings"),
            },
            message_id=_message_id(f"notification-{notification.pk}"),
        )


def _your_moves_message(user: User, rows: list[Notification]) -> EmailMultiAlternatives:
    """One email for the "your move"s of several games: the digest's list of games, with its
    own subject. Its Message-ID names every notification it reports."""

    def until(row: Notification) -> datetime | None:
        deadline = (row.params or {}).get("deadline")
        return datetime.fromisoformat(deadline) if deadline else None

    far = timezone.now() + timedelta(days=3660)
    rows = sorted(rows, key=lambda row: (until(row) or far, row.game_id or 0))
    with translation.override(user.language or settings.LANGUAGE_CODE):
        games = []
        for row in rows:
            assert row.game is not None
            deadline = until(row)
            games.append(
                {
                    "id": row.game_id,
                    "preset": preset_name(row.game.preset),
                    "link": game_url(row.game.pk),
                    "until": format_local(deadline, user) if deadline else None,
                }
            )
        return _message(
            user=user,
            subject=messages.your_move_in_games(len(games)),
            template="digest",
            context={"games": games, "settings_link": settings.SITE_URL + reverse("notifications:settings")},
            message_id=_message_id("notifications-" + "-".join(str(pk) for pk in sorted(r.pk for r in rows))),
        )


def send_pending_emails(*, batch: int = 500) -> int:
    """Catch up on emails whose task never ran: the broker was down when the change committed,
    or its message was lost. Sends (or drops, if no longer due) each notification still
    ``email_pending`` and unclaimed ``NOTIFICATION_EMAIL_GRACE_SECONDS`` after its task was due
    (the coalescing window after it was written), oldest first; gives up on those older than a
    day. An email being sent (claimed) is left
    alone; one claimed more than ``EMAIL_CLAIM_TIMEOUT`` ago and never recorded is not sent
    again (at most once) and is logged. Run by beat; returns how many were sent."""
    now = timezone.now()
    abandoned = Notification.objects.filter(
        email_pending=True, emailed_at=None, email_claimed_at__lt=now - EMAIL_CLAIM_TIMEOUT
    )
    if lost := abandoned.update(email_pending=False):
        logger.warning(
            "%s notification email(s) claimed for sending over %s ago were never recorded as sent "
            "(the sender stopped mid-send): not sent again, each goes at most once",
            lost,
            EMAIL_CLAIM_TIMEOUT,
        )
    stale = Notification.objects.filter(
        email_pending=True, email_claimed_at=None, created_at__lt=now - timedelta(days=1)
    )
    if dropped := stale.update(email_pending=False):
        logger.warning("dropped %s notification email(s) that could not be sent for a day", dropped)
    due = (
        Notification.objects.filter(
            email_pending=True,
            email_claimed_at=None,
            # The email's own task waits the coalescing window first: it gets its turn.
            created_at__lte=now
            - timedelta(seconds=settings.NOTIFICATION_EMAIL_GRACE_SECONDS + policy.send_delay()),
        )
        # In the order _send_earlier_first sends a player's e-mails (ties of one change by pk):
        # then none is sent as another's "earlier" one, uncounted.
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:batch]
    )
    sent = 0
    for notification_id in list(due):
        try:
            sent += email_notification(notification_id=notification_id)
        except EarlierEmailBeingSent:
            continue  # the next sweep, after the one being sent
        except (smtplib.SMTPException, OSError) as error:
            logger.warning("mail server unavailable, pending emails wait for the next sweep: %s", error)
            break
    if sent:
        logger.info("sent %s pending notification email(s)", sent)
    return sent


def send_digests() -> int:
    """Send the daily digest to each user who chose it, once per local day after
    ``DIGEST_HOUR``, listing the games waiting for their move. Returns how many went out.

    Like a notification's email: the day is claimed (``digest_sent_on``) in a short
    transaction, the digest sent with no transaction open; if the mail server does not take
    it, the claim is given back and the remaining digests wait for the next run."""
    sent = 0
    now = timezone.now()
    for user_id in Preferences.objects.filter(daily_digest=True).values_list("user_id", flat=True):
        claim = _claim_digest(user_id=user_id, now=now)
        if claim is None:
            continue
        user, today, before = claim
        seats = list(
            Seat.objects.filter(user=user, must_move=True, game__status=Game.Status.ACTIVE)
            .select_related("game")
            .order_by("deadline", "game_id")
        )
        if not seats or not user.email:
            continue
        with translation.override(user.language or settings.LANGUAGE_CODE):
            games = [
                {
                    "id": seat.game_id,
                    "preset": preset_name(seat.game.preset),
                    "link": game_url(seat.game_id),
                    "until": format_local(seat.deadline, user) if seat.deadline else None,
                }
                for seat in seats
            ]
            subject = ngettext(
                "%(count)d game waiting for your move",
                "%(count)d games waiting for your move",
                len(games),
            ) % {"count": len(games)}
            message = _message(
                user=user,
                subject=subject,
                template="digest",
                context={
                    "games": games,
                    "settings_link": settings.SITE_URL + reverse("notifications:settings"),
                },
                message_id=_message_id(f"digest-{user.pk}-{today.isoformat()}"),
            )
        try:
            _deliver(message)
        except (smtplib.SMTPException, OSError) as error:
            Preferences.objects.filter(user_id=user_id, digest_sent_on=today).update(digest_sent_on=before)
            logger.warning("mail server unavailable, digests wait for the next run: %s", error)
            break
        sent += 1
    return sent


def _claim_digest(*, user_id: int, now: datetime) -> tuple[User, date, date | None] | None:
    """Mark today's digest of the user as sent, if it is due and nobody else is at it (the row
    is taken with ``skip_locked`` and written by one UPDATE, then committed); returns the user,
    their local date and the previous ``digest_sent_on`` (to give the claim back), or None."""
    with transaction.atomic():
        prefs = (
            Preferences.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
            .select_related("user")
            .filter(user_id=user_id, daily_digest=True)
            .first()
        )
        if prefs is None:
            return None
        user = prefs.user
        today = now.astimezone(user.tz).date()
        if now.astimezone(user.tz).hour < settings.DIGEST_HOUR or prefs.digest_sent_on == today:
            return None
        before = prefs.digest_sent_on
        prefs.digest_sent_on = today
        prefs.save(update_fields=["digest_sent_on"])
        return user, today, before
