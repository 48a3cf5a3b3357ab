"""Tournaments: create, register, withdraw, and run them (start, next round, finish).

Who meets whom and the standings are ``tournaments.pairing``'s (pure); a round's games are
ordinary games, made by ``games.services.game_seated`` (the one write path every game takes:
clocks, timeouts, notifications, history and moderation apply as to any other game).

Running a tournament is one idempotent step, :func:`advance`: it locks the tournament's row and
does what is due (start, open the next round, finish), or nothing. The beat task
(``tournaments.tasks.sweep_tournaments``) calls it for every tournament that may be due, and a
game of a tournament ending queues it for that tournament after its commit. Two beat processes,
a retried task and a worker killed halfway all end in the same state: the row lock serialises
them, the round's unique number refuses a double round, and a transaction cut short rolls back
whole, to be done again by the next sweep.

Lock order: a tournament's row, then the rows of the games it creates (new rows). Nothing that
holds a game's lock waits for a tournament's: the end of a game only queues the step, and a
withdrawal resigns the player's game after its own commit.
"""

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import durak
from accounts import relations
from accounts.models import User
from durak_site import live
from durak_site.celery import app, publish_on_commit
from durak_site.engine_text import engine_message
from games import bots, limits
from games import services as game_services
from games.exceptions import GameError, InvalidRules, NotAllowed, WrongStatus
from games.models import Game, Seat
from stats.selectors import ratings_of

from . import pairing, signals
from .models import CORRESPONDENCE_FROM, Player, Round, Table, Tournament

logger = logging.getLogger(__name__)

#: The most rounds a Swiss or table-round tournament may have.
MAX_ROUNDS = 20
#: Round robin: each pair once, so at most this many players.
ROUND_ROBIN_MAX_PLAYERS = 10
#: The most players any tournament may take.
MAX_PLAYERS = 1024
#: The registered players are told this long before registration closes.
CLOSING_NOTICE = timedelta(hours=1)
#: How far ahead a tournament may start.
MAX_LEAD = timedelta(days=90)
#: Players who time out of this many games of a tournament in a row are withdrawn.
TIMEOUTS_IN_A_ROW = 2

#: ``tournaments.tasks.advance_tournament``, queued by name (the task calls these services).
ADVANCE = "tournaments.tasks.advance_tournament"


def min_round_time() -> timedelta:
    """The shortest scheduled round of a live tournament (``TOURNAMENT_MIN_ROUND_SECONDS``)."""
    return timedelta(seconds=settings.TOURNAMENT_MIN_ROUND_SECONDS)


class TournamentError(GameError):
    """A refusal of a tournament's service; ``status_code`` as the games' errors."""


# --- Creating ---------------------------------------------------------------------------------


def players_bounds(format: str, table_size: int) -> tuple[int, int]:
    """The fewest and the most players a tournament of ``format`` may start with."""
    if format == Tournament.Format.ROUND_ROBIN:
        return 3, ROUND_ROBIN_MAX_PLAYERS
    if format == Tournament.Format.TABLES:
        return table_size, MAX_PLAYERS
    return 2, MAX_PLAYERS


