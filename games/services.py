"""Everything that changes a game. Keyword-only, typed; reads live in ``selectors``.

Rules are never decided here: the engine (``durak``) says what is legal and
what follows. Each write locks the game row inside its transaction, so two
requests for the same game run one after the other, and raises a
``games.exceptions.GameError`` (rolling back everything) on bad input.

Every write of a game's rows goes through the write core, ``games.write``: it locks the game
row, checks the version, applies the engine, appends the Move, saves the state, seats and
deadlines and registers the after-commit effects. These services keep what the core cannot
know: who may do what, and the messages that say so.

Lock order (docs/locking.md): the game row, then its seats, then notifications
(written last, after the seats, by what notifications registers in ``games.hooks``); a foreign-key check
on the game counts as taking the game. Nothing slow happens under these locks:
emails and other side effects are queued for after the commit.
"""

import logging
import secrets
from collections.abc import Container, Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, Value
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import durak
from accounts import relations
from accounts.models import BOT_LEVELS, User
from durak import SYSTEM_ACTION_TYPES
from durak_site import dates, live
from durak_site.engine_text import engine_message

from . import bots, hooks, limits, selectors, timeouts, versions, write
from .exceptions import (
    IllegalMove,
    InvalidRules,
    NotAllowed,
    TimeExpired,
    TooManyBotGames,
    WrongStatus,
)
from .fairness import deal_hash
from .models import Game, Invitation, Seat, Vacation
from .timeouts import VacationRefused

logger = logging.getLogger(__name__)

#: The shortest and longest move times a game may have.
MIN_MOVE_TIME = timedelta(seconds=1)
MAX_MOVE_TIME = timedelta(days=30)


def build_rules(*, preset: str, overrides: Mapping[str, Any] | None = None) -> durak.Rules:
    """The engine's rules for a preset and option overrides, or ``InvalidRules``."""
    if preset not in durak.PRESETS:
        raise InvalidRules(_("Unknown rule set %(name)r.") % {"name": preset})
    try:
        return durak.Rules.preset(preset, **dict(overrides or {}))
    except durak.DurakError as error:
        raise InvalidRules(engine_message(error)) from None
    except (ValueError, TypeError) as error:
        raise InvalidRules(str(error)) from None


# Games with computer players: at most ``BOT_GAMES_PER_USER`` open and running ones per creator.


def lock_player(*, user_id: int) -> None:
    """Lock the user's row (``FOR NO KEY UPDATE``: a foreign-key check on it does not wait)
    until the end of the transaction. Before any game lock of the transaction
    (docs/locking.md): a move holding a game never waits for a user row."""
    User.objects.select_for_update(no_key=True).filter(pk=user_id).first()


