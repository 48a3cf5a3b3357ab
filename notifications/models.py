"""In-app notifications (the bell) and each user's choice of what reaches them how.

Beneath everything else of the app but its kinds (``notifications.kinds``) and its words
(``notifications.messages``, which a row's sentence is made by): the policy, the push, the
services and the tasks import the models, never the other way.

A ``Notification`` row is written in the same transaction as the change it reports
(``notifications.services``); its email, if the user wants one, is sent afterwards by a
Celery task: ``email_pending`` (queued) → ``email_claimed_at`` (being sent) → ``emailed_at``
(sent). docs/locking.md says why a claim, and not a lock, covers the sending. A
``PushSubscription`` is one of the user's browsers that takes web pushes (``notifications.push``).
"""

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .kinds import FRIEND_KINDS, Kind
from .links import friends_path, game_path, tournament_path
from .messages import notification_text

__all__ = ["Kind", "Notification", "Preferences", "PushSubscription"]


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    #: The tournament a notification of ``kinds.TOURNAMENT_KINDS`` is about (a round's has its
    #: game as well).
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    #: The English sentence at the time of writing (the admin's column); readers get ``message``.
    text = models.CharField(_("text"), max_length=300)
    #: The facts the sentence is made from, in each reader's language (``notifications.messages``).
    params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)
    emailed_at = models.DateTimeField(_("emailed"), null=True, blank=True)
    #: An email was queued and not yet sent or judged no longer due: the catch-up sweep
    #: (``services.send_pending_emails``) sends it if its task never ran (broker down).
    email_pending = models.BooleanField(default=False)
    #: When a sender (the task or the sweep) claimed the email, in a transaction of its own
    #: committed before it talks to the mail server; set with ``emailed_at`` unset: being sent.
    #: Given back (unset) if the mail server did not take the message. A claim is never sent
    #: twice: one never recorded as sent is given up after ``services.EMAIL_CLAIM_TIMEOUT``.
    email_claimed_at = models.DateTimeField(null=True, blank=True)
    #: The push of a "your move" (``policy.push_batch``): unset while pending; 0 when no push
    #: is due for it (the player watched the game, moved, turned pushes off); else the id of the
    #: notification whose push carried it, claimed with others of the player's in one UPDATE
    #: ("It's your move in 3 games"), and ``pushed_with`` is that notification's ``created_at``
    #: then, which names the claim (a "your move" moved up by a later turn makes a new one).
    pushed_by = models.BigIntegerField(null=True, blank=True)
    pushed_with = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_list_idx"),
            models.Index(
                fields=["user"], name="notification_unread_idx", condition=models.Q(read_at__isnull=True)
            ),
            models.Index(
                fields=["created_at"],
                name="notification_email_due_idx",
                condition=models.Q(email_pending=True),
            ),
        ]
        constraints = [
            # One unread "your move" per game under the bell: a newer turn moves it up
            # (``services._write_turns``).
            models.UniqueConstraint(
                fields=["user", "game"],
                name="notification_one_unread_turn",
                condition=models.Q(kind="your_move", read_at__isnull=True),
            ),
        ]
        ordering = ["-created_at", "-pk"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user}: {self.text}"

    @property
    def message(self) -> str:
        """The sentence in the active language (the reader's), their time zone for deadlines."""
        if not self.params:
            return self.text
        return notification_text(self.kind, self.params, self.user)

    @property
    def link(self) -> str | None:
        """The path of the page it is about: its game's, its tournament's, the friends page."""
        if self.game_id is not None:
            return game_path(self.game_id)
        if self.tournament_id is not None:
            return tournament_path(self.tournament_id)
        if self.kind in FRIEND_KINDS:
            return friends_path()
        return None

    def set_params(self, params: dict[str, Any]) -> None:
        """The facts and their English sentence, as written."""
        self.params = params
        with translation.override("en"):
            self.text = notification_text(self.kind, params, self.user)[:300]


