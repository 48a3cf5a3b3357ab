"""Reads for profiles, leaderboards and moderators: aggregated rows only, so a page costs the
same few queries whether a player has five games or five thousand."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    Case,
    Expression,
    ExpressionWrapper,
    F,
    FloatField,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import Cast

from accounts.models import User
from games.models import Game, Seat
from games.selectors import visible_games

from .ledger import mode_of, ordinal
from .models import Mode, PairStats, PlayerStats, Rating, RatingChange

#: Rating farming: at least this many games together ...
FARMING_MIN_GAMES = 10
#: ... with one side the fool in at least this share of them ...
FARMING_FOOL_SHARE = 0.9
#: ... and at least this many times more games together than either plays with anyone else.
FARMING_CONCENTRATION = 3.0


@dataclass(frozen=True)
class Profile:
    user: User
    overall: PlayerStats | None
    by_preset: list[PlayerStats]
    by_players: list[PlayerStats]
    ratings: list[Rating]
    history: list[RatingChange]  # newest last
    #: The user's seats in their latest finished games the viewer may see, games and seats
    #: prefetched.
    recent: list[Seat]
    in_progress: int


@dataclass(frozen=True)
class ShownRatings:
    """A player's rating in each mode as the pages show it (the conservative ``ordinal``, to
    one decimal), for a game's rating range (``games.hooks.ratings_of``, ``games.limits``).
    A mode the player has no rated game in is missing: unrated there."""

    by_mode: Mapping[str, float]

    def in_rules(self, rules: Mapping[str, Any], /) -> float | None:
        return self.by_mode.get(mode_of(rules))

    def over_games(self) -> Expression:
        # ``mode_of`` in SQL: a game is in the transfer mode when its rules say ``transfer``.
        def shown(mode: str) -> Value:
            return Value(self.by_mode.get(mode), output_field=FloatField())

        # Cast: with both NULL, PostgreSQL would take the CASE for text.
        return Cast(
            Case(
                When(rules__transfer=True, then=shown(Mode.TRANSFER)),
                default=shown(Mode.THROW_IN),
                output_field=FloatField(),
            ),
            FloatField(),
        )


def ratings_of(user_id: int, /) -> ShownRatings:
    """``user_id``'s ``ShownRatings`` (over every number of players): one query."""
    rows = Rating.objects.filter(user_id=user_id, players=0, games__gt=0).values_list("mode", "ordinal")
    return ShownRatings(by_mode={mode: round(value, 1) for mode, value in rows})


def profile(
    *, user: User, viewer: User | Any, shared_game_ids: Iterable[int], recent: int = 15, history: int = 40
) -> Profile:
    """Six queries, whatever the number of games.

    The counts, the ratings and their history include private games: they name no game. The
    list of recent games names only the games ``viewer`` may open (``games.selectors
    .visible_games``), so a private game's id, players and result stay with its players.
    """
    rows = list(PlayerStats.objects.filter(user=user).order_by("scope", "key"))
    overall = next((row for row in rows if row.scope == PlayerStats.Scope.ALL), None)
    by_players = sorted(
        (row for row in rows if row.scope == PlayerStats.Scope.PLAYERS), key=lambda row: int(row.key)
    )
    changes = list(
        RatingChange.objects.filter(user=user, players=0)
        .select_related("game")
        .order_by("-at", "-pk")[:history]
    )
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("position"))
    latest = list(
        Seat.objects.filter(
            user=user,
            game__status=Game.Status.FINISHED,
            game__in=visible_games(Game.objects.all(), user=viewer, shared_game_ids=shared_game_ids),
        )
        .select_related("game")
        .defer("game__state", "game__seed", "game__deal")
        .prefetch_related(seats)
        .order_by("-game__finished_at", "-game_id")[:recent]
    )
    return Profile(
        user=user,
        overall=overall,
        by_preset=[row for row in rows if row.scope == PlayerStats.Scope.PRESET],
        by_players=by_players,
        ratings=list(Rating.objects.filter(user=user, players=0).order_by("mode")),
        history=changes[::-1],
        recent=latest,
        in_progress=Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).count(),
    )


