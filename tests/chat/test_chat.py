"""The game chat: who reads and writes which channel, the cheap poll, limits, escaping."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import MAX_LENGTH, ChatMessage
from tests.factories import LONGER_DEAL, UserFactory, started_game

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, game: Any, text: str) -> Any:
    return client.post(reverse("chat:post", args=[game.pk]), {"text": text}, headers=HTMX)


def log(client: Client, game: Any, query: str = "") -> Any:
    return client.get(reverse("chat:log", args=[game.pk]) + query, headers=HTMX)


def test_players_and_spectators_each_read_only_their_own_channel() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    alice, bob = (client_for(u) for u in users)
    watcher = client_for(UserFactory())
    assert post(alice, game, "good luck").status_code == 200
    assert post(watcher, game, "alice will lose").status_code == 200

    assert list(ChatMessage.objects.values_list("channel", "text").order_by("id")) == [
        ("players", "good luck"),
        ("spectators", "alice will lose"),
    ]
    bob_sees = log(bob, game).content.decode()
    assert "good luck" in bob_sees and "alice will lose" not in bob_sees
    watcher_sees = log(watcher, game).content.decode()
    assert "alice will lose" in watcher_sees and "good luck" not in watcher_sees
    anonymous_sees = log(Client(), game).content.decode()
    assert "alice will lose" in anonymous_sees and "good luck" not in anonymous_sees


def test_game_page_has_the_chat_panel_loading_the_log() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    page = client_for(users[0]).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="chat"' in page
    assert reverse("chat:log", args=[game.pk]) in page
    assert reverse("chat:post", args=[game.pk]) in page
    assert "Players&#x27; chat" in page or "Players' chat" in page


def test_poll_answers_204_while_nothing_changed(
    django_assert_num_queries: Any, django_assert_max_num_queries: Any
) -> None:
    """A public game's spectators' chat from one query (no session, no user); the players' chat
    loads the viewer, to check the channel is theirs."""
    game, users = started_game(deal=LONGER_DEAL)
    alice, bob = (client_for(u) for u in users)
    carol = client_for(UserFactory())
    post(carol, game, "watching")
    page = log(carol, game).content.decode()
    marker = page.split('data-marker="')[1].split('"')[0]
    with django_assert_num_queries(1):
        assert log(carol, game, f"?channel=spectators&marker={marker}").status_code == 204
    post(alice, game, "hello")
    page = log(bob, game).content.decode()
    marker = page.split('data-marker="')[1].split('"')[0]
    query = f"?channel=players&marker={marker}"
    with django_assert_max_num_queries(6):
        assert log(bob, game, query).status_code == 204
    post(alice, game, "again")
    changed = log(bob, game, query)
    assert changed.status_code == 200
    assert "again" in changed.content.decode()


def test_a_spectator_cannot_time_the_players_chat_by_its_marker() -> None:
    """The players' marker answers the same to a spectator whether the guess is right or wrong."""
    game, users = started_game(deal=LONGER_DEAL)
    alice, bob = (client_for(u) for u in users)
    post(alice, game, "hello")
    page = log(bob, game).content.decode()
    right = page.split('data-marker="')[1].split('"')[0]
    carol = client_for(UserFactory())
    answers = [log(carol, game, f"?channel=players&marker={marker}") for marker in (right, right + "x")]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].content == answers[1].content
    assert "hello" not in answers[0].content.decode()


