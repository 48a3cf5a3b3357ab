"""Friend requests and acceptances reach the bell, e-mail and push under their own kinds."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import relations
from accounts.models import FriendRequest, User
from notifications import push
from notifications.models import Kind, Notification, Preferences
from tests.factories import UserFactory
from tests.notifications.conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)


def ask(sender: User, recipient: User) -> FriendRequest:
    request = relations.friend_request_send(sender=sender, recipient=recipient)
    assert isinstance(request, FriendRequest)
    return request


def test_a_request_writes_one_bell_row_and_one_email(smtp: Mailbox) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    ask(alice, bob)
    [row] = Notification.objects.filter(user=bob)
    assert (row.kind, row.game_id, row.read_at) == (Kind.FRIEND_REQUEST, None, None)
    assert row.message == "alice asks to be your friend."
    [email] = smtp.to(bob.email)
    assert email["Subject"] == "alice asks to be your friend"
    text = email.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    html = email.get_body(preferencelist=("html",)).get_content()  # type: ignore[union-attr]
    assert "https://durak.example/friends/" in text and 'href="https://durak.example/friends/"' in html
    assert "Open the game" not in text + html
    assert not Notification.objects.filter(user=alice).exists()


def test_an_accept_tells_the_one_who_asked_on_the_bell_and_not_by_email_by_default(smtp: Mailbox) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    relations.friend_request_accept(user=bob, request_id=ask(alice, bob).pk)
    [row] = Notification.objects.filter(user=alice)
    assert row.kind == Kind.FRIEND_ACCEPTED and row.message == "bob accepted your friend request."
    assert not smtp.to(alice.email)  # email_friend_accepted is off by default
    assert len(smtp.to(bob.email)) == 1  # the request's


def test_none_when_the_recipient_blocked_the_sender(smtp: Mailbox) -> None:
    alice, mallory = UserFactory(), UserFactory()
    relations.block(blocker=alice, blocked=mallory)
    ask(mallory, alice)
    assert not Notification.objects.exists() and not smtp.messages


def test_preferences_are_respected(smtp: Mailbox) -> None:
    alice, bob = UserFactory(), UserFactory()
    Preferences.objects.create(user=bob, web_friend_request=False, email_friend_request=False)
    ask(alice, bob)
    assert not Notification.objects.filter(user=bob, read_at__isnull=True).exists()
    assert not smtp.messages
    carol = UserFactory()
    Preferences.objects.create(user=carol, email_friend_request=False)
    ask(alice, carol)
    assert Notification.objects.filter(user=carol, read_at__isnull=True).count() == 1
    assert not smtp.messages


def test_the_bell_links_to_the_friends_page_in_both_languages() -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    ask(alice, bob)
    client = Client()
    client.force_login(bob)
    page = client.get(reverse("notifications:list")).content.decode()
    assert "alice asks to be your friend." in page and "Open your friends page" in page
    [row] = Notification.objects.filter(user=bob)
    response = client.post(reverse("notifications:read", args=[row.pk]), {"open": "1"})
    assert response["Location"] == reverse("club:friends")
    client.get(reverse("notifications:list"))  # read now: a plain link
    assert reverse("club:friends") in client.get(reverse("notifications:list")).content.decode()
    with translation.override("ru"):
        assert row.message == "alice хочет добавить вас в друзья."


def test_the_push_of_a_friend_request_opens_the_friends_page() -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    ask(alice, bob)
    row: Any = Notification.objects.select_related("user", "game").get(user=bob)
    message = push.push_for(row)
    assert message.url == reverse("club:friends")
    assert message.title == "alice asks to be your friend"
    assert message.body == "alice asks to be your friend."
