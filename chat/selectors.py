"""Reads of a game's chat."""

from django.db.models import Count, IntegerField, Max, OuterRef, Subquery
from django.db.models.functions import Coalesce

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


def chat_messages(*, game_id: int, channel: str, limit: int = SHOWN) -> list[ChatMessage]:
    """The latest messages of the channel, oldest first, with their authors (one query).
    Hidden ones are included: the page shows that a moderator hid them, not their text."""
    latest = (
        ChatMessage.objects.filter(game_id=game_id, channel=channel)
        .select_related("author")
        .order_by("-id")[:limit]
    )
    return list(reversed(latest))
