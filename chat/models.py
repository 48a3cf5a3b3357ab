"""Chat messages of a game: one channel for the seated players, one for spectators.

The text is stored as typed and only ever rendered escaped (Django's autoescape; never
``|safe``). A moderator hides a message (``moderation.services.message_hide``); it stays
in the table, for the audit log and the reports that point at it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

#: The longest message, in characters.
MAX_LENGTH = 500


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("game")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    channel = models.CharField(max_length=16, choices=Channel.choices, verbose_name=_("channel"))
    text = models.TextField(max_length=MAX_LENGTH, verbose_name=_("text"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created"))
    hidden_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Set when a moderator hid it."), verbose_name=_("hidden at")
    )
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )

    class Meta:
        indexes = [
            models.Index(fields=["game", "channel", "-id"], name="chat_channel_idx"),
            models.Index(fields=["author", "-created_at"], name="chat_author_idx"),
        ]
        ordering = ["id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"{self.author} in game {self.game_id} ({self.channel}): {self.text[:40]}"

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None
