"""The friends page, the blocked players' page, their buttons and the profile's."""

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import relations
from accounts.models import Block, FriendRequest, Friendship, User
from games import services
from tests.factories import GameFactory, UserFactory, started_game

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def befriend(a: User, b: User) -> None:
    request = relations.friend_request_send(sender=a, recipient=b)
    assert isinstance(request, FriendRequest)
    relations.friend_request_accept(user=b, request_id=request.pk)


def said(response: Any) -> list[str]:
    """The message this response added (the client follows no redirect: earlier ones wait)."""
    return [str(message) for message in get_messages(response.wsgi_request)][-1:]


def friends_page(client: Client) -> str:
    response = client.get(reverse("club:friends"))
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_friends_page_shows_requests_friends_presence_and_shared_games() -> None:
    me = UserFactory(username="me")
    online = UserFactory(username="olya")
    away = UserFactory(username="boris", last_active_at=timezone.now() - timedelta(days=3))
    hidden = UserFactory(username="hidey", presence_to="nobody")
    asker, asked = UserFactory(username="asker"), UserFactory(username="asked")
    for friend in (online, away, hidden):
        befriend(me, friend)
    relations.friend_request_send(sender=asker, recipient=me)
    relations.friend_request_send(sender=me, recipient=asked)
    started_game(creator=me)
    GameFactory(creator=online)  # not shared

    services.game_join(user=online, game_id=GameFactory(creator=me).pk)
    shared_latest = GameFactory(creator=online)
    services.game_join(user=me, game_id=shared_latest.pk)
    page = friends_page(client_for(me))
    assert "asker" in page and "asked" in page
    assert page.count("online now") == 1
    assert "last seen" in page  # boris, by the day only
    hidey = page[page.index(">hidey<") :].split("</li>")[0]
    assert "online" not in hidey and "last seen" not in hidey  # nobody sees it
    olya = page[page.index(">olya<") :].split("</li>")[0]
    assert "games together: 2" in olya
    assert reverse("games:detail", args=[shared_latest.pk]) in olya
    invite = f"{reverse('games:lobby')}?invite=olya#new-game"
    assert invite in olya
    # The link opens the create form with her in it (the form posts to games:create).
    form = client_for(me).get(invite.split("#")[0]).content.decode()
    assert 'name="invite"' in form and 'value="olya"' in form.split('name="invite"', 1)[1].split(">", 1)[0]
    assert "no games together yet" in page[page.index(">boris<") :].split("</li>")[0]


def test_the_friends_page_costs_as_many_queries_for_one_friend_as_for_eight() -> None:
    me = UserFactory()

    def count() -> int:
        client = client_for(me)
        friends_page(client)  # the session warmed
        with CaptureQueriesContext(connection) as queries:
            friends_page(client)
        return len(queries)

    befriend(me, UserFactory())
    relations.friend_request_send(sender=UserFactory(), recipient=me)
    relations.friend_request_send(sender=me, recipient=UserFactory())
    one = count()
    for _ in range(7):
        friend = UserFactory(presence_to="friends")
        befriend(me, friend)
        started_game(creator=friend)
        started_game(creator=me)
    for _ in range(3):
        relations.friend_request_send(sender=UserFactory(), recipient=me)
        relations.friend_request_send(sender=me, recipient=UserFactory())
    assert count() == one


def test_friends_page_query_count_is_fixed(django_assert_num_queries: Any) -> None:
    me = UserFactory()
    for _ in range(4):
        befriend(me, UserFactory())
    client = client_for(me)
    friends_page(client)
    # session, user, the header's counts, incoming, outgoing, friends, shared games, and the rest
    # of the layout: the same whatever the number of friends (the test above).
    with CaptureQueriesContext(connection) as queries:
        friends_page(client)
    with django_assert_num_queries(len(queries)):
        friends_page(client)


def test_send_accept_decline_cancel_remove_through_the_pages() -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    a, b = client_for(alice), client_for(bob)
    response = a.post(reverse("club:request_send"), {"username": "BOB"})
    assert response.status_code == 302 and response["Location"] == reverse("club:friends")
    assert said(response) == ["Friend request sent to bob."]
    request = FriendRequest.objects.get()
    response = b.post(reverse("club:request_decline", args=[request.pk]))
    assert said(response) == ["Request declined."] and not FriendRequest.objects.exists()
    a.post(reverse("club:request_send"), {"username": "bob"})
    request = FriendRequest.objects.get()
    response = b.post(reverse("club:request_accept", args=[request.pk]), {"next": "/players/alice/"})
    assert response["Location"] == "/players/alice/"
    assert relations.are_friends(alice, bob)
    response = a.post(reverse("club:remove"), {"username": "bob"})
    assert said(response) == ["bob is no longer your friend."] and not Friendship.objects.exists()
    a.post(reverse("club:request_send"), {"username": "bob"})
    request = FriendRequest.objects.get()
    response = a.post(reverse("club:request_cancel", args=[request.pk]))
    assert said(response) == ["Request cancelled."] and not FriendRequest.objects.exists()


