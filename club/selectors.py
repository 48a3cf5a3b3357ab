"""Reads of the friends pages: a flat number of queries whatever the number of friends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import BooleanField, Count, ExpressionWrapper, Max
from django.db.models.functions import Lower

from accounts import presence, relations
from accounts.models import Block, FriendRequest, Friendship, User
from games.models import Seat


@dataclass(frozen=True)
class Friend:
    user: User
    #: Whether the friend's presence is the reader's to see (``relations.presence_visible``).
    presence_shown: bool
    online: bool
    last_seen: datetime | None
    #: The games both have a seat in, and the newest of them.
    shared_games: int
    latest_game_id: int | None


@dataclass(frozen=True)
class FriendsPage:
    incoming: list[FriendRequest]
    outgoing: list[FriendRequest]
    friends: list[Friend]


def friends_page(user: User) -> FriendsPage:
    """Everything the friends page shows ``user``: four queries, however many friends."""
    shown = relations.presence_shown(user, prefix="friend__", id_field="friend_id")
    rows = list(
        Friendship.objects.filter(user=user)
        .select_related("friend")
        .annotate(presence_shown=ExpressionWrapper(shown, output_field=BooleanField()))
        .order_by(Lower("friend__username"), "friend_id")
    )
    shared = {
        row["user_id"]: row
        for row in Seat.objects.filter(user_id__in=[row.friend_id for row in rows], game__seats__user=user)
        .values("user_id")
        .annotate(count=Count("game_id", distinct=True), latest=Max("game_id"))
        .order_by()
    }
    friends = []
    for row in rows:
        visible = bool(row.presence_shown)
        games = shared.get(row.friend_id)
        friends.append(
            Friend(
                user=row.friend,
                presence_shown=visible,
                online=visible and presence.is_online(row.friend),
                last_seen=row.friend.last_active_at if visible else None,
                shared_games=int(games["count"]) if games else 0,
                latest_game_id=games["latest"] if games else None,
            )
        )
    return FriendsPage(
        incoming=relations.incoming_requests(user),
        outgoing=relations.outgoing_requests(user),
        friends=friends,
    )


def blocked_players(user: User) -> list[Block]:
    return list(
        Block.objects.filter(blocker=user).select_related("blocked").order_by(Lower("blocked__username"))
    )


@dataclass(frozen=True)
class Standing:
    """What ``viewer`` has to do with ``person``, for the buttons of ``person``'s profile."""

    friends: bool
    #: The viewer's request to them, and theirs to the viewer (never one from a blocked player).
    sent: FriendRequest | None
    received: FriendRequest | None
    blocked: bool


def standing(*, viewer: User, person: User) -> Standing:
    """Four small queries (a profile page, not a list)."""
    blocked = Block.objects.filter(blocker=viewer, blocked=person).exists()
    return Standing(
        friends=relations.are_friends(viewer, person),
        sent=FriendRequest.objects.filter(sender=viewer, recipient=person).first(),
        received=None if blocked else FriendRequest.objects.filter(sender=person, recipient=viewer).first(),
        blocked=blocked,
    )