@transaction.atomic
def tournament_create(
    *,
    creator: User,
    name: str,
    format: str,
    preset: str,
    overrides: Mapping[str, Any] | None = None,
    table_size: int = 2,
    scoring: str = Tournament.Scoring.NOT_FOOL,
    move_time: timedelta,
    round_time: timedelta | None = None,
    rounds: int | None = None,
    max_players: int | None = None,
    registration_opens_at: datetime | None = None,
    starts_at: datetime,
    rating_min: int | None = None,
    rating_max: int | None = None,
    min_reliability: int | None = None,
    rated: bool = True,
    description: str = "",
    now: datetime | None = None,
) -> Tournament:
    """Announce a tournament; ``InvalidRules`` with the first thing wrong, nothing written.

    Swiss and round robin are two-player games (``table_size`` 2); table rounds seat 3 to 6.
    A live tournament (``move_time`` under an hour) needs ``round_time``, its rounds' scheduled
    length; a correspondence one has none (a round ends with its last game). Round robin plays
    every pair once: its number of rounds follows from its players at the start. Registration
    opens at ``registration_opens_at`` (now if not given or already past) and closes at
    ``starts_at``.
    """
    now = now or timezone.now()
    name = name.strip()
    if not name:
        raise InvalidRules(_("A tournament needs a name."))
    if format not in Tournament.Format.values:
        raise InvalidRules(_("Unknown tournament format %(name)r.") % {"name": format})
    if format == Tournament.Format.TABLES:
        if not pairing.MIN_TABLE <= table_size <= pairing.MAX_TABLE:
            raise InvalidRules(
                _("A table round seats %(low)s to %(high)s players a game.")
                % {"low": pairing.MIN_TABLE, "high": pairing.MAX_TABLE}
            )
    else:
        table_size = 2
    if scoring not in Tournament.Scoring.values:
        raise InvalidRules(_("Unknown scoring %(name)r.") % {"name": scoring})
    rules = game_services.build_rules(preset=preset, overrides=overrides)
    try:
        rules.validate_players(table_size)
    except durak.DurakError as error:
        raise InvalidRules(engine_message(error)) from None
    except ValueError as error:
        raise InvalidRules(str(error)) from None
    if not game_services.MIN_MOVE_TIME <= move_time <= game_services.MAX_MOVE_TIME:
        raise InvalidRules(_("The time for a move must be between one second and thirty days."))
    live_ = move_time < CORRESPONDENCE_FROM
    if live_:
        if round_time is None or round_time < min_round_time():
            shortest = settings.TOURNAMENT_MIN_ROUND_SECONDS
            raise InvalidRules(
                ngettext(
                    "A live tournament needs a round time of at least %(seconds)s second.",
                    "A live tournament needs a round time of at least %(seconds)s seconds.",
                    shortest,
                )
                % {"seconds": shortest}
            )
        if round_time > timedelta(days=1):
            raise InvalidRules(_("A live tournament's rounds last a day at most."))
    else:
        round_time = None
    low, high = players_bounds(format, table_size)
    if format == Tournament.Format.ROUND_ROBIN:
        rounds = ROUND_ROBIN_MAX_PLAYERS - 1  # set from the players at the start
    elif rounds is None or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidRules(_("A tournament has 1 to %(most)s rounds.") % {"most": MAX_ROUNDS})
    max_players = high if max_players is None else max_players
    if not low <= max_players <= high:
        raise InvalidRules(_("This format takes %(low)s to %(high)s players.") % {"low": low, "high": high})
    # An opening already past is an opening now: no moment before the announcement is stored.
    opens = max(registration_opens_at or now, now)
    if starts_at <= now:
        raise InvalidRules(_("A tournament must start in the future."))
    if starts_at > now + MAX_LEAD:
        raise InvalidRules(_("A tournament starts within 90 days."))
    if opens > starts_at:
        raise InvalidRules(_("Registration must open before the tournament starts."))
    wrong = limits.limits_errors(
        min_reliability=min_reliability, rating_min=rating_min, rating_max=rating_max
    )
    if wrong:
        raise InvalidRules(next(iter(wrong.values())))
    tournament = Tournament.objects.create(
        name=name[:80],
        description=description.strip()[:1000],
        creator=creator,
        format=format,
        preset=preset,
        rule_overrides=dict(overrides or {}),
        rules=rules.to_dict(),
        table_size=table_size,
        scoring=scoring,
        move_time=move_time,
        round_time=round_time,
        rounds=rounds,
        max_players=max_players,
        registration_opens_at=opens,
        starts_at=starts_at,
        rating_min=rating_min,
        rating_max=rating_max,
        min_reliability=min_reliability,
        rated=rated,
    )
    _changed(tournament)
    return tournament


