"""Reads of the friends pages: a flat number of queries whatever the number of friends."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, Max, OuterRef, Subquery
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
    """What ``viewer`` has to do with ``person``, for ``person``'s profile."""

    friends: bool
    #: The ids of the viewer's request to them and of theirs to the viewer (never one from a
    #: player the viewer blocked).
    sent: int | None
    received: int | None
    blocked: bool
    #: Whether the viewer may see the person's presence (``relations.presence_visible``).
    presence_shown: bool


def standing(*, viewer: User, person: User) -> Standing:
    """One query, whatever the viewer and the person have to do with each other."""
    me, them = viewer.pk, OuterRef("pk")
    row = (
        User.objects.filter(pk=person.pk)
        .annotate(
            is_friend=Exists(Friendship.objects.filter(user_id=me, friend_id=them)),
            is_blocked=Exists(Block.objects.filter(blocker_id=me, blocked_id=them)),
            sent_id=Subquery(FriendRequest.objects.filter(sender_id=me, recipient_id=them).values("pk")[:1]),
            received_id=Subquery(
                FriendRequest.objects.filter(sender_id=them, recipient_id=me).values("pk")[:1]
            ),
            shown=ExpressionWrapper(relations.presence_shown(viewer), output_field=BooleanField()),
        )
        .values("is_friend", "is_blocked", "sent_id", "received_id", "shown")
        .get()
    )
    return Standing(
        friends=row["is_friend"],
        sent=row["sent_id"],
        received=None if row["is_blocked"] else row["received_id"],
        blocked=row["is_blocked"],
        presence_shown=row["shown"],
    )
