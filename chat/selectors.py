"""Reads of a game's chat."""

from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce

from accounts import relations
from games.models import Game

from .models import ChatMessage

#: How many of the latest messages a chat shows.
SHOWN = 50


def chat_marker(*, game_id: int, channel: str) -> str:
    """Changes whenever a message is posted in the channel or hidden (one query), for polling."""
    found = ChatMessage.objects.filter(game_id=game_id, channel=channel).aggregate(
        last=Max("id"), hidden=Count("hidden_at")
    )
    return f"{found['last'] or 0}.{found['hidden']}"


def chat_poll_game(*, game_id: int, channel: str) -> Game | None:
    """The game (only what ``games.selectors.game_visible_to`` needs) with the channel's
    ``chat_marker`` as ``marker``, in one query; None if there is no such game."""
    in_channel = ChatMessage.objects.filter(game=OuterRef("pk"), channel=channel)
    last = in_channel.order_by("-id").values("id")[:1]
    hidden = in_channel.filter(hidden_at__isnull=False).values("game").annotate(n=Count("pk")).values("n")
    game = (
        Game.objects.filter(pk=game_id)
        .only("pk", "private", "creator_id")
        .annotate(
            last_message=Coalesce(Subquery(last, output_field=IntegerField()), 0),
            hidden_messages=Coalesce(Subquery(hidden, output_field=IntegerField()), 0),
        )
        .first()
    )
    if game is not None:
        game.marker = f"{game.last_message}.{game.hidden_messages}"  # type: ignore[attr-defined]
    return game


def chat_messages(
    *, game_id: int, channel: str, limit: int = SHOWN, reader: object = None
) -> list[ChatMessage]:
    """The latest messages of the channel, oldest first, with their authors (one query).
    Hidden ones are included: the page shows that a moderator hid them, not their text.

    ``reader`` (the user reading, if signed in) never gets the lines of a player they blocked
    (``accounts.relations``): left out here, not deleted, so every other reader and the
    moderators (the admin reads the rows) still see them."""
    messages = ChatMessage.objects.filter(game_id=game_id, channel=channel)
    if getattr(reader, "is_authenticated", False):
        messages = messages.exclude(relations.lines_hidden_from(reader))
    latest = messages.select_related("author").order_by("-id")[:limit]
    return list(reversed(latest))
