"""Everything that changes a game. Keyword-only, typed; reads live in ``selectors``.

Rules are never decided here: the engine (``durak``) says what is legal and
what follows. Each write locks the game row inside its transaction, so two
requests for the same game run one after the other, and raises a
``games.exceptions.GameError`` (rolling back everything) on bad input.
"""

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

import durak
from accounts.models import User
from durak.game import SYSTEM_ACTION_TYPES

from . import tasks
from .exceptions import (
    GameNotFound,
    IllegalMove,
    InvalidRules,
    NotAllowed,
    StaleVersion,
    WrongStatus,
)
from .models import Game, Move, Seat


def _lock_game(game_id: int) -> Game:
    """The game row, locked until the end of the current transaction."""
    try:
        return Game.objects.select_for_update(of=("self",)).get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(f"There is no game {game_id}.") from None


def _game_changed(game: Game) -> None:
    """Queue the side effects of a change (notifications, timers) for after the commit."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: tasks.game_changed.delay(game_id, version))


def build_rules(*, preset: str, overrides: Mapping[str, Any] | None = None) -> durak.Rules:
    """The engine's rules for a preset and option overrides, or ``InvalidRules``."""
    if preset not in durak.PRESETS:
        raise InvalidRules(f"Unknown rule set {preset!r}.")
    try:
        return durak.Rules.preset(preset, **dict(overrides or {}))
    except (ValueError, TypeError) as error:
        raise InvalidRules(str(error)) from None


@transaction.atomic
def game_create(
    *,
    creator: User,
    preset: str,
    num_players: int,
    overrides: Mapping[str, Any] | None = None,
    seed: int | None = None,
    deal: Mapping[str, Any] | None = None,
) -> Game:
    """Open a new game with its creator in seat 0.

    ``deal`` stacks the cards instead of shuffling (for tests and scenarios):
    ``{"hands": [[...], ...], "stock": [...], "dealer": 0, "first_attacker": None,
    "trump": None}`` as ``durak.Game.from_deal`` takes them; its number of hands
    must equal ``num_players``.
    """
    rules = build_rules(preset=preset, overrides=overrides)
    try:
        rules.validate_players(num_players)
    except ValueError as error:
        raise InvalidRules(str(error)) from None
    if deal is not None:
        deal = dict(deal)
        if len(deal.get("hands", [])) != num_players:
            raise InvalidRules("A stacked deal needs one hand per player.")
        try:
            _engine_from_deal(rules, deal)
        except (ValueError, TypeError, KeyError) as error:
            raise InvalidRules(f"Bad stacked deal: {error}") from None
    game = Game.objects.create(
        preset=preset,
        rule_overrides=dict(overrides or {}),
        rules=rules.to_dict(),
        num_players=num_players,
        creator=creator,
        seed=secrets.randbits(62) if seed is None else seed,
        deal=deal,
    )
    Seat.objects.create(game=game, user=creator, position=0)
    return game


@transaction.atomic
def game_join(*, user: User, game_id: int) -> Game:
    """Take the lowest free seat; the game starts when this fills the last one."""
    game = _lock_game(game_id)
    if game.status != Game.Status.OPEN:
        raise WrongStatus("This game is not open for joining.")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise NotAllowed("You already have a seat in this game.")
    if len(seats) >= game.num_players:
        raise WrongStatus("This game is full.")
    taken = {seat.position for seat in seats}
    position = min(p for p in range(game.num_players) if p not in taken)
    seats.append(Seat.objects.create(game=game, user=user, position=position))
    game.version += 1
    if len(seats) == game.num_players:
        _start(game, seats)
    game.save()
    _game_changed(game)
    return game


@transaction.atomic
def game_leave(*, user: User, game_id: int) -> Game:
    """Give up a seat in an open game. The creator leaving cancels the game."""
    game = _lock_game(game_id)
    if game.status != Game.Status.OPEN:
        raise WrongStatus("You can only leave a game that has not started.")
    deleted, _ = game.seats.filter(user=user).delete()
    if not deleted:
        raise NotAllowed("You have no seat in this game.")
    if user.pk == game.creator_id:
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
    game.version += 1
    game.save()
    _game_changed(game)
    return game


@transaction.atomic
def game_start(*, user: User, game_id: int) -> Game:
    """Start an open game before it is full: only its creator, with at least two players."""
    game = _lock_game(game_id)
    if game.status != Game.Status.OPEN:
        raise WrongStatus("This game has already started or ended.")
    if user.pk != game.creator_id:
        raise NotAllowed("Only the game's creator can start it early.")
    seats = list(game.seats.all())
    if game.deal is not None and len(seats) != game.num_players:
        raise WrongStatus("A game with a stacked deal starts only when every seat is taken.")
    try:
        durak.Rules.from_dict(game.rules).validate_players(len(seats))
    except ValueError as error:
        raise WrongStatus(f"Cannot start with {len(seats)} players: {error}") from None
    game.version += 1
    _start(game, seats)
    game.save()
    _game_changed(game)
    return game