class Preferences(models.Model):
    """Per kind, whether it shows under the bell, whether it is emailed and whether it is pushed
    to the user's devices. A user without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="notification_preferences",
    )
    web_your_move = models.BooleanField(_("your move: on the site"), default=True)
    email_your_move = models.BooleanField(_("your move: by email"), default=True)
    web_game_started = models.BooleanField(_("game started: on the site"), default=True)
    email_game_started = models.BooleanField(_("game started: by email"), default=True)
    web_invited = models.BooleanField(_("invitation: on the site"), default=True)
    email_invited = models.BooleanField(_("invitation: by email"), default=True)
    web_game_finished = models.BooleanField(_("game finished: on the site"), default=True)
    email_game_finished = models.BooleanField(_("game finished: by email"), default=True)
    web_time_low = models.BooleanField(_("time almost up: on the site"), default=True)
    email_time_low = models.BooleanField(_("time almost up: by email"), default=True)
    web_rematch = models.BooleanField(_("rematch offer: on the site"), default=True)
    email_rematch = models.BooleanField(_("rematch offer: by email"), default=True)
    web_claim_possible = models.BooleanField(_("a claim is possible: on the site"), default=True)
    email_claim_possible = models.BooleanField(_("a claim is possible: by email"), default=True)
    web_friend_request = models.BooleanField(_("friend request: on the site"), default=True)
    email_friend_request = models.BooleanField(_("friend request: by email"), default=True)
    web_friend_accepted = models.BooleanField(_("friend request accepted: on the site"), default=True)
    email_friend_accepted = models.BooleanField(_("friend request accepted: by email"), default=False)
    # A tournament's registration opening is news, not a call: on the site only, by default.
    web_tournament_open = models.BooleanField(_("tournament registration open: on the site"), default=True)
    email_tournament_open = models.BooleanField(_("tournament registration open: by email"), default=False)
    web_tournament_soon = models.BooleanField(_("tournament starting soon: on the site"), default=True)
    email_tournament_soon = models.BooleanField(_("tournament starting soon: by email"), default=True)
    web_tournament_round = models.BooleanField(_("tournament round started: on the site"), default=True)
    email_tournament_round = models.BooleanField(_("tournament round started: by email"), default=True)
    web_tournament_ended = models.BooleanField(_("tournament ended: on the site"), default=True)
    email_tournament_ended = models.BooleanField(_("tournament ended: by email"), default=True)
    # Pushed to the user's devices (``notifications.push``): on by default only for what asks the
    # player to act now; the rest stays on the bell and in the mailbox unless they choose more.
    push_your_move = models.BooleanField(_("your move: push"), default=True)
    push_game_started = models.BooleanField(_("game started: push"), default=False)
    push_invited = models.BooleanField(_("invitation: push"), default=False)
    push_game_finished = models.BooleanField(_("game finished: push"), default=False)
    push_time_low = models.BooleanField(_("time almost up: push"), default=True)
    push_rematch = models.BooleanField(_("rematch offer: push"), default=False)
    push_claim_possible = models.BooleanField(_("a claim is possible: push"), default=True)
    push_friend_request = models.BooleanField(_("friend request: push"), default=False)
    push_friend_accepted = models.BooleanField(_("friend request accepted: push"), default=False)
    push_tournament_open = models.BooleanField(_("tournament registration open: push"), default=False)
    push_tournament_soon = models.BooleanField(_("tournament starting soon: push"), default=False)
    # A round's game waits for its players (a live one at once): it asks them to act.
    push_tournament_round = models.BooleanField(_("tournament round started: push"), default=True)
    push_tournament_ended = models.BooleanField(_("tournament ended: push"), default=False)
    daily_digest = models.BooleanField(
        _("one daily email listing the games waiting for me, instead of an email per game"),
        default=False,
    )
    digest_sent_on = models.DateField(null=True, blank=True, help_text=_("Local date of the last digest."))

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"notification preferences of {self.user_id}"

    def wants_web(self, kind: str) -> bool:
        return bool(getattr(self, f"web_{kind}"))

    def wants_email(self, kind: str) -> bool:
        return bool(getattr(self, f"email_{kind}"))

    def wants_push(self, kind: str) -> bool:
        return bool(getattr(self, f"push_{kind}"))


class PushSubscription(models.Model):
    """One browser (a phone's home-screen app, a desktop browser) that takes web pushes for its
    user: where to send them (``endpoint``, the push service's URL for this browser) and the keys
    the payload is encrypted with (RFC 8291). Deleted when the push service says it is gone."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    #: The browser's ECDH P-256 public key, base64url (65 bytes decoded: an uncompressed point).
    p256dh = models.CharField(max_length=100)
    #: The browser's 16-byte authentication secret, base64url.
    auth = models.CharField(max_length=30)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_success = models.DateTimeField(_("last push delivered"), null=True, blank=True)
    user_agent = models.CharField(_("browser"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"
