"""Reports, sanctions and the moderators' audit log.

``AuditEntry`` is append-only: ``save()`` refuses to change a stored row, ``delete()`` and
the queryset's ``update()``/``delete()`` refuse always, and the admin grants nobody add,
change or delete. Every moderation action (``moderation.services``) writes one entry in the
same transaction as the action itself.
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chat.models import ChatMessage
from durak_site import dates
from games.models import Game

#: Name of the group that holds the moderators' permissions (created by migration 0002).
MODERATORS_GROUP = "Moderators"


class Report(models.Model):
    """A user's complaint about a player, a chat message or a game: the moderation queue."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("abusive or offensive language")
        SPAM = "spam", _("spam or advertising")
        CHEATING = "cheating", _("cheating or colluding")
        STALLING = "stalling", _("stalling or walking away")
        OTHER = "other", _("something else")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports_received",
        help_text=_("The player reported, or the author of the reported message."),
        verbose_name=_("reported player"),
    )
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="reports", verbose_name=_("game")
    )
    message = models.ForeignKey(
        ChatMessage,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("message"),
    )
    reason = models.CharField(max_length=16, choices=Reason.choices, verbose_name=_("reason"))
    details = models.TextField(max_length=1000, blank=True, verbose_name=_("details"))
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, verbose_name=_("status")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("handled at"))
    note = models.TextField(
        blank=True, help_text=_("The moderator's note when resolving or dismissing."), verbose_name=_("note")
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(reported_user__isnull=False)
                | models.Q(game__isnull=False)
                | models.Q(message__isnull=False),
                name="report_has_target",
            )
        ]
        indexes = [models.Index(fields=["status", "-created_at"], name="report_queue_idx")]
        ordering = ["-created_at"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.target_kind} ({self.get_reason_display()})"

    @property
    def target_kind(self) -> str:
        if self.message_id is not None:
            return gettext("message")
        if self.reported_user_id is not None and self.game_id is None:
            return gettext("player")
        if self.reported_user_id is not None:
            return gettext("player in a game")
        return gettext("game")


class Sanction(models.Model):
    """A mute (no chat) or a suspension (no log-in, no play, no API) until ``ends_at``
    (empty: for good). Made only by ``moderation.services``; each has its audit entry."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("muted")
        SUSPEND = "suspend", _("suspended")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions", verbose_name=_("user")
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, verbose_name=_("kind"))
    reason = models.TextField(verbose_name=_("reason"))
    starts_at = models.DateTimeField(default=timezone.now, verbose_name=_("starts"))
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Empty: for good."), verbose_name=_("ends")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("given by")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        indexes = [models.Index(fields=["user", "kind", "ends_at"], name="sanction_active_idx")]
        ordering = ["-created_at"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self) -> str:
        return f"{self.user} {self.get_kind_display()} {self.until_text}"

    @property
    def until_text(self) -> str:
        if self.ends_at is None:
            return gettext("for good")
        return gettext("until %(moment)s") % {"moment": dates.with_zone(self.ends_at)}

    def explain(self) -> str:
        """What the sanctioned user is told (in the active language): what, until when and why."""
        values = {"reason": self.reason, "moment": dates.with_zone(self.ends_at) if self.ends_at else ""}
        if self.kind == self.Kind.MUTE:
            if self.ends_at is None:
                return gettext("You are muted in chat for good. Reason: %(reason)s") % values
            return gettext("You are muted in chat until %(moment)s. Reason: %(reason)s") % values
        if self.ends_at is None:
            return gettext("You are suspended for good. Reason: %(reason)s") % values
        return gettext("You are suspended until %(moment)s. Reason: %(reason)s") % values


class AppendOnlyQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: Any) -> int:
        raise PermissionError("The audit log is append-only.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("The audit log is append-only.")


class AuditEntry(models.Model):
    """One moderation action: who did what, to whom, why and when. Never changed, never deleted."""

    class Action(models.TextChoices):
        HIDE_MESSAGE = "hide_message", _("hid a chat message")
        MUTE = "mute", _("muted a user")
        SUSPEND = "suspend", _("suspended a user")
        ABORT_GAME = "abort_game", _("aborted a game")
        SETTLE_GAME = "settle_game", _("settled a stalled game")
        RESOLVE_REPORT = "resolve_report", _("resolved a report")
        DISMISS_REPORT = "dismiss_report", _("dismissed a report")
        GRANT_MODERATOR = "grant_moderator", _("made a user a moderator")
        REVOKE_MODERATOR = "revoke_moderator", _("removed a moderator")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_actions",
        help_text=_("Empty for the command line (manage.py moderator)."),
        verbose_name=_("moderator"),
    )
    action = models.CharField(max_length=32, choices=Action.choices, verbose_name=_("action"))
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("to whom"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("game"),
    )
    message = models.ForeignKey(
        ChatMessage,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("message"),
    )
    report = models.ForeignKey(
        Report,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("report"),
    )
    reason = models.TextField(verbose_name=_("reason"))
    details = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("E.g. until when, which games were settled."),
        verbose_name=_("details"),
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("created"))

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        permissions = [
            ("hide_message", "Can hide chat messages"),
            ("mute_user", "Can mute users"),
            ("suspend_user", "Can suspend users"),
            ("abort_game", "Can abort games"),
            ("settle_game", "Can settle stalled games"),
            ("handle_report", "Can resolve and dismiss reports"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor or 'system'} {self.get_action_display()}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise PermissionError("The audit log is append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("The audit log is append-only.")


class LoginSession(models.Model):
    """A session a user logged in with, so that suspending them can end it at once (with no
    per-request check). Recorded by the ``user_logged_in`` signal (``moderation.signals``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    session_key = models.CharField(max_length=64, verbose_name=_("session key"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))

    class Meta:
        indexes = [models.Index(fields=["user"], name="login_session_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} logged in at {self.created_at:%Y-%m-%d %H:%M}"