def bot_games_going(*, user_id: int) -> int:
    """The open and running games the user created that computer players may play in (a
    ``bot_level``) or do (a computer's seat: a rematch against them has no level). No lock."""
    with_bots = Exists(Seat.objects.filter(game=OuterRef("pk"), user__is_bot=True))
    return (
        Game.objects.filter(creator_id=user_id, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .filter(~Q(bot_level="") | with_bots)
        .count()
    )


def bot_games_left(*, user: User) -> int:
    """How many more games with computer players ``user`` may create now: ``BOT_GAMES_PER_USER``
    less ``bot_games_going``. Locks the user's row first (``lock_player``), so that of twenty
    creations at once each counts what the one before committed: a user at the limit less one
    gets exactly one more game."""
    lock_player(user_id=user.pk)
    limit: int = settings.BOT_GAMES_PER_USER
    return max(0, limit - bot_games_going(user_id=user.pk))


def check_bot_games(*, user: User, asked_by: User | None = None) -> None:
    """``TooManyBotGames`` unless ``user`` may create one more game with computer players
    (``bot_games_left``, which locks their row). ``asked_by``: who asked, when it is not the
    creator (the last player to accept a rematch): the message names the creator then."""
    if bot_games_left(user=user) > 0:
        return
    limit = settings.BOT_GAMES_PER_USER
    if asked_by is not None and asked_by.pk != user.pk:
        raise TooManyBotGames(
            _(
                "%(name)s already has as many open and running games with computer players as "
                "one player may have at once (%(limit)s): the next game can start once they have fewer."
            )
            % {"name": user.username, "limit": limit}
        )
    raise TooManyBotGames(
        _(
            "You already have as many open and running games with computer players as one player "
            "may have at once (%(limit)s): finish, resign or cancel one of them first."
        )
        % {"limit": limit}
    )


@transaction.atomic
def game_create(
    *,
    creator: User,
    preset: str,
    num_players: int,
    overrides: Mapping[str, Any] | None = None,
    seed: int | None = None,
    deal: Mapping[str, Any] | None = None,
    move_time: timedelta | None = None,
    pause_weekends: bool = False,
    private: bool = False,
    dealer: int | None = None,
    first_game: bool = True,
    bot_level: str = "",
    join_friends_only: bool = False,
    join_min_reliability: int | None = None,
    join_rating_min: int | None = None,
    join_rating_max: int | None = None,
    join_language: str = "",
    rated: bool = True,
) -> Game:
    """Open a new game with its creator in seat 0.

    ``join_*``: who may join (``games.limits``); ``InvalidRules`` with ``limits_errors``'s
    first sentence when one is out of range.

    A series' later game (``series.services.play_again``) passes its ``dealer`` (the last
    game's fool) and ``first_game=False``, so the engine applies the preset's rule for who
    attacks first in later games. A single game leaves both: the dealer is drawn from the seed.

    ``move_time``: each player's time for each move (None: no time control);
    ``pause_weekends`` stops correspondence clocks (an hour a move or more) on each
    player's Saturday and Sunday. A ``private`` game is not listed in the lobby: seats are
    taken by invitation (``game_invite``) or through its share link. ``bot_level`` lets
    computer players of that level take empty seats (``game_fill_with_bots``); such a game
    counts towards the creator's ``BOT_GAMES_PER_USER`` from now on (``check_bot_games``:
    ``TooManyBotGames`` at the limit; it locks the creator's row, before the new game's).

    ``deal`` stacks the cards instead of shuffling (for tests and scenarios):
    ``{"hands": [[...], ...], "stock": [...], "dealer": 0, "first_attacker": None,
    "trump": None}`` as ``durak.Game.from_deal`` takes them; its number of hands
    must equal ``num_players``.
    """
    rules = build_rules(preset=preset, overrides=overrides)
    try:
        rules.validate_players(num_players)
    except durak.DurakError as error:
        raise InvalidRules(engine_message(error)) from None
    except ValueError as error:
        raise InvalidRules(str(error)) from None
    if deal is not None:
        deal = dict(deal)
        if len(deal.get("hands", [])) != num_players:
            raise InvalidRules(_("A stacked deal needs one hand per player."))
    if move_time is not None and not MIN_MOVE_TIME <= move_time <= MAX_MOVE_TIME:
        raise InvalidRules(_("The time for a move must be between one second and thirty days."))
    if bot_level and bot_level not in dict(BOT_LEVELS):
        raise InvalidRules(_("Unknown computer level %(level)r.") % {"level": bot_level})
    if deal is not None:
        try:
            _engine_from_deal(rules, deal)
        except (ValueError, TypeError, KeyError) as error:
            raise InvalidRules(_("Bad stacked deal: %(error)s") % {"error": error}) from None
    wrong = limits.limits_errors(
        min_reliability=join_min_reliability,
        rating_min=join_rating_min,
        rating_max=join_rating_max,
        language=join_language,
    )
    if wrong:
        raise InvalidRules(next(iter(wrong.values())))
    if bot_level:
        check_bot_games(user=creator)
    game = Game.objects.create(
        preset=preset,
        rule_overrides=dict(overrides or {}),
        rules=rules.to_dict(),
        num_players=num_players,
        creator=creator,
        seed=secrets.randbits(62) if seed is None else seed,
        deal=deal,
        move_time=move_time,
        pause_weekends=pause_weekends,
        private=private,
        invite_token=secrets.token_urlsafe(16),
        dealer=dealer or 0,
        first_game=first_game if dealer is not None else True,
        bot_level=bot_level,
        join_friends_only=join_friends_only,
        join_min_reliability=join_min_reliability,
        join_rating_min=join_rating_min,
        join_rating_max=join_rating_max,
        join_language=join_language,
        rated=rated,
    )
    Seat.objects.create(game=game, user=creator, position=0)
    # A new open game is news for the lobby (``versions`` tells its live channel on commit).
    versions.publish(game.pk, game.version)
    return game


@transaction.atomic
def game_join(*, user: User, game_id: int, token: str | None = None) -> Game:
    """Take the lowest free seat; the game starts when this fills the last one.

    A private game takes only invited users, or anyone with its share link's ``token``. The
    game's join limits and the players' blocks apply (``games.limits.join_refusal``:
    ``NotAllowed`` with its sentence; the creator's invitation lets past a limit, never past a
    block); the blocks are read with the seats, so a game without limits costs no query more.
    Computer players are seated by the creator (``game_fill_with_bots``) or Play now: no limit
    applies to them. The user's live streams of the game end after the commit (``_seat_changed``).

    Locks the game row. A player who has a seat in the game already (open or under way) gets the
    game as it is, nothing written: the same answer to the same request, as for the second of
    two clicks (or retries) at once, which finds the seat the first one took.
    """
    game = write.lock(game_id)
    seats = write.seats_of(game, blocks_with=None if user.is_bot else user.pk)
    if not game.is_over and any(seat.user_id == user.pk for seat in seats):
        return game
    if game.status != Game.Status.OPEN:
        raise WrongStatus(_("This game is not open for joining."))
    if game.private and not (
        (token is not None and secrets.compare_digest(token, game.invite_token))
        or game.invitations.filter(user=user).exists()
    ):
        raise NotAllowed(_("This game is private: you need an invitation or its share link."))
    if len(seats) >= game.num_players:
        raise WrongStatus(_("This game is full."))
    if not user.is_bot:
        blocked = any(getattr(seat, "blocks_joiner", False) for seat in seats)
        if blocked or limits.has_limits(game):
            refusal = limits.join_refusal(game, user, blocked=blocked)
            if refusal is not None:
                raise NotAllowed(refusal)
    taken = {seat.position for seat in seats}
    position = min(p for p in range(game.num_players) if p not in taken)
    seat = Seat.objects.create(game=game, user=user, position=position)
    write.remember(seat)
    seats.append(seat)
    game.version += 1
    if len(seats) == game.num_players:
        _start(game, seats)
    write.save(game, seats)
    _seat_changed(user=user, game_id=game.pk)
    return game


def _seat_changed(*, user: User, game_id: int) -> None:
    """A seat taken or given up changes what its user's streams of the game may read (the players'
    chat or the spectators', a private game at all): after the commit they end, and the pages
    open them again with what the user may read now (``durak_site.live``)."""
    if not user.is_bot:
        live.end_streams_on_commit(user_id=user.pk, game_id=game_id)


@transaction.atomic
def game_leave(*, user: User, game_id: int) -> Game:
    """Give up a seat in an open game. The creator leaving cancels the game. The user's live
    streams of the game end after the commit (``_seat_changed``).

    Locks the game row: of two leaves at once, the second finds the seat given up (or the game
    cancelled) and is refused with ``WrongStatus`` (409), whoever asks: a seat that is not
    there is the game's state, not a permission.
    """
    game = write.lock(game_id)
    if game.is_over:
        raise WrongStatus(_("This game is over already."))
    if game.status != Game.Status.OPEN:
        raise WrongStatus(_("You can only leave a game that has not started."))
    deleted, _count = game.seats.filter(user=user).delete()
    if not deleted:
        raise WrongStatus(_("You have no seat in this game to give up."))
    if user.pk == game.creator_id:
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
    game.version += 1
    write.save(game)
    _seat_changed(user=user, game_id=game.pk)
    return game


@transaction.atomic
def game_start(*, user: User, game_id: int) -> Game:
    """Start an open game before it is full: only its creator, with at least two players."""
    game = write.lock(game_id)
    if game.status != Game.Status.OPEN:
        raise WrongStatus(_("This game has already started or ended."))
    if user.pk != game.creator_id:
        raise NotAllowed(_("Only the game's creator can start it early."))
    seats = write.seats_of(game)
    if game.deal is not None and len(seats) != game.num_players:
        raise WrongStatus(_("A game with a stacked deal starts only when every seat is taken."))
    try:
        durak.Rules.from_dict(game.rules).validate_players(len(seats))
    except ValueError as error:
        raise WrongStatus(
            ngettext(
                "Cannot start with %(count)d player: %(reason)s",
                "Cannot start with %(count)d players: %(reason)s",
                len(seats),
            )
            % {
                "count": len(seats),
                "reason": engine_message(error) if isinstance(error, durak.DurakError) else error,
            }
        ) from None
    game.version += 1
    _start(game, seats)
    write.save(game, seats)
    return game


def _engine_from_deal(
    rules: durak.Rules, deal: Mapping[str, Any], state_format: int = durak.STATE_FORMAT
) -> durak.Game:
    return durak.Game.from_deal(
        rules,
        deal["hands"],
        deal["stock"],
        dealer=deal.get("dealer", 0),
        first_attacker=deal.get("first_attacker"),
        trump=deal.get("trump"),
        state_format=state_format,
    )


def initial_engine(game: Game) -> durak.Game:
    """The engine at move 0 of ``game``: its stacked deal, or a shuffle from its seed, under the
    state format the game was stored with (a game from before the throw-in change keeps its rule)."""
    rules = durak.Rules.from_dict(game.rules)
    fmt = durak.Game.format_of(game.state) if game.state is not None else durak.STATE_FORMAT
    if game.deal is not None:
        return _engine_from_deal(rules, game.deal, fmt)
    return durak.Game.new(
        rules, game.num_players, game.seed, dealer=game.dealer, first_game=game.first_game, state_format=fmt
    )


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
        if game.first_game or game.dealer >= len(seats):
            game.dealer = game.seed % len(seats)
        engine = durak.Game.new(
            durak.Rules.from_dict(game.rules),
            len(seats),
            game.seed,
            dealer=game.dealer,
            first_game=game.first_game,
        )
    game.state = engine.to_dict()
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    game.seed_hash = deal_hash(
        rules=game.rules,
        players=game.num_players,
        seed=game.seed,
        dealer=game.dealer,
        first_game=game.first_game,
        deal=game.deal,
    )
    write.sync(game, seats, engine, started=True)


def make_move(
    *,
    user: User,
    game_id: int,
    action: Mapping[str, Any],
    expected_version: int,
    shared_game_ids: Container[int] = (),
) -> Game:
    """Apply one action of ``user`` to the game, as seen at ``expected_version``.

    Locks the game row (``select_for_update``) for the whole transaction, so
    concurrent moves on one game are serialised; the second of two moves made
    against the same version fails with ``StaleVersion``. The action is the
    engine's JSON dict; its ``"player"`` is the user's seat and may be left out.
    Raises ``IllegalMove`` with the engine's message; nothing is saved then.

    Who may see the game is decided on the locked rows (``selectors.game_visible_to``, with the
    share links of the caller's session, ``shared_game_ids``): a game the user may not see
    raises the ``GameNotFound`` of a missing game before anything else is told (not its status,
    version or "no seat").

    A move that arrives once a deadline of the game has passed is refused with
    ``TimeExpired``; the timeout is applied then and there (committed), so the
    player's next look shows its outcome.

    Returns the game as written: its creator, tournament, seats with their users
    (``game.seats.all()`` reads nothing) and engine (``game.engine()``), so that an answer needs
    no second read of them.
    """
    with transaction.atomic():
        game, late = _make_move_locked(
            user=user,
            game_id=game_id,
            action=action,
            expected_version=expected_version,
            shared_game_ids=shared_game_ids,
        )
    if late is not None:
        late_seat, deadline = late
        when = dates.with_zone(deadline, user.tz)
        if late_seat.user_id == user.pk:
            raise TimeExpired(
                _(
                    "Too late: your time for this move ran out at %(when)s, "
                    "so the move was not played and the game applied the timeout."
                )
                % {"when": when}
            )
        raise TimeExpired(
            _(
                "%(name)s's time ran out at %(when)s, before your move arrived: "
                "the game applied that timeout first, so your move was not played."
            )
            % {"name": late_seat.user.username, "when": when}
        )
    return game


def _make_move_locked(
    *,
    user: User,
    game_id: int,
    action: Mapping[str, Any],
    expected_version: int,
    shared_game_ids: Container[int],
) -> tuple[Game, tuple[Seat, datetime] | None]:
    game = write.lock(game_id, for_answer=True)
    seats = write.seats_of(game)
    write.hold_seats(game, seats)
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None and not selectors.game_visible_to(game=game, user=user, shared_game_ids=shared_game_ids):
        raise selectors.no_such_game(game_id)
    write.check_running(game, expected_version=expected_version)
    if seat is None:
        raise NotAllowed(_("You have no seat in this game."))
    try:
        late = write.play(game, seats, seat, _table_action(action, seat))
    except durak.IllegalAction as error:
        raise IllegalMove(engine_message(error)) from None
    return game, late


def _table_action(action: object, seat: Seat) -> object:
    """``action`` as ``seat``'s move on the table. What the engine cannot know is checked here:
    a system action (a timeout, resignation or claim has a service of its own) is not a table
    move, and a player moves only for their own seat. Everything else, the engine's ``apply``
    checks (a thing that is not an action dict included)."""
    if not isinstance(action, Mapping):
        return action
    if action.get("type") in SYSTEM_ACTION_TYPES:
        raise IllegalMove(_("That is not a move you can make on the table."))
    if action.get("player", seat.position) != seat.position:
        raise NotAllowed(_("You can only move for yourself."))
    return {**action, "player": seat.position}


def game_timeout(*, game_id: int, expected_version: int | None = None) -> bool:
    """Apply the timeout of the player whose deadline passed first, if one has.

    Idempotent, for the ETA task and the sweep: it locks the game row and does nothing
    unless the game is running, still at ``expected_version`` (when given) and a deadline
    has really passed (``write.timeout_if_due``). Returns whether a timeout was applied.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",), no_key=True).filter(pk=game_id).first()
        if game is None:
            return False
        return write.timeout_if_due(game, expected_version=expected_version)


def sweep_expired(*, limit: int = 1000) -> int:
    """Apply every timeout that is due (at most ``limit`` games a call); returns how many were
    applied.

    One short transaction per game: claim the running game whose deadline passed first with
    ``select_for_update(skip_locked=True)``, re-check it under its lock (``write.timeout_if_due``),
    apply, commit. So sweeps running at the same time (two beats, the helpers a busy sweep queues,
    ``tasks.sweep_deadlines``) share the due games out between them without waiting on each other
    or on a game a move is being made in, each game is touched by one of them only, and a long
    sweep holds no lock on games it has finished or not reached yet. A game is claimed at most
    once per call (with the gentle rule a timeout gives it a fresh deadline).
    """
    applied = 0
    claimed: list[int] = []
    for _attempt in range(limit):
        with transaction.atomic():
            game = (
                Game.objects.select_for_update(skip_locked=True, no_key=True, of=("self",))
                .filter(status=Game.Status.ACTIVE, timer__deadline__lte=timezone.now())
                .exclude(pk__in=claimed)
                .order_by("timer__deadline")
                .first()
            )
            if game is None:
                break
            claimed.append(game.pk)
            applied += write.timeout_if_due(game)
    return applied


def count_expired() -> int:
    """Running games whose deadline has passed (no lock: to decide whether to fan a sweep out)."""
    return Game.objects.filter(status=Game.Status.ACTIVE, timer__deadline__lte=timezone.now()).count()


@transaction.atomic
def game_invite(*, user: User, game_id: int, username: str) -> Invitation:
    """Invite a user by name to an open game (any seated player may); they are notified."""
    game = write.lock(game_id)
    if game.status != Game.Status.OPEN:
        raise WrongStatus(_("Only a game that has not started takes invitations."))
    if not game.seats.filter(user=user).exists():
        raise NotAllowed(_("Only a player of this game can invite others."))
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise NotAllowed(_("There is no player called %(name)r.") % {"name": username.strip()})
    if game.seats.filter(user=invitee).exists():
        raise NotAllowed(_("%(name)s already has a seat in this game.") % {"name": invitee.username})
    if not relations.may_invite(inviter=user, invitee=invitee):
        # One sentence for a block either way and an invitee who takes friends' invitations
        # only: a block is silent (``accounts.relations``).
        raise NotAllowed(_("You cannot invite this player."))
    invitation, created = Invitation.objects.get_or_create(
        game=game, user=invitee, defaults={"invited_by": user}
    )
    if created:
        for invited in hooks.invited:
            invited(game=game, user=invitee, invited_by=user)
    return invitation


def _seen(moves: int) -> Greatest:
    """``Seat.seen_moves`` raised to ``moves`` (never lowered: a page showing an older table
    than another tab did has not unseen anything)."""
    return Greatest(Coalesce(F("seen_moves"), Value(0)), Value(moves))


def seat_seen(*, game: Game, seat: Seat | None, moves: int | None = None) -> None:
    """Record that a seated player opened the game: it stops "your move" emails until the
    next move and the "time almost up" warning for this turn, and reads the game's
    notifications (two UPDATEs; nothing for spectators). ``moves``: how many moves of the log
    the page shows them (``Seat.seen_moves``: the history's "new" marks start after these)."""
    if seat is None:
        return
    now = timezone.now()
    fields: dict[str, Any] = {"last_seen_at": now}
    if moves is not None:
        fields["seen_moves"] = _seen(moves)
    # Never wait for a row a move holds: a page view waiting on a lock joined lock cycles with
    # moves in the worker (deadlocks). A row that a move holds now is marked on the next visit.
    with transaction.atomic():
        free = Seat.objects.filter(pk=seat.pk).select_for_update(skip_locked=True).values("pk")
        if Seat.objects.filter(pk__in=free).update(**fields):
            seat.last_seen_at = now
        for seen in hooks.game_seen:
            seen(game_id=game.pk, user_id=seat.user_id)


#: How long a page's word that it is open and visible holds (``seat_presence``): ``live.js``
#: says it again every ``PRESENCE_HEARTBEAT`` while it stays so, and at once when it is hidden.
PRESENCE_TTL = timedelta(seconds=60)
PRESENCE_HEARTBEAT = timedelta(seconds=25)


def seat_presence(*, game_id: int, user_id: int, visible: bool, version: int | None = None) -> bool:
    """The user's page of the game says whether it is open and visible now (``static/js/live.js``:
    when it opens, is shown or hidden, every ``PRESENCE_HEARTBEAT`` while shown, and when it
    closes) and, with ``version``, which version of the table it shows. Returns whether the user
    has a seat in the game (nothing is written for anyone else).

    Visible: ``Seat.present_until`` is ``PRESENCE_TTL`` from now (while it lasts no "your move"
    is written, mailed or pushed for the game: ``notifications.policy.present``), the player was
    there now (``last_seen_at``), the moves of that version are seen (``seen_moves``, when it is
    still the game's version: an older one is followed by the newer table, which says so), and
    the game's notifications are read. Hidden: ``present_until`` is cleared.

    One read of the game's version, one UPDATE of the seat: it waits for a move holding the seat
    (a short wait, holding nothing else, so never in a cycle: docs/locking.md), because a
    "hidden" that was skipped would keep the player's turns quiet for a minute. The
    notifications are read with ``SKIP LOCKED`` (``hooks.game_seen``)."""
    now = timezone.now()
    seat = Seat.objects.filter(game_id=game_id, user_id=user_id)
    if not visible:
        return bool(seat.update(present_until=None))
    fields: dict[str, Any] = {"present_until": now + PRESENCE_TTL, "last_seen_at": now}
    if version is not None:
        shown = Game.objects.filter(pk=game_id, version=version).values_list("moves_made", flat=True).first()
        if shown is not None:
            fields["seen_moves"] = _seen(shown)
    with transaction.atomic():
        if not seat.update(**fields):
            return False
        for seen in hooks.game_seen:
            seen(game_id=game_id, user_id=user_id)
    return True


#: An open game page (its table poll, its live stream) refreshes its seat's ``last_seen_at`` at
#: most this often: enough to keep the player's notifications quiet (``NOTIFY_QUIET_MINUTES``).
SEEN_REFRESH = timedelta(seconds=30)


def seat_watching(
    *,
    game_id: int,
    user_id: int,
    changed: bool,
    seat: Seat | None = None,
    shown_moves: int | None = None,
) -> None:
    """The user has the game's page open: its table poll (or live stream) just asked. Refresh
    their seat's ``last_seen_at`` if it is older than ``SEEN_REFRESH`` or than their turn (one
    UPDATE, matching nothing for a spectator; none when ``seat``, theirs as just read, is
    fresh), and, when the game ``changed`` (the page is shown a new version), read their
    notifications of the game (one more UPDATE) so that the bell does not count what the page
    shows. A poll that finds nothing new passes ``changed=False`` (and calls this at most every
    ``SEEN_REFRESH``, ``games.views``). ``shown_moves``: the page is visible and is shown that
    many moves of the log (``Seat.seen_moves``, in the same UPDATE: seen live is seen).

    Locks (docs/locking.md): never the game row; the seat, then the notifications, each with
    ``SKIP LOCKED`` (a row a move holds is marked by a later poll: that move changes the
    version), so this never waits. Neither UPDATE changes a foreign key: no key check either.
    """
    now = timezone.now()
    fields: dict[str, Any] = {"last_seen_at": now}
    unseen = shown_moves is not None and (seat is None or (seat.seen_moves or 0) < shown_moves)
    if unseen:
        assert shown_moves is not None
        fields["seen_moves"] = _seen(shown_moves)
    if seat is not None and not _seen_stale(seat, now) and not unseen:
        if not changed:
            return
        stale_seat = None
    elif unseen:
        stale_seat = Seat.objects.filter(game_id=game_id, user_id=user_id)
    else:
        stale = Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - SEEN_REFRESH)
        stale |= Q(turn_started_at__isnull=False, last_seen_at__lt=F("turn_started_at"))
        stale_seat = Seat.objects.filter(stale, game_id=game_id, user_id=user_id)
    with transaction.atomic():
        if stale_seat is not None:
            free = stale_seat.select_for_update(skip_locked=True).values("pk")
            Seat.objects.filter(pk__in=free).update(**fields)
        if changed:
            for seen in hooks.game_seen:
                seen(game_id=game_id, user_id=user_id)


def _seen_stale(seat: Seat, now: datetime) -> bool:
    seen = seat.last_seen_at
    return (
        seen is None
        or seen < now - SEEN_REFRESH
        or (seat.turn_started_at is not None and seen < seat.turn_started_at)
    )


# Moderation (``moderation.services`` calls these and writes the audit log).


@transaction.atomic
def game_resign(*, game_id: int, user: User) -> Game:
    """The engine's ``resign`` for ``user``'s seat in a running game: they walked away (or were
    suspended) and are the fool at once; in a team game their team loses.

    Locks the game row. Logged as a server action (``Move.position`` empty, the player in the
    action) like a timeout. ``WrongStatus`` if the game is not running, ``IllegalMove`` with the
    engine's message if it refuses (e.g. the player went out already).
    """
    game = write.lock_running(game_id)
    seats = write.seats_of(game)
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(_("%(name)s has no seat in this game.") % {"name": user.username})
    try:
        write.apply(game, seats, {"type": "resign", "player": seat.position}, chooser=None)
    except durak.IllegalAction as error:
        raise IllegalMove(engine_message(error)) from None
    return game


@transaction.atomic
def game_abort(*, game_id: int) -> Game:
    """End an open or running game with no result: status ``aborted``, no seat has a result or
    a place, every clock stops. Locks the game row; ``WrongStatus`` if it is over already."""
    game = write.lock(game_id)
    if game.is_over:
        raise WrongStatus(_("This game is over already."))
    seats = write.seats_of(game)
    for seat in seats:
        seat.awaiting_move = seat.must_move = False
        seat.result = Seat.Result.NONE
        seat.place = seat.deadline = seat.warn_at = seat.turn_started_at = None
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.deadline = game.claim_warn_at = None
    game.version += 1
    write.save(game, seats)
    return game


@transaction.atomic
def game_settle_stalled(*, game_id: int) -> Seat:
    """Apply the engine's ``timeout`` now, whatever the clocks say, to the player the game has
    waited on longest (ties: the lower seat); returns that seat. What follows is the engine's
    ``on_timeout`` rule ("fool": the game ends; "auto": a safe move). Locks the game row."""
    game = write.lock_running(game_id)
    seats = write.seats_of(game)
    waiting = [seat for seat in seats if seat.awaiting_move]
    if not waiting:
        raise WrongStatus(_("The game waits for nobody."))
    far = timezone.now() + MAX_MOVE_TIME
    seat = min(waiting, key=lambda s: (s.turn_started_at or far, s.position))
    if not write.apply_timeout(game, seats, seat):
        raise IllegalMove(_("The rules engine refused the timeout for this player."))
    return seat


# Leaving a running game: a player resigns, or claims a game without a clock that has waited too
# long on the others. Both are the engine's system actions, chosen by the player (so the Move row
# names their seat), and take the locks of a move: the game row, then its seats.


def waited_since(game: Game, seats: Iterable[Seat]) -> datetime | None:
    """Since when ``game`` has waited on the players it waits for now: the latest of their
    seats' ``turn_started_at`` (a move starts every waited-for player's wait again; a preference,
    which is no move, only that of a player it starts waiting for: ``timeouts.set_deadlines``).
    None for a game that is not running."""
    return timeouts.waited_since(game, seats)


def _leave_locked(*, user: User, game_id: int, expected_version: int | None) -> tuple[Game, list[Seat], Seat]:
    game = write.lock_running(game_id, expected_version=expected_version)
    seats = write.seats_of(game)
    seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(_("You have no seat in this game."))
    return game, seats, seat


def _apply_leave(game: Game, seats: list[Seat], seat: Seat, action: dict[str, Any]) -> None:
    try:
        write.apply(game, seats, action, chooser=seat.position)
    except durak.IllegalAction as error:
        raise IllegalMove(engine_message(error)) from None


@transaction.atomic
def player_resign(*, user: User, game_id: int, expected_version: int | None = None) -> Game:
    """``user`` resigns their running game: the engine's ``resign``, they are the fool at once
    (in a team game their team loses). Logged with their seat as the chooser.

    Locks the game row (as ``make_move``): against ``expected_version`` when given, a resignation
    after a move the player has not seen is ``StaleVersion``; a second one finds the game over
    (``WrongStatus``). ``IllegalMove`` with the engine's words if it refuses (they went out)."""
    game, seats, seat = _leave_locked(user=user, game_id=game_id, expected_version=expected_version)
    _apply_leave(game, seats, seat, {"type": "resign", "player": seat.position})
    return game


@transaction.atomic
def game_claim(*, user: User, game_id: int, expected_version: int | None = None) -> Game:
    """``user`` claims their running game: the engine's ``claim``, given the seconds the game has
    waited on the same players (``waited_since``) and whether it has a clock; the engine decides
    whether that is allowed and who loses (the players it waits for, as if they had resigned).

    Locks the game row, so a claim and a move at once are one after the other: a claim after the
    move is ``StaleVersion`` against ``expected_version``, or refused by the engine (the wait
    starts again); a second claim finds the game over (``WrongStatus``). A refusal
    (``IllegalMove``: too early, the game waits for this player, it has a clock) changes nothing.
    """
    game, seats, seat = _leave_locked(user=user, game_id=game_id, expected_version=expected_version)
    since = waited_since(game, seats)
    assert since is not None
    waited = max(0, int((timezone.now() - since).total_seconds()))
    action: dict[str, Any] = {"type": "claim", "player": seat.position, "waited": waited}
    if game.move_time is not None:
        action["clock"] = True  # the engine refuses it; never logged
    _apply_leave(game, seats, seat, action)
    return game


# Computer players' seats (``games.bots`` gives them their accounts and their turns).


@transaction.atomic
def game_seated(*, players: Sequence[User], **options: Any) -> Game:
    """A game of exactly ``players``, seated in that order (``players[0]`` its creator, in
    seat 0), started at once: the game a tournament's pairing (``tournaments``) decided.
    ``options`` as ``game_create`` takes them, but for ``num_players``, which is ``len(players)``.

    The pairing chose these players, so no join limit, block or invitation is asked (the
    tournament asked its own at registration); everything else is ``game_create``'s and
    ``_start``'s, the one path every game takes: clocks, notifications, history."""
    if len(set(user.pk for user in players)) != len(players):
        raise InvalidRules(_("A player cannot take two seats at one table."))
    game = game_create(creator=players[0], num_players=len(players), **options)
    game = write.lock(game.pk)
    seats = write.seats_of(game)
    for position, user in enumerate(players[1:], start=1):
        seat = Seat.objects.create(game=game, user=user, position=position)
        write.remember(seat)
        seats.append(seat)
    game.version += 1
    _start(game, seats)
    write.save(game, seats)
    return game


@transaction.atomic
def game_fill_with_bots(*, user: User, game_id: int) -> Game:
    """Seat computer players of the game's ``bot_level`` in every empty seat of an open game;
    only its creator may. The last one starts the game (``game_join``). Locks the game row: of
    two fills at once, the second finds the game under way (``WrongStatus``)."""
    game = write.lock(game_id)
    if game.status != Game.Status.OPEN:
        raise WrongStatus(_("This game is not open any more."))
    if user.pk != game.creator_id:
        raise NotAllowed(_("Only the game's creator can seat computer players."))
    if not game.bot_level:
        raise NotAllowed(_("This game was opened for people only."))
    seated = set(game.seats.values_list("user_id", flat=True))
    number = 1
    while len(seated) < game.num_players:
        bot = bots.bot_account(level=game.bot_level, number=number)
        number += 1
        if bot.pk in seated:
            continue
        game = game_join(user=bot, game_id=game.pk, token=game.invite_token)
        seated.add(bot.pk)
    return game


@transaction.atomic
def game_against_computer(*, creator: User, level: str, **options: Any) -> Game:
    """A game with ``creator`` in seat 0 and computer players of ``level`` in the others; it
    starts at once. ``options`` as ``game_create`` takes them; ``TooManyBotGames`` when the
    creator has ``BOT_GAMES_PER_USER`` such games open or running already.

    Locks the creator's row (``check_bot_games``), then the new game's: twenty requests at once
    count one after the other."""
    game = game_create(creator=creator, bot_level=level, **options)
    return game_fill_with_bots(user=creator, game_id=game.pk)


# Vacations (the clocks' arithmetic is ``games.timeouts``).


@transaction.atomic
def vacation_take(*, user: User, starts_on: date, days: int) -> Vacation:
    """Book ``days`` whole days of vacation from ``starts_on`` (today or later, in the user's
    zone), within ``VACATION_DAYS_PER_YEAR`` per calendar year, and push back the deadlines
    of the user's running correspondence games (``write.recompute_deadlines``).

    Locks the user row, so two bookings cannot both squeeze under the limit.
    """
    User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if days < 1:
        raise VacationRefused("A vacation is at least one day.")
    if starts_on < timeouts.local_today(user):
        raise VacationRefused("A vacation cannot start in the past.")
    ends_on = starts_on + timedelta(days=days - 1)
    if Vacation.objects.filter(user=user, starts_on__lte=ends_on, ends_on__gte=starts_on).exists():
        raise VacationRefused("You already have a vacation on some of those days.")
    limit = settings.VACATION_DAYS_PER_YEAR
    for year in range(starts_on.year, ends_on.year + 1):
        first, last = max(starts_on, date(year, 1, 1)), min(ends_on, date(year, 12, 31))
        wanted = (last - first).days + 1
        used = timeouts.vacation_days_used(user, year)
        if used + wanted > limit:
            raise VacationRefused(
                f"That is {wanted} day(s) in {year}, and you have {limit - used} of your {limit} left."
            )
    vacation = Vacation.objects.create(user=user, starts_on=starts_on, ends_on=ends_on)
    game_ids = list(
        Seat.objects.filter(
            user=user, awaiting_move=True, game__status=Game.Status.ACTIVE, game__move_time__isnull=False
        ).values_list("game_id", flat=True)
    )
    for game_id in game_ids:
        write.recompute_deadlines(game_id=game_id)
    return vacation
