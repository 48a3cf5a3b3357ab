"""How one finished game changes the aggregated rows: the single code path that both the
live update (``services.game_finished``) and the rebuild (``services.rebuild``) go through,
so the two always give the same numbers.

Ratings: openskill's Plackett-Luce model. The ranks come from the engine's answer,
``durak.Game.outcome()``: the finishing order (the first player out ranks 1); players the game
ended for while they still held cards (a timeout, resignation or claim ended it) tie after those
who went out; the fool ranks last. In a draw everyone ties. In a team game the two teams
(``Game.team_of``) are rated as teams, the losing team ranked second.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

import durak

from .models import Mode, PairStats, PlayerStats, Rating, RatingChange

MODEL = PlackettLuce()
#: The conservative rating shown and sorted on: mu - Z * sigma.
ORDINAL_Z = 3.0


def ordinal(mu: float, sigma: float) -> float:
    return mu - ORDINAL_Z * sigma


@dataclass(frozen=True)
class SeatRecord:
    user_id: int
    position: int
    team: int | None  # the engine's ``team_of(position)``: None in a game without teams
    lost: bool  # the fool, or a player of the losing team
    draw: bool
    place: int | None  # 1 for the first out; None if the game ended while they held cards
    rank: int  # for ratings and head-to-head: lower is better, equal is a tie


@dataclass(frozen=True)
class GameRecord:
    game_id: int
    preset: str
    mode: str
    players: int
    teams: bool
    finished_at: datetime
    seats: tuple[SeatRecord, ...]

    @property
    def user_ids(self) -> list[int]:
        return [seat.user_id for seat in self.seats]


def mode_of(rules: Mapping[str, Any]) -> str:
    return Mode.TRANSFER if rules.get("transfer") else Mode.THROW_IN


def game_record(
    *, game_id: int, preset: str, finished_at: datetime, engine: durak.Game, users: Mapping[int, int]
) -> GameRecord:
    """The outcome of a finished engine game (``engine.outcome()``, ranked as the module's
    docstring says); ``users`` maps positions to user ids."""
    outcome = engine.outcome()
    assert outcome is not None, "only a finished game has a record"
    teams = engine.teams is not None
    seats = []
    for position in range(engine.players):
        lost, place = outcome.lost(position), outcome.place(position)
        if outcome.draw:
            rank = 1
        elif teams:
            rank = 2 if lost else 1
        elif lost:
            rank = engine.players + 1
        else:
            rank = len(outcome.order_out) + 1 if place is None else place
        seats.append(
            SeatRecord(
                user_id=users[position],
                position=position,
                team=engine.team_of(position),
                lost=lost,
                draw=outcome.draw,
                place=place,
                rank=rank,
            )
        )
    return GameRecord(
        game_id=game_id,
        preset=preset,
        mode=mode_of(engine.rules.to_dict()),
        players=engine.players,
        teams=teams,
        finished_at=finished_at,
        seats=tuple(seats),
    )


def stats_keys(record: GameRecord) -> list[tuple[str, str]]:
    return [
        (PlayerStats.Scope.ALL, ""),
        (PlayerStats.Scope.PRESET, record.preset),
        (PlayerStats.Scope.PLAYERS, str(record.players)),
    ]


def rating_scopes(record: GameRecord) -> list[int]:
    """Rated over every number of players (0) and over games of this size."""
    return [0, record.players]


def new_rating(user_id: int, mode: str, players: int) -> Rating:
    fresh = MODEL.rating()
    return Rating(
        user_id=user_id,
        mode=mode,
        players=players,
        mu=fresh.mu,
        sigma=fresh.sigma,
        ordinal=ordinal(fresh.mu, fresh.sigma),
        games=0,
    )


class Ledger:
    """The rows a run of games touches, in memory. Rows missing from the maps are created
    (unsaved) on first use."""

    def __init__(
        self,
        *,
        player_stats: Iterable[PlayerStats] = (),
        pairs: Iterable[PairStats] = (),
        ratings: Iterable[Rating] = (),
    ) -> None:
        self.player_stats = {(row.user_id, row.scope, row.key): row for row in player_stats}
        self.pairs = {(row.low_id, row.high_id): row for row in pairs}
        self.ratings = {(row.user_id, row.mode, row.players): row for row in ratings}
        self.changes: list[RatingChange] = []

    def add(self, record: GameRecord) -> None:
        self._add_player_stats(record)
        self._add_pairs(record)
        self._add_ratings(record)

    def _add_player_stats(self, record: GameRecord) -> None:
        for seat in record.seats:
            for scope, key in stats_keys(record):
                row = self.player_stats.get((seat.user_id, scope, key))
                if row is None:
                    row = PlayerStats(user_id=seat.user_id, scope=scope, key=key)
                    self.player_stats[(seat.user_id, scope, key)] = row
                row.games += 1
                row.fools += seat.lost
                row.draws += seat.draw
                if seat.place is not None:
                    row.went_out += 1
                    row.place_total += seat.place
                row.current_streak = 0 if seat.lost else row.current_streak + 1
                row.best_streak = max(row.best_streak, row.current_streak)
                row.last_game_at = record.finished_at

    def _add_pairs(self, record: GameRecord) -> None:
        for first, second in combinations(record.seats, 2):
            low, high = sorted((first, second), key=lambda seat: seat.user_id)
            row = self.pairs.get((low.user_id, high.user_id))
            if row is None:
                row = PairStats(low_id=low.user_id, high_id=high.user_id)
                self.pairs[(low.user_id, high.user_id)] = row
            row.games += 1
            row.low_fools += low.lost
            row.high_fools += high.lost
            row.draws += low.draw
            row.low_ahead += low.rank < high.rank
            row.high_ahead += high.rank < low.rank
            row.last_game_at = record.finished_at

    def _add_ratings(self, record: GameRecord) -> None:
        for players in rating_scopes(record):
            rows = []
            for seat in record.seats:
                key = (seat.user_id, record.mode, players)
                if key not in self.ratings:
                    self.ratings[key] = new_rating(seat.user_id, record.mode, players)
                rows.append(self.ratings[key])
            current = [MODEL.rating(mu=row.mu, sigma=row.sigma) for row in rows]
            if record.teams:
                by_team: dict[int, list[int]] = {}
                for index, seat in enumerate(record.seats):
                    assert seat.team is not None
                    by_team.setdefault(seat.team, []).append(index)
                sides = [by_team[team] for team in sorted(by_team)]
                teams = [[current[index] for index in side] for side in sides]
                ranks = [float(record.seats[side[0]].rank) for side in sides]
                rated = MODEL.rate(teams, ranks=ranks)
                by_index = {
                    index: rating
                    for side, team in zip(sides, rated, strict=True)
                    for index, rating in zip(side, team, strict=True)
                }
                updated = [by_index[index] for index in range(len(rows))]
            else:
                rated = MODEL.rate(
                    [[rating] for rating in current], ranks=[float(seat.rank) for seat in record.seats]
                )
                updated = [team[0] for team in rated]
            for row, rating, seat in zip(rows, updated, record.seats, strict=True):
                before = row.ordinal
                row.mu, row.sigma = rating.mu, rating.sigma
                row.ordinal = ordinal(rating.mu, rating.sigma)
                row.games += 1
                row.updated_at = record.finished_at
                if players == 0:
                    self.changes.append(
                        RatingChange(
                            user_id=seat.user_id,
                            game_id=record.game_id,
                            mode=record.mode,
                            players=0,
                            mu=row.mu,
                            sigma=row.sigma,
                            ordinal=row.ordinal,
                            delta=row.ordinal - before,
                            at=record.finished_at,
                        )
                    )
