"""The play-now queue: pairing by the same choice, computer players after the wait, leaving,
one entry per player, and two joins at once making one game (threads on PostgreSQL)."""

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.bots import bot_account
from games.exceptions import InvalidRules, NotAllowed, WrongStatus
from games.models import Game, Seat
from matchmaking import services
from matchmaking.models import QueueEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CHOICE: dict[str, Any] = {"preset": "classic", "num_players": 2, "time_control": "2m"}


def join(user: User, **choice: Any) -> QueueEntry:
    return services.queue_join(user=user, **{**CHOICE, **choice})


def seated(game_id: int) -> list[str]:
    return sorted(Seat.objects.filter(game_id=game_id).values_list("user__username", flat=True))


def test_a_lone_player_waits() -> None:
    alice = UserFactory()
    entry = join(alice)
    assert entry.status == QueueEntry.Status.WAITING
    assert entry.game is None
    assert not Game.objects.exists()


def test_two_players_with_the_same_choice_get_one_running_game_of_it() -> None:
    alice, bob = UserFactory.create_batch(2)
    first = join(alice)
    second = join(bob)
    assert second.status == QueueEntry.Status.MATCHED
    game = Game.objects.get()
    assert second.game_id == game.pk
    first.refresh_from_db()
    assert first.status == QueueEntry.Status.MATCHED and first.game_id == game.pk
    assert game.status == Game.Status.ACTIVE
    assert game.preset == "classic" and game.num_players == 2
    assert game.move_time == timedelta(minutes=2)
    assert game.bot_level == ""
    assert seated(game.pk) == sorted([alice.username, bob.username])


@pytest.mark.parametrize(
    "other", [{"preset": "perevodnoy"}, {"num_players": 3}, {"time_control": "30s"}], ids=str
)
def test_a_different_rule_set_player_count_or_clock_is_not_paired(other: dict[str, Any]) -> None:
    alice, bob = UserFactory.create_batch(2)
    join(alice)
    entry = join(bob, **other)
    assert entry.status == QueueEntry.Status.WAITING
    assert not Game.objects.exists()


def test_three_players_wait_until_the_third_comes_in_join_order() -> None:
    alice, bob, carol, dave = UserFactory.create_batch(4)
    assert join(alice, num_players=3).status == QueueEntry.Status.WAITING
    assert join(bob, num_players=3).status == QueueEntry.Status.WAITING
    assert join(dave, num_players=2).status == QueueEntry.Status.WAITING  # another bucket
    entry = join(carol, num_players=3)
    assert entry.status == QueueEntry.Status.MATCHED
    game = Game.objects.get()
    assert game.creator == alice  # the first to wait
    assert seated(game.pk) == sorted([alice.username, bob.username, carol.username])
    assert QueueEntry.objects.get(user=dave).status == QueueEntry.Status.WAITING


def test_computers_fill_the_empty_seats_once_the_wait_is_over() -> None:
    alice = UserFactory()
    entry = join(alice, num_players=3, fill_after=timedelta(seconds=30), bot_level="random")
    assert services.queue_sweep() == []  # not yet
    QueueEntry.objects.filter(pk=entry.pk).update(fill_at=timezone.now() - timedelta(seconds=1))
    games = services.queue_sweep()
    assert len(games) == 1
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert game.bot_level == "random"
    bots = list(Seat.objects.filter(game=game, user__is_bot=True).values_list("user__bot_level", flat=True))
    assert bots == ["random", "random"]
    assert Seat.objects.filter(game=game, user=alice).exists()
    entry.refresh_from_db()
    assert entry.status == QueueEntry.Status.MATCHED and entry.game_id == game.pk


def test_a_wait_of_zero_fills_at_once_and_people_waiting_come_first() -> None:
    alice, bob = UserFactory.create_batch(2)
    join(alice, num_players=3, fill_after=None)
    entry = join(bob, num_players=3, fill_after=timedelta(0))
    # Bob's wait is over at once; Alice wants people only, so she keeps waiting.
    assert entry.status == QueueEntry.Status.MATCHED
    game = Game.objects.get()
    assert Seat.objects.filter(game=game, user__is_bot=True).count() == 2
    assert QueueEntry.objects.get(user=alice).status == QueueEntry.Status.WAITING


