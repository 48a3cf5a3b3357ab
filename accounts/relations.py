"""Players and each other: friends, blocks, private notes, and what a player's privacy settings
let others see and do. The rules here are the only ones: the games, Play now, the chat, the
pages and the API ask them.

**Friends.** A request (``friend_request_send``) is accepted, declined or cancelled; accepted,
the two are friends until either removes the other. Asking someone who has already asked you
accepts their request.

**Block.** ``blocker`` blocked ``blocked``. Between the two (either way) the site keeps apart:
no seat at one table from the next game on (joining, Play now, a rematch, an invitation), no
friend request or invitation from the blocked one, no presence shown to them, their chat lines
hidden from the blocker (not deleted: moderators still read them). Games already running go on.
A block is silent: nothing the blocked player sees says they were blocked (a refusal reads like
any other limit), and undoing it restores everything but a friendship it ended.

**Notes.** One private note per author and player.

No games here (``accounts`` is beneath them): ``games`` and the apps above ask these functions.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.dispatch import Signal
from django.utils.translation import gettext as _

from .models import Block, FriendRequest, Friendship, PlayerNote, User
from .presence import is_online

#: Sent after the commit of a new friend request: ``request`` (a ``FriendRequest``) the
#: recipient may see (not one from a player they blocked).
friend_requested = Signal()
#: Sent after the commit of an accepted request: ``by`` accepted ``sender``'s request.
friend_accepted = Signal()


class RelationError(Exception):
    """A request about friends, blocks or notes that cannot be done; its text is for the player."""


# Reading


def friend_ids(user: User) -> set[int]:
    return set(Friendship.objects.filter(user=user).values_list("friend_id", flat=True))


def are_friends(a: User | int, b: User | int) -> bool:
    return Friendship.objects.filter(user_id=_pk(a), friend_id=_pk(b)).exists()


def blocked_ids(user: User) -> set[int]:
    """The players ``user`` blocked."""
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocks_between(user: User | int, others: Iterable[User | int]) -> bool:
    """Whether ``user`` blocked any of ``others`` or any of them blocked ``user``."""
    ids = [_pk(other) for other in others if _pk(other) != _pk(user)]
    if not ids:
        return False
    me = _pk(user)
    return Block.objects.filter(
        Q(blocker_id=me, blocked_id__in=ids) | Q(blocked_id=me, blocker_id__in=ids)
    ).exists()


def blocked_pairs(user_ids: Collection[int]) -> set[frozenset[int]]:
    """Every pair of ``user_ids`` kept apart by a block (either way): one query."""
    if len(user_ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {frozenset(row) for row in rows}


def friend_pairs(user_ids: Collection[int]) -> set[frozenset[int]]:
    """Every pair of ``user_ids`` who are friends: one query."""
    if len(user_ids) < 2:
        return set()
    rows = Friendship.objects.filter(user_id__in=user_ids, friend_id__in=user_ids).values_list(
        "user_id", "friend_id"
    )
    return {frozenset(row) for row in rows}


def block_with(user_id: int, other: str = "pk") -> Q:
    """A ``Q`` over a model whose ``other`` names a user: a block between them and ``user_id``
    (either way), as an ``EXISTS`` for one query whatever the number of blocks."""
    return Q(
        Exists(Block.objects.filter(blocker_id=user_id, blocked_id=OuterRef(other)))
        | Exists(Block.objects.filter(blocked_id=user_id, blocker_id=OuterRef(other)))
    )


def lines_hidden_from(reader: User | object, author: str = "author_id") -> Q:
    """A ``Q`` over chat lines (or anything ``author`` names the writer of): those ``reader``
    does not see, written by a player they blocked; nothing for a visitor. Hidden, not
    deleted: other readers and the moderators still see them."""
    if not getattr(reader, "is_authenticated", False):
        return Q(pk__in=[])
    return Q(
        Exists(Block.objects.filter(blocker_id=getattr(reader, "pk", None), blocked_id=OuterRef(author)))
    )


def presence_visible(*, viewer: User | object, subject: User) -> bool:
    """Whether ``viewer`` may see if ``subject`` is online and when they were last seen: their
    own always; else as ``subject.presence_to`` says, and never to a player they blocked."""
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    if viewer_id == subject.pk:
        return True
    if subject.is_bot:
        return False
    if subject.presence_to == "nobody":
        return False
    if viewer_id is not None and Block.objects.filter(blocker=subject, blocked_id=viewer_id).exists():
        return False
    if subject.presence_to == "friends":
        return viewer_id is not None and are_friends(subject, viewer_id)
    return True


def presence_of(*, viewer: User | object, subject: User) -> tuple[bool, object] | None:
    """(online now, last seen) for ``viewer`` to show, or None when it is not theirs to see."""
    if not presence_visible(viewer=viewer, subject=subject):
        return None
    return is_online(subject), subject.last_active_at


def presence_shown(viewer: User | object | int, *, prefix: str = "", id_field: str = "pk") -> Q:
    """``presence_visible`` as a ``Q`` over a model whose fields ``prefix`` (``""`` for users,
    ``"friend__"`` for friendships) name the subject and ``id_field`` its id: for a whole list
    in the list's own query, whatever its length. ``viewer``: a user, a visitor or a user's id."""
    if isinstance(viewer, int):
        viewer_id: int | None = viewer
    else:
        viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    shown = Q(**{f"{prefix}presence_to": "everyone"})
    if viewer_id is None:
        return shown & Q(**{f"{prefix}is_bot": False})
    friend = Exists(Friendship.objects.filter(user_id=OuterRef(id_field), friend_id=viewer_id))
    shown |= Q(**{f"{prefix}presence_to": "friends"}) & Q(friend)
    blocked_me = Exists(Block.objects.filter(blocker_id=OuterRef(id_field), blocked_id=viewer_id))
    return Q(**{f"{prefix}pk": viewer_id}) | (shown & ~Q(blocked_me) & Q(**{f"{prefix}is_bot": False}))


def may_invite(*, inviter: User, invitee: User) -> bool:
    """Whether ``inviter`` may invite ``invitee`` to a game: not when either blocked the other,
    and only a friend when the invitee takes invitations from friends only."""
    if inviter.pk == invitee.pk:
        return True
    if blocks_between(inviter, [invitee]):
        return False
    return invitee.invites_from != "friends" or are_friends(invitee, inviter)


def incoming_requests(user: User) -> list[FriendRequest]:
    """The requests ``user`` may answer, newest first: not those of players they blocked."""
    return list(
        FriendRequest.objects.filter(recipient=user)
        .exclude(Exists(Block.objects.filter(blocker=user, blocked_id=OuterRef("sender_id"))))
        .select_related("sender")
        .order_by("-created_at", "-pk")
    )


def outgoing_requests(user: User) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(sender=user).select_related("recipient").order_by("-created_at", "-pk")
    )


def notes_by(author: User | object, about: Iterable[int]) -> dict[int, str]:
    """``author``'s notes about these players, by their ids: one query, none for a visitor."""
    if not getattr(author, "is_authenticated", False):
        return {}
    ids = set(about)
    if not ids:
        return {}
    notes = PlayerNote.objects.filter(author_id=getattr(author, "pk", None), about_id__in=ids)
    return dict(notes.values_list("about_id", "text"))


