"""Writing notifications and sending their emails.

Rows are written inside the transaction of the change they report (the game
services call ``game_changed`` and ``invited``), so a rolled-back move notifies
nobody. Emails go out afterwards: ``transaction.on_commit`` queues
``tasks.send_notification_email`` with the row's id, and ``email_notification``
decides under locks whether it is still worth sending:

- "your move": only while the player is still waited for, and never a second email for a
  game until the player has opened it (``Seat.last_seen_at``) since the last one;
  with ``daily_digest`` there is no such email at all, only the daily list.
- "time almost up": written by ``send_time_warnings`` at 80% of the move time, only if the
  player has not opened the game since their turn began.
"""

import logging
import smtplib
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from accounts.models import User
from durak_site.celery import publish_on_commit
from durak_site.engine_text import preset_name
from games.models import Game, Seat

from . import messages
from .messages import format_local
from .models import Kind, Notification, Preferences

logger = logging.getLogger(__name__)


def preferences_for(user: User) -> Preferences:
    """The user's preferences (the defaults, unsaved, for a user who never changed them)."""
    return Preferences.objects.filter(user=user).first() or Preferences(user=user)


def game_url(game_id: int) -> str:
    return f"{settings.SITE_URL}{reverse('games:detail', args=[game_id])}"


def _queue_email(notification_id: int) -> None:
    from . import tasks

    publish_on_commit(
        lambda: tasks.send_notification_email.delay(notification_id),
        f"send_notification_email({notification_id})",
    )


def notify(
    *,
    user: User,
    kind: str,
    params: dict[str, Any],
    game: Game | None = None,
    prefs: Preferences | None = None,
) -> Notification | None:
    """Record one notification as the user's preferences want it: under the bell, by email,
    both or neither. An email-only one is stored already read (it keeps the email's record).

    ``params`` are the facts its sentence is made from (``notifications.messages``), so each
    reader gets it in their own language whenever they read it."""
    prefs = prefs or preferences_for(user)
    web = prefs.wants_web(kind)
    email = prefs.wants_email(kind) and not (kind == Kind.YOUR_MOVE and prefs.daily_digest)
    if not web and not email:
        return None
    email_due = email and bool(user.email)
    now = timezone.now()
    notification = None
    if kind == Kind.YOUR_MOVE and web and game is not None:
        # One unread "your move" per game under the bell: a newer one only moves it up.
        notification = Notification.objects.filter(
            user=user, game=game, kind=kind, read_at__isnull=True
        ).first()
        if notification is not None:
            notification.set_params(params)
            notification.created_at = now
            notification.email_pending = notification.email_pending or email_due
            notification.save(update_fields=["text", "params", "created_at", "email_pending"])
    if notification is None:
        notification = Notification(
            user=user, kind=kind, game=game, read_at=None if web else now, email_pending=email_due
        )
        notification.set_params(params)
        notification.save()
    if email_due:
        _queue_email(notification.pk)
    return notification


def _result_params(game: Game, seat: Seat, names: dict[int, str]) -> dict[str, Any]:
    end = (game.state or {}).get("end") or {}
    loser = end.get("player")
    how = end.get("reason", "") if end.get("reason") in ("timeout", "resign") else ""
    if seat.result == Seat.Result.FOOL:
        return {"game": game.pk, "result": "fool", "how": how}
    if seat.result == Seat.Result.DRAW:
        return {"game": game.pk, "result": "draw"}
    fool = names.get(loser, "") if loser is not None else ""
    return {"game": game.pk, "result": "not_fool", "how": how, "fool": fool}


def game_changed(
    *, game: Game, seats: list[Seat], newly_waiting: Iterable[Seat], started: bool, finished: bool
) -> None:
    """The notifications one change of a game causes (called by the game services, in their
    transaction): game started, game finished with each player's result, your move."""
    users = {seat.user_id: seat.user for seat in seats}
    prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=users)}

    def send(seat: Seat, kind: str, params: dict[str, Any]) -> None:
        user = users[seat.user_id]
        if user.is_bot:  # a computer player reads no notifications
            return
        notify(
            user=user, kind=kind, params=params, game=game, prefs=prefs.get(user.pk) or Preferences(user=user)
        )

    if started:
        for seat in seats:
            send(seat, Kind.GAME_STARTED, {"game": game.pk})
    if finished:
        names = {seat.position: users[seat.user_id].username for seat in seats}
        for seat in seats:
            send(seat, Kind.GAME_FINISHED, _result_params(game, seat, names))
        return
    for seat in newly_waiting:
        send(seat, Kind.YOUR_MOVE, {"game": game.pk, "deadline": _iso(seat.deadline)})


