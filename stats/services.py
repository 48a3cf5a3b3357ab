"""Writes of stats and ratings: the live update when a game finishes, and the rebuild."""

from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

import durak
from games.models import Game, Seat

from .ledger import GameRecord, Ledger, game_record, new_rating, rating_scopes, stats_keys
from .models import CountedGame, PairStats, PlayerStats, Rating, RatingChange

_STATS_FIELDS = [
    "games",
    "fools",
    "draws",
    "went_out",
    "place_total",
    "current_streak",
    "best_streak",
    "last_game_at",
]
_PAIR_FIELDS = ["games", "low_fools", "high_fools", "draws", "low_ahead", "high_ahead", "last_game_at"]
_RATING_FIELDS = ["mu", "sigma", "ordinal", "games", "updated_at"]


def game_finished(*, game: Game, seats: Iterable[Seat], engine: durak.Game) -> None:
    """Count a game that has just finished: its players' stats, pair records and ratings.

    Called by the games app inside the transaction that finishes the game (the game row
    is locked there), so the numbers change if and only if the finish commits. An unrated game
    (``Game.rated`` False: an unrated tournament's) changes nothing. The rows it
    changes are locked (``select_for_update``, in primary-key order) so that two games ending
    at once for the same player add up. A game is counted once (``CountedGame``).
    """
    if engine.outcome() is None or game.finished_at is None or not game.rated:
        return
    record = game_record(
        game_id=game.pk,
        preset=game.preset,
        finished_at=game.finished_at,
        engine=engine,
        users={seat.position: seat.user_id for seat in seats},
    )
    _, created = CountedGame.objects.get_or_create(game_id=game.pk, defaults={"mode": record.mode})
    if not created:
        return
    ledger = _locked_ledger(record)
    ledger.add(record)
    PlayerStats.objects.bulk_update(ledger.player_stats.values(), _STATS_FIELDS)
    PairStats.objects.bulk_update(ledger.pairs.values(), _PAIR_FIELDS)
    Rating.objects.bulk_update(ledger.ratings.values(), _RATING_FIELDS)
    RatingChange.objects.bulk_create(ledger.changes)


def _locked_ledger(record: GameRecord) -> Ledger:
    """The rows this game changes, created if missing and locked."""
    users = record.user_ids
    keys = stats_keys(record)
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=user, scope=scope, key=key) for user in users for scope, key in keys],
        ignore_conflicts=True,
    )
    by_key = Q()
    for scope, key in keys:
        by_key |= Q(scope=scope, key=key)
    player_stats = list(
        PlayerStats.objects.select_for_update().filter(by_key, user_id__in=users).order_by("pk")
    )
    ordered = sorted(users)
    PairStats.objects.bulk_create(
        [PairStats(low_id=low, high_id=high) for i, low in enumerate(ordered) for high in ordered[i + 1 :]],
        ignore_conflicts=True,
    )
    pairs = list(
        PairStats.objects.select_for_update().filter(low_id__in=users, high_id__in=users).order_by("pk")
    )
    scopes = rating_scopes(record)
    Rating.objects.bulk_create(
        [new_rating(user, record.mode, players) for user in users for players in scopes],
        ignore_conflicts=True,
    )
    ratings = list(
        Rating.objects.select_for_update()
        .filter(user_id__in=users, mode=record.mode, players__in=scopes)
        .order_by("pk")
    )
    return Ledger(player_stats=player_stats, pairs=pairs, ratings=ratings)


def finished_game_records() -> Iterable[GameRecord]:
    """Every finished rated game's record, in the order the games finished."""
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, finished_at__isnull=False, rated=True)
        .exclude(state=None)
        .only("pk", "preset", "finished_at", "state")
        .prefetch_related("seats")
        .order_by("finished_at", "pk")
    )
    for game in games.iterator(chunk_size=500):
        assert game.state is not None and game.finished_at is not None
        yield game_record(
            game_id=game.pk,
            preset=game.preset,
            finished_at=game.finished_at,
            engine=game.engine(),
            users={seat.position: seat.user_id for seat in game.seats.all()},
        )


def computed_ledger() -> tuple[Ledger, list[CountedGame]]:
    """Everything recomputed from the finished games, nothing saved."""
    ledger = Ledger()
    counted = []
    for record in finished_game_records():
        ledger.add(record)
        counted.append(CountedGame(game_id=record.game_id, mode=record.mode))
    return ledger, counted


_TABLES: list[type[CountedGame | PlayerStats | PairStats | Rating | RatingChange]] = [
    CountedGame,
    PlayerStats,
    PairStats,
    Rating,
    RatingChange,
]


@transaction.atomic
def rebuild() -> int:
    """Throw the stats rows away and count every finished game again; returns how many.

    Takes the stats tables' locks first, so a game finishing meanwhile waits and is counted
    on top of the rebuilt rows (or is already in the games the rebuild reads).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            tables = ", ".join(model._meta.db_table for model in _TABLES)
            cursor.execute(f"LOCK TABLE {tables} IN SHARE ROW EXCLUSIVE MODE")
    for model in _TABLES:
        model.objects.all().delete()
    ledger, counted = computed_ledger()
    CountedGame.objects.bulk_create(counted, batch_size=1000)
    PlayerStats.objects.bulk_create(ledger.player_stats.values(), batch_size=1000)
    PairStats.objects.bulk_create(ledger.pairs.values(), batch_size=1000)
    Rating.objects.bulk_create(ledger.ratings.values(), batch_size=1000)
    RatingChange.objects.bulk_create(ledger.changes, batch_size=1000)
    return len(counted)


def snapshot_rows() -> dict[str, Any]:
    """The stored numbers, comparable with ``snapshot_ledger`` (for ``rebuild_stats --check``)."""
    return _snapshot(
        PlayerStats.objects.all(),
        PairStats.objects.all(),
        Rating.objects.all(),
        RatingChange.objects.order_by("at", "pk"),
    )


def snapshot_ledger(ledger: Ledger) -> dict[str, Any]:
    return _snapshot(
        ledger.player_stats.values(), ledger.pairs.values(), ledger.ratings.values(), ledger.changes
    )


def _snapshot(
    stats: Iterable[PlayerStats],
    pairs: Iterable[PairStats],
    ratings: Iterable[Rating],
    changes: Iterable[RatingChange],
) -> dict[str, Any]:
    return {
        "player_stats": {
            (row.user_id, row.scope, row.key): tuple(getattr(row, field) for field in _STATS_FIELDS)
            for row in stats
        },
        "pairs": {(row.low_id, row.high_id): tuple(getattr(row, f) for f in _PAIR_FIELDS) for row in pairs},
        "ratings": {
            (row.user_id, row.mode, row.players): (round(row.mu, 9), round(row.sigma, 9), row.games)
            for row in ratings
        },
        "history": [
            (row.user_id, row.game_id, row.mode, round(row.mu, 9), round(row.sigma, 9)) for row in changes
        ],
    }
