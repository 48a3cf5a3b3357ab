"""The play-now pages: the lobby's block, joining by the form, the waiting page, its refresh
(which sends a player whose game was found to it) and leaving."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from matchmaking.models import QueueEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FORM = {
    "preset": "classic",
    "num_players": "2",
    "time_control": "2m",
    "fill_after": "never",
    "bot_level": "rules",
}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_has_the_play_now_form() -> None:
    body = logged_in(UserFactory()).get(reverse("games:lobby")).content.decode()
    assert 'id="play-now"' in body
    assert f'action="{reverse("matchmaking:play")}"' in body
    assert 'name="fill_after"' in body and "after 30 seconds" in body and "never: people only" in body


def test_a_visitor_is_asked_to_log_in() -> None:
    body = Client().get(reverse("matchmaking:play")).content.decode()
    assert "Log in" in body and 'name="preset"' not in body
    response = Client().post(reverse("matchmaking:play"), FORM)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not QueueEntry.objects.exists()


def test_pressing_play_now_waits_then_the_second_player_goes_straight_to_the_game() -> None:
    alice, bob = UserFactory.create_batch(2)
    alice_client, bob_client = logged_in(alice), logged_in(bob)
    response = alice_client.post(reverse("matchmaking:play"), FORM)
    assert response.status_code == 302 and response["Location"] == reverse("matchmaking:play")
    page = alice_client.get(reverse("matchmaking:play")).content.decode()
    assert "Looking for players: Podkidnoy (classic throw-in), 2 players, live: 2 minutes a move." in page
    assert "Nobody else yet." in page
    assert f'data-live-channel="user-{alice.pk}"' in page
    assert "Stop waiting" in page
    # The lobby shows Bob that one player waits for that game.
    lobby = bob_client.get(reverse("games:lobby")).content.decode()
    assert "1 waiting: Podkidnoy (classic throw-in), 2 players, live: 2 minutes a move" in lobby

    response = bob_client.post(reverse("matchmaking:play"), FORM)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[game.pk])
    # Alice's waiting block, refreshed by her stream or her poll, sends her page to the game.
    refresh = alice_client.get(reverse("matchmaking:status") + "?waiting=1", headers={"HX-Request": "true"})
    assert refresh.status_code == 200
    assert refresh["HX-Redirect"] == reverse("games:detail", args=[game.pk])
    assert alice_client.get(reverse("matchmaking:play"))["Location"] == reverse(
        "games:detail", args=[game.pk]
    )
    # The lobby's news of the queue refreshes from the same view and stays in the lobby; the
    # block says where the game is and offers the form for another.
    news = alice_client.get(reverse("matchmaking:status"), headers={"HX-Request": "true"})
    assert "HX-Redirect" not in news
    found = f'Your game was found: <a href="/games/{game.pk}/">game {game.pk}</a>.'
    assert found in news.content.decode()
    assert 'name="preset"' in news.content.decode()
    # Later, the waiting page is the form again.
    QueueEntry.objects.filter(user=alice).update(matched_at=timezone.now() - timedelta(minutes=5))
    assert alice_client.get(reverse("matchmaking:play")).status_code == 200


def test_the_waiting_page_lists_who_waits_with_you_and_whether_they_are_online() -> None:
    alice, bob = UserFactory.create_batch(2)
    three = {**FORM, "num_players": "3"}
    logged_in(alice).post(reverse("matchmaking:play"), three)
    bob_client = logged_in(bob)
    bob_client.post(reverse("matchmaking:play"), three)
    page = bob_client.get(reverse("matchmaking:status")).content.decode()
    assert alice.username in page and "online" in page
    assert "1 more player needed" in page
    assert "People only: no computer players" in page


def online_line(page: str) -> str:
    return page.split('class="online-now"', 1)[1].split("</p>", 1)[0]


def test_the_waiting_page_lists_the_others_online_not_the_reader() -> None:
    alice = UserFactory(username="alice")
    bob = UserFactory(username="bob")
    client = logged_in(alice)
    client.post(reverse("matchmaking:play"), FORM)
    line = online_line(client.get(reverse("matchmaking:play")).content.decode())
    assert "1 other player online" in line and ">bob<" in line and "alice" not in line
    # The lobby's block too; a visitor is nobody to leave out: everyone online is counted.
    line = online_line(logged_in(bob).get(reverse("games:lobby")).content.decode())
    assert "1 other player online" in line and ">alice<" in line and "bob" not in line
    assert "2 players online" in online_line(Client().get(reverse("games:lobby")).content.decode())


def test_leaving_by_the_form() -> None:
    alice = UserFactory()
    client = logged_in(alice)
    client.post(reverse("matchmaking:play"), FORM)
    response = client.post(reverse("matchmaking:leave"), {"next": reverse("games:lobby")})
    assert response.status_code == 302 and response["Location"] == reverse("games:lobby")
    assert not QueueEntry.objects.exists()
    page = client.get(reverse("games:lobby")).content.decode()
    assert "You stopped waiting for a game." in page
    # Leaving again: a message, nothing else; an outside "next" is not followed.
    response = client.post(reverse("matchmaking:leave"), {"next": "https://example.com/"})
    assert response["Location"] == reverse("matchmaking:play")
    assert "You are not waiting for a game." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize(
    ("field", "value"),
    [("preset", "nonsense"), ("num_players", "9"), ("time_control", "5m"), ("fill_after", "soon")],
)
def test_a_bad_form_is_a_400_with_the_form_and_changes_nothing(field: str, value: str) -> None:
    client = logged_in(UserFactory())
    response = client.post(reverse("matchmaking:play"), {**FORM, field: value})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not QueueEntry.objects.exists()


def test_rules_that_do_not_seat_that_many_are_refused_with_the_engines_words() -> None:
    client = logged_in(UserFactory())
    response = client.post(reverse("matchmaking:play"), {**FORM, "preset": "durak24", "num_players": "6"})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not QueueEntry.objects.exists()


def test_the_play_now_form_ids_differ_from_the_create_forms_beside_it() -> None:
    body = logged_in(UserFactory()).get(reverse("games:lobby")).content.decode()
    assert 'id="play-now-num_players"' in body
    assert body.count('id="id_num_players"') <= 1


def test_the_waiting_page_in_russian() -> None:
    alice = UserFactory(language="ru")
    client = logged_in(alice)
    client.cookies["django_language"] = "ru"
    client.post(reverse("matchmaking:play"), {**FORM, "num_players": "3", "fill_after": "60"})
    page = client.get(reverse("matchmaking:play")).content.decode()
    # «игроков» once: "Looking for players: classic, 3 players" reads «мест за столом: 3».
    assert "Ищем игроков: Подкидной дурак, мест за столом: 3," in page
    assert "Нужно ещё 2 игрока" in page
    assert "Компьютерные игроки займут свободные места через 1 минуту ожидания" in page
    assert "Перестать ждать" in page


def test_the_waiting_box_names_every_filter_the_seeker_set() -> None:
    alice = UserFactory()
    client = logged_in(alice)
    limits = {"friends_only": "on", "min_reliability": "80", "rating_min": "10", "rating_max": "20"}
    client.post(reverse("matchmaking:play"), {**FORM, **limits, "language": "ru"})
    page = client.get(reverse("matchmaking:play")).content.decode()
    assert (
        "Only with: your friends; reliability at least 80%; rated between 10 and 20; "
        "players who use the site in Russian" in page
    )


def test_the_waiting_box_of_a_seeker_without_filters_names_none() -> None:
    client = logged_in(UserFactory())
    client.post(reverse("matchmaking:play"), FORM)
    page = client.get(reverse("matchmaking:play")).content.decode()
    assert "Looking for players" in page and "Only with:" not in page


def test_the_waiting_box_names_the_filters_in_russian() -> None:
    client = logged_in(UserFactory(language="ru"))
    client.cookies["django_language"] = "ru"
    client.post(reverse("matchmaking:play"), {**FORM, "friends_only": "on", "min_reliability": "75"})
    page = client.get(reverse("matchmaking:play")).content.decode()
    assert "Условия подбора: ваши друзья; надёжность не ниже 75%" in page
