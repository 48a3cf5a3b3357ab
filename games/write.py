"""The one write core: every change of a game's rows goes through here.

People's moves, resignations and claims (``games.services``), computer players' moves
(``games.bots``), timeouts (the ETA task and the sweep), the lobby's writes (join, leave, start)
and the moderators' actions (abort, settle, a suspension's resignation) all change a game the
same way:

1. :func:`lock` / :func:`lock_running` lock the game row (``SELECT ... FOR NO KEY UPDATE`` of
   the game alone: a foreign-key check on it does not wait) and check its status and the version
   the change was made against;
2. :func:`seats_of` reads its seats with everything the change needs of them in one query: the
   users, their notification preferences and push subscriptions
   (``hooks.seat_facts``: notifications registers them), whether a vacation may pause their
   clock (``timeouts.with_clock_facts``);
3. :func:`apply` applies one engine action and :func:`record` writes what it did: the ``Move``
   (numbered ``Game.moves_made + 1``: the log is never counted), the seats copied from the engine
   (``engine.outcome()`` for the results) with fresh deadlines, only the seat fields that changed,
   in one UPDATE (:func:`save_seats`), the notifications, then the game row (only the fields a
   move changes);
4. :func:`save` registers ONE after-commit list of effects, each only if something needs it: the
   new version for the cache and the live pages (``versions.published``), an ETA task for a
   deadline near enough (``timeouts.queue_timeout``), a computer player's move when the game waits
   for one (read from the seats already loaded), and, when the game has finished, its players'
   reliability recounted (``reliability.refresh``; each seat's ``left_by`` is the engine's
   ``Outcome``, copied in :func:`sync`).

A move that does not end the game costs at most six queries, whatever the game's length or the
site's size (tests/games/test_move_queries.py); the last move also counts the stats in the
same transaction (``hooks.game_finished``: stats registers it).

Layers: this module imports the models, ``versions``, ``timeouts`` and ``hooks`` (beneath it) and
the engine; the apps above games (notifications, stats) add to a change through ``hooks``, never
imported here. ``services`` and ``bots`` use it, and ``tasks`` (the top: thin callers of the
services) is never imported below it: tasks are queued by name
(``durak_site.celery.app.signature``).
"""

import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import BooleanField, Case, ExpressionWrapper, F, Field, Value, When
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerUnavailable

import durak
from accounts.relations import block_with
from durak_site.celery import app

from . import hooks, reliability, timeouts, versions
from .exceptions import GameNotFound, StaleVersion, WrongStatus
from .models import TOURNAMENT_TABLE, Game, Move, Seat

logger = logging.getLogger(__name__)

#: The seat columns copied from the engine and the clocks; only those that changed are written.
SEAT_FIELDS = (
    "awaiting_move",
    "must_move",
    "place",
    "result",
    "left_by",
    "turn_started_at",
    "deadline",
    "warn_at",
)
#: The game columns a change of a running game writes.
MOVE_FIELDS = [
    "state",
    "version",
    "moves_made",
    "status",
    "finished_at",
    "deadline",
    "claim_warn_at",
    "updated_at",
]
#: Those a preference writes: not ``updated_at``, which says when the game last moved on.
PREFERENCE_FIELDS = [field for field in MOVE_FIELDS if field != "updated_at"]
#: The task that plays a computer player's move (``games.tasks.bot_move``).
BOT_MOVE = "games.tasks.bot_move"

_STORED = "_write_stored"  # a seat's SEAT_FIELDS as last read or written


def lock(game_id: int, *, for_answer: bool = False) -> Game:
    """The game row, locked until the end of the current transaction (``GameNotFound``).
    ``for_answer``: with what an answer built from it names (its creator, its tournament's table,
    round and tournament: ``TOURNAMENT_TABLE``), read in the same query and not locked."""
    games = Game.objects.select_for_update(of=("self",), no_key=True)
    if for_answer:
        games = games.select_related("creator", TOURNAMENT_TABLE)
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(_("There is no game %(number)s.") % {"number": game_id}) from None


def check_running(game: Game, *, expected_version: int | None = None) -> None:
    """For a change of the locked, running ``game`` made against ``expected_version`` (None:
    any): ``WrongStatus`` if it is not being played, ``StaleVersion`` if it has moved on."""
    if game.is_over:  # e.g. by the first of two resignations at once
        raise WrongStatus(_("This game is over already."))
    if game.status != Game.Status.ACTIVE:
        raise WrongStatus(_("This game has not started yet."))
    if expected_version is not None and game.version != expected_version:
        raise StaleVersion(_("The game has moved on since you looked; here is the current table."))


