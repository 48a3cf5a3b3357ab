"""The series page: every game's fool and the running count, in a fixed number of queries."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from accounts.models import User
from games.exceptions import GameNotFound
from games.models import Game, Seat
from games.selectors import visible_games

from .models import Series, SeriesGame


@dataclass
class SeriesRow:
    number: int
    game: Game
    dealer: str
    fools: list[str]
    running: list[int]  # fools so far, per player in seat order
    draw: bool


@dataclass
class SeriesTable:
    series: Series
    players: list[User]
    rows: list[SeriesRow] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    finished_games: int = 0
    winners: list[User] = field(default_factory=list)  # set once the agreed games are played
    last: SeriesGame | None = None

    @property
    def complete(self) -> bool:
        return self.finished_games >= self.series.games_agreed

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1


def series_table(*, series_id: int, viewer: User | Any, shared_game_ids: Iterable[int]) -> SeriesTable:
    """Four queries however many games: the series, its games, their seats with users.

    Only the games ``viewer`` may open are rows, counted and totalled (``games.selectors
    .visible_games``): a private game is listed to its players, not to the holder of another
    game's share link. A series with games of which the viewer may open none is missing
    (``GameNotFound``, word for word a missing series's; one more query to tell).
    """
    series = Series.objects.filter(pk=series_id).first()
    missing = GameNotFound(_("There is no series %(series)s.") % {"series": series_id})
    if series is None:
        raise missing
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("position"))
    visible = visible_games(Game.objects.all(), user=viewer, shared_game_ids=shared_game_ids)
    entries = list(
        SeriesGame.objects.filter(series=series, game__in=visible)
        .select_related("game")
        .defer("game__state", "game__seed", "game__deal")
        .prefetch_related(seats)
        .order_by("number")
    )
    if not entries and SeriesGame.objects.filter(series=series).exists():
        raise missing
    players = [seat.user for seat in entries[0].game.seats.all()] if entries else []
    table = SeriesTable(series=series, players=players, totals=[0] * len(players))
    index = {user.pk: i for i, user in enumerate(players)}
    for entry in entries:
        game = entry.game
        game_seats = list(game.seats.all())
        fools = [seat for seat in game_seats if seat.result == Seat.Result.FOOL]
        if game.status == Game.Status.FINISHED:
            table.finished_games += 1
            for seat in fools:
                table.totals[index[seat.user_id]] += 1
        dealer = next((seat.user.name for seat in game_seats if seat.position == game.dealer), "")
        table.rows.append(
            SeriesRow(
                number=entry.number,
                game=game,
                dealer=dealer,
                fools=[seat.user.name for seat in fools],
                running=list(table.totals),
                draw=game.status == Game.Status.FINISHED and not fools,
            )
        )
        table.last = entry
    if table.complete and players:
        fewest = min(table.totals)
        table.winners = [user for user, fools in zip(players, table.totals, strict=True) if fools == fewest]
    return table
