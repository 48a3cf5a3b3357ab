"""Reliability and private notes on the pages: the profile, the lobby's open games, the table's
seats and the explanation page; a note is seen by its author alone."""

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts import relations
from accounts.models import PlayerNote, User
from games import services
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

NOTE = "bluffs with low trumps"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def reliable(user: User, games: int, left: int) -> User:
    User.objects.filter(pk=user.pk).update(reliability_games=games, reliability_left=left)
    user.refresh_from_db()
    return user


def profile(client: Client, user: User) -> str:
    return client.get(reverse("stats:profile", args=[user.username])).content.decode()


def test_the_profile_shows_reliability_or_new_with_a_link_to_the_explanation() -> None:
    steady, newcomer = reliable(UserFactory(), 50, 2), reliable(UserFactory(), 9, 0)
    page = profile(Client(), steady)
    assert "Reliability 96%" in page and reverse("guide:reliability") in page
    assert "New player" in profile(Client(), newcomer)
    with translation.override("ru"):
        assert "Надёжность 96%" in profile(Client(HTTP_ACCEPT_LANGUAGE="ru"), steady)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_explanation_page_says_what_counts(language: str) -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("guide:reliability")).content.decode()
    for words in {
        "en": ["last 50 finished rated games", "Unrated games", "computer", "10", "after each finished game"],
        "ru": [
            "Последние 50 завершённых рейтинговых партий",
            "Нерейтинговые",
            "компьютера",
            "10",
            "после каждой завершённой партии",
        ],
    }[language]:
        assert words in page


def test_the_lobby_shows_the_seated_players_reliability_in_the_same_queries(client: Client) -> None:
    viewer = UserFactory()
    client.force_login(viewer)
    GameFactory(creator=reliable(UserFactory(username="steady"), 20, 1), num_players=3)
    GameFactory(creator=UserFactory(username="newbie"), num_players=3)

    def count() -> tuple[int, str]:
        client.get("/")
        with CaptureQueriesContext(connection) as queries:
            page = client.get("/").content.decode()
        return len(queries), page

    few, page = count()
    assert "95%" in page and "new player" in page
    for n in range(10):
        game = GameFactory(creator=reliable(UserFactory(), 30 + n, 1), num_players=3)
        services.game_join(user=reliable(UserFactory(), 12, 0), game_id=game.pk)
    many, page = count()
    assert many == few
    assert "100%" in page


def table_game() -> tuple[Any, User, User, User]:
    anna, boris, carla = (UserFactory(username=name) for name in ("anna", "boris", "carla"))
    game = GameFactory(creator=anna, num_players=3)
    for user in (boris, carla):
        services.game_join(user=user, game_id=game.pk)
    return game, anna, boris, carla


def test_the_table_shows_each_persons_reliability_by_their_seat() -> None:
    game, anna, boris, _carla = table_game()
    reliable(boris, 40, 4)
    page = logged_in(anna).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'class="reliability-tag"' in page and ">90%<" in page
    assert ">new<" in page  # carla


def test_a_note_is_seen_by_its_author_alone_on_the_profile_and_at_the_table(
    django_assert_max_num_queries: Any,
) -> None:
    game, anna, boris, carla = table_game()
    dan = UserFactory(username="dan")  # a spectator with a note of his own about boris
    relations.note_set(author=dan, about=boris, text="a spectator's note 4c1d")
    author, noted, third, spectator = logged_in(anna), logged_in(boris), logged_in(carla), logged_in(dan)

    answer = author.post(reverse("accounts:note", args=["boris"]), {"text": NOTE})
    assert answer.status_code == 302 and answer["Location"] == reverse("stats:profile", args=["boris"])
    assert PlayerNote.objects.get(author=anna).text == NOTE
    assert NOTE in profile(author, boris)
    table = author.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'title="{NOTE}"' in table and f'aria-label="Your private note: {NOTE}"' in table
    partial = author.get(
        reverse("games:poll", args=[game.pk]) + "?version=0", headers={"HX-Request": "true"}
    ).content.decode()
    assert NOTE in partial

    for client in (noted, third, spectator, Client()):
        assert NOTE not in profile(client, boris)
        assert NOTE not in client.get(reverse("games:detail", args=[game.pk])).content.decode()
        assert NOTE not in client.get(reverse("replays:replay", args=[game.pk])).content.decode()
    assert (
        "a spectator's note 4c1d"
        not in spectator.get(reverse("games:detail", args=[game.pk])).content.decode()
    )
    assert 'class="note-form"' not in profile(noted, boris)  # no note about yourself
    assert 'class="note-form"' not in profile(Client(), boris)

    author.post(reverse("accounts:note", args=["boris"]), {"text": NOTE, "remove": "1"})
    assert not PlayerNote.objects.filter(author=anna).exists()


def test_a_refused_note_is_said_and_changes_nothing() -> None:
    anna, boris = UserFactory(), UserFactory()
    author = logged_in(anna)
    relations.note_set(author=anna, about=boris, text="kept")
    answer = author.post(reverse("accounts:note", args=[boris.username]), {"text": "x" * 301}, follow=True)
    assert "at most 300 characters" in answer.content.decode()
    assert PlayerNote.objects.get(author=anna).text == "kept"
    assert author.post(reverse("accounts:note", args=["nobody-such"]), {"text": "x"}).status_code == 404
    assert author.get(reverse("accounts:note", args=[boris.username])).status_code == 405


def test_the_notes_at_the_table_are_one_query() -> None:
    game, anna, boris, carla = table_game()
    relations.note_set(author=anna, about=boris, text="one")
    relations.note_set(author=anna, about=carla, text="two")
    client = logged_in(anna)
    client.get(reverse("games:detail", args=[game.pk]))
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games:detail", args=[game.pk]))
    assert sum("accounts_playernote" in query["sql"] for query in queries.captured_queries) == 1