def _iso(moment: datetime | None) -> str:
    return moment.isoformat() if moment is not None else ""


def invited(*, game: Game, user: User, invited_by: User) -> None:
    notify(
        user=user,
        kind=Kind.INVITED,
        game=game,
        params={"game": game.pk, "by": invited_by.username, "preset": game.preset},
    )


def game_seen(*, game_id: int, user_id: int) -> None:
    """Read the user's notifications of the game, skipping rows another transaction holds (a move
    writing them): waiting for them joined lock cycles with moves; those are read next visit.
    Call inside a transaction (``FOR UPDATE SKIP LOCKED``)."""
    unread = Notification.objects.filter(user_id=user_id, game_id=game_id, read_at__isnull=True)
    free = unread.select_for_update(skip_locked=True).values("pk")
    Notification.objects.filter(pk__in=free).update(read_at=timezone.now())


def mark_read(*, user: User, notification_id: int | None = None) -> int:
    """Mark one of the user's notifications read, or all of them (``None``)."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        unread = unread.filter(pk=notification_id)
    return unread.update(read_at=timezone.now())


def send_time_warnings(*, batch: int = 200) -> int:
    """Write the "time almost up" notifications that are due: seats whose ``warn_at`` passed,
    whose player is still waited for and has not opened the game since their turn began.

    Seats are locked with ``skip_locked`` and their ``warn_at`` cleared, so two sweeps at
    once never warn twice. Returns how many warnings were written.
    """
    written = 0
    now = timezone.now()
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "game")
            .filter(warn_at__lte=now)
            .order_by("warn_at")[:batch]
        )
        for seat in seats:
            seat.warn_at = None
            unseen = seat.last_seen_at is None or (
                seat.turn_started_at is not None and seat.last_seen_at < seat.turn_started_at
            )
            if (
                seat.awaiting_move
                and seat.game.status == Game.Status.ACTIVE
                and seat.deadline is not None
                and seat.deadline > now
                and unseen
            ):
                notify(
                    user=seat.user,
                    kind=Kind.TIME_LOW,
                    game=seat.game,
                    params={"game": seat.game_id, "deadline": _iso(seat.deadline)},
                )
                written += 1
        Seat.objects.bulk_update(seats, ["warn_at"])
    return written


def _send(*, user: User, subject: str, template: str, context: dict[str, object]) -> None:
    """Render and send one email; the caller has switched to the recipient's language."""
    context = {**context, "user": user, "site_url": settings.SITE_URL}
    text = render_to_string(f"notifications/email/{template}.txt", context)
    html = render_to_string(f"notifications/email/{template}.html", context)
    message = EmailMultiAlternatives(str(subject), text, settings.DEFAULT_FROM_EMAIL, [user.email])
    message.attach_alternative(html, "text/html")
    message.send()


def email_notification(*, notification_id: int) -> bool:
    """Send the email of one notification if it is still due; returns whether it was sent.
    Either way it is no longer ``email_pending``; if sending fails, nothing changes (the task's
    retry or the catch-up sweep tries again)."""
    with transaction.atomic():
        sent = _email_if_due(notification_id)
        Notification.objects.filter(pk=notification_id, email_pending=True).update(email_pending=False)
    return sent


