"""Scripted games for the stats, ratings, series and replay tests, played through the services."""

import math
from datetime import timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Seat

# Two players, clubs trump, nothing left to draw: 0 leads 6S, 1 beats it with 7S; both are out
# in the same bout: a draw.
DRAW_DEAL: dict[str, Any] = {"hands": [["6S"], ["7S"]], "stock": [], "trump": "C", "first_attacker": 0}
DRAW_MOVES: list[dict[str, Any]] = [
    {"type": "attack", "player": 0, "cards": ["6S"]},
    {"type": "defend", "player": 1, "target": "6S", "card": "7S"},
]

# Six players, clubs trump, no stock. Played out below: out in the order 0, 1, 3, 5, 2 and
# player 4, who took twice, is the fool.
SIX_DEAL: dict[str, Any] = {
    "hands": [["6S"], ["7S", "9H"], ["10D"], ["JD", "QH"], ["KS"], ["AS", "8D"]],
    "stock": [],
    "trump": "C",
    "first_attacker": 0,
}
SIX_MOVES: list[dict[str, Any]] = [
    {"type": "attack", "player": 0, "cards": ["6S"]},
    {"type": "defend", "player": 1, "target": "6S", "card": "7S"},
    {"type": "attack", "player": 1, "cards": ["9H"]},
    {"type": "take", "player": 2},
    {"type": "attack", "player": 3, "cards": ["JD"]},
    {"type": "take", "player": 4},
    {"type": "attack", "player": 5, "cards": ["AS"]},
    {"type": "take", "player": 2},
    {"type": "attack", "player": 3, "cards": ["QH"]},
    {"type": "take", "player": 4},
    {"type": "attack", "player": 5, "cards": ["8D"]},
    {"type": "defend", "player": 2, "target": "8D", "card": "10D"},
    {"type": "attack", "player": 2, "cards": ["9H"]},
    {"type": "defend", "player": 4, "target": "9H", "card": "QH"},
    {"type": "attack", "player": 4, "cards": ["KS"]},
    {"type": "defend", "player": 2, "target": "KS", "card": "AS"},
]


def play_script(game: Game, users: list[User], moves: list[dict[str, Any]]) -> Game:
    for action in moves:
        game.refresh_from_db()
        services.make_move(
            user=users[action["player"]], game_id=game.pk, action=action, expected_version=game.version
        )
    game.refresh_from_db()
    return game


def time_out(game: Game) -> Game:
    """The players the game waits for ran out of time: the first of them is the fool."""
    past = timezone.now() - timedelta(seconds=5)
    Seat.objects.filter(game=game, awaiting_move=True).update(deadline=past)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    assert services.game_timeout(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# openskill's defaults, written out: the tests recompute Plackett-Luce from the paper's formulas
# (Weng and Lin 2011, algorithm 4) rather than trusting the library for the expected numbers.
MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 0.0001, 25.0 / 300


def plackett_luce(mus: list[float], sigmas: list[float], ranks: list[int]) -> list[tuple[float, float]]:
    """One update of one-player teams, ties allowed (lower rank is better). First the dynamics
    factor tau widens every sigma (openskill's default), then the update."""
    sigmas = [math.sqrt(sigma**2 + TAU**2) for sigma in sigmas]
    c = math.sqrt(sum(sigma**2 + BETA**2 for sigma in sigmas))
    strength = [math.exp(mu / c) for mu in mus]
    n = len(mus)
    sums = [sum(strength[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    ties = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = strength[i] / sums[q]
            omega += ((1.0 if q == i else 0.0) - p) / ties[q]
            delta += p * (1 - p) / ties[q]
        gamma = sigmas[i] / c
        mu = mus[i] + sigmas[i] ** 2 / c * omega
        sigma = sigmas[i] * math.sqrt(max(1 - gamma * sigmas[i] ** 2 / c**2 * delta, KAPPA))
        out.append((mu, sigma))
    return out
