"""The lobby (with the player's games), "my games" through the API, a profile, the table poll
and the timeout sweep cost the same number of queries whatever the number of games: they
filter and prefetch, never loop over games (benchmarks/scale.py measures their time with
100,000 games).

Compared: a player with one game of each kind, and the same player with 50 finished and 20
running games more. A player with no game at all costs at most as many (a list that comes back
empty skips its prefetch queries).
"""

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import services, tasks
from games.models import Game, Move, Seat
from stats.models import CountedGame, RatingChange
from tests.factories import PASSWORD, SHORT_DEAL, play_moves

pytestmark = pytest.mark.django_db


def player(name: str) -> User:
    return User.objects.create_user(username=name, email=f"{name}@example.com", password=PASSWORD)


def open_game() -> None:
    """An open game in the lobby, of its own creator."""
    services.game_create(creator=player(f"host{Game.objects.count()}"), preset="classic", num_players=2)


def clone(game: Game, count: int, me: User, opponents: list[User]) -> None:
    """``count`` copies of ``game`` (row, seats, move log, rating history, counted row), ``me``
    keeping their seat and the other seat going to each opponent in turn."""
    seats = list(game.seats.all())
    moves = list(game.moves.all())
    changes = list(RatingChange.objects.filter(game=game))
    counted = CountedGame.objects.filter(game=game).first()
    for n in range(count):
        opponent = opponents[n % len(opponents)]
        copy = Game.objects.get(pk=game.pk)
        copy.pk = None
        copy.invite_token = f"copy-{game.pk}-{n}"
        copy.save()

        def who(user_id: int, opponent: User = opponent) -> int:
            return user_id if user_id == me.pk else opponent.pk

        Seat.objects.bulk_create(
            Seat(
                game=copy,
                user_id=who(seat.user_id),
                position=seat.position,
                awaiting_move=seat.awaiting_move,
                result=seat.result,
                place=seat.place,
                turn_started_at=seat.turn_started_at,
                deadline=seat.deadline,
                warn_at=seat.warn_at,
            )
            for seat in seats
        )
        Move.objects.bulk_create(
            Move(game=copy, seq=move.seq, position=move.position, action=move.action, events=move.events)
            for move in moves
        )
        RatingChange.objects.bulk_create(
            RatingChange(
                user_id=who(change.user_id),
                game=copy,
                mode=change.mode,
                players=change.players,
                mu=change.mu,
                sigma=change.sigma,
                ordinal=change.ordinal,
                delta=change.delta,
                at=change.at,
            )
            for change in changes
        )
        if counted is not None:
            CountedGame.objects.create(game=copy, mode=counted.mode)


def query_counts(client: Client, me: User, active: Game) -> dict[str, int]:
    client.force_login(me)
    cache.clear()  # every run's poll marks the seat seen (at most every 30 s per browser)
    # Seen just now: presence (accounts.presence) writes at most once a minute, and not in a run.
    User.objects.filter(pk=me.pk).update(last_active_at=timezone.now())
    pages = {
        "lobby": ("/", 200, {}),
        "my games (API)": ("/api/games/?mine=true", 200, {}),
        "profile": (f"/players/{me.username}/", 200, {}),
        "poll, unchanged": (
            f"/games/{active.pk}/poll/?version={active.version}",
            204,
            {"HX-Request": "true"},
        ),
        "poll, changed": (f"/games/{active.pk}/poll/?version=0", 200, {"HX-Request": "true"}),
    }
    counts = {}
    for label, (url, status, headers) in pages.items():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, headers=headers)
        assert response.status_code == status, (label, response.status_code)
        counts[label] = len(queries)
    with CaptureQueriesContext(connection) as queries:
        tasks.sweep_deadlines()
    counts["timeout sweep"] = len(queries)
    return counts


def test_pages_poll_and_sweep_cost_the_same_queries_with_one_game_and_with_seventy(client: Client) -> None:
    me, you = player("me"), player("you")
    finished = services.game_create(creator=me, preset="classic", num_players=2, deal=SHORT_DEAL)
    services.game_join(user=you, game_id=finished.pk)
    finished = play_moves(finished, [me, you], 10)
    assert finished.status == Game.Status.FINISHED
    active = services.game_create(creator=me, preset="classic", num_players=2, move_time=timedelta(days=1))
    services.game_join(user=you, game_id=active.pk)
    active.refresh_from_db()
    open_game()

    nobody = player("nobody")
    none = query_counts(Client(), nobody, active)
    few = query_counts(client, me, active)

    opponents = [player(f"opponent{n}") for n in range(5)]
    clone(finished, 50, me, opponents)
    clone(active, 20, me, opponents)
    for _ in range(3):
        open_game()
    assert Seat.objects.filter(user=me, game__status=Game.Status.FINISHED).count() == 51
    assert Seat.objects.filter(user=me, game__status=Game.Status.ACTIVE).count() == 21
    many = query_counts(client, me, active)

    assert many == few
    assert all(none[label] <= few[label] for label in few), (none, few)


def test_healthz_answers_ok_without_a_query(client: Client, django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