def lock_running(game_id: int, *, expected_version: int | None = None) -> Game:
    """:func:`lock` and :func:`check_running`."""
    game = lock(game_id)
    check_running(game, expected_version=expected_version)
    return game


def seats_of(game: Game, *, blocks_with: int | None = None) -> list[Seat]:
    """The game's seats (in seat order) with everything a change reads of them, in one query.
    ``blocks_with``: a user about to join; each seat says in ``blocks_joiner`` whether a block
    keeps its player and them apart (``accounts.relations.block_with``), in the same query."""
    query = Seat.objects.filter(game=game).select_related("user")
    if blocks_with is not None:
        query = query.annotate(
            blocks_joiner=ExpressionWrapper(block_with(blocks_with, "user_id"), output_field=BooleanField())
        )
    for facts in hooks.seat_facts:
        query = facts(query)
    seats = list(timeouts.with_clock_facts(query, game))
    for seat in seats:
        remember(seat)
    return seats


def hold_seats(game: Game, seats: list[Seat]) -> None:
    """``game.seats.all()`` gives ``seats`` from here (the objects the change writes, with
    their users), with no query: as if prefetched. Only for a change that adds or removes no
    seat (a move): the list would not follow."""
    held = Seat.objects.filter(game=game).order_by("position")
    held._result_cache = sorted(seats, key=lambda seat: seat.position)
    setattr(held, "_prefetch_done", True)  # noqa: B010  # what Django's prefetch sets
    cached = getattr(game, "_prefetched_objects_cache", {})
    setattr(game, "_prefetched_objects_cache", {**cached, "seats": held})  # noqa: B010


def remember(seat: Seat) -> None:
    """Take ``seat`` (just read or created) as stored: :func:`save_seats` writes only what
    changes from here."""
    setattr(seat, _STORED, {field: getattr(seat, field) for field in SEAT_FIELDS})


def _changes(seat: Seat) -> dict[str, Any]:
    stored: dict[str, Any] | None = getattr(seat, _STORED, None)
    return {
        field: getattr(seat, field)
        for field in SEAT_FIELDS
        if stored is None or stored[field] != getattr(seat, field)
    }


def save_seats(seats: Iterable[Seat]) -> list[Seat]:
    """Write the seat fields that changed since the seats were read (``seats_of``) or last
    written: one UPDATE of only those rows and columns (none if nothing changed). Returns the
    seats whose ``awaiting_move`` or ``must_move`` changed; their players' bells (the count of
    games waiting for them) are told after the commit."""
    changed = {seat.pk: (seat, fields) for seat in seats if (fields := _changes(seat))}
    if len(changed) == 1:
        ((pk, (_seat, fields)),) = changed.items()
        Seat.objects.filter(pk=pk).update(**fields)
    elif changed:
        columns: dict[str, Any] = {}
        for name in SEAT_FIELDS:
            field = Seat._meta.get_field(name)
            assert isinstance(field, Field)
            whens = [
                When(pk=pk, then=Value(fields[name], output_field=field))
                for pk, (_seat, fields) in changed.items()
                if name in fields
            ]
            if whens:
                # Cast: PostgreSQL types a CASE of parameters as text otherwise (Django's bulk_update does it too).
                columns[name] = Cast(Case(*whens, default=F(name), output_field=field), output_field=field)
        Seat.objects.filter(pk__in=changed).update(**columns)
    flipped = []
    for seat, fields in changed.values():
        if "awaiting_move" in fields or "must_move" in fields:
            flipped.append(seat)
        remember(seat)
    for bells_changed in hooks.bells_changed:
        bells_changed([seat.user_id for seat in flipped])
    return flipped


def apply(game: Game, seats: list[Seat], action: object, *, chooser: int | None) -> durak.Game:
    """Apply one engine action to the locked, running ``game`` and :func:`record` it; the engine
    refuses with ``durak.IllegalAction`` (nothing is written then). ``chooser``: the seat that
    chose it, None for the server's (a timeout)."""
    assert game.state is not None
    engine = game.engine(fresh=True)
    full = dict(action) if isinstance(action, Mapping) else action
    engine.apply(full)  # anything but an action dict is refused
    assert isinstance(full, dict)
    record(game, seats, engine, full, chooser=chooser)
    return engine


def play(game: Game, seats: list[Seat], seat: Seat, action: object) -> tuple[Seat, datetime] | None:
    """``seat``'s move ``action`` in the locked, running ``game``, unless a deadline of the game
    has passed before it arrived: then that timeout is applied instead (nothing of the move) and
    the seat timed out is returned with its deadline. ``durak.IllegalAction`` from the engine."""
    late = timeouts.due_seat(seats, timezone.now())
    if late is not None:
        deadline = late.deadline
        assert deadline is not None
        apply_timeout(game, seats, late)
        return late, deadline
    apply(game, seats, action, chooser=seat.position)
    return None


