"""Play now takes a game's join limits on the seeker's side (issue 30): friends only, a rating
range, a language, beside the minimum reliability (``tests/matchmaking/test_blocks.py``). Two
seekers are paired only when each passes the other's filters, with twenty joins at once too."""

import itertools
import random
import threading
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Friendship, User
from games.exceptions import InvalidRules
from games.models import Seat
from matchmaking import services
from matchmaking.models import QueueEntry
from stats.models import Rating
from tests.factories import UserFactory
from tests.matchmaking.test_api import URL, client_of
from tests.matchmaking.test_blocks import join, tables

pytestmark = pytest.mark.django_db

WAITING, MATCHED = QueueEntry.Status.WAITING, QueueEntry.Status.MATCHED


def befriend(a: User, b: User) -> None:
    Friendship.objects.bulk_create([Friendship(user=a, friend=b), Friendship(user=b, friend=a)])


def rated(user: User, ordinal: float, mode: str = "throw_in") -> User:
    Rating.objects.create(
        user=user, mode=mode, players=0, mu=ordinal + 15, sigma=5, ordinal=ordinal, games=12
    )
    return user


def speaking(user: User, language: str) -> User:
    user.language = language
    user.save(update_fields=["language"])
    return user


def test_friends_only_pairs_a_friend_and_not_a_stranger() -> None:
    alice, stranger, friend = UserFactory.create_batch(3)
    befriend(alice, friend)
    join(alice, friends_only=True)
    assert join(stranger).status == WAITING
    assert join(friend).status == MATCHED
    assert tables() == [{alice.pk, friend.pk}]


def test_friends_only_holds_both_ways() -> None:
    alice, stranger = UserFactory.create_batch(2)
    join(alice)
    assert join(stranger, friends_only=True).status == WAITING
    assert not Seat.objects.exists()


def test_a_language_pairs_only_players_using_the_site_in_it_both_ways() -> None:
    russian, english, other_russian = (
        speaking(UserFactory(), "ru"),
        speaking(UserFactory(), "en"),
        speaking(UserFactory(), "ru"),
    )
    join(russian, language="ru")
    assert join(english).status == WAITING
    assert join(other_russian).status == MATCHED
    assert tables() == [{russian.pk, other_russian.pk}]
    # The English speaker's own wish keeps a Russian speaker away from them too.
    QueueEntry.objects.all().delete()
    join(english, language="en")
    assert join(speaking(UserFactory(), "ru")).status == WAITING


def test_a_rating_range_in_the_games_mode_and_unrated_players_left_out() -> None:
    picky = rated(UserFactory(), 15)
    unrated, too_high, other_mode, within = (
        UserFactory(),
        rated(UserFactory(), 30),
        rated(UserFactory(), 15, mode="transfer"),
        rated(UserFactory(), 12),
    )
    join(picky, rating_min=10, rating_max=20)
    for outside in (unrated, too_high, other_mode):
        assert join(outside, friends_only=True).status == WAITING  # not with each other either
    assert join(within).status == MATCHED
    assert {picky.pk, within.pk} in tables()


