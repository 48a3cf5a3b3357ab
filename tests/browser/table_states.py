"""Table states for the browser tests, built from stacked deals and ``services.make_move`` (no
clicks): the attacker who leads, the defender of two attacks, a thrower and a spectator, each
with a given number of cards in the viewer's hand; and a page logged in as the viewer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Page

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import UserFactory

ROLES = ("attacker", "defender", "thrower", "spectator")

# Clubs are trumps throughout (the K♣ lies face up under the stock).
ATTACKER_HAND = ["6S", "7H", "8D", "9S", "10H", "JD", "QS", "KH", "AD", "6H", "7D", "8S"]
DEFENDER_HAND = ["AC", "7S", "KH", "8S", "QS", "10C", "7H", "9D", "JS", "6D", "8D", "AD"]
THROWER_HAND = ["6D", "7D", "7H", "KD", "AD", "AS", "9S", "10S", "JD", "QD", "8D", "9H"]


@dataclass
class State:
    role: str
    cards: int
    game: Game
    viewer: User

    def __str__(self) -> str:
        return f"{self.role} with {self.cards} card{'s' if self.cards > 1 else ''} (game {self.game.pk})"


def _players(count: int) -> list[User]:
    return [UserFactory() for _ in range(count)]


def _game(users: list[User], hands: list[list[str]], moves: list[tuple[int, dict[str, Any]]]) -> Game:
    """A classic game of ``users`` from a stacked deal (clubs trumps, a day a move), the
    ``moves`` made through the services."""
    game = services.game_create(
        creator=users[0],
        preset="classic",
        num_players=len(users),
        deal={"hands": hands, "stock": ["JC", "KC"], "first_attacker": 0},
        move_time=timedelta(days=1),
    )
    for user in users[1:]:
        services.game_join(user=user, game_id=game.pk)
    for seat, action in moves:
        game.refresh_from_db()
        services.make_move(user=users[seat], game_id=game.pk, action=action, expected_version=game.version)
    game.refresh_from_db()
    return game


def attacker(cards: int) -> State:
    """Two players; the viewer leads: every card of the hand may attack, the table is empty."""
    users = _players(2)
    game = _game(users, [ATTACKER_HAND[:cards], ["6C", "7C", "8C", "9C", "10C", "QC"]], [])
    return State("attacker", cards, game, users[0])


def defender(cards: int) -> State:
    """Two players; two sixes attack the viewer (one when they hold one card)."""
    users = _players(2)
    attack = ["6S", "6H"][: min(2, cards)]
    game = _game(
        users,
        [["6S", "6H", "9H", "10D", "JH", "QH"], DEFENDER_HAND[:cards]],
        [(0, {"type": "attack", "cards": attack})],
    )
    return State("defender", cards, game, users[1])


def thrower(cards: int) -> State:
    """Three players; the lead attacker played two sixes, one is beaten, the lead is done: the
    viewer, in the third seat, may throw in a six or a seven. Another game waits for the viewer's
    move, so the page shows "Next game waiting for you" above the table (the table is lower)."""
    users = _players(3)
    _game([users[2], UserFactory()], [["6S", "7S"], ["8S", "9S"]], [])
    game = _game(
        users,
        [["6S", "6H", "8C", "9C", "JH", "QH"], ["7S", "8S", "QS", "KH", "AC", "10C"], THROWER_HAND[:cards]],
        [
            (0, {"type": "attack", "cards": ["6S", "6H"]}),
            (1, {"type": "defend", "target": "6S", "card": "7S"}),
            (0, {"type": "pass"}),
        ],
    )
    return State("thrower", cards, game, users[2])


def spectator(cards: int) -> State:
    """Someone without a seat watching the thrower's game."""
    watched = thrower(cards)
    return State("spectator", cards, watched.game, UserFactory())


BUILD = {"attacker": attacker, "defender": defender, "thrower": thrower, "spectator": spectator}


def log_in(page: Page, live_server: Any, user: User, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user, backend="moderation.backends.ModelBackend")
    page.context.clear_cookies()
    page.context.add_cookies(
        [
            {"name": name, "value": value, "url": live_server.url}
            for name, value in (
                (
                    django_settings.SESSION_COOKIE_NAME,
                    client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                ),
                (django_settings.LANGUAGE_COOKIE_NAME, language),
            )
        ]
    )
