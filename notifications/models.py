"""In-app notifications (the bell) and each user's choice of what reaches them how.

A ``Notification`` row is written in the same transaction as the change it reports
(``notifications.services``); its email, if the user wants one, is sent afterwards by a
Celery task, and ``emailed_at`` records that it went out.
"""

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    YOUR_MOVE = "your_move", "your move"
    GAME_STARTED = "game_started", "game started"
    INVITED = "invited", "invitation"
    GAME_FINISHED = "game_finished", "game finished"
    TIME_LOW = "time_low", "time almost up"


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_list_idx"),
            models.Index(
                fields=["user"], name="notification_unread_idx", condition=models.Q(read_at__isnull=True)
            ),
        ]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user}: {self.text}"


class Preferences(models.Model):
    """Per kind, whether it shows under the bell and whether it is emailed. A user without a
    row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="notification_preferences"
    )
    web_your_move = models.BooleanField("your move: on the site", default=True)
    email_your_move = models.BooleanField("your move: by email", default=True)
    web_game_started = models.BooleanField("game started: on the site", default=True)
    email_game_started = models.BooleanField("game started: by email", default=True)
    web_invited = models.BooleanField("invitation: on the site", default=True)
    email_invited = models.BooleanField("invitation: by email", default=True)
    web_game_finished = models.BooleanField("game finished: on the site", default=True)
    email_game_finished = models.BooleanField("game finished: by email", default=True)
    web_time_low = models.BooleanField("time almost up: on the site", default=True)
    email_time_low = models.BooleanField("time almost up: by email", default=True)
    daily_digest = models.BooleanField(
        "one daily email listing the games waiting for me, instead of an email per game",
        default=False,
    )
    digest_sent_on = models.DateField(null=True, blank=True, help_text="Local date of the last digest.")

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"notification preferences of {self.user_id}"

    def wants_web(self, kind: str) -> bool:
        return bool(getattr(self, f"web_{kind}"))

    def wants_email(self, kind: str) -> bool:
        return bool(getattr(self, f"email_{kind}"))
