"""The series page: every game's fool and the running count, in a fixed number of queries."""

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from accounts.models import User
from games.exceptions import GameNotFound
from games.models import Game, Seat

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


def series_table(*, series_id: int) -> SeriesTable:
    """Four queries however many games: the series, its games, their seats with users."""
    series = Series.objects.filter(pk=series_id).first()
    if series is None:
        raise GameNotFound(_("There is no series %(series)s.") % {"series": series_id})
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("position"))
    entries = list(
        SeriesGame.objects.filter(series=series)
        .select_related("game")
        .defer("game__state", "game__seed", "game__deal")
        .prefetch_related(seats)
        .order_by("number")
    )
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