def test_never_means_people_only() -> None:
    alice = UserFactory()
    entry = join(alice, fill_after=None)
    QueueEntry.objects.filter(pk=entry.pk).update(joined_at=timezone.now() - timedelta(hours=2))
    assert services.queue_sweep() == []
    assert QueueEntry.objects.get(pk=entry.pk).status == QueueEntry.Status.WAITING


def test_leaving_takes_the_player_out_of_the_queue() -> None:
    alice, bob = UserFactory.create_batch(2)
    join(alice)
    services.queue_leave(user=alice)
    assert not QueueEntry.objects.exists()
    assert join(bob).status == QueueEntry.Status.WAITING
    with pytest.raises(WrongStatus):
        services.queue_leave(user=alice)


def test_leaving_after_the_game_was_found_is_refused_with_the_game() -> None:
    alice, bob = UserFactory.create_batch(2)
    join(alice)
    entry = join(bob)
    with pytest.raises(WrongStatus, match=f"game {entry.game_id}"):
        services.queue_leave(user=alice)


def test_joining_again_replaces_the_entry() -> None:
    alice, bob = UserFactory.create_batch(2)
    join(alice, time_control="30s")
    join(alice, time_control="2m")
    assert QueueEntry.objects.filter(user=alice).count() == 1
    assert join(bob, time_control="30s").status == QueueEntry.Status.WAITING  # Alice left that one
    assert join(bob, time_control="2m").status == QueueEntry.Status.MATCHED


def test_a_player_who_left_the_site_is_dropped_not_paired() -> None:
    alice, bob = UserFactory.create_batch(2)
    join(alice)
    User.objects.filter(pk=alice.pk).update(last_active_at=timezone.now() - services.QUEUE_STALE * 2)
    entry = join(bob)
    assert entry.status == QueueEntry.Status.WAITING
    assert not QueueEntry.objects.filter(user=alice).exists()
    assert not Game.objects.exists()


def test_the_sweep_drops_those_who_left() -> None:
    alice = UserFactory()
    join(alice)
    User.objects.filter(pk=alice.pk).update(last_active_at=timezone.now() - services.QUEUE_STALE * 2)
    services.queue_sweep()
    assert not QueueEntry.objects.exists()


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ({"preset": "nonsense"}, "Unknown rule set"),
        ({"num_players": 7}, "2 to 6"),
        ({"time_control": "5m"}, "Unknown time control"),
        ({"fill_after": timedelta(hours=2)}, "at most an hour"),
        ({"bot_level": "genius"}, "Unknown computer level"),
    ],
)
def test_a_bad_choice_is_refused_and_changes_nothing(choice: dict[str, Any], message: str) -> None:
    alice = UserFactory()
    with pytest.raises(InvalidRules, match=message):
        join(alice, **choice)
    assert not QueueEntry.objects.exists()


def test_a_computer_player_cannot_wait() -> None:
    with pytest.raises(NotAllowed):
        join(bot_account(level="rules"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("players", [2, 3])
def test_joins_at_the_same_moment_make_exactly_one_game(players: int) -> None:
    people = UserFactory.create_batch(players)
    barrier = threading.Barrier(players)
    errors: list[BaseException] = []

    def run(user: User) -> None:
        try:
            barrier.wait(timeout=10)
            join(user, num_players=players)
        except BaseException as error:  # surfaced in the main thread below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(user,)) for user in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE
    assert seated(game.pk) == sorted(user.username for user in people)
    assert set(QueueEntry.objects.values_list("status", "game_id")) == {(QueueEntry.Status.MATCHED, game.pk)}


@pytest.mark.django_db(transaction=True)
def test_one_player_joining_twice_at_once_keeps_one_entry_and_no_game() -> None:
    alice = UserFactory()
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def run(time_control: str) -> None:
        try:
            barrier.wait(timeout=10)
            join(alice, time_control=time_control)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(clock,)) for clock in ("2m", "2m")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert QueueEntry.objects.filter(user=alice).count() == 1
    assert not Game.objects.exists()
