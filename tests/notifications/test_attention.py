"""Notifications that respect attention (issue 29).

- While a player has the game's page open and visible (the page says so:
  ``games.services.seat_presence``, posted by ``static/js/live.js``), no "your move" row, e-mail
  or push is written for that game; once the page is hidden or closed, it is again.
- A player's turns in a game fold into one row ("Your move in game 2 (3 turns since you last
  looked)") instead of a row per turn; a row that went out by e-mail or push stays as it was.
"""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import User
from games import services
from games.models import Game, Seat
from notifications import queue
from notifications import services as notifications
from notifications.models import Kind, Notification
from tests.factories import LONGER_DEAL, UserFactory, started_game

from .push_service import vapid_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, settings: Any) -> dict[str, list[int]]:
    """The site pushes; the email and push tasks the services queue, recorded instead of sent."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_keys()
    tasks: dict[str, list[int]] = {"email": [], "push": []}
    monkeypatch.setattr(queue, "email_after_commit", lambda pk: tasks["email"].append(pk))
    monkeypatch.setattr(queue, "push_after_commit", lambda pk, written_at: tasks["push"].append(pk))
    return tasks


def move(game: Game, user: User, action: dict[str, Any]) -> None:
    game.refresh_from_db()
    services.make_move(user=user, game_id=game.pk, action=action, expected_version=game.version)


def turns(user: User, game: Game) -> list[Notification]:
    return list(Notification.objects.filter(user=user, game=game, kind=Kind.YOUR_MOVE))


def away(*users: User) -> None:
    """Nobody has looked at their games lately (no quiet window either)."""
    Seat.objects.filter(user__in=users).update(last_seen_at=None, present_until=None)


def test_no_your_move_is_written_mailed_or_pushed_while_the_page_is_open_and_visible(
    queued: dict[str, list[int]],
) -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    away(alice, bob)
    queued["email"].clear()
    queued["push"].clear()
    bob_client = Client()
    bob_client.force_login(bob)
    presence = reverse("games:presence", args=[game.pk])
    assert bob_client.post(presence, {"visible": "1", "version": game.version}).status_code == 204
    bob_seat = Seat.objects.get(game=game, user=bob)
    assert bob_seat.present_until is not None and bob_seat.present_until > timezone.now()

    move(game, alice, {"type": "attack", "cards": ["6S"]})  # bob must defend: his page shows it
    assert Seat.objects.get(game=game, user=bob).must_move
    assert turns(bob, game) == []
    assert queued == {"email": [], "push": []}

    # Hidden (another tab): his next turn is written again; while he was active in the game a
    # moment ago it is written read and its e-mail waits to be judged (the quiet window) ...
    assert bob_client.post(presence, {"visible": "0"}).status_code == 204
    assert Seat.objects.get(game=game, user=bob).present_until is None
    move(game, bob, {"type": "defend", "target": "6S", "card": "8S"})
    move(game, alice, {"type": "pass"})  # beaten: bob attacks next
    assert Seat.objects.get(game=game, user=bob).must_move
    [row] = turns(bob, game)
    assert row.read_at is not None and queued["email"][-1] == row.pk
    # ... and once he has been away longer, unread under the bell, by e-mail and push.
    away(bob)
    move(game, bob, {"type": "attack", "cards": ["9D"]})
    move(game, alice, {"type": "take"})
    game.refresh_from_db()
    assert Seat.objects.get(game=game, user=bob).must_move, game.engine().must_act()
    [row] = turns(bob, game)
    assert row.read_at is None and queued["email"][-1] == row.pk


def test_the_presence_lapses_without_its_heartbeat_and_is_the_players_alone(
    queued: dict[str, list[int]],
) -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    away(alice, bob)
    assert services.seat_presence(game_id=game.pk, user_id=bob.pk, visible=True)
    Seat.objects.filter(game=game, user=bob).update(
        present_until=timezone.now() - timedelta(seconds=1)  # the page closed without a word
    )
    move(game, alice, {"type": "attack", "cards": ["6S"]})
    assert len(turns(bob, game)) == 1
    # Someone without a seat changes nothing, and is answered as for a game that is not there.
    stranger = UserFactory()
    assert not services.seat_presence(game_id=game.pk, user_id=stranger.pk, visible=True)
    client = Client()
    client.force_login(stranger)
    assert client.post(reverse("games:presence", args=[game.pk]), {"visible": "1"}).status_code == 404
    assert client.post(reverse("games:presence", args=[game.pk + 1000]), {"visible": "1"}).status_code == 404
    assert client.get(reverse("games:presence", args=[game.pk])).status_code == 405


def test_the_visible_page_records_the_moves_it_shows_as_seen() -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    move(game, alice, {"type": "attack", "cards": ["6S"]})
    game.refresh_from_db()
    assert Seat.objects.get(game=game, user=bob).seen_moves is None
    services.seat_presence(game_id=game.pk, user_id=bob.pk, visible=True, version=game.version - 1)
    assert Seat.objects.get(game=game, user=bob).seen_moves is None  # an old table: the next says
    services.seat_presence(game_id=game.pk, user_id=bob.pk, visible=True, version=game.version)
    assert Seat.objects.get(game=game, user=bob).seen_moves == game.moves_made == 1


def test_a_players_turns_in_a_game_fold_into_one_row_with_their_count(queued: dict[str, list[int]]) -> None:
    game, users = started_game()
    away(*users)
    # The turns each was told of: the first attacker's at the deal, then each turn that came.
    needed = {s.user_id: int(s.must_move) for s in Seat.objects.filter(game=game)}
    for _step in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        engine = game.engine()
        before = {s.user_id: s.must_move for s in Seat.objects.filter(game=game)}
        player = engine.must_act()[0]
        move(game, users[player], engine.legal_json(player)[0])
        for seat in Seat.objects.filter(game=game):
            needed[seat.user_id] += seat.must_move and not before[seat.user_id]
    for user in users:
        rows = turns(user, game)
        if not needed[user.pk]:
            continue
        assert len(rows) == 1, "one row per game, not one per turn"
        times = needed[user.pk]
        assert int(rows[0].params.get("times", 1)) == times
        if times > 1:
            assert rows[0].message.startswith(
                f"Your move in game {game.pk} ({times} turns since you last looked)"
            )
    assert max(needed.values()) > 1


@pytest.mark.parametrize(
    ("times", "russian"),
    [
        (2, "уже 2 раза"),
        (5, "уже 5 раз"),
        (11, "уже 11 раз"),
        (21, "уже 21 раз"),
        (24, "уже 24 раза"),
    ],
)
def test_the_folded_count_reads_in_russian(times: int, russian: str) -> None:
    user = UserFactory(language="ru")
    row = Notification(user=user, kind=Kind.YOUR_MOVE)
    row.set_params({"game": 7, "deadline": "", "times": times})
    with translation.override("ru"):
        assert row.message == f"Ваш ход в игре 7 ({russian} с тех пор, как вы заходили)."  # noqa: RUF001
    assert row.text == f"Your move in game 7 ({times} turns since you last looked)."


def test_a_read_turn_folds_again_from_one_and_one_that_went_out_stays(queued: dict[str, list[int]]) -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    away(alice, bob)
    move(game, alice, {"type": "attack", "cards": ["6S"]})
    [first] = turns(bob, game)
    notifications.mark_read(user=bob, notification_id=first.pk)  # read under the bell
    move(game, bob, {"type": "defend", "target": "6S", "card": "8S"})
    move(game, alice, {"type": "pass"})  # bob leads the next bout
    [again] = turns(bob, game)
    assert again.pk == first.pk and again.read_at is None and "times" not in again.params
    # Mailed, then read: it stays as it went out, and the next turn is a row of its own.
    Notification.objects.filter(pk=again.pk).update(emailed_at=timezone.now(), read_at=timezone.now())
    for _step in range(20):
        game.refresh_from_db()
        if len(turns(bob, game)) > 1 or game.status != Game.Status.ACTIVE:
            break
        engine = game.engine()
        player = engine.must_act()[0]
        move(game, (alice, bob)[player], engine.legal_json(player)[0])
    rows = turns(bob, game)
    assert len(rows) == 2 and again.pk in {row.pk for row in rows}
    assert Notification.objects.get(pk=again.pk).emailed_at is not None


def test_one_bell_event_per_player_per_change(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """Issue 29: a player who becomes waited for used to hear two bell events for one move (the
    turn that flipped, then the notification written). Every caller in one transaction now adds
    to one after-commit send: one event each, with the counts read after the commit."""
    from durak_site import live

    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    away(alice, bob)
    heard: list[tuple[str, dict[str, int]]] = []
    monkeypatch.setattr(
        live,
        "send",
        lambda channel, kind, data: heard.append((channel, dict(data))) if kind == "bell" else None,
    )
    with django_capture_on_commit_callbacks(execute=True):
        move(game, alice, {"type": "attack", "cards": ["6S"]})
    assert len(turns(bob, game)) == 1  # bob's turn flipped and he got a "your move"
    assert sorted(channel for channel, _counts in heard) == sorted(
        [live.user_channel(alice.pk), live.user_channel(bob.pk)]
    )
    counts = dict(heard)
    assert counts[live.user_channel(bob.pk)] == {"unread": 2, "waiting": 1, "optional": 0}
    assert counts[live.user_channel(alice.pk)] == {"unread": 2, "waiting": 0, "optional": 1}
