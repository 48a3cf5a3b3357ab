"""Posting in a game's chat. Seated players post in the players' channel, everyone else
(logged in) in the spectators' channel; neither reads the other's."""

import re
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from durak_site import live
from games.models import Game

from . import restrictions
from .exceptions import ChatError, ChatRefused
from .models import MAX_LENGTH, ChatMessage

#: A message is one line (the page's input is): no C0 control character, not even a newline or a
#: tab, and no DEL. (durak_site.middleware refuses the other C0 characters in any form field
#: already; newlines and tabs are text elsewhere, so refusing them is this field's own rule.)
CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f]")


def channel_for(*, game: Game, user: User) -> str:
    """The channel ``user`` writes in and reads (the game's seats must be loaded or cheap)."""
    seated = any(seat.user_id == user.pk for seat in game.seats.all())
    return ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS


@transaction.atomic
def chat_post(*, user: User, game: Game, text: str) -> ChatMessage:
    """Post ``text`` in the user's channel of ``game``.

    Refused (``ChatError``) when empty, too long or holding a control character; refused
    (``ChatRefused``, with why and until when) for a muted user, and for anyone who
    posted ``CHAT_FLOOD_MESSAGES`` messages in the last ``CHAT_FLOOD_SECONDS``. Locks the
    user's row, so that two posts of one user at once cannot both slip under the limit.
    """
    text = text.strip()
    if not text:
        raise ChatError(_("Write something first."))
    if CONTROL_CHARACTER.search(text):
        raise ChatError(_("Messages are one line of text, without control characters."))
    if len(text) > MAX_LENGTH:
        raise ChatError(
            ngettext(
                "Messages are at most %(max)s character long (%(given)s given).",
                "Messages are at most %(max)s characters long (%(given)s given).",
                MAX_LENGTH,
            )
            % {"max": MAX_LENGTH, "given": len(text)}
        )
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    refusal = restrictions.why_not(user_id=user.pk)  # a mute (moderation)
    if refusal is not None:
        raise ChatRefused(refusal)
    window = timedelta(seconds=settings.CHAT_FLOOD_SECONDS)
    recent = ChatMessage.objects.filter(author=user, created_at__gt=timezone.now() - window).count()
    if recent >= settings.CHAT_FLOOD_MESSAGES:
        raise ChatRefused(
            ngettext(
                "Slow down: %(at_most)s in %(seconds)s second.",
                "Slow down: %(at_most)s in %(seconds)s seconds.",
                settings.CHAT_FLOOD_SECONDS,
            )
            % {
                "at_most": ngettext(
                    "at most %(count)s message", "at most %(count)s messages", settings.CHAT_FLOOD_MESSAGES
                )
                % {"count": settings.CHAT_FLOOD_MESSAGES},
                "seconds": settings.CHAT_FLOOD_SECONDS,
            }
        )
    message = ChatMessage.objects.create(
        game=game, author=user, channel=channel_for(game=game, user=user), text=text
    )
    # Its readers' pages fetch the log (durak_site.live): the event says only that it changed.
    live.chat_changed_on_commit(game.pk, str(message.channel))
    return message
