"""The table marks the cards of the last move while they lie on the table (from the public move
log: a spectator sees the same marks), names them so to screen readers, and says "… is thinking…"
while a computer player's move is due."""

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import bots, services, write
from games.models import Game

pytestmark = pytest.mark.django_db

# Classic, two players, hearts trump (as in tests/browser/test_two_players.py).
DEAL: dict[str, Any] = {
    "hands": [["6S", "6D", "8C", "QH"], ["8S", "9D", "7S", "10C"]],
    "stock": ["KC", "9H"],
    "first_attacker": 0,
}


def page(user: User | None, game: Game) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


def marked(html: str) -> list[tuple[str, str]]:
    """(card, aria-label) of every card marked as the last move's."""
    return re.findall(r'class="card [^"]*last-played"[^>]*data-card="([^"]+)"[^>]*aria-label="([^"]+)"', html)


def move(game: Game, user: User, action: dict[str, Any]) -> None:
    game.refresh_from_db()
    services.make_move(user=user, game_id=game.pk, action=action, expected_version=game.version)


def test_the_last_moves_cards_are_marked_until_the_next_move() -> None:
    alice = User.objects.create_user(username="alice", password="x-long-password-1")
    bob = User.objects.create_user(username="bob", password="x-long-password-2")
    game = services.game_create(creator=alice, preset="classic", num_players=2, deal=DEAL)
    services.game_join(user=bob, game_id=game.pk)
    assert marked(page(bob, game)) == []  # no move yet

    move(game, alice, {"type": "attack", "cards": ["6S"]})
    for viewer in (alice, bob, None):  # the players and a spectator: public facts only
        assert marked(page(viewer, game)) == [("6S", "six of spades, the last move")]
    assert 'data-last-seat="0"' in page(bob, game)

    move(game, bob, {"type": "defend", "target": "6S", "card": "8S"})
    assert marked(page(alice, game)) == [("8S", "eight of spades, the last move")]

    move(game, alice, {"type": "throw", "card": "6D"})
    assert marked(page(None, game)) == [("6D", "six of diamonds, the last move")]

    move(game, bob, {"type": "take"})  # no card of its own: nothing marked
    assert marked(page(alice, game)) == []


def test_a_computer_awaited_is_thinking(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    queued: list[tuple[int, int]] = []
    # The computer's move is due but not played yet (the worker would play it after its delay).
    monkeypatch.setattr(write, "queue_bot_move", lambda game_id, version: queued.append((game_id, version)))
    alice = User.objects.create_user(username="alice", password="x-long-password-1")
    deal = {**DEAL, "first_attacker": 1}  # the computer leads
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_against_computer(
            creator=alice, level="rules", preset="classic", num_players=2, deal=deal
        )
    assert queued, "the computer's first move was queued"
    html = page(alice, game)
    computer = game.seats.get(position=1).user
    assert computer.is_bot
    assert '<p class="thinking">' in html and f"{computer.name} is thinking…" in html
    assert computer.name.endswith("(rule of thumb)") and not computer.name.startswith("Computer")
    assert re.search(r'class="opponent[^"]* thinking" data-seat="1"', html)

    game.refresh_from_db()
    assert bots.bot_play(game_id=game.pk, version=game.version)
    html = page(alice, game)  # now alice must answer: nobody is thinking
    assert "is thinking" not in html and "Your move." in html
    assert len(marked(html)) == 1  # the computer's attack, marked as the last move
