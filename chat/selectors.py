"""Reads of a game's chat."""

from django.db.models import Count, Max

from .models import ChatMessage

#: How many of the latest messages a chat shows.
SHOWN = 50


def chat_marker(*, game_id: int, channel: str) -> str:
    """Changes whenever a message is posted in the channel or hidden (one query), for polling."""
    found = ChatMessage.objects.filter(game_id=game_id, channel=channel).aggregate(
        last=Max("id"), hidden=Count("hidden_at")
    )
    return f"{found['last'] or 0}.{found['hidden']}"


def chat_messages(*, game_id: int, channel: str, limit: int = SHOWN) -> list[ChatMessage]:
    """The latest messages of the channel, oldest first, with their authors (one query).
    Hidden ones are included: the page shows that a moderator hid them, not their text."""
    latest = (
        ChatMessage.objects.filter(game_id=game_id, channel=channel)
        .select_related("author")
        .order_by("-id")[:limit]
    )
    return list(reversed(latest))
