"""What a change of a game costs in notifications, counted in queries (issue 20).

A move's transaction holds the game's lock: every query in it is a query every other move of
the game waits for. With its seats read through ``with_notification_facts`` (each user, their
preferences, whether they have a browser subscribed, in the seats' one query), a running
change writes the "your move"s of every player it now waits for in one statement, moving up
each one's unread "your move" of the game, and queues their emails and pushes for after the
commit: no read of preferences, users, notifications or subscriptions.
"""

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from notifications import queue
from notifications import services as notifications
from notifications.models import Kind, Notification, Preferences, PushSubscription
from tests.factories import SHORT_DEAL, play_moves, started_game

from .push_service import vapid_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, settings: Any) -> dict[str, list[int]]:
    """The site pushes (a VAPID pair); the email and push tasks the services queue, recorded
    instead of sent."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_keys()
    tasks: dict[str, list[int]] = {"email": [], "push": []}
    monkeypatch.setattr(queue, "email_after_commit", lambda pk: tasks["email"].append(pk))
    monkeypatch.setattr(queue, "push_after_commit", lambda pk, written_at: tasks["push"].append(pk))
    return tasks


def forget(queued: dict[str, list[int]]) -> None:
    """Forget the tasks the test's setup queued (the game's start)."""
    queued["email"].clear()
    queued["push"].clear()


def subscribed(user: User) -> PushSubscription:
    return PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example/{user.pk}", p256dh="key", auth="secret"
    )


def seats_of(game: Game, *, facts: bool = True) -> list[Seat]:
    seats = Seat.objects.filter(game=game).order_by("position")
    return list(notifications.with_notification_facts(seats) if facts else seats.select_related("user"))


def unread_turns(user: User, game: Game) -> list[Notification]:
    return list(Notification.objects.filter(user=user, game=game, kind=Kind.YOUR_MOVE, read_at=None))


@pytest.mark.parametrize("waiting", [1, 2, 3])
def test_a_running_change_writes_its_your_moves_in_one_query(
    waiting: int, queued: dict[str, list[int]]
) -> None:
    game, users = started_game(players=4)
    for user in users:
        subscribed(user)
    Preferences.objects.create(user=users[1], email_your_move=False)  # saved preferences, read with the seat
    moved_up = {user.pk: rows[0].pk for user in users if (rows := unread_turns(user, game))}
    assert moved_up  # the start waited for someone: their "your move" is unread
    before = {pk: Notification.objects.get(pk=pk).created_at for pk in moved_up.values()}
    seats = seats_of(game)
    newly_waiting = seats[:waiting]
    forget(queued)
    with CaptureQueriesContext(connection) as queries:
        notifications.game_changed(
            game=game, seats=seats, newly_waiting=newly_waiting, started=False, finished=False
        )
    assert len(queries) == 1, [query["sql"] for query in queries]
    written = []
    for seat in newly_waiting:
        [row] = unread_turns(seat.user, game)  # still one per game under the bell
        written.append(row.pk)
        if seat.user_id in moved_up:
            assert row.pk == moved_up[seat.user_id] and row.created_at > before[row.pk]
    assert sorted(queued["push"]) == sorted(written)  # each has a browser and wants the push
    wants_email = [
        row for row, seat in zip(written, newly_waiting, strict=True) if seat.user_id != users[1].pk
    ]
    assert sorted(queued["email"]) == sorted(wants_email)


def test_no_push_is_queued_for_a_player_without_a_browser_or_not_wanting_it(
    queued: dict[str, list[int]],
) -> None:
    game, users = started_game(players=3)
    subscribed(users[1])
    Preferences.objects.create(user=users[1], push_your_move=False)
    subscribed(users[2])
    seats = seats_of(game)
    forget(queued)
    with CaptureQueriesContext(connection) as queries:
        notifications.game_changed(game=game, seats=seats, newly_waiting=seats, started=False, finished=False)
    assert len(queries) == 1
    [pushed] = queued["push"]
    assert Notification.objects.get(pk=pushed).user == users[2]
    assert len(queued["email"]) == 3


def test_a_player_watching_the_game_has_their_turn_written_read(queued: dict[str, list[int]]) -> None:
    game, users = started_game(players=2)
    Seat.objects.filter(game=game, user=users[0]).update(last_seen_at=timezone.now())
    seats = seats_of(game)
    notifications.game_changed(game=game, seats=seats, newly_waiting=seats, started=False, finished=False)
    assert not unread_turns(users[0], game)  # the page shows it: the bell does not count it
    assert Notification.objects.filter(user=users[0], game=game, kind=Kind.YOUR_MOVE).exists()
    assert len(unread_turns(users[1], game)) == 1


def test_an_email_already_claimed_is_not_pending_again_when_its_turn_moves_up(
    queued: dict[str, list[int]],
) -> None:
    game, _users = started_game(players=2)
    seat = next(seat for seat in seats_of(game) if unread_turns(seat.user, game))
    [row] = unread_turns(seat.user, game)
    Notification.objects.filter(pk=row.pk).update(
        email_pending=False, email_claimed_at=timezone.now(), emailed_at=timezone.now()
    )
    notifications.game_changed(
        game=game, seats=seats_of(game), newly_waiting=[seat], started=False, finished=False
    )
    row.refresh_from_db()
    assert not row.email_pending and row.pushed_by is None and row.read_at is None
    Notification.objects.filter(pk=row.pk).update(emailed_at=None, email_claimed_at=None)
    notifications.game_changed(
        game=game, seats=seats_of(game), newly_waiting=[seat], started=False, finished=False
    )
    row.refresh_from_db()
    assert row.email_pending  # never claimed: pending again


def test_seats_read_without_the_facts_still_notify_at_a_few_queries_more(
    queued: dict[str, list[int]],
) -> None:
    game, users = started_game(players=3)
    for user in users:
        subscribed(user)
    seats = seats_of(game, facts=False)
    forget(queued)
    with CaptureQueriesContext(connection) as queries:
        notifications.game_changed(game=game, seats=seats, newly_waiting=seats, started=False, finished=False)
    assert len(queries) == 3  # the preferences, the subscriptions, the statement
    assert len(queued["push"]) == 3


def test_a_start_costs_two_statements_and_an_end_one(queued: dict[str, list[int]]) -> None:
    game, _users = started_game(players=3)
    seats = seats_of(game)
    with CaptureQueriesContext(connection) as queries:
        notifications.game_changed(
            game=game, seats=seats, newly_waiting=seats[:1], started=True, finished=False
        )
    assert len(queries) == 2  # every "game started" in one INSERT, the "your move" in one statement

    finished, players = started_game(deal=SHORT_DEAL)
    finished = play_moves(finished, players, 5)
    assert finished.status == Game.Status.FINISHED
    outcome = finished.engine().outcome()
    assert outcome is not None
    Notification.objects.filter(game=finished).delete()
    seats = seats_of(finished)
    with CaptureQueriesContext(connection) as queries:
        notifications.game_changed(
            game=finished,
            seats=seats,
            newly_waiting=[],
            started=False,
            finished=True,
            outcome=outcome,
        )
    assert len(queries) == 1, [query["sql"] for query in queries]
    fool, winner = players[outcome.losers[0]], players[outcome.order_out[0]]
    assert Notification.objects.get(user=fool, game=finished).params["result"] == "fool"
    params = Notification.objects.get(user=winner, game=finished).params
    assert params["result"] == "not_fool" and params["fool"] == fool.username


def test_the_database_keeps_one_unread_your_move_per_game() -> None:
    game, users = started_game(players=2)
    user = next(user for user in users if unread_turns(user, game))
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=user, game=game, kind=Kind.YOUR_MOVE, text="again")
    Notification.objects.create(
        user=user, game=game, kind=Kind.YOUR_MOVE, text="read", read_at=timezone.now()
    )
    assert (
        Notification.objects.filter(user=user, game=game, kind=Kind.YOUR_MOVE).count() == 2
    )  # read: history


def test_the_facts_load_with_the_seats_locked(queued: dict[str, list[int]]) -> None:
    game, users = started_game(players=2)
    subscribed(users[0])
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        seats = list(
            notifications.with_notification_facts(
                Seat.objects.filter(game=game).order_by("position")
            ).select_for_update(of=("self",))
        )
        forget(queued)
        notifications.game_changed(game=game, seats=seats, newly_waiting=seats, started=False, finished=False)
    assert len(queries) == 2  # the locked seats with their facts, the statement
    assert "FOR UPDATE OF" in queries[0]["sql"]
    assert [Notification.objects.get(pk=pk).user for pk in queued["push"]] == [users[0]]
