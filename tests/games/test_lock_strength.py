"""A lock on a row other rows point to (a game, a user) never blocks a foreign-key check.

A move holds its game row until its commit, and inserts notifications that point to users; a chat
post or a vacation booking holds its user row and inserts or updates rows that point to games.
Inserting such a row runs PostgreSQL's key check (``FOR KEY SHARE`` on the row pointed to) at the
commit. With ``FOR UPDATE`` on both sides the two wait for each other: "deadlock detected", and
one of them is lost. ``FOR NO KEY UPDATE`` (``select_for_update(no_key=True)``) serialises
writers just the same but lets key checks through (docs/locking.md).
"""

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from chat import services as chat_services
from chat.models import ChatMessage
from games import write
from notifications.models import Kind, Notification
from tests.factories import started_game
from tests.notifications.test_no_deadlock import InThread, lock_wait

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for(condition: Callable[[], bool], timeout: float = 60) -> bool:
    deadline = timezone.now() + timedelta(seconds=timeout)
    stop = threading.Event()
    while timezone.now() < deadline:
        if condition():
            return True
        stop.wait(0.05)
    return False


def _move_holding_the_game(game_id: int, user_id: int, ready: threading.Event, go: threading.Event) -> Any:
    """What a move does to the rows in question: lock the game, insert a notification for a
    player, and commit only when told."""
    with transaction.atomic():
        write.lock(game_id)
        # Read: a player has at most one unread "your move" per game, and the start wrote one.
        Notification.objects.create(
            user_id=user_id, game_id=game_id, kind=Kind.YOUR_MOVE, text="", read_at=timezone.now()
        )
        ready.set()
        assert go.wait(60)
    return "committed"


def _race(other: Callable[[], Any], game_id: int, user_id: int) -> tuple[InThread, InThread]:
    ready, go = threading.Event(), threading.Event()
    move = InThread(lambda: _move_holding_the_game(game_id, user_id, ready, go))
    assert ready.wait(60), "the move did not take its locks"
    rival = InThread(other)
    # Let the rival run as far as it can while the move holds the game: either it finishes (its key
    # check did not wait for the move) or it waits on a lock the move holds.
    assert _wait_for(lambda: rival.done or lock_wait(rival.pid) is not None)
    go.set()
    move.join()
    rival.join()
    return move, rival


def test_a_chat_post_while_a_move_holds_the_game_and_notifies_the_poster_loses_neither() -> None:
    game, users = started_game()
    move, post = _race(
        lambda: chat_services.chat_post(user=users[1], game=game, text="good luck"), game.pk, users[1].pk
    )
    assert move.error is None, move.error
    assert post.error is None, post.error
    assert Notification.objects.filter(user=users[1], game=game, kind=Kind.YOUR_MOVE).exists()
    assert ChatMessage.objects.filter(game=game, author=users[1], text="good luck").exists()


def test_two_moves_in_one_game_still_wait_for_each_other() -> None:
    """``no_key`` does not weaken the lock between writers of the game itself."""
    game, users = started_game()
    ready, go = threading.Event(), threading.Event()
    first = InThread(lambda: _move_holding_the_game(game.pk, users[0].pk, ready, go))
    assert ready.wait(60)

    def second() -> None:
        with transaction.atomic():
            write.lock(game.pk)

    rival = InThread(second)
    assert _wait_for(lambda: lock_wait(rival.pid) is not None), "the second lock did not wait"
    assert not rival.done
    go.set()
    first.join()
    rival.join()
    assert first.error is None and rival.error is None
    connection.close()