@dataclass(frozen=True)
class HeadToHead:
    me: User
    other: User
    games: int
    my_fools: int
    their_fools: int
    draws: int
    me_ahead: int
    them_ahead: int


def head_to_head(*, me: User, other: User) -> HeadToHead:
    """One query: the pair's row, read from ``me``'s side."""
    low, high = sorted((me, other), key=lambda user: user.pk)
    row = PairStats.objects.filter(low=low, high=high).first() or PairStats(low=low, high=high)
    mine = me.pk == low.pk
    return HeadToHead(
        me=me,
        other=other,
        games=row.games,
        my_fools=row.low_fools if mine else row.high_fools,
        their_fools=row.high_fools if mine else row.low_fools,
        draws=row.draws,
        me_ahead=row.low_ahead if mine else row.high_ahead,
        them_ahead=row.high_ahead if mine else row.low_ahead,
    )


def leaderboard(*, mode: str = Mode.THROW_IN, players: int = 0, limit: int = 100) -> QuerySet[Rating]:
    """Rated people of a mode (and number of players; 0: all), best conservative rating first;
    computer players keep ratings but are not listed."""
    return (
        Rating.objects.filter(mode=mode, players=players, games__gt=0, user__is_bot=False)
        .select_related("user")
        .order_by("-ordinal", "-games", "user_id")[:limit]
    )


def rating_uncertainty(rating: Rating) -> float:
    """The +/- shown beside the ordinal: three sigmas, the width the ordinal subtracts."""
    return rating.mu - ordinal(rating.mu, rating.sigma)


@dataclass(frozen=True)
class FarmingSuspect:
    pair: PairStats
    loser: User  # the side that is nearly always the fool
    winner: User
    fool_share: float
    next_most: int  # most games either of them played with anyone else


def farming_suspects() -> list[FarmingSuspect]:
    """Pairs who play each other far more than anyone else, with one side nearly always the fool:
    possible rating farming, for moderators. Two queries. Pairs with a computer player are left
    out: losing to a bot on purpose lifts nobody's rating but the bot's."""
    threshold = ExpressionWrapper(F("games") * FARMING_FOOL_SHARE, output_field=FloatField())
    candidates = list(
        PairStats.objects.filter(games__gte=FARMING_MIN_GAMES, low__is_bot=False, high__is_bot=False)
        .annotate(threshold=threshold)
        .filter(Q(low_fools__gte=F("threshold")) | Q(high_fools__gte=F("threshold")))
        .select_related("low", "high")
    )
    if not candidates:
        return []
    users = {row.low_id for row in candidates} | {row.high_id for row in candidates}
    others = PairStats.objects.filter(Q(low_id__in=users) | Q(high_id__in=users)).values_list(
        "low_id", "high_id", "games"
    )
    most: dict[tuple[int, int], int] = {}  # (user, excluded partner) -> most games with another
    pairs_of: dict[int, list[tuple[int, int]]] = {}
    for low, high, games in others:
        pairs_of.setdefault(low, []).append((high, games))
        pairs_of.setdefault(high, []).append((low, games))
    suspects = []
    for row in candidates:
        for user, partner in ((row.low_id, row.high_id), (row.high_id, row.low_id)):
            most[(user, partner)] = max(
                (games for other, games in pairs_of.get(user, []) if other != partner), default=0
            )
        next_most = max(most[(row.low_id, row.high_id)], most[(row.high_id, row.low_id)])
        if row.games < FARMING_CONCENTRATION * max(next_most, 1):
            continue
        low_lost = row.low_fools >= row.high_fools
        suspects.append(
            FarmingSuspect(
                pair=row,
                loser=row.low if low_lost else row.high,
                winner=row.high if low_lost else row.low,
                fool_share=(row.low_fools if low_lost else row.high_fools) / row.games,
                next_most=next_most,
            )
        )
    return sorted(suspects, key=lambda suspect: -suspect.pair.games)