def lock(tournament_id: int) -> Tournament:
    """The tournament's row, locked to the end of the transaction (``TournamentError`` 404)."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",), no_key=True).filter(pk=tournament_id).first()
    )
    if tournament is None:
        error = TournamentError(_("There is no tournament %(number)s.") % {"number": tournament_id})
        error.status_code = 404
        raise error
    return tournament


# --- Registering ------------------------------------------------------------------------------


def registration_refusal(tournament: Tournament, user: User, *, now: datetime | None = None) -> str | None:
    """Why ``user`` may not register now (a sentence), or None. Reads the user's ratings only
    when the tournament has a rating range, and the creator's block in one query."""
    now = now or timezone.now()
    if tournament.status != Tournament.Status.REGISTRATION or now >= tournament.starts_at:
        return _("Registration for this tournament has closed.")
    if now < tournament.registration_opens_at:
        return _("Registration for this tournament has not opened yet.")
    if user.is_bot:
        return None  # seated by the creator (tournament_add_computer)
    if relations.blocks_between(user, [tournament.creator_id]):
        return _("You cannot register for this tournament.")
    if tournament.min_reliability is not None:
        reliability = user.reliability
        if reliability is None or reliability < tournament.min_reliability:
            return _("Only players with a reliability of at least %(minimum)s%% can register.") % {
                "minimum": tournament.min_reliability
            }
    if tournament.rating_min is not None or tournament.rating_max is not None:
        rating = ratings_of(user.pk).in_rules(tournament.rules)
        if rating is None:
            return _("Only rated players can register: play a rated game of this kind first.")
        if (tournament.rating_min is not None and rating < tournament.rating_min) or (
            tournament.rating_max is not None and rating > tournament.rating_max
        ):
            return _("Only players rated %(range)s can register; yours is %(yours)s.") % {
                "range": limits.rating_range_words(tournament.rating_min, tournament.rating_max),
                "yours": f"{rating:.0f}",
            }
    return None


def may_unregister(tournament: Tournament, player: Player | None) -> bool:
    """Whether this registration may be taken back (before the start only)."""
    return player is not None and tournament.status == Tournament.Status.REGISTRATION


def may_withdraw(tournament: Tournament, player: Player | None) -> bool:
    """Whether this player may withdraw now: the tournament under way, and still in it."""
    return player is not None and tournament.status == Tournament.Status.RUNNING and not player.withdrawn


def may_cancel(tournament: Tournament, user: User | Any) -> bool:
    """Whether ``user`` may call the tournament off: its creator or a moderator, before the start."""
    return (
        bool(getattr(user, "is_authenticated", False))
        and (user.pk == tournament.creator_id or user.is_staff)
        and tournament.status == Tournament.Status.REGISTRATION
    )


def may_add_computer(tournament: Tournament, user: User | Any) -> bool:
    """Whether ``user`` may seat a computer player now: the creator of a tournament that is not
    rated, while registration is open."""
    return (
        bool(getattr(user, "is_authenticated", False))
        and user.pk == tournament.creator_id
        and not tournament.rated
        and registration_refusal(tournament, User(is_bot=True)) is None
    )


@transaction.atomic
def tournament_register(*, user: User, tournament_id: int, now: datetime | None = None) -> Player:
    """Register ``user``; a second registration gets the first one's row, nothing written.
    ``NotAllowed`` with the reason (``registration_refusal``), ``WrongStatus`` when it is full."""
    tournament = lock(tournament_id)
    existing = Player.objects.filter(tournament=tournament, user=user).first()
    if existing is not None:
        return existing
    refusal = registration_refusal(tournament, user, now=now)
    if refusal is not None:
        raise NotAllowed(refusal)
    if Player.objects.filter(tournament=tournament).count() >= tournament.max_players:
        raise WrongStatus(_("This tournament is full."))
    player = Player.objects.create(tournament=tournament, user=user)
    _changed(tournament)
    return player


