"""Play now keeps apart the players a block keeps apart, and each seeker's minimum reliability
(issue 30): a pairing pass never seats a blocked pair, even with twenty joins at once."""

import itertools
import random
import threading
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Block, User
from games.exceptions import InvalidRules
from games.models import Game, Seat
from matchmaking import services
from matchmaking.models import QueueEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CHOICE: dict[str, Any] = {"preset": "classic", "num_players": 2, "time_control": "2m"}


def join(user: User, **choice: Any) -> QueueEntry:
    return services.queue_join(user=user, **{**CHOICE, **choice})


def reliable(user: User, percent: int) -> User:
    user.reliability_games = 20
    user.reliability_left = 20 - percent * 20 // 100
    user.save(update_fields=["reliability_games", "reliability_left"])
    return user


def tables() -> list[set[int]]:
    by_game: dict[int, set[int]] = {}
    for game_id, user_id in Seat.objects.values_list("game_id", "user_id"):
        by_game.setdefault(game_id, set()).add(user_id)
    return list(by_game.values())


def test_a_blocked_pair_is_not_paired_and_the_next_player_is() -> None:
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    Block.objects.create(blocker=bob, blocked=alice)
    join(alice)
    assert join(bob).status == QueueEntry.Status.WAITING
    entry = join(carol)
    assert entry.status == QueueEntry.Status.MATCHED
    assert tables() == [{alice.pk, carol.pk}]
    assert QueueEntry.objects.get(user=bob).status == QueueEntry.Status.WAITING


def test_a_block_keeps_three_apart_at_a_table_of_three() -> None:
    a, b, c, d = UserFactory.create_batch(4)
    Block.objects.create(blocker=a, blocked=c)
    for user in (a, b, c):
        join(user, num_players=3)
    assert not Game.objects.exists()
    assert join(d, num_players=3).status == QueueEntry.Status.MATCHED
    assert tables() == [{a.pk, b.pk, d.pk}]  # c waits on, apart from a


def test_computer_fill_leaves_out_a_blocked_player() -> None:
    a, b = UserFactory(), UserFactory()
    Block.objects.create(blocker=a, blocked=b)
    join(a, fill_after=services.FILL_AFTER_MAX * 0, num_players=3)
    join(b, fill_after=services.FILL_AFTER_MAX * 0, num_players=3)
    for table in tables():
        assert not {a.pk, b.pk} <= table


def test_a_seekers_minimum_reliability_leaves_out_new_and_shaky_players() -> None:
    picky = reliable(UserFactory(), 95)
    new, shaky, steady = UserFactory(), reliable(UserFactory(), 80), reliable(UserFactory(), 92)
    join(picky, min_reliability=90)
    assert join(new).status == QueueEntry.Status.WAITING
    assert join(shaky).status == QueueEntry.Status.MATCHED
    assert tables() == [{new.pk, shaky.pk}]  # they suit each other, not the picky one
    assert join(steady).status == QueueEntry.Status.MATCHED
    assert {picky.pk, steady.pk} in tables()


def test_the_minimum_holds_both_ways() -> None:
    picky_but_new = UserFactory()
    other = reliable(UserFactory(), 50)
    join(other, min_reliability=60)
    assert join(picky_but_new).status == QueueEntry.Status.WAITING


def test_a_bad_minimum_is_refused() -> None:
    with pytest.raises(InvalidRules, match="between 0 and 100"):
        join(UserFactory(), min_reliability=101)
    assert not QueueEntry.objects.exists()


def test_a_pairing_pass_reads_the_blocks_once_whatever_their_number() -> None:
    people = UserFactory.create_batch(8)
    for x, y in itertools.combinations(people[:6], 2):
        if (x.pk + y.pk) % 3 == 0:
            Block.objects.create(blocker=x, blocked=y)
    for user in people:
        QueueEntry.objects.create(
            user=user,
            **{"preset": "classic", "num_players": 2, "time_control": "2m"},
            bot_level="rules",
            joined_at=user.date_joined,
        )
    with CaptureQueriesContext(connection) as queries:
        services.queue_sweep()
    assert (
        sum("accounts_block" in query["sql"] and "games_seat" not in query["sql"] for query in queries) == 1
    )


@pytest.mark.django_db(transaction=True)
def test_twenty_joins_at_once_never_seat_a_blocked_pair_nor_anyone_twice() -> None:
    people = UserFactory.create_batch(20)
    rng = random.Random(30)
    pairs = rng.sample(list(itertools.combinations(people, 2)), 40)
    for x, y in pairs:
        Block.objects.create(blocker=x, blocked=y)
    apart = {frozenset((x.pk, y.pk)) for x, y in pairs}
    barrier = threading.Barrier(len(people))
    errors: list[BaseException] = []

    def run(user: User) -> None:
        try:
            barrier.wait(timeout=20)
            join(user)
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
    seated = list(Seat.objects.values_list("user_id", flat=True))
    assert len(seated) == len(set(seated))  # nobody twice
    games = tables()
    assert games, "with 40 blocks among 190 pairs some players must be paired"
    for table in games:
        assert len(table) == 2
        for pair in itertools.combinations(table, 2):
            assert frozenset(pair) not in apart
    matched = set(QueueEntry.objects.filter(status="matched").values_list("user_id", flat=True))
    assert matched == set(seated)
    # Those still waiting could not sit together: each two of them are kept apart.
    waiting = list(QueueEntry.objects.filter(status="waiting").values_list("user_id", flat=True))
    for pair in itertools.combinations(waiting, 2):
        assert frozenset(pair) in apart
