"""The club's rules where other pages meet them: privacy settings, presence in Play now's
lists, invitations, and a blocked player's chat lines."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import relations
from accounts.models import FriendRequest, User
from chat.models import ChatMessage
from games import services
from games.exceptions import NotAllowed
from games.models import Invitation
from matchmaking import selectors
from matchmaking.models import QueueEntry
from moderation import services as moderation_services
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


# Privacy settings

SETTINGS = {"language": "en", "time_zone": "UTC", "confirm_moves": "always"}


def test_the_settings_page_saves_privacy_and_an_older_form_keeps_it() -> None:
    user = UserFactory()
    client = client_for(user)
    page = client.get(reverse("notifications:settings")).content.decode()
    assert 'name="presence_to"' in page and 'name="invites_from"' in page
    assert "Who sees when I am online" in page and "Friends only" in page
    response = client.post(
        reverse("notifications:settings"),
        {**SETTINGS, "presence_to": "nobody", "invites_from": "friends"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.presence_to, user.invites_from) == ("nobody", "friends")
    assert client.post(reverse("notifications:settings"), SETTINGS).status_code == 302  # without them
    user.refresh_from_db()
    assert (user.presence_to, user.invites_from) == ("nobody", "friends")
    response = client.post(reverse("notifications:settings"), {**SETTINGS, "presence_to": "martians"})
    assert response.status_code == 200  # the form with its error
    user.refresh_from_db()
    assert user.presence_to == "nobody"


def test_the_settings_page_speaks_russian() -> None:
    client = client_for(UserFactory(language="ru"))
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("notifications:settings"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Кто видит, когда я на сайте" in page and "Только друзья" in page and "Приватность" in page


# Presence in Play now's lists


PLAY_NOW = {
    "preset": "classic",
    "num_players": "2",
    "time_control": "2m",
    "fill_after": "never",
    "bot_level": "rules",
}


def online_line(page: str) -> str:
    return page.split('class="online-now"', 1)[1].split("</p>", 1)[0]


def test_the_online_list_leaves_out_who_hides_and_who_blocked_the_reader() -> None:
    reader = UserFactory(username="reader")
    UserFactory(username="open")
    UserFactory(username="hider", presence_to="nobody")
    friendly = UserFactory(username="friendly", presence_to="friends")
    blocker = UserFactory(username="blocker")
    relations.block(blocker=blocker, blocked=reader)
    line = online_line(client_for(reader).get(reverse("games:lobby")).content.decode())
    assert ">open<" in line and "1 other player online" in line
    assert "hider" not in line and "friendly" not in line and "blocker" not in line
    befriend(reader, friendly)
    line = online_line(client_for(reader).get(reverse("games:lobby")).content.decode())
    assert ">friendly<" in line and "2 other players online" in line
    visitor = online_line(Client().get(reverse("games:lobby")).content.decode())
    assert ">blocker<" in visitor and "friendly" not in visitor and "hider" not in visitor


def test_who_waits_with_you_is_online_only_as_their_setting_lets_you_see() -> None:
    alice, hider = UserFactory(), UserFactory(presence_to="nobody")
    three = {**PLAY_NOW, "num_players": "3"}
    for user in (hider, alice):
        assert client_for(user).post(reverse("matchmaking:play"), three).status_code == 302
    entry = QueueEntry.objects.get(user=alice)
    [other] = selectors.waiting_with(entry=entry)
    assert other.pk == hider.pk and other.online is False  # type: ignore[attr-defined]
    hider.presence_to = "everyone"
    hider.save()
    [other] = selectors.waiting_with(entry=entry)
    assert other.online is True  # type: ignore[attr-defined]


# Invitations

REFUSAL = "You cannot invite this player."


def refusal(*, inviter: User, invitee: User) -> str | None:
    game = GameFactory(creator=inviter, num_players=3)
    try:
        services.game_invite(user=inviter, game_id=game.pk, username=invitee.username)
    except NotAllowed as error:
        return str(error)
    return None


def test_an_invitation_is_refused_alike_for_a_block_either_way_and_friends_only() -> None:
    alice, bob, carol, dora = UserFactory(), UserFactory(), UserFactory(invites_from="friends"), UserFactory()
    assert refusal(inviter=alice, invitee=bob) is None
    relations.block(blocker=bob, blocked=alice)
    assert refusal(inviter=alice, invitee=bob) == REFUSAL  # bob blocked alice
    assert refusal(inviter=bob, invitee=alice) == REFUSAL  # and alice may not be invited by bob
    assert refusal(inviter=dora, invitee=carol) == REFUSAL  # friends only, the same sentence
    befriend(dora, carol)
    assert refusal(inviter=dora, invitee=carol) is None
    assert Invitation.objects.count() == 2


def test_the_invite_page_shows_the_neutral_refusal() -> None:
    alice, bob = UserFactory(), UserFactory()
    relations.block(blocker=bob, blocked=alice)
    game = GameFactory(creator=alice, num_players=3)
    response = client_for(alice).post(
        reverse("games:invite", args=[game.pk]), {"username": bob.username}, follow=True
    )
    page = response.content.decode()
    assert REFUSAL in page and "block" not in page.lower().split("<main", 1)[-1].split("</main>")[0]
    assert not Invitation.objects.exists()


# The chat


def log(client: Client, game: Any) -> str:
    response = client.get(reverse("chat:log", args=[game.pk]))
    assert response.status_code == 200
    return str(response.content.decode())


def test_a_blocked_players_lines_are_hidden_from_the_blocker_only() -> None:
    game, (alice, bob, carol) = started_game(players=3)
    relations.block(blocker=alice, blocked=bob)
    for author, text in ((bob, "line of bob"), (carol, "line of carol")):
        assert (
            client_for(author).post(reverse("chat:post", args=[game.pk]), {"text": text}).status_code == 302
        )
    alices = log(client_for(alice), game)
    assert "line of carol" in alices and "line of bob" not in alices
    assert f'data-author="{carol.pk}"' in alices and f'data-author="{bob.pk}"' not in alices
    carols = log(client_for(carol), game)
    assert "line of bob" in carols and "line of carol" in carols
    assert "line of bob" in log(client_for(bob), game)  # nothing tells bob
    assert ChatMessage.objects.filter(author=bob).exists()  # hidden, not deleted
    moderator = UserFactory()
    moderation_services.moderator_grant(user=moderator, actor=None, reason="test moderator")
    admin = client_for(moderator).get(reverse("admin:chat_chatmessage_changelist"))
    assert admin.status_code == 200 and "line of bob" in admin.content.decode()
    # As an htmx partial too, and again once unblocked.
    partial = client_for(alice).get(reverse("chat:log", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert "line of bob" not in partial.content.decode()
    relations.unblock(blocker=alice, blocked=bob)
    assert "line of bob" in log(client_for(alice), game)