@transaction.atomic
def tournament_add_computer(*, user: User, tournament_id: int, level: str) -> Player:
    """The creator seats a computer player of ``level`` (a new one each time) in a tournament
    that is not rated (computers have no rating to win or lose)."""
    tournament = lock(tournament_id)
    if user.pk != tournament.creator_id:
        raise NotAllowed(_("Only the tournament's creator can seat computer players."))
    if tournament.rated:
        raise NotAllowed(_("Computer players play only in tournaments that are not rated."))
    refusal = registration_refusal(tournament, User(is_bot=True))
    if refusal is not None:
        raise NotAllowed(refusal)
    seated = set(Player.objects.filter(tournament=tournament).values_list("user_id", flat=True))
    if len(seated) >= tournament.max_players:
        raise WrongStatus(_("This tournament is full."))
    number = 1
    while True:
        bot = bots.bot_account(level=level, number=number)
        if bot.pk not in seated:
            break
        number += 1
    player = Player.objects.create(tournament=tournament, user=bot)
    _changed(tournament)
    return player


@transaction.atomic
def tournament_unregister(*, user: User, tournament_id: int) -> None:
    """Leave a tournament before it starts (nothing happens if not registered)."""
    tournament = lock(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise WrongStatus(_("The tournament has started: withdraw instead."))
    if Player.objects.filter(tournament=tournament, user=user).delete()[0]:
        _changed(tournament)


def tournament_withdraw(*, user: User, tournament_id: int) -> Player:
    """Withdraw from a running tournament: not paired again; a game of it still running is
    resigned (the resign rule of its rules), after the withdrawal's own commit. Before the
    start, the registration is simply removed (``tournament_unregister``)."""
    with transaction.atomic():
        tournament = lock(tournament_id)
        player = Player.objects.filter(tournament=tournament, user=user).first()
        if player is None:
            raise NotAllowed(_("You are not playing in this tournament."))
        if tournament.status == Tournament.Status.REGISTRATION:
            player.delete()
            _changed(tournament)
            return player
        if tournament.is_over:
            raise WrongStatus(_("This tournament is over."))
        if not player.withdrawn:
            player.withdrawn = Player.Withdrawn.BY_PLAYER
            player.withdrawn_at = timezone.now()
            player.save(update_fields=["withdrawn", "withdrawn_at"])
            _changed(tournament)
    resign_running_games(tournament_id=tournament_id, user_ids=[user.pk])
    return player


def resign_running_games(*, tournament_id: int, user_ids: Iterable[int]) -> None:
    """Resign the running games of the tournament these players sit in (each in its own
    transaction: a game's lock is never taken under the tournament's)."""
    running = Seat.objects.filter(
        user_id__in=list(user_ids),
        game__tournament_table__round__tournament_id=tournament_id,
        game__status=Game.Status.ACTIVE,
    ).select_related("user")
    for seat in running:
        try:
            game_services.player_resign(user=seat.user, game_id=seat.game_id)
        except GameError as error:  # over meanwhile: nothing to resign
            logger.info(
                "tournament %s: %s not resigned in game %s: %s",
                tournament_id,
                seat.user_id,
                seat.game_id,
                error,
            )


@transaction.atomic
def tournament_cancel(*, user: User, tournament_id: int) -> Tournament:
    """The creator (or a moderator) calls off a tournament that has not started."""
    tournament = lock(tournament_id)
    if user.pk != tournament.creator_id and not user.is_staff:
        raise NotAllowed(_("Only the tournament's creator can cancel it."))
    if tournament.status != Tournament.Status.REGISTRATION:
        raise WrongStatus(_("Only a tournament that has not started can be cancelled."))
    _cancel(tournament)
    return tournament


@transaction.atomic
def tournament_set_official(*, tournament_id: int, official: bool) -> Tournament:
    """Mark a tournament official, or take the mark away (a moderator's, in the admin: the
    caller checks who may)."""
    tournament = lock(tournament_id)
    if tournament.official != official:
        tournament.official = official
        _changed(tournament)
        tournament.save(update_fields=["official", "version"])
    return tournament


# --- Running ----------------------------------------------------------------------------------


def due(now: datetime | None = None) -> "QuerySet[Tournament]":
    """The tournaments :func:`advance` may have something to do for: registration over, or a
    round that may be complete (no game of it still open or under way, and, live, its
    scheduled end passed). One query; the index ``tournament_due_idx``."""
    now = now or timezone.now()
    playing = Table.objects.filter(
        round__tournament=OuterRef("pk"),
        round__number=OuterRef("round_number"),
        game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
    )
    return Tournament.objects.filter(
        Q(status=Tournament.Status.REGISTRATION, starts_at__lte=now)
        | (
            Q(status=Tournament.Status.RUNNING)
            & ~Exists(playing)
            & (Q(next_round_at__isnull=True) | Q(next_round_at__lte=now))
        )
    )


def sweep(*, now: datetime | None = None, limit: int = 100) -> int:
    """Beat's step: advance every due tournament (one transaction each; a tournament another
    process is advancing is skipped, not waited for) and tell what registration news is due.
    Returns how many tournaments moved on."""
    now = now or timezone.now()
    moved = 0
    for tournament_id in due(now).order_by("starts_at", "pk").values_list("pk", flat=True)[:limit]:
        if advance(tournament_id=tournament_id, now=now, wait=False):
            moved += 1
    _tell_registration(now)
    return moved


@transaction.atomic
def advance(*, tournament_id: int, now: datetime | None = None, wait: bool = True) -> bool:
    """Do what is due for the tournament, once: start it, open its next round, or finish it.
    Returns whether it moved on. ``wait=False`` skips a tournament whose row another
    transaction holds (that one is doing this)."""
    now = now or timezone.now()
    query = Tournament.objects.filter(pk=tournament_id)
    query = query.select_for_update(of=("self",), no_key=True, skip_locked=not wait)
    tournament = query.first()
    if tournament is None:
        return False
    if tournament.status == Tournament.Status.REGISTRATION:
        if now < tournament.starts_at:
            return False
        return _start(tournament, now)
    if tournament.status != Tournament.Status.RUNNING or not _round_over(tournament, now):
        return False
    _withdraw_timeouts(tournament)
    if tournament.round_number >= tournament.rounds:
        _finish(tournament, now)
        return True
    if not _open_round(tournament, now):
        _finish(tournament, now)
    return True


def _round_over(tournament: Tournament, now: datetime) -> bool:
    if tournament.next_round_at is not None and now < tournament.next_round_at:
        return False
    return not Table.objects.filter(
        round__tournament=tournament,
        round__number=tournament.round_number,
        game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
    ).exists()


def _start(tournament: Tournament, now: datetime) -> bool:
    players = list(Player.objects.filter(tournament=tournament).select_related("user"))
    low, _high = players_bounds(tournament.format, tournament.table_size)
    if len(players) < low:
        logger.info("tournament %s cancelled: %s player(s), %s needed", tournament.pk, len(players), low)
        _cancel(tournament)
        return True
    mode_rules = tournament.rules
    for player in players:
        rating = None if player.user.is_bot else ratings_of(player.user_id).in_rules(mode_rules)
        player.seed_rating = round(rating or 0)
    Player.objects.bulk_update(players, ["seed_rating"])
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        tournament.rounds = len(pairing.round_robin(range(len(players))))
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    if not _open_round(tournament, now):
        _finish(tournament, now)
    return True


def _cancel(tournament: Tournament) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    _changed(tournament)
    tournament.save()
    _send_on_commit(signals.tournament_finished, tournament, cancelled=True)


def _open_round(tournament: Tournament, now: datetime) -> bool:
    """Pair and start the next round; False when too few players are left to pair."""
    number = tournament.round_number + 1
    players = list(Player.objects.filter(tournament=tournament).select_related("user"))
    active = [player for player in players if not player.withdrawn]
    history = played(tournament)
    by_id = {player.user_id: player for player in players}
    tables: list[list[int]]
    bye: list[int]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        order = sorted(players, key=lambda player: (-player.seed_rating, player.registered_at, player.pk))
        schedule = pairing.round_robin([player.user_id for player in order])
        tables, bye = [], []
        for scheduled in schedule[number - 1]:
            seated = [user for user in (scheduled.first, scheduled.second) if user is not None]
            playing = [user for user in seated if not by_id[user].withdrawn]
            if len(playing) == 2:
                tables.append(playing)
            elif len(playing) == 1 and len(seated) == 2:
                bye.append(playing[0])  # the opponent withdrew: a win without a game
        if not tables and len(active) < 2:
            return False
    else:
        if len(active) < (2 if tournament.format == Tournament.Format.SWISS else pairing.MIN_TABLE):
            return False
        points = {row.player: row.points for row in standings_rows(tournament, history=history)}
        entrants = [
            pairing.Entrant(player.user_id, points.get(player.user_id, Fraction(0)), player.seed_rating)
            for player in sorted(active, key=lambda player: (player.registered_at, player.pk))
        ]
        if tournament.format == Tournament.Format.SWISS:
            paired = pairing.swiss_round(entrants, history.pairings)
            tables = [[game.first, game.second] for game in paired.games if game.second is not None]
            bye = [paired.bye] if paired.bye is not None else []
        else:
            tables = [
                list(table) for table in pairing.table_round(entrants, history.tables, tournament.table_size)
            ]
            bye = []
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        ends_at=now + tournament.round_time if tournament.round_time else None,
    )
    rows = []
    game_ids = []
    for board, users in enumerate(tables, start=1):
        game = game_services.game_seated(
            players=[by_id[user].user for user in users],
            preset=tournament.preset,
            overrides=tournament.rule_overrides,
            move_time=tournament.move_time,
            private=True,
            rated=tournament.rated,
        )
        game_ids.append(game.pk)
        rows.append(Table(round=round_, board=board, game=game))
    for offset, user in enumerate(bye, start=len(tables) + 1):
        rows.append(Table(round=round_, board=offset, bye_id=user))
    Table.objects.bulk_create(rows)
    tournament.round_number = number
    tournament.next_round_at = round_.ends_at
    _changed(tournament)
    tournament.save()
    logger.info(
        "tournament %s: round %s opened, %s game(s), %s bye(s)", tournament.pk, number, len(tables), len(bye)
    )
    _send_on_commit(signals.round_opened, tournament, round_number=number, game_ids=game_ids)
    return True