# Writing


def friend_request_send(*, sender: User, recipient: User) -> FriendRequest | Friendship:
    """Ask ``recipient`` to be friends. Asking someone who asked you first accepts theirs (the
    ``Friendship`` is returned); asking again, or a friend, changes nothing. A request from a
    player the recipient blocked is kept but never shown or told to them (a block is silent);
    the sender cannot ask a player they blocked."""
    if sender.pk == recipient.pk:
        raise RelationError(_("You cannot be your own friend."))
    if recipient.is_bot or not recipient.is_active:
        raise RelationError(_("This player does not take friend requests."))
    if Block.objects.filter(blocker=sender, blocked=recipient).exists():
        raise RelationError(_("You blocked this player: unblock them first."))
    with transaction.atomic():
        _lock_pair(sender, recipient)
        friendship = Friendship.objects.filter(user=sender, friend=recipient).first()
        if friendship is not None:
            return friendship
        theirs = FriendRequest.objects.filter(sender=recipient, recipient=sender).first()
        if theirs is not None:
            return _accept(theirs)
        request, created = FriendRequest.objects.get_or_create(sender=sender, recipient=recipient)
        if created and not Block.objects.filter(blocker=recipient, blocked=sender).exists():
            transaction.on_commit(lambda: friend_requested.send(sender=FriendRequest, request=request))
    return request


