"""The series page (every game's fool and the running count, in a fixed number of queries) and a
finished game's offer of a rematch."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.relations import blocked_pairs
from games.exceptions import GameNotFound
from games.models import Game, Seat
from games.selectors import visible_games

from .models import RematchOffer, Series, SeriesGame


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


# --- A rematch by consent ---------------------------------------------------------------------


@dataclass
class RematchAnswer:
    user: User
    accepted: bool


@dataclass
class RematchState:
    """A finished game's offer of a rematch as its players' pages and the API show it: the
    latest offer (open, accepted, declined or expired), each player's answer, and what the
    viewer may do. Names and answers only: nothing of any game's cards."""

    game: Game
    offer: RematchOffer | None
    answers: list[RematchAnswer]
    expired: bool
    #: The series the next game belongs to when it goes on (its length agreed already).
    series_games: int | None
    next_number: int | None
    #: A next game started without an offer (a series' page before offers existed, tests).
    next_game_id: int | None
    viewer_id: int | None
    #: A block keeps two of its players apart: no next game (``series.services``), none offered.
    kept_apart: bool = False

    @property
    def status(self) -> str:
        """``none``, ``open``, ``accepted``, ``declined`` or ``expired``."""
        if self.offer is None:
            return "accepted" if self.next_game_id else "none"
        if self.expired:
            return RematchOffer.Status.EXPIRED
        return str(self.offer.status)

    @property
    def seated(self) -> bool:
        return any(answer.user.pk == self.viewer_id for answer in self.answers)

    @property
    def can_offer(self) -> bool:
        return self.seated and not self.kept_apart and self.status in ("none", "declined", "expired")

    @property
    def viewer_accepted(self) -> bool:
        return any(answer.user.pk == self.viewer_id and answer.accepted for answer in self.answers)

    @property
    def can_answer(self) -> bool:
        return self.seated and not self.kept_apart and self.status == "open" and not self.viewer_accepted

    @property
    def can_withdraw(self) -> bool:
        return self.seated and self.status == "open" and self.viewer_accepted

    @property
    def waiting_for(self) -> list[User]:
        return [answer.user for answer in self.answers if not answer.accepted]

    @property
    def token(self) -> str:
        """Changes whenever what the page shows changes: the poll answers 204 while it is the same."""
        accepted = sum(answer.accepted for answer in self.answers)
        offer = self.offer.pk if self.offer else 0
        return f"{offer}-{self.status}-{accepted}-{self.next_game_id or 0}"


def rematch_state(*, game: Game, viewer: User | Any) -> RematchState:
    """The rematch of the finished ``game`` as ``viewer`` sees it. Four queries: the latest
    offer with its acceptances, the seats with their users, the series entry, its next game;
    and for a player of it, one more: whether a block keeps two of the players apart."""
    offer = (
        RematchOffer.objects.filter(game=game)
        .select_related("offered_by", "decided_by")
        .prefetch_related("acceptances")
        .first()
    )
    seats = list(game.seats.select_related("user").order_by("position"))
    accepted = {row.user_id for row in offer.acceptances.all()} if offer else set()
    answers = [RematchAnswer(user=seat.user, accepted=seat.user_id in accepted) for seat in seats]
    entry = SeriesGame.objects.select_related("series").filter(game=game).first()
    series_games = next_number = next_game_id = None
    if entry is not None:
        if entry.number < entry.series.games_agreed:
            series_games, next_number = entry.series.games_agreed, entry.number + 1
        following = SeriesGame.objects.filter(series_id=entry.series_id, number=entry.number + 1).first()
        next_game_id = following.game_id if following else None
    if offer is not None and offer.next_game_id:
        next_game_id = offer.next_game_id
    expired = bool(
        offer is not None and offer.status == RematchOffer.Status.OPEN and offer.expires_at <= timezone.now()
    ) or bool(offer is not None and offer.status == RematchOffer.Status.EXPIRED)
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None
    seated_ids = [seat.user_id for seat in seats]
    kept_apart = viewer_id in seated_ids and bool(blocked_pairs(seated_ids))
    return RematchState(
        game=game,
        kept_apart=kept_apart,
        offer=offer,
        answers=answers,
        expired=expired,
        series_games=series_games,
        next_number=next_number,
        next_game_id=next_game_id,
        viewer_id=getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) else None,
    )
