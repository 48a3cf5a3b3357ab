"""accounts.relations: friend requests and friendships, blocks, and who sees whose presence."""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from accounts import relations
from accounts.models import Block, FriendRequest, Friendship, User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def befriend(a: User, b: User) -> None:
    request = relations.friend_request_send(sender=a, recipient=b)
    assert isinstance(request, FriendRequest)
    relations.friend_request_accept(user=b, request_id=request.pk)


def test_a_request_accepted_makes_two_friends_both_ways() -> None:
    alice, bob = UserFactory(), UserFactory()
    request = relations.friend_request_send(sender=alice, recipient=bob)
    assert isinstance(request, FriendRequest)
    assert relations.incoming_requests(bob) == [request]
    assert relations.outgoing_requests(alice) == [request]
    relations.friend_request_accept(user=bob, request_id=request.pk)
    assert relations.are_friends(alice, bob) and relations.are_friends(bob, alice)
    assert not FriendRequest.objects.exists()
    assert relations.friend_ids(alice) == {bob.pk}


def test_declined_and_cancelled_requests_are_gone_and_make_no_friends() -> None:
    alice, bob = UserFactory(), UserFactory()
    first = relations.friend_request_send(sender=alice, recipient=bob)
    relations.friend_request_decline(user=bob, request_id=first.pk)
    assert not FriendRequest.objects.exists()
    again = relations.friend_request_send(sender=alice, recipient=bob)  # they may ask again
    with pytest.raises(relations.RelationError):
        relations.friend_request_cancel(user=bob, request_id=again.pk)  # not bob's to cancel
    with pytest.raises(relations.RelationError):
        relations.friend_request_accept(user=alice, request_id=again.pk)  # not alice's to accept
    relations.friend_request_cancel(user=alice, request_id=again.pk)
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()


def test_asking_back_accepts_and_asking_twice_changes_nothing() -> None:
    alice, bob = UserFactory(), UserFactory()
    first = relations.friend_request_send(sender=alice, recipient=bob)
    assert relations.friend_request_send(sender=alice, recipient=bob) == first
    made = relations.friend_request_send(sender=bob, recipient=alice)
    assert isinstance(made, Friendship)
    assert relations.are_friends(alice, bob)
    assert not FriendRequest.objects.exists()
    assert isinstance(relations.friend_request_send(sender=alice, recipient=bob), Friendship)


def test_remove_ends_the_friendship_both_ways() -> None:
    alice, bob = UserFactory(), UserFactory()
    befriend(alice, bob)
    relations.friend_remove(user=bob, other=alice)
    assert not Friendship.objects.exists()


def test_no_request_to_oneself_or_a_computer() -> None:
    alice, bot = UserFactory(), UserFactory(is_bot=True, is_active=False)
    with pytest.raises(relations.RelationError):
        relations.friend_request_send(sender=alice, recipient=alice)
    with pytest.raises(relations.RelationError):
        relations.friend_request_send(sender=alice, recipient=bot)


def test_a_block_ends_the_friendship_and_the_blockers_request() -> None:
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    befriend(alice, bob)
    relations.friend_request_send(sender=alice, recipient=carol)
    relations.block(blocker=alice, blocked=bob)
    relations.block(blocker=alice, blocked=carol)
    assert not Friendship.objects.exists() and not FriendRequest.objects.exists()
    assert relations.blocks_between(bob, [alice]) and relations.blocks_between(alice, [bob])
    with pytest.raises(relations.RelationError):
        relations.friend_request_send(sender=alice, recipient=bob)
    relations.unblock(blocker=alice, blocked=bob)
    assert not relations.blocks_between(alice, [bob])
    assert not relations.are_friends(alice, bob)  # undoing it does not bring the friendship back


def test_a_blocked_senders_request_is_kept_but_never_shown_or_answerable(
    django_capture_on_commit_callbacks: Any,
) -> None:
    alice, mallory = UserFactory(), UserFactory()
    relations.block(blocker=alice, blocked=mallory)
    told: list[Any] = []
    relations.friend_requested.connect(lambda **kwargs: told.append(kwargs), weak=False, dispatch_uid="t")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            request = relations.friend_request_send(sender=mallory, recipient=alice)
    finally:
        relations.friend_requested.disconnect(dispatch_uid="t")
    assert isinstance(request, FriendRequest)  # the sender cannot tell
    assert relations.outgoing_requests(mallory) == [request]
    assert relations.incoming_requests(alice) == []
    assert told == []
    with pytest.raises(relations.RelationError):
        relations.friend_request_accept(user=alice, request_id=request.pk)