def friend_request_accept(*, user: User, request_id: int) -> Friendship:
    """Accept a request to ``user``. Two accepts at once (two tabs) make one friendship and one
    "accepted" notification: the second, after the first's commit, finds no request left."""
    with transaction.atomic():
        request = _request_to(user, request_id)
        _lock_pair(request.sender, user)
        if not FriendRequest.objects.filter(pk=request.pk).exists():  # accepted meanwhile
            friendship = Friendship.objects.filter(user=user, friend_id=request.sender_id).first()
            if friendship is None:  # declined or cancelled meanwhile
                raise RelationError(_("There is no such friend request."))
            return friendship
        return _accept(request)


def friend_request_decline(*, user: User, request_id: int) -> None:
    """Decline a request: it is gone, and its sender is not told (they may ask again)."""
    _request_to(user, request_id).delete()


def friend_request_cancel(*, user: User, request_id: int) -> None:
    deleted, _rows = FriendRequest.objects.filter(pk=request_id, sender=user).delete()
    if not deleted:
        raise RelationError(_("There is no such friend request."))


def friend_remove(*, user: User, other: User) -> None:
    """No longer friends, both ways (the other is not told)."""
    Friendship.objects.filter(Q(user=user, friend=other) | Q(user=other, friend=user)).delete()


def block(*, blocker: User, blocked: User) -> Block:
    """Block ``blocked``: from now on the two are kept apart (see the module). A friendship
    between them ends, and so does a request of the blocker's to them."""
    if blocker.pk == blocked.pk:
        raise RelationError(_("You cannot block yourself."))
    with transaction.atomic():
        _lock_pair(blocker, blocked)
        made, _created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        friend_remove(user=blocker, other=blocked)
        FriendRequest.objects.filter(sender=blocker, recipient=blocked).delete()
    return made


def unblock(*, blocker: User, blocked: User) -> None:
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


#: A note longer than this is refused (``PlayerNote.text``).
NOTE_MAX = 300


def note_set(*, author: User, about: User, text: str) -> PlayerNote | None:
    """Write, change or (with an empty ``text``) remove ``author``'s note about ``about``."""
    if author.pk == about.pk:
        raise RelationError(_("A note is about another player."))
    text = " ".join(text.split())
    if len(text) > NOTE_MAX:
        raise RelationError(_("A note may be at most %(limit)d characters long.") % {"limit": NOTE_MAX})
    if not text:
        PlayerNote.objects.filter(author=author, about=about).delete()
        return None
    try:
        note, _created = PlayerNote.objects.update_or_create(
            author=author, about=about, defaults={"text": text}
        )
    except IntegrityError:  # the same note written twice at once: the other one won
        note = PlayerNote.objects.get(author=author, about=about)
        note.text = text
        note.save(update_fields=["text", "updated_at"])
    return note


def _request_to(user: User, request_id: int) -> FriendRequest:
    request = FriendRequest.objects.filter(pk=request_id, recipient=user).select_related("sender").first()
    if request is None or Block.objects.filter(blocker=user, blocked_id=request.sender_id).exists():
        raise RelationError(_("There is no such friend request."))
    return request


def _accept(request: FriendRequest) -> Friendship:
    sender, recipient = request.sender, request.recipient
    Friendship.objects.bulk_create(
        [Friendship(user=sender, friend=recipient), Friendship(user=recipient, friend=sender)],
        ignore_conflicts=True,
    )
    FriendRequest.objects.filter(
        Q(sender=sender, recipient=recipient) | Q(sender=recipient, recipient=sender)
    ).delete()
    transaction.on_commit(lambda: friend_accepted.send(sender=Friendship, by=recipient, requester=sender))
    return Friendship.objects.get(user=recipient, friend=sender)


def _lock_pair(a: User, b: User) -> None:
    """Two changes to the same two players at once (both asking each other, a block and an
    accept) run one after the other: the pair's user rows locked in id order."""
    list(
        User.objects.select_for_update().filter(pk__in=sorted({a.pk, b.pk})).order_by("pk").values_list("pk")
    )


def _pk(user: User | int) -> int:
    return user if isinstance(user, int) else user.pk