def test_a_range_holds_both_ways() -> None:
    low = rated(UserFactory(), 2)
    join(low)
    assert join(rated(UserFactory(), 15), rating_min=10).status == WAITING


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        ({"rating_min": 5, "rating_max": 4}, "The highest rating must not be below the lowest."),
        ({"rating_min": -5000}, "A rating limit must be between"),
        ({"language": "xx"}, "Unknown language"),
    ],
)
def test_bad_filters_are_refused(wrong: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        join(UserFactory(), **wrong)
    assert not QueueEntry.objects.exists()


def test_a_pass_reads_the_friendships_once_and_none_when_nobody_asks() -> None:
    people = UserFactory.create_batch(8)
    for x, y in itertools.combinations(people, 2):
        if (x.pk + y.pk) % 3 == 0:
            befriend(x, y)

    def friendship_queries(friends_only: bool) -> int:
        QueueEntry.objects.all().delete()
        for user in people:
            QueueEntry.objects.create(
                user=user,
                preset="classic",
                num_players=2,
                time_control="2m",
                bot_level="rules",
                friends_only=friends_only,
                joined_at=user.date_joined,
            )
        with CaptureQueriesContext(connection) as queries:
            services.queue_sweep()
        return sum('"accounts_friendship"' in query["sql"] for query in queries)

    assert friendship_queries(False) == 0
    Seat.objects.all().delete()
    assert friendship_queries(True) == 1


def test_the_api_takes_and_shows_the_filters_and_refuses_bad_ones() -> None:
    cache.clear()
    alice, friend = UserFactory.create_batch(2)
    befriend(alice, friend)
    join_body = {"preset": "classic", "players": 2, "time_control": "30s"}
    body = client_of(alice).post(
        URL, {**join_body, "friends_only": True, "rating_min": None, "language": "en"}, format="json"
    )
    assert body.status_code == 201
    data = body.json()
    assert (data["friends_only"], data["rating_min"], data["rating_max"], data["language"]) == (
        True,
        None,
        None,
        "en",
    )
    wrong = client_of(friend).post(URL, {**join_body, "rating_min": 5, "rating_max": 4}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid"
    assert set(wrong.json()["errors"]) == {"rating_max"}
    assert client_of(friend).post(URL, join_body, format="json").json()["status"] == "matched"


def test_the_page_form_takes_the_filters() -> None:
    alice = UserFactory()
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    for name in ("friends_only", "rating_min", "rating_max", "language"):
        assert f'id="play-now-{name}"' in page
    data = {"preset": "classic", "num_players": 2, "time_control": "2m", "fill_after": "never"}
    client.post(
        reverse("matchmaking:play"), {**data, "friends_only": "on", "rating_min": "-3", "language": "ru"}
    )
    entry = QueueEntry.objects.get(user=alice)
    assert (entry.friends_only, entry.rating_min, entry.rating_max, entry.language) == (True, -3, None, "ru")


@pytest.mark.django_db(transaction=True)
def test_twenty_joins_at_once_pair_only_players_who_pass_each_others_filters() -> None:
    rng = random.Random(30)
    people = UserFactory.create_batch(20)
    for x, y in rng.sample(list(itertools.combinations(people, 2)), 60):
        befriend(x, y)
    friends = set(frozenset(pair) for pair in Friendship.objects.values_list("user_id", "friend_id"))
    wishes: dict[int, dict[str, Any]] = {}
    for user in people:
        speaking(user, rng.choice(["en", "ru"]))
        wishes[user.pk] = {"friends_only": rng.random() < 0.5, "language": rng.choice(["", "", "en", "ru"])}
    language = dict(User.objects.values_list("pk", "language"))
    barrier = threading.Barrier(len(people))
    errors: list[BaseException] = []

    def run(user: User) -> None:
        try:
            barrier.wait(timeout=20)
            join(user, **wishes[user.pk])
        except BaseException as error:  # surfaced in the main thread below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(user,)) for user in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors

    def accepts(seeker: int, other: int) -> bool:
        wish = wishes[seeker]
        if wish["friends_only"] and frozenset((seeker, other)) not in friends:
            return False
        return not wish["language"] or wish["language"] == language[other]

    def suit(x: int, y: int) -> bool:
        return accepts(x, y) and accepts(y, x)

    seated = list(Seat.objects.values_list("user_id", flat=True))
    assert len(seated) == len(set(seated))  # nobody twice
    games = tables()
    assert games, "some of the twenty must suit each other"
    for table in games:
        assert len(table) == 2 and suit(*table)
    waiting = list(QueueEntry.objects.filter(status="waiting").values_list("user_id", flat=True))
    assert set(waiting) | set(seated) == {user.pk for user in people}
    for x, y in itertools.combinations(waiting, 2):
        assert not suit(x, y)  # those still waiting could not sit together