def record(
    game: Game, seats: list[Seat], engine: durak.Game, action: dict[str, Any], *, chooser: int | None
) -> None:
    """Write what ``engine`` just applied (``action``) in the locked ``game``: the Move, the state
    and version, the seats and deadlines, the notifications, and the after-commit effects.

    Only a move (``durak.is_move``) restarts the clocks of the players waited for and is the
    game's last change (``updated_at``); a preference is logged, changes whom the game waits for
    if the engine says so, and leaves every running clock and claim's wait as it was."""
    game.moves_made += 1
    Move.objects.create(
        game=game, seq=game.moves_made, position=chooser, action=action, events=list(engine.events)
    )
    game.state = engine.to_dict()
    game.hold_engine(engine)
    game.version += 1
    moved = durak.is_move(action["type"])
    sync(game, seats, engine, restart=moved)
    save(game, seats, fields=MOVE_FIELDS if moved else PREFERENCE_FIELDS)


def sync(
    game: Game, seats: list[Seat], engine: durak.Game, *, started: bool = False, restart: bool = True
) -> None:
    """Copy the engine into the seats (whom it waits for, whom it cannot go on without, who went
    out where, each result from ``engine.outcome()``) and the game (finished), give each
    waited-for player a fresh deadline (``restart``, after a move; else only those it starts
    waiting for: ``timeouts.set_deadlines``) and the game the moment a claim becomes possible
    (``claim_warn_at``), write the seats that changed and the notifications this change causes.
    A finished game's stats are counted here, in the same transaction. The caller saves the game
    (:func:`save`).

    The notifications' "your move" goes to each player the game now cannot go on without and
    could before (``newly_waiting``): not to a thrower who only may add a card."""
    was_needed = {seat.pk: seat.must_move for seat in seats}
    waiting = set(engine.waiting_for())
    needed = set(engine.must_act())
    outcome = engine.outcome()
    places = {player: index + 1 for index, player in enumerate(engine.finished)}
    for seat in seats:
        seat.awaiting_move = seat.position in waiting
        seat.must_move = seat.position in needed
        seat.place = places.get(seat.position) if outcome is None else outcome.place(seat.position)
        seat.result = _result(seat, outcome)
        seat.left_by = reliability.left_by(seat.position, outcome)
    now = timezone.now()
    if outcome is not None:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        for finished in hooks.game_finished:
            finished(game=game, seats=seats, engine=engine)  # same transaction as the finish
    timeouts.set_deadlines(game, seats, now=now, restart=restart)
    game.claim_warn_at = _claim_warn_at(game, seats, engine)
    save_seats(seats)
    newly_waiting = [seat for seat in seats if seat.must_move and not was_needed[seat.pk]]
    for changed in hooks.change_recorded:
        changed(
            game=game,
            seats=seats,
            newly_waiting=newly_waiting,
            started=started,
            finished=outcome is not None,
            outcome=outcome,
        )


def _claim_warn_at(game: Game, seats: list[Seat], engine: durak.Game) -> datetime | None:
    """When someone may claim the running ``game`` if nobody moves before: the wait the engine
    asks of a claim (``claim_wait``) after the game started waiting on the players it waits for
    now (``timeouts.waited_since``). None for a game with a clock, or one nobody may claim."""
    if game.status != Game.Status.ACTIVE or game.move_time is not None:
        return None
    waits = [wait for p in range(engine.players) if (wait := engine.claim_wait(p)) is not None]
    since = timeouts.waited_since(game, seats)
    if not waits or since is None:
        return None
    return since + timedelta(seconds=min(waits))


def _result(seat: Seat, outcome: durak.Outcome | None) -> str:
    if outcome is None:
        return Seat.Result.OUT if seat.place is not None else Seat.Result.NONE
    if outcome.draw:
        return Seat.Result.DRAW
    if outcome.lost(seat.position):
        return Seat.Result.FOOL  # in a team game, every player of the losing side
    if seat.place is not None:
        return Seat.Result.OUT
    return Seat.Result.WON  # the game ended (timeout, resignation, claim) while they held cards


def save(game: Game, seats: list[Seat] | None = None, *, fields: list[str] | None = None) -> None:
    """Save the locked ``game`` (only ``fields`` if given) and the seats' changes not written yet,
    and register the change's after-commit effects (:func:`after_commit`)."""
    if seats:
        save_seats(seats)
    game.save(update_fields=fields)
    after_commit(game, seats)