def _finish(tournament: Tournament, now: datetime) -> None:
    rows = standings_rows(tournament)
    rank = {row.player: row.rank for row in rows}
    players = list(Player.objects.filter(tournament=tournament))
    for player in players:
        player.final_rank = rank.get(player.user_id)
    Player.objects.bulk_update(players, ["final_rank"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.next_round_at = None
    _changed(tournament)
    tournament.save()
    logger.info("tournament %s finished after %s round(s)", tournament.pk, tournament.round_number)
    _send_on_commit(signals.tournament_finished, tournament, cancelled=False)


def _withdraw_timeouts(tournament: Tournament) -> list[int]:
    """Withdraw the players still in whose last ``TIMEOUTS_IN_A_ROW`` games of the tournament
    all ended by their running out of time (``Seat.left_by``, the engine's outcome)."""
    still_in = Player.objects.filter(tournament=tournament, withdrawn="").values("user_id")
    seats = (
        Seat.objects.filter(
            game__tournament_table__round__tournament=tournament,
            game__status=Game.Status.FINISHED,
            user_id__in=still_in,
        )
        .order_by("user_id", "-game__tournament_table__round__number")
        .values_list("user_id", "left_by")
    )
    last: defaultdict[int, list[str]] = defaultdict(list)
    for user_id, left_by in seats:
        if len(last[user_id]) < TIMEOUTS_IN_A_ROW:
            last[user_id].append(left_by)
    out = [
        user_id
        for user_id, ways in last.items()
        if len(ways) == TIMEOUTS_IN_A_ROW and all(way == "timeout" for way in ways)
    ]
    if out:
        Player.objects.filter(tournament=tournament, user_id__in=out, withdrawn="").update(
            withdrawn=Player.Withdrawn.TIMEOUTS, withdrawn_at=timezone.now()
        )
        logger.info(
            "tournament %s: %s withdrawn after %s timeouts in a row", tournament.pk, out, TIMEOUTS_IN_A_ROW
        )
    return out


# --- Results ----------------------------------------------------------------------------------


class History:
    """What has been played so far: the pairing's history and the standings' results."""

    def __init__(self) -> None:
        self.pairings: list[pairing.Pairing[int]] = []
        self.tables: list[tuple[int, ...]] = []
        self.results: list[pairing.GameResult[int] | pairing.TableResult[int]] = []


def played(tournament: Tournament) -> History:
    """Every table of the tournament so far, read in two queries (tables with their games,
    and the games' seats). A game still running is met (for the pairing) but has no result."""
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("game")
        .only("board", "bye_id", "round_id", "game__status")
        .order_by("round__number", "board")
    )
    seats_of: defaultdict[int, list[Seat]] = defaultdict(list)
    game_ids = [table.game_id for table in tables if table.game_id is not None]
    for seat in Seat.objects.filter(game_id__in=game_ids).only(
        "game_id", "user_id", "position", "result", "place"
    ):
        seats_of[seat.game_id].append(seat)
    return history_of(tables, seats_of)


def history_of(tables: Iterable[Table], seats_of: Mapping[int, Sequence[Seat]]) -> History:
    """The history of ``tables`` (in round and board order, each with its ``game`` loaded),
    given their games' seats by game id: no query. What :func:`played` reads, for a caller
    that has read the tables and seats itself (the tournament's page)."""
    history = History()
    for table in tables:
        if table.game_id is None:
            assert table.bye_id is not None
            history.pairings.append(pairing.Pairing(table.bye_id, None))
            history.results.append(pairing.GameResult.bye(table.bye_id))
            continue
        seats = sorted(seats_of.get(table.game_id, ()), key=lambda seat: seat.position)
        users = tuple(seat.user_id for seat in seats)
        if len(users) == 2:
            history.pairings.append(pairing.Pairing(users[0], users[1]))
        history.tables.append(users)
        assert table.game is not None
        result = result_of(table.game.status, seats)
        if result is not None:
            history.results.append(result)
    return history


def result_of(
    status: str, seats: Sequence[Seat]
) -> pairing.GameResult[int] | pairing.TableResult[int] | None:
    """A finished game's result for the standings, from its seats as the engine left them
    (``Seat.result``, ``Seat.place``); None while it runs. An aborted game scores nothing
    for anyone; a draw gives each the same."""
    if status in {Game.Status.OPEN, Game.Status.ACTIVE}:
        return None
    seats = sorted(seats, key=lambda seat: seat.position)
    users = tuple(seat.user_id for seat in seats)
    if status != Game.Status.FINISHED:
        return pairing.TableResult(users, (Fraction(0),) * len(users))
    if any(seat.result == Seat.Result.DRAW for seat in seats):
        if len(users) == 2:
            return pairing.GameResult.draw(users[0], users[1])
        return pairing.TableResult(users, (Fraction(len(users) - 1, len(users)),) * len(users))
    if len(users) == 2:
        fool = next((seat for seat in seats if seat.result == Seat.Result.FOOL), None)
        if fool is None:
            return pairing.GameResult.draw(users[0], users[1])
        return pairing.GameResult(
            users[0], users[1], Fraction(0) if fool.user_id == users[0] else Fraction(1)
        )
    # The first out first; those the game ended for while they held cards after them, in seat
    # order; the fool last.
    order = sorted(
        seats,
        key=lambda seat: (
            seat.result == Seat.Result.FOOL,
            seat.place is None,
            seat.place or 0,
            seat.position,
        ),
    )
    return pairing.TableResult(tuple(seat.user_id for seat in order))


def place_points(tournament: Tournament) -> dict[int, list[Fraction]] | None:
    """Points by place for each table size under the tournament's scoring (None: 1 to each
    player who is not the fool)."""
    if tournament.scoring != Tournament.Scoring.PLACES:
        return None
    return {size: [Fraction(size - 1 - place) for place in range(size)] for size in range(2, 7)}


def standings_rows(
    tournament: Tournament, *, history: History | None = None, player_ids: Iterable[int] | None = None
) -> list[pairing.StandingRow[int]]:
    """The standings (points, Buchholz, Sonneborn-Berger) of every registered player
    (``player_ids``, in registration order, when the caller has read them)."""
    history = history or played(tournament)
    if player_ids is None:
        players = Player.objects.filter(tournament=tournament).order_by("registered_at", "pk")
        player_ids = players.values_list("user_id", flat=True)
    return pairing.standings(history.results, player_ids, place_points=place_points(tournament))


# --- After a game ---------------------------------------------------------------------------


def game_finished(*, game: Game, seats: Iterable[Seat], engine: durak.Game) -> None:
    """``games.hooks.game_finished``: a game has just ended. If it is a tournament's, queue that
    tournament's step for after the commit (the sweep is the net if the queue is down)."""
    tournament_id = (
        Table.objects.filter(game_id=game.pk).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return
    live.send_on_commit(live.tournament_channel(tournament_id), "tournament", {"tournament": tournament_id})
    publish_on_commit(
        lambda: app.signature(ADVANCE, args=(tournament_id,)).apply_async(),
        f"advance tournament {tournament_id}",
    )


# --- Registration news --------------------------------------------------------------------


def _tell_registration(now: datetime) -> None:
    """Registration open, and closing soon: each told once (the flags are claimed by an
    UPDATE, so two sweeps tell it once)."""
    opened = list(
        Tournament.objects.filter(
            status=Tournament.Status.REGISTRATION, opening_told=False, registration_opens_at__lte=now
        ).values_list("pk", flat=True)[:100]
    )
    for pk in opened:
        with transaction.atomic():
            if Tournament.objects.filter(pk=pk, opening_told=False).update(opening_told=True):
                _send_on_commit(signals.registration_opened, Tournament.objects.get(pk=pk))
    closing = list(
        Tournament.objects.filter(
            status=Tournament.Status.REGISTRATION,
            closing_told=False,
            starts_at__lte=now + CLOSING_NOTICE,
            starts_at__gt=now,
        ).values_list("pk", flat=True)[:100]
    )
    for pk in closing:
        with transaction.atomic():
            if Tournament.objects.filter(pk=pk, closing_told=False).update(closing_told=True):
                _send_on_commit(signals.registration_closing, Tournament.objects.get(pk=pk))


# --- Helpers ----------------------------------------------------------------------------------


def _changed(tournament: Tournament) -> None:
    """The tournament's page changed: its version moves on and its live channel hears of it
    after the commit. The caller saves the row (or just created it)."""
    tournament.version += 1
    if tournament.pk is not None:
        Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
        version = tournament.version
        pk = tournament.pk
        live.send_on_commit(live.tournament_channel(pk), "tournament", {"tournament": pk, "version": version})


def _send_on_commit(signal: Any, tournament: Tournament, **kwargs: Any) -> None:
    def send() -> None:
        for receiver, response in signal.send_robust(sender=Tournament, tournament=tournament, **kwargs):
            if isinstance(response, Exception):
                logger.error("tournament %s: %s failed: %r", tournament.pk, receiver, response)

    transaction.on_commit(send)
