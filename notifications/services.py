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
from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat

from .models import Kind, Notification, Preferences

logger = logging.getLogger(__name__)


def preferences_for(user: User) -> Preferences:
    """The user's preferences (the defaults, unsaved, for a user who never changed them)."""
    return Preferences.objects.filter(user=user).first() or Preferences(user=user)


def game_url(game_id: int) -> str:
    return f"{settings.SITE_URL}{reverse('games:detail', args=[game_id])}"


def _queue_email(notification_id: int) -> None:
    from . import tasks

    transaction.on_commit(lambda: tasks.send_notification_email.delay(notification_id))


def notify(
    *, user: User, kind: str, text: str, game: Game | None = None, prefs: Preferences | None = None
) -> Notification | None:
    """Record one notification as the user's preferences want it: under the bell, by email,
    both or neither. An email-only one is stored already read (it keeps the email's record)."""
    prefs = prefs or preferences_for(user)
    web = prefs.wants_web(kind)
    email = prefs.wants_email(kind) and not (kind == Kind.YOUR_MOVE and prefs.daily_digest)
    if not web and not email:
        return None
    now = timezone.now()
    notification = None
    if kind == Kind.YOUR_MOVE and web and game is not None:
        # One unread "your move" per game under the bell: a newer one only moves it up.
        notification = Notification.objects.filter(
            user=user, game=game, kind=kind, read_at__isnull=True
        ).first()
        if notification is not None:
            notification.text = text
            notification.created_at = now
            notification.save(update_fields=["text", "created_at"])
    if notification is None:
        notification = Notification.objects.create(
            user=user, kind=kind, game=game, text=text, read_at=None if web else now
        )
    if email and user.email:
        _queue_email(notification.pk)
    return notification


def _result_text(game: Game, seat: Seat, names: dict[int, str]) -> str:
    end = (game.state or {}).get("end") or {}
    loser = end.get("player")
    how = {"timeout": " ran out of time", "resign": " resigned"}.get(end.get("reason", ""), "")
    if seat.result == Seat.Result.FOOL:
        return f"Game {game.pk} is over: you are the fool" + (f" (you{how})." if how else ".")
    if seat.result == Seat.Result.DRAW:
        return f"Game {game.pk} is over: a draw, nobody is the fool."
    fool = names.get(loser) if loser is not None else None
    about_fool = f" {fool}{how} and is the fool." if fool and how else (f" {fool} is the fool." if fool else "")
    return f"Game {game.pk} is over: you are not the fool.{about_fool}"


def game_changed(
    *, game: Game, seats: list[Seat], newly_waiting: Iterable[Seat], started: bool, finished: bool
) -> None:
    """The notifications one change of a game causes (called by the game services, in their
    transaction): game started, game finished with each player's result, your move."""
    users = {seat.user_id: seat.user for seat in seats}
    prefs = {p.user_id: p for p in Preferences.objects.filter(user_id__in=users)}

    def send(seat: Seat, kind: str, text: str) -> None:
        user = users[seat.user_id]
        if user.is_bot:  # a computer player reads no notifications
            return
        notify(user=user, kind=kind, text=text, game=game, prefs=prefs.get(user.pk) or Preferences(user=user))

    if started:
        for seat in seats:
            send(seat, Kind.GAME_STARTED, f"Game {game.pk} has started: the cards are dealt.")
    if finished:
        names = {seat.position: users[seat.user_id].username for seat in seats}
        for seat in seats:
            send(seat, Kind.GAME_FINISHED, _result_text(game, seat, names))
        return
    for seat in newly_waiting:
        until = ""
        if seat.deadline is not None:
            until = f" You have until {format_local(seat.deadline, users[seat.user_id])}."
        send(seat, Kind.YOUR_MOVE, f"Your move in game {game.pk}.{until}")


def invited(*, game: Game, user: User, invited_by: User) -> None:
    notify(
        user=user,
        kind=Kind.INVITED,
        game=game,
        text=f"{invited_by.username} invites you to game {game.pk} ({game.preset}).",
    )


def format_local(moment: datetime, user: User) -> str:
    """A moment as the user reads it: in their time zone, with the zone's name."""
    return f"{moment.astimezone(user.tz):%a %d %b %Y, %H:%M} ({user.time_zone})"


def game_seen(*, game_id: int, user_id: int) -> None:
    Notification.objects.filter(user_id=user_id, game_id=game_id, read_at__isnull=True).update(
        read_at=timezone.now()
    )


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
                    text=f"Time is almost up in game {seat.game_id}: "
                    f"move by {format_local(seat.deadline, seat.user)}.",
                )
                written += 1
        Seat.objects.bulk_update(seats, ["warn_at"])
    return written


SUBJECTS = {
    Kind.YOUR_MOVE: "Your move in game {game}",
    Kind.GAME_STARTED: "Game {game} has started",
    Kind.INVITED: "You are invited to game {game}",
    Kind.GAME_FINISHED: "Game {game} is over",
    Kind.TIME_LOW: "Time is almost up in game {game}",
}


def _send(*, user: User, subject: str, template: str, context: dict[str, object]) -> None:
    context = {**context, "user": user, "site_url": settings.SITE_URL}
    text = render_to_string(f"notifications/email/{template}.txt", context)
    html = render_to_string(f"notifications/email/{template}.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email])
    message.attach_alternative(html, "text/html")
    message.send()


def email_notification(*, notification_id: int) -> bool:
    """Send the email of one notification if it is still due; returns whether it was sent.

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
        subject = SUBJECTS[Kind(notification.kind)].format(game=game.pk if game else "")
        _send(
            user=user,
            subject=subject,
            template="notification",
            context={
                "notification": notification,
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
            games = [
                {
                    "id": seat.game_id,
                    "preset": seat.game.preset,
                    "link": game_url(seat.game_id),
                    "until": format_local(seat.deadline, user) if seat.deadline else None,
                }
                for seat in seats
            ]
            _send(
                user=user,
                subject=f"{len(games)} game(s) waiting for your move",
                template="digest",
                context={"games": games, "settings_link": settings.SITE_URL + reverse("notifications:settings")},
            )
            sent += 1
    return sent