@pytest.mark.django_db(transaction=True)
def test_two_accepts_at_once_make_one_friendship_and_one_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both accepts have read the request (two tabs, one click each) before either takes the
    pair's lock: the barrier holds each there until the other has read it too. (An accept that
    arrives once the first has committed finds no request: "There is no such friend request.")"""
    alice, bob = UserFactory(), UserFactory()
    request = relations.friend_request_send(sender=alice, recipient=bob)
    accepted: list[Any] = []
    relations.friend_accepted.connect(lambda **kwargs: accepted.append(kwargs), weak=False, dispatch_uid="t")
    errors: list[BaseException] = []
    both_read = threading.Barrier(2, timeout=60)
    lock_pair = relations._lock_pair

    def lock_once_both_have_read(a: User, b: User) -> None:
        both_read.wait()
        lock_pair(a, b)

    monkeypatch.setattr(relations, "_lock_pair", lock_once_both_have_read)

    def accept() -> None:
        try:
            relations.friend_request_accept(user=User.objects.get(pk=bob.pk), request_id=request.pk)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept) for _ in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        relations.friend_accepted.disconnect(dispatch_uid="t")
    assert errors == []
    assert Friendship.objects.count() == 2
    assert not FriendRequest.objects.exists()
    assert len(accepted) == 1


@pytest.mark.django_db(transaction=True)
def test_two_players_asking_each_other_at_once_become_friends_once() -> None:
    alice, bob = UserFactory(), UserFactory()
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def ask(sender: User, recipient: User) -> Callable[[], None]:
        def run() -> None:
            try:
                barrier.wait()
                relations.friend_request_send(sender=sender, recipient=recipient)
            except BaseException as error:
                errors.append(error)
            finally:
                connection.close()

        return run

    threads = [threading.Thread(target=ask(alice, bob)), threading.Thread(target=ask(bob, alice))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert relations.are_friends(alice, bob) and Friendship.objects.count() == 2
    assert not FriendRequest.objects.exists()


# Who sees whose presence: setting by reader.
VISIBLE = {
    ("everyone", "friend"): True,
    ("everyone", "stranger"): True,
    ("everyone", "blocked"): False,
    ("everyone", "anonymous"): True,
    ("friends", "friend"): True,
    ("friends", "stranger"): False,
    ("friends", "blocked"): False,
    ("friends", "anonymous"): False,
    ("nobody", "friend"): False,
    ("nobody", "stranger"): False,
    ("nobody", "blocked"): False,
    ("nobody", "anonymous"): False,
}


@pytest.mark.parametrize(("setting", "reader"), sorted(VISIBLE))
def test_presence_visibility(setting: str, reader: str) -> None:
    subject = UserFactory(presence_to=setting)
    viewer: Any
    if reader == "anonymous":
        viewer = AnonymousUser()
    else:
        viewer = UserFactory()
        if reader == "friend":
            befriend(subject, viewer)
        if reader == "blocked":
            befriend(subject, viewer)
            relations.block(blocker=subject, blocked=viewer)
    expected = VISIBLE[(setting, reader)]
    assert relations.presence_visible(viewer=viewer, subject=subject) is expected
    assert (relations.presence_of(viewer=viewer, subject=subject) is not None) is expected
    # The same rule as a query, for lists (one query, whatever their length).
    listed = User.objects.filter(relations.presence_shown(viewer), pk=subject.pk).exists()
    assert listed is expected
    # One's own presence is always one's own to see.
    assert relations.presence_visible(viewer=subject, subject=subject)


def test_a_blocker_still_sees_the_presence_of_whom_they_blocked() -> None:
    """The block hides the blocker from the blocked, not the other way (nothing tells the
    blocked player anything)."""
    alice, bob = UserFactory(), UserFactory()
    relations.block(blocker=alice, blocked=bob)
    assert relations.presence_visible(viewer=alice, subject=bob)
    assert not relations.presence_visible(viewer=bob, subject=alice)


def test_may_invite_follows_blocks_and_the_invitees_setting() -> None:
    alice, bob, carol = UserFactory(), UserFactory(invites_from="friends"), UserFactory()
    assert relations.may_invite(inviter=alice, invitee=carol)
    assert not relations.may_invite(inviter=alice, invitee=bob)
    befriend(alice, bob)
    assert relations.may_invite(inviter=alice, invitee=bob)
    relations.block(blocker=carol, blocked=alice)
    assert not relations.may_invite(inviter=alice, invitee=carol)
    assert not relations.may_invite(inviter=carol, invitee=alice)
    assert Block.objects.count() == 1