def after_commit(game: Game, seats: list[Seat] | None = None) -> None:
    """Register, once, what must follow the commit of a change of ``game``: its new version for
    the cache and the live pages, an ETA task for its next deadline if that is near, and a
    computer player's move if the game waits for one (from ``seats``, as just written), and the
    reliability of its people once it has finished. No broker message goes out unless one of
    these needs it."""
    game_id, version, deadline = game.pk, game.version, game.deadline
    effects: list[tuple[str, Callable[[], object]]] = [
        (f"version({game_id})", partial(versions.published, game_id, version))
    ]
    if timeouts.eta_wanted(deadline):
        assert deadline is not None
        effects.append(
            (f"apply_timeout({game_id})", partial(timeouts.queue_timeout, game_id, version, deadline))
        )
    if game.status == Game.Status.ACTIVE and any(
        seat.awaiting_move and seat.user.is_bot for seat in seats or ()
    ):
        effects.append((f"bot_move({game_id})", partial(queue_bot_move, game_id, version)))
    if game.status == Game.Status.FINISHED and seats:
        people = [seat.user_id for seat in seats if not seat.user.is_bot]
        effects.append((f"reliability({game_id})", partial(reliability.refresh, people)))
    transaction.on_commit(partial(_run, effects))


def _run(effects: list[tuple[str, Callable[[], object]]]) -> None:
    # The change is committed: a broker that cannot be reached is logged, never raised (beat's
    # sweeps catch up: ``timeouts.arm_upcoming``, ``bots.requeue_stalled``), and it costs the
    # other effects nothing.
    for what, effect in effects:
        try:
            effect()
        except BrokerUnavailable as error:
            logger.warning("broker unavailable, %s not queued (a sweep will catch up): %s", what, error)


def queue_bot_move(game_id: int, version: int) -> None:
    """Queue the computer player's move in the game at ``version`` (``games.tasks.bot_move``,
    by name), after a natural delay (``BOT_MOVE_DELAY_SECONDS``)."""
    app.signature(BOT_MOVE, args=(game_id, version)).apply_async(countdown=settings.BOT_MOVE_DELAY_SECONDS)


# Timeouts.


def apply_timeout(game: Game, seats: list[Seat], seat: Seat) -> bool:
    """Apply the engine's timeout for ``seat`` to the locked, running game, logged as a server
    action (``Move.position`` empty; the action names the player). Returns whether it was
    applied: if the engine refuses, the seat's clock is dropped instead, so nothing loops on it."""
    try:
        apply(game, seats, {"type": "timeout", "player": seat.position}, chooser=None)
    except durak.IllegalAction as error:
        logger.error("game %s: engine refused timeout for seat %s: %s", game.pk, seat.position, error)
        seat.deadline = seat.warn_at = None
        save_seats([seat])
        game.deadline = min((s.deadline for s in seats if s.deadline is not None), default=None)
        game.save(update_fields=["deadline"])
        return False
    return True


def timeout_if_due(game: Game, *, expected_version: int | None = None) -> bool:
    """Apply the timeout of the player whose deadline passed first in the locked ``game``, if
    the game is running, still at ``expected_version`` (when given) and a deadline has really
    passed. Returns whether a timeout was applied. A ``game.deadline`` out of step with the seats
    is repaired instead of being met again."""
    if game.status != Game.Status.ACTIVE:
        return False
    if expected_version is not None and game.version != expected_version:
        return False
    now = timezone.now()
    if game.deadline is None or game.deadline > now:
        return False
    seats = seats_of(game)
    seat = timeouts.due_seat(seats, now)
    if seat is None:
        game.deadline = min((s.deadline for s in seats if s.deadline is not None), default=None)
        if game.deadline is not None and game.deadline <= now:
            game.deadline = None
        game.save(update_fields=["deadline"])
        return False
    return apply_timeout(game, seats, seat)


def recompute_deadlines(*, game_id: int) -> None:
    """Recompute a running game's deadlines from their clocks' starts (after a vacation was
    booked). Locks the game row; bumps the version, so a pending ETA task for the old deadline
    does nothing and the open pages redraw."""
    with transaction.atomic():
        game = lock(game_id)
        if game.status != Game.Status.ACTIVE or game.move_time is None:
            return
        seats = seats_of(game)
        timeouts.set_deadlines(game, seats, now=timezone.now(), restart=False)
        game.version += 1
        save(game, seats, fields=["deadline", "version"])  # no move: updated_at stays