def _engine_from_deal(rules: durak.Rules, deal: Mapping[str, Any]) -> durak.Game:
    return durak.Game.from_deal(
        rules,
        deal["hands"],
        deal["stock"],
        dealer=deal.get("dealer", 0),
        first_attacker=deal.get("first_attacker"),
        trump=deal.get("trump"),
    )


def initial_engine(game: Game) -> durak.Game:
    """The engine at move 0 of ``game``: its stacked deal, or a shuffle from its seed."""
    rules = durak.Rules.from_dict(game.rules)
    if game.deal is not None:
        return _engine_from_deal(rules, game.deal)
    return durak.Game.new(rules, game.num_players, game.seed, dealer=game.dealer)


def _start(game: Game, seats: list[Seat]) -> None:
    """Deal: seats are renumbered 0..n-1 in order (leavers leave gaps) and the engine is set up."""
    seats.sort(key=lambda seat: seat.position)
    renumbered = [seat for index, seat in enumerate(seats) if seat.position != index]
    if renumbered:
        # Two passes so the unique (game, position) constraint never sees a clash.
        for seat in renumbered:
            seat.position += 1000
        Seat.objects.bulk_update(renumbered, ["position"])
        for seat in renumbered:
            seat.position = seats.index(seat)
        Seat.objects.bulk_update(renumbered, ["position"])
    game.num_players = len(seats)
    if game.deal is not None:
        game.dealer = game.deal.get("dealer", 0)
        engine = _engine_from_deal(durak.Rules.from_dict(game.rules), game.deal)
    else:
        game.dealer = game.seed % len(seats)
        engine = durak.Game.new(durak.Rules.from_dict(game.rules), len(seats), game.seed, dealer=game.dealer)
    game.state = engine.to_dict()
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    _sync_seats(game, seats, engine)


def _sync_seats(game: Game, seats: list[Seat], engine: durak.Game) -> None:
    """Copy who is waited for and who finished where from the engine into the seats."""
    waiting = set(engine.waiting_for())
    places = {player: index + 1 for index, player in enumerate(engine.finished)}
    for seat in seats:
        seat.awaiting_move = seat.position in waiting and not engine.over
        seat.place = places.get(seat.position)
        if engine.over and engine.loser is None:
            seat.result = Seat.Result.DRAW
        elif engine.over and engine.loser == seat.position:
            seat.result = Seat.Result.FOOL
        elif seat.place is not None:
            seat.result = Seat.Result.OUT
        else:
            seat.result = Seat.Result.NONE
    Seat.objects.bulk_update(seats, ["awaiting_move", "place", "result"])
    if engine.over:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()


@transaction.atomic
def make_move(*, user: User, game_id: int, action: Mapping[str, Any], expected_version: int) -> Game:
    """Apply one action of ``user`` to the game, as seen at ``expected_version``.

    Locks the game row (``select_for_update``) for the whole transaction, so
    concurrent moves on one game are serialised; the second of two moves made
    against the same version fails with ``StaleVersion``. The action is the
    engine's JSON dict; its ``"player"`` is the user's seat and may be left out.
    Raises ``IllegalMove`` with the engine's message; nothing is saved then.
    """
    game = _lock_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise WrongStatus("This game is not being played.")
    if game.version != expected_version:
        raise StaleVersion("The game has moved on since you looked; here is the current table.")
    seats = list(game.seats.all())
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("You have no seat in this game.")
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalMove("That is not an action.")
    if action["type"] in SYSTEM_ACTION_TYPES:  # timeouts and resignations have services of their own
        raise IllegalMove("That is not a move you can make on the table.")
    if action.get("player", seat.position) != seat.position:
        raise NotAllowed("You can only move for yourself.")
    full_action = {**action, "player": seat.position}

    assert game.state is not None
    engine = durak.Game.from_dict(game.state)
    try:
        engine.apply(full_action)
    except durak.IllegalAction as error:
        raise IllegalMove(str(error)) from None

    Move.objects.create(game=game, seq=game.moves.count() + 1, position=seat.position, action=full_action)
    game.state = engine.to_dict()
    game.version += 1
    _sync_seats(game, seats, engine)
    game.save()
    _game_changed(game)
    return game