def send_pending_emails(*, batch: int = 500) -> int:
    """Catch up on emails whose task never ran: the broker was down when the change committed,
    or its message was lost. Sends (or drops, if no longer due) each notification still
    ``email_pending`` ``NOTIFICATION_EMAIL_GRACE_SECONDS`` after it was written, oldest first;
    gives up on those older than a day. Run by beat; returns how many were sent."""
    now = timezone.now()
    stale = Notification.objects.filter(email_pending=True, created_at__lt=now - timedelta(days=1))
    if dropped := stale.update(email_pending=False):
        logger.warning("dropped %s notification email(s) that could not be sent for a day", dropped)
    due = (
        Notification.objects.filter(
            email_pending=True,
            created_at__lte=now - timedelta(seconds=settings.NOTIFICATION_EMAIL_GRACE_SECONDS),
        )
        .order_by("created_at")
        .values_list("pk", flat=True)[:batch]
    )
    sent = 0
    for notification_id in list(due):
        try:
            sent += email_notification(notification_id=notification_id)
        except (smtplib.SMTPException, OSError) as error:
            logger.warning("mail server unavailable, pending emails wait for the next sweep: %s", error)
            break
    if sent:
        logger.info("sent %s pending notification email(s)", sent)
    return sent


def _email_if_due(notification_id: int) -> bool:
    """The email of one notification, if it is still due; returns whether it was sent.

    Locks the player's seat in the game, then the notification: the order in which the game
    services write them (seats, then notifications), so a move and this task never deadlock.
    The seat lock keeps two moves in a row from both passing the once-per-visit check; the
    notification lock makes a retried or duplicated task send once.
    """
    with transaction.atomic():
        found = Notification.objects.filter(pk=notification_id).values_list("game_id", "user_id").first()
        if found is None:
            return False
        game_id, user_id = found
        seat = (
            Seat.objects.select_for_update().filter(game_id=game_id, user_id=user_id).first()
            if game_id is not None
            else None
        )
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("user", "game")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None or notification.emailed_at is not None or not notification.user.email:
            return False
        user, game = notification.user, notification.game
        prefs = preferences_for(user)
        if not prefs.wants_email(notification.kind):
            return False
        if notification.kind in (Kind.YOUR_MOVE, Kind.TIME_LOW):
            if game is None or seat is None or not seat.awaiting_move or game.status != Game.Status.ACTIVE:
                return False
            if notification.kind == Kind.YOUR_MOVE:
                if prefs.daily_digest:
                    return False
                emailed = Notification.objects.filter(
                    user=user, game=game, kind=Kind.YOUR_MOVE, emailed_at__isnull=False
                )
                if seat.last_seen_at is not None:
                    emailed = emailed.filter(emailed_at__gt=seat.last_seen_at)
                if emailed.exists():
                    return False
        with translation.override(user.language or settings.LANGUAGE_CODE):
            _send(
                user=user,
                subject=messages.subject(notification.kind, game.pk if game else ""),
                template="notification",
                context={
                    "message": notification.message,
                    "game": game,
                    "link": game_url(game.pk) if game else settings.SITE_URL,
                    "settings_link": settings.SITE_URL + reverse("notifications:settings"),
                },
            )
        notification.emailed_at = timezone.now()
        notification.save(update_fields=["emailed_at"])
        return True


def send_digests() -> int:
    """Send the daily digest to each user who chose it, once per local day after
    ``DIGEST_HOUR``, listing the games waiting for their move. Returns how many went out."""
    sent = 0
    now = timezone.now()
    for user_id in Preferences.objects.filter(daily_digest=True).values_list("user_id", flat=True):
        with transaction.atomic():
            prefs = (
                Preferences.objects.select_for_update(skip_locked=True)
                .select_related("user")
                .filter(user_id=user_id, daily_digest=True)
                .first()
            )
            if prefs is None:
                continue
            user = prefs.user
            local = now.astimezone(user.tz)
            if local.hour < settings.DIGEST_HOUR or prefs.digest_sent_on == local.date():
                continue
            prefs.digest_sent_on = local.date()
            prefs.save(update_fields=["digest_sent_on"])
            seats = list(
                Seat.objects.filter(user=user, awaiting_move=True, game__status=Game.Status.ACTIVE)
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
                _send(
                    user=user,
                    subject=subject,
                    template="digest",
                    context={
                        "games": games,
                        "settings_link": settings.SITE_URL + reverse("notifications:settings"),
                    },
                )
            sent += 1
    return sent
