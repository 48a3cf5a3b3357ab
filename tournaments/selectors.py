"""Reads of the tournaments' pages: a flat number of queries whatever the number of players,
rounds and tournaments.

What a result is worth and how players rank is ``services``' (``history_of``,
``standings_rows``) and ``pairing``'s; this only reads the rows once and hands them over. A
table's game shows its players, their results and a link for whoever may see it
(``games.selectors.game_visible_to``): never anything of its cards.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.db.models import Count, Prefetch, QuerySet, prefetch_related_objects
from django.utils import timezone

from accounts.models import User
from games import selectors as game_selectors
from games.models import Game, Seat

from . import pairing, services
from .models import Player, Round, Table, Tournament

#: How long a finished tournament stays on the list of tournaments.
RECENT = timedelta(days=30)
#: The most tournaments each part of the list shows.
LIST_LIMIT = 50


@dataclass(frozen=True)
class TournamentList:
    upcoming: list[Tournament]
    running: list[Tournament]
    finished: list[Tournament]


def _listed() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("creator").annotate(registered=Count("players"))


def tournament_list(*, now: datetime | None = None) -> TournamentList:
    """Tournaments open for registration (the soonest first), under way, and finished or
    cancelled in the last ``RECENT``: three queries, however many there are; each tournament
    comes with ``registered``, its number of registrations."""
    now = now or timezone.now()
    upcoming = list(
        _listed().filter(status=Tournament.Status.REGISTRATION).order_by("starts_at", "pk")[:LIST_LIMIT]
    )
    running = list(
        _listed().filter(status=Tournament.Status.RUNNING).order_by("starts_at", "pk")[:LIST_LIMIT]
    )
    finished = list(
        _listed()
        .filter(
            status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED],
            finished_at__gte=now - RECENT,
        )
        .order_by("-finished_at", "-pk")[:LIST_LIMIT]
    )
    return TournamentList(upcoming=upcoming, running=running, finished=finished)


@dataclass(frozen=True)
class Place:
    """One player at one table: their result there ("" while the game runs)."""

    user: User
    result: str  # a Seat.Result value, or ""
    place: int | None
    #: What the table gave them toward the standings (None while the game runs).
    points: Fraction | None


@dataclass(frozen=True)
class TableLine:
    board: int
    game: Game | None
    #: Whether the reader may open the game's page.
    game_link: bool
    places: list[Place]
    bye: User | None

    @property
    def running(self) -> bool:
        return self.game is not None and self.game.status in {Game.Status.OPEN, Game.Status.ACTIVE}


@dataclass(frozen=True)
class RoundLine:
    number: int
    ends_at: datetime | None
    tables: list[TableLine]


@dataclass(frozen=True)
class StandingLine:
    rank: int
    user: User
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    games: int
    withdrawn: str  # a Player.Withdrawn value


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    players: list[Player]
    me: Player | None
    standings: list[StandingLine]
    rounds: list[RoundLine] = field(default_factory=list)

    @property
    def registered(self) -> int:
        return sum(1 for player in self.players if not player.withdrawn)


def tournament_get(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("creator").filter(pk=tournament_id).first()


def tournament_page(
    *, tournament: Tournament, viewer: User | Any, shared_game_ids: Any = ()
) -> TournamentPage:
    """Everything the tournament's page shows: its players, standings and every round's tables.

    Four queries whatever the number of players and rounds (players with their users; tables
    with their rounds and games; the games' seats; the games' invitations, which say with the
    seats who may open a private game), and none for a tournament with no round yet."""
    players = list(
        Player.objects.filter(tournament=tournament).select_related("user").order_by("registered_at", "pk")
    )
    users = {player.user_id: player.user for player in players}
    me = next((player for player in players if player.user_id == getattr(viewer, "pk", None)), None)
    tables: list[Table] = []
    seats_of: defaultdict[int, list[Seat]] = defaultdict(list)
    if tournament.round_number:
        tables = list(
            Table.objects.filter(round__tournament=tournament)
            .select_related("round", "game")
            .only(
                "board",
                "bye_id",
                "round__number",
                "round__ends_at",
                "game__status",
                "game__private",
                "game__creator_id",
                "game__num_players",
                "game__finished_at",
            )
            .order_by("round__number", "board")
        )
        games = [table.game for table in tables if table.game is not None]
        seats = Seat.objects.filter(game__in=games).only("game_id", "user_id", "position", "result", "place")
        prefetch_related_objects(games, Prefetch("seats", queryset=seats.order_by("position")), "invitations")
        for game in games:
            seats_of[game.pk] = list(game.seats.all())
    history = services.history_of(tables, seats_of)
    rows = services.standings_rows(
        tournament, history=history, player_ids=[player.user_id for player in players]
    )
    withdrawn = {player.user_id: player.withdrawn for player in players}
    standings = [
        StandingLine(
            rank=row.rank,
            user=users[row.player],
            points=row.points,
            buchholz=row.buchholz,
            sonneborn_berger=row.sonneborn_berger,
            games=row.games,
            withdrawn=withdrawn.get(row.player, ""),
        )
        for row in rows
        if row.player in users
    ]
    points = services.place_points(tournament)
    rounds: dict[int, RoundLine] = {}
    for table in tables:
        round_: Round = table.round
        line = rounds.setdefault(
            round_.number, RoundLine(number=round_.number, ends_at=round_.ends_at, tables=[])
        )
        if table.game is None:
            line.tables.append(
                TableLine(
                    board=table.board, game=None, game_link=False, places=[], bye=users.get(table.bye_id or 0)
                )
            )
            continue
        game = table.game
        game_seats = seats_of[game.pk]
        scored = _points_at_table(services.result_of(game.status, game_seats), points)
        line.tables.append(
            TableLine(
                board=table.board,
                game=game,
                game_link=game_selectors.game_visible_to(
                    game=game, user=viewer, shared_game_ids=shared_game_ids
                ),
                places=[
                    Place(
                        user=users[seat.user_id],
                        result=seat.result,
                        place=seat.place,
                        points=scored.get(seat.user_id) if scored is not None else None,
                    )
                    for seat in game_seats
                    if seat.user_id in users
                ],
                bye=None,
            )
        )
    return TournamentPage(
        tournament=tournament,
        players=players,
        me=me,
        standings=standings,
        rounds=sorted(rounds.values(), key=lambda line: -line.number),
    )


def _points_at_table(
    result: pairing.GameResult[int] | pairing.TableResult[int] | None,
    place_points: dict[int, list[Fraction]] | None,
) -> dict[int, Fraction] | None:
    """What each player of a finished game scored there (the standings' own counting, one
    table at a time); None while it runs."""
    if result is None:
        return None
    rows = pairing.standings([result], result.players, place_points=place_points)
    return {row.player: row.points for row in rows}


def podium_of(user: User) -> list[Player]:
    """The user's first, second and third places in finished tournaments, newest first, each
    with its tournament: one query (the index ``tournament_podium_idx``)."""
    return list(
        Player.objects.filter(user=user, final_rank__lte=3, tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .only("final_rank", "tournament__name", "tournament__finished_at", "tournament__status")
        .order_by("-tournament__finished_at", "-tournament_id")[:20]
    )
