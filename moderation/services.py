"""Every moderation action. Each checks the moderator's permission, does its work and writes
its ``AuditEntry`` in one transaction: no action without its record, no record without it.

Game outcomes are never decided here: suspending settles running games with the engine's
``resign`` and settling a stalled game applies the engine's ``timeout``, both through
``games.services``.
"""

from dataclasses import dataclass
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.tokens import tokens_revoke_all
from chat.models import ChatMessage
from durak_site import live
from games import services as game_services
from games.exceptions import GameError
from games.models import Game, Seat

from .models import MODERATORS_GROUP, AuditEntry, LoginSession, Report, Sanction


class ModerationError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _require(moderator: User, permission: str) -> None:
    if not (moderator.is_active and moderator.has_perm(f"moderation.{permission}")):
        raise PermissionDenied(f"{moderator} may not {permission.replace('_', ' ')}.")


def _audit(*, actor: User | None, action: str, reason: str, **fields: Any) -> AuditEntry:
    return AuditEntry.objects.create(actor=actor, action=action, reason=reason, **fields)


@transaction.atomic
def message_hide(*, moderator: User, message: ChatMessage, reason: str) -> AuditEntry:
    """Hide a chat message from everyone; the text stays stored (and copied into the audit entry)."""
    _require(moderator, "hide_message")
    message = ChatMessage.objects.select_for_update().get(pk=message.pk)
    if message.hidden_at is not None:
        raise ModerationError(_("Message %(message)s is hidden already.") % {"message": message.pk})
    message.hidden_at = timezone.now()
    message.hidden_by = moderator
    message.save(update_fields=["hidden_at", "hidden_by"])
    live.chat_changed_on_commit(message.game_id, str(message.channel))
    return _audit(
        actor=moderator,
        action=AuditEntry.Action.HIDE_MESSAGE,
        reason=reason,
        target_user=message.author,
        game_id=message.game_id,
        message=message,
        details={"text": message.text, "channel": message.channel},
    )


def _sanction(*, moderator: User, user: User, kind: str, duration: timedelta | None, reason: str) -> Sanction:
    now = timezone.now()
    return Sanction.objects.create(
        user=user,
        kind=kind,
        reason=reason,
        starts_at=now,
        ends_at=None if duration is None else now + duration,
        created_by=moderator,
    )


@transaction.atomic
def user_mute(*, moderator: User, user: User, duration: timedelta | None, reason: str) -> Sanction:
    """The user cannot post in any chat until the end (``duration`` None: for good)."""
    _require(moderator, "mute_user")
    sanction = _sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.MUTE, duration=duration, reason=reason
    )
    _audit(
        actor=moderator,
        action=AuditEntry.Action.MUTE,
        reason=reason,
        target_user=user,
        details={"until": sanction.ends_at.isoformat() if sanction.ends_at else None},
    )
    return sanction


@dataclass(frozen=True)
class Suspension:
    sanction: Sanction
    settled_games: list[int]
    sessions_ended: int


@transaction.atomic
def user_suspend(*, moderator: User, user: User, duration: timedelta | None, reason: str) -> Suspension:
    """The user cannot log in, play or use an API token until the end (``duration`` None: for
    good). Their open seats are given up, each running game where they still hold cards ends
    with the engine's ``resign`` for them (the fool; in a team game their team loses), and
    every session they logged in with ends now, as does every API token of theirs (and, after
    the commit, every live stream they hold open)."""
    _require(moderator, "suspend_user")
    if user.pk == moderator.pk:
        raise ModerationError(_("You cannot suspend yourself."))
    sanction = _sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.SUSPEND, duration=duration, reason=reason
    )
    settled: list[int] = []
    seats = (
        Seat.objects.filter(user=user, game__status__in=[Game.Status.ACTIVE, Game.Status.OPEN])
        .select_related("game")
        .order_by("game_id")
    )  # games are locked in id order, as everywhere
    for seat in seats:
        try:
            if seat.game.status == Game.Status.OPEN:
                game_services.game_leave(user=user, game_id=seat.game_id)
            elif seat.result == Seat.Result.NONE:
                game_services.game_resign(game_id=seat.game_id, user=user)
                settled.append(seat.game_id)
        except GameError:
            # The game moved on meanwhile (ended, or the player went out): nothing to settle.
            continue
    sessions_ended = _end_sessions(user)
    tokens_revoke_all(user=user)
    live.end_streams_on_commit(user_id=user.pk)  # opened again, they are an anonymous visitor's
    _audit(
        actor=moderator,
        action=AuditEntry.Action.SUSPEND,
        reason=reason,
        target_user=user,
        details={
            "until": sanction.ends_at.isoformat() if sanction.ends_at else None,
            "resigned_games": settled,
        },
    )
    return Suspension(sanction=sanction, settled_games=settled, sessions_ended=sessions_ended)


