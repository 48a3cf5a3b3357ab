"""Making and playing tournaments in tests: through the services, as the site does."""

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import services as game_services
from games.models import Game, Seat
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Table, Tournament


def tournament(creator: User | None = None, **fields: Any) -> Tournament:
    """A correspondence Swiss of three rounds starting in an hour, unless ``fields`` say otherwise."""
    options: dict[str, Any] = {
        "name": "Autumn cup",
        "format": Tournament.Format.SWISS,
        "preset": "classic",
        "move_time": timedelta(days=1),
        "rounds": 3,
        "starts_at": timezone.now() + timedelta(hours=1),
    }
    options.update(fields)
    return services.tournament_create(creator=creator or UserFactory(), **options)


def with_players(t: Tournament, count: int) -> list[User]:
    users: list[User] = UserFactory.create_batch(count)
    for user in users:
        services.tournament_register(user=user, tournament_id=t.pk)
    return users


def started(t: Tournament) -> Tournament:
    """Run the start step as beat would, at the start time."""
    assert services.advance(tournament_id=t.pk, now=t.starts_at)
    t.refresh_from_db()
    return t


def later(t: Tournament) -> datetime:
    return (t.next_round_at or t.starts_at) + timedelta(seconds=1)


def round_games(t: Tournament, number: int | None = None) -> list[Game]:
    t.refresh_from_db()
    return list(
        Game.objects.filter(
            tournament_table__round__tournament=t, tournament_table__round__number=number or t.round_number
        ).order_by("tournament_table__board")
    )


def seated(game: Game) -> list[User]:
    return [seat.user for seat in Seat.objects.filter(game=game).select_related("user").order_by("position")]


def resign(game: Game, user: User) -> None:
    game_services.player_resign(user=user, game_id=game.pk)


def finish(game: Game, loser: User | None = None) -> None:
    """End ``game``: ``loser`` (seat 0 when not given) resigns, then, at a bigger table, the
    others in seat order until the engine says it is over."""
    players = seated(game)
    order = [loser or players[0]] + [user for user in players if user != (loser or players[0])]
    for user in order:
        game.refresh_from_db()
        if game.is_over:
            return
        resign(game, user)


def finish_round(t: Tournament, losers: dict[int, User] | None = None) -> None:
    for game in round_games(t):
        finish(game, (losers or {}).get(game.pk))


def tables_of(t: Tournament, number: int) -> list[tuple[int, ...]]:
    """Each table of round ``number`` as its players' user ids in seat order; a bye alone."""
    out: list[tuple[int, ...]] = []
    for table in Table.objects.filter(round__tournament=t, round__number=number).order_by("board"):
        if table.game_id is None:
            assert table.bye_id is not None
            out.append((table.bye_id,))
        else:
            out.append(
                tuple(
                    Seat.objects.filter(game_id=table.game_id)
                    .order_by("position")
                    .values_list("user_id", flat=True)
                )
            )
    return out
