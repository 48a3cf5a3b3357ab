"""Posting in a game's chat. Seated players post in the players' channel, everyone else
(logged in) in the spectators' channel; neither reads the other's."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game
from moderation.selectors import active_mute

from .exceptions import ChatError, ChatRefused
from .models import MAX_LENGTH, ChatMessage


def channel_for(*, game: Game, user: User) -> str:
    """The channel ``user`` writes in and reads (the game's seats must be loaded or cheap)."""
    seated = any(seat.user_id == user.pk for seat in game.seats.all())
    return ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS


@transaction.atomic
def chat_post(*, user: User, game: Game, text: str) -> ChatMessage:
    """Post ``text`` in the user's channel of ``game``.

    Refused (``ChatRefused``, with why and until when) for a muted user, and for anyone who
    posted ``CHAT_FLOOD_MESSAGES`` messages in the last ``CHAT_FLOOD_SECONDS``. Locks the
    user's row, so that two posts of one user at once cannot both slip under the limit.
    """
    text = text.strip()
    if not text:
        raise ChatError("Write something first.")
    if len(text) > MAX_LENGTH:
        raise ChatError(f"Messages are at most {MAX_LENGTH} characters long ({len(text)} given).")
    User.objects.select_for_update().filter(pk=user.pk).first()
    mute = active_mute(user_id=user.pk)
    if mute is not None:
        raise ChatRefused(mute.explain())
    window = timedelta(seconds=settings.CHAT_FLOOD_SECONDS)
    recent = ChatMessage.objects.filter(author=user, created_at__gt=timezone.now() - window).count()
    if recent >= settings.CHAT_FLOOD_MESSAGES:
        raise ChatRefused(
            f"Slow down: at most {settings.CHAT_FLOOD_MESSAGES} messages in "
            f"{settings.CHAT_FLOOD_SECONDS} seconds."
        )
    return ChatMessage.objects.create(
        game=game, author=user, channel=channel_for(game=game, user=user), text=text
    )