def _end_sessions(user: User) -> int:
    store = import_module(settings.SESSION_ENGINE).SessionStore
    logins = list(LoginSession.objects.filter(user=user))
    for login in logins:
        store(session_key=login.session_key).delete()
    LoginSession.objects.filter(pk__in=[login.pk for login in logins]).delete()
    return len(logins)


@transaction.atomic
def game_abort(*, moderator: User, game: Game, reason: str) -> Game:
    """End the game with no result: status aborted, no stats, no rating."""
    _require(moderator, "abort_game")
    try:
        game = game_services.game_abort(game_id=game.pk)
    except GameError as error:
        raise ModerationError(
            _("Game %(game)s: %(error)s") % {"game": game.pk, "error": error.message}
        ) from None
    _audit(actor=moderator, action=AuditEntry.Action.ABORT_GAME, reason=reason, game=game)
    return game


@transaction.atomic
def game_settle(*, moderator: User, game: Game, reason: str) -> Seat:
    """Apply the engine's timeout to the player a stalled game has waited on longest."""
    _require(moderator, "settle_game")
    try:
        seat = game_services.game_settle_stalled(game_id=game.pk)
    except GameError as error:
        raise ModerationError(
            _("Game %(game)s: %(error)s") % {"game": game.pk, "error": error.message}
        ) from None
    _audit(
        actor=moderator,
        action=AuditEntry.Action.SETTLE_GAME,
        reason=reason,
        game_id=game.pk,
        target_user=seat.user,
        details={"timeout_for_position": seat.position},
    )
    return seat


def _close_report(*, moderator: User, report: Report, note: str, status: str, action: str) -> Report:
    _require(moderator, "handle_report")
    report = Report.objects.select_for_update().get(pk=report.pk)
    if report.status != Report.Status.OPEN:
        raise ModerationError(
            _("Report %(report)s is %(status)s already.")
            % {"report": report.pk, "status": report.get_status_display()}
        )
    report.status = status
    report.note = note
    report.handled_by = moderator
    report.handled_at = timezone.now()
    report.save(update_fields=["status", "note", "handled_by", "handled_at"])
    _audit(
        actor=moderator,
        action=action,
        reason=note,
        report=report,
        target_user=report.reported_user,
        game_id=report.game_id,
        message_id=report.message_id,
    )
    return report


@transaction.atomic
def report_resolve(*, moderator: User, report: Report, note: str) -> Report:
    return _close_report(
        moderator=moderator,
        report=report,
        note=note,
        status=Report.Status.RESOLVED,
        action=AuditEntry.Action.RESOLVE_REPORT,
    )


@transaction.atomic
def report_dismiss(*, moderator: User, report: Report, note: str) -> Report:
    return _close_report(
        moderator=moderator,
        report=report,
        note=note,
        status=Report.Status.DISMISSED,
        action=AuditEntry.Action.DISMISS_REPORT,
    )


@transaction.atomic
def moderator_grant(*, user: User, actor: User | None, reason: str) -> None:
    """Make ``user`` a moderator: staff (to enter the admin) and in the Moderators group.
    ``actor`` None: the command line."""
    if actor is not None and not actor.is_superuser:
        raise PermissionDenied("Only a superuser can appoint moderators.")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    _audit(actor=actor, action=AuditEntry.Action.GRANT_MODERATOR, reason=reason, target_user=user)


@transaction.atomic
def moderator_revoke(*, user: User, actor: User | None, reason: str) -> None:
    if actor is not None and not actor.is_superuser:
        raise PermissionDenied("Only a superuser can remove moderators.")
    user.groups.remove(Group.objects.get(name=MODERATORS_GROUP))
    if not user.is_superuser:
        user.is_staff = False
        user.save(update_fields=["is_staff"])
    live.end_streams_on_commit(user_id=user.pk)  # they saw every private game
    _audit(actor=actor, action=AuditEntry.Action.REVOKE_MODERATOR, reason=reason, target_user=user)


@transaction.atomic
def report_create(
    *,
    reporter: User,
    reason: str,
    details: str = "",
    reported_user: User | None = None,
    game: Game | None = None,
    message: ChatMessage | None = None,
) -> Report:
    """A user's report; for a message, its author is the reported user and its game the game."""
    if reason not in Report.Reason.values:
        raise ModerationError(_("Choose a reason."))
    if message is not None:
        reported_user, game = message.author, message.game
    if reported_user is None and game is None:
        raise ModerationError(_("Report a player, a message or a game."))
    if reported_user is not None and reported_user.pk == reporter.pk:
        raise ModerationError(_("You cannot report yourself."))
    if len(details) > 1000:
        raise ModerationError(_("Keep the details under 1000 characters."))
    return Report.objects.create(
        reporter=reporter,
        reason=reason,
        details=details,
        reported_user=reported_user,
        game=game,
        message=message,
    )