def test_hiding_a_message_moves_the_marker() -> None:
    from chat.selectors import chat_marker

    game, users = started_game(deal=LONGER_DEAL)
    post(client_for(users[0]), game, "rude words")
    before = chat_marker(game_id=game.pk, channel="players")
    ChatMessage.objects.update(hidden_at="2026-01-01T00:00:00Z")
    assert chat_marker(game_id=game.pk, channel="players") != before


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert('pwned')</script>",
        '<img src=x onerror="alert(1)">',
        "<b>bold</b> & <a href='javascript:alert(1)'>link</a>",
    ],
)
def test_html_and_script_in_messages_render_inert(text: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    assert post(client_for(users[0]), game, text).status_code == 200
    for response in (
        log(client_for(users[1]), game),
        client_for(users[1]).get(reverse("chat:log", args=[game.pk])),
    ):
        page = response.content.decode()
        assert text not in page
        assert "<script>alert" not in page
        assert "<img src=x" not in page
        assert "<b>bold</b>" not in page
        assert "&lt;" in page  # escaped, shown as typed
    message = ChatMessage.objects.get()
    report_page = (
        client_for(users[1]).get(reverse("moderation:report") + f"?message={message.pk}").content.decode()
    )
    assert text not in report_page and "&lt;" in report_page


def test_length_limit_and_empty_messages() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    alice = client_for(users[0])
    too_long = post(alice, game, "x" * (MAX_LENGTH + 1))
    assert too_long.status_code == 400
    assert f"at most {MAX_LENGTH} characters" in too_long.content.decode()
    assert post(alice, game, "   ").status_code == 400
    assert post(alice, game, "x" * MAX_LENGTH).status_code == 200
    assert ChatMessage.objects.count() == 1


def test_flood_control_refuses_the_message_over_the_limit(settings: Any) -> None:
    settings.CHAT_FLOOD_MESSAGES = 3
    settings.CHAT_FLOOD_SECONDS = 60
    game, users = started_game(deal=LONGER_DEAL)
    alice = client_for(users[0])
    for n in range(3):
        assert post(alice, game, f"spam {n}").status_code == 200
    refused = post(alice, game, "spam 3")
    assert refused.status_code == 403
    assert "Slow down" in refused.content.decode()
    assert ChatMessage.objects.count() == 3
    # The refusal is the form alone, swapped in place of the form (not of the log the post targets),
    # with why and the unsent text: the page around it stays whole.
    assert refused["HX-Retarget"] == "#chat-form"
    assert refused["HX-Reswap"] == "outerHTML"
    page = refused.content.decode()
    assert page.startswith('<form id="chat-form"') and 'role="alert"' in page
    assert 'value="spam 3"' in page
    assert 'id="chat-log"' not in page and "<html" not in page
    # Others are not slowed down by Alice's flood.
    assert post(client_for(users[1]), game, "stop it").status_code == 200


def test_anonymous_cannot_post() -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    response = Client().post(reverse("chat:post", args=[game.pk]), {"text": "hi"})
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]
    assert not ChatMessage.objects.exists()


def test_chat_works_without_javascript() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    alice = client_for(users[0])
    response = alice.post(reverse("chat:post", args=[game.pk]), {"text": "plain form"})
    assert response.status_code == 302
    page = alice.get(response["Location"]).content.decode()
    assert "plain form" in page
    assert "<form" in page and 'name="text"' in page


def test_chat_of_an_unknown_game_is_404(user: Any) -> None:
    assert client_for(user).get(reverse("chat:log", args=[999999])).status_code == 404
    assert client_for(user).post(reverse("chat:post", args=[999999]), {"text": "x"}).status_code == 404


@pytest.mark.parametrize("count", [1, 30])
def test_chat_log_queries_do_not_grow_with_messages(count: int, django_assert_max_num_queries: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    authors = [users[0], users[1], UserFactory()]
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, author=authors[n % 2], channel="players", text=f"message {n}")
        for n in range(count)
    )
    client = client_for(users[1])
    # game, seats, session, user, marker, messages with authors, mute
    with django_assert_max_num_queries(7):
        page = log(client, game).content.decode()
    assert f"message {count - 1}" in page


def test_the_report_link_is_the_chats_own_word_in_russian() -> None:
    """The moderation catalogue's "report" (a noun, «жалоба», which comes first) is another word."""
    game, users = started_game(deal=LONGER_DEAL)
    assert post(client_for(users[0]), game, "hi").status_code == 200
    bob = client_for(users[1])
    page = bob.get(reverse("chat:log", args=[game.pk]), headers={**HTMX, "accept-language": "ru"})
    assert ">пожаловаться</a>" in page.content.decode()