def test_bad_names_and_ids_are_messages_or_400s_never_500s() -> None:
    alice, bob = UserFactory(), UserFactory()
    client = client_for(alice)
    response = client.post(reverse("club:request_send"), {"username": "nobody-at-all"})
    assert response.status_code == 302 and said(response) == ["There is no player called nobody-at-all."]
    assert client.post(reverse("club:request_send"), {"username": ""}).status_code == 302
    response = client.post(reverse("club:request_send"), {"username": alice.username})
    assert said(response) == ["You cannot be your own friend."]
    request = relations.friend_request_send(sender=bob, recipient=UserFactory())
    for change in ("accept", "decline", "cancel"):
        response = client.post(reverse(f"club:request_{change}", args=[request.pk]))
        assert response.status_code == 302 and said(response) == ["There is no such friend request."]
        response = client.post(reverse(f"club:request_{change}", args=[2**31 - 1]))
        assert response.status_code == 302
    assert client.post("/friends/requests/x/accept/").status_code == 404
    for change in ("remove", "block", "unblock"):
        assert client.post(reverse(f"club:{change}")).status_code == 400
        assert client.post(reverse(f"club:{change}"), {"username": "x" * 400}).status_code == 302
    response = client.post(reverse("club:block"), {"username": alice.username})
    assert said(response) == ["You cannot block yourself."]
    assert client.get(reverse("club:block")).status_code == 405
    assert FriendRequest.objects.count() == 1 and not Block.objects.exists()


def test_next_must_be_this_sites_and_htmx_gets_a_redirect_header() -> None:
    alice, bob = UserFactory(), UserFactory()
    client = client_for(alice)
    response = client.post(reverse("club:block"), {"username": bob.username, "next": "https://evil.example/"})
    assert response["Location"] == reverse("club:friends")
    response = client.post(
        reverse("club:unblock"),
        {"username": bob.username, "next": "/friends/blocked/"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 204 and response["HX-Redirect"] == "/friends/blocked/"


def test_the_blocked_page_lists_and_unblocks() -> None:
    alice, bob = UserFactory(), UserFactory(username="bobby")
    client = client_for(alice)
    response = client.post(reverse("club:block"), {"username": "bobby", "next": reverse("club:blocked")})
    assert response["Location"] == reverse("club:blocked")
    assert said(response) == ["You blocked bobby. They are not told."]
    page = client.get(reverse("club:blocked")).content.decode()
    assert ">bobby<" in page
    client.post(reverse("club:unblock"), {"username": "bobby"})
    assert not Block.objects.exists()
    assert "You have blocked nobody." in client.get(reverse("club:blocked")).content.decode()
    # The blocked player's own pages say nothing of it.
    assert "alice" not in client_for(bob).get(reverse("club:blocked")).content.decode()


def profile(viewer: User | None, person: User) -> str:
    client = client_for(viewer) if viewer else Client()
    response = client.get(reverse("stats:profile", args=[person.username]))
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_profile_offers_the_readers_next_step() -> None:
    alice, bob = UserFactory(), UserFactory()
    assert "Add friend" in profile(alice, bob)
    assert "Add friend" not in profile(alice, alice) and "Add friend" not in profile(None, bob)
    relations.friend_request_send(sender=alice, recipient=bob)
    assert "Friend request sent" in profile(alice, bob) and "Cancel request" in profile(alice, bob)
    assert "Accept their friend request" in profile(bob, alice)
    relations.friend_request_send(sender=bob, recipient=alice)
    assert "Remove friend" in profile(alice, bob)
    relations.block(blocker=alice, blocked=bob)
    assert "Unblock" in profile(alice, bob) and "Add friend" not in profile(alice, bob)
    computer = UserFactory(is_bot=True, is_active=False, bot_level="easy")
    assert "Block" not in profile(alice, computer)


def test_a_blocked_player_cannot_tell_from_the_blockers_profile() -> None:
    alice, bob = UserFactory(), UserFactory()
    before = profile(bob, alice)
    assert "online now" in before
    relations.block(blocker=alice, blocked=bob)
    after = profile(bob, alice)
    assert "online now" not in after and "last seen" not in after  # as for presence_to "nobody"
    assert "Add friend" in after and "Unblock" not in after and "You blocked" not in after
    assert after.replace(alice.username, "").count("lock") == before.replace(alice.username, "").count("lock")
    # and their request is taken as any other, silently kept from alice
    response = client_for(bob).post(reverse("club:request_send"), {"username": alice.username})
    assert said(response) == [f"Friend request sent to {alice.name}."]
    assert f">{bob.name}<" not in friends_page(client_for(alice))


def test_the_header_links_to_the_friends_page() -> None:
    assert reverse("club:friends") in friends_page(client_for(UserFactory()))
