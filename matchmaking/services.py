"""Play now: joining and leaving the queue, and pairing the players who wait for the same game.

A player chooses a rule set (a preset, with its own options), a number of players and a time
control (a key of ``games.forms.TIME_CONTROLS``): their *bucket*. As soon as a bucket holds as
many waiting players as its games seat, the first of them (in the order they joined) get a game
of those rules, which starts at once. A player may also let computer players in after a wait of
their choice (``fill_after``; None: never): once that has passed, the waiting players whose wait
is over are seated with computer players in the other seats. Pairing runs on every join and in
the beat sweep (``queue_sweep``), which also drops the entries of players who left (no page of
theirs asked anything for ``QUEUE_STALE``: the waiting page asks every 30 seconds).

Locks (docs/locking.md): every write to the queue first takes the queue's transaction-level
advisory lock (PostgreSQL; SQLite runs one writer anyway), so joins, leaves and sweeps run one
after the other and each sees what the one before committed: two joins at once never both wait
without seeing each other, never make two games, and never seat one player twice (one entry per
player, a unique column). Then, inside that lock, the rows of the players whose games with
computer players are counted (``games.services.bot_games_left``: at most
``BOT_GAMES_PER_USER`` each), then the new game's rows through ``games.services`` (game → seats
→ notifications, their usual order). Nothing else takes the queue lock, and no path that holds
a game, a seat or a notification asks for it.
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import durak
from accounts import presence
from accounts.models import BOT_LEVELS, User
from accounts.relations import blocked_pairs, friend_pairs
from durak_site import live
from durak_site.celery import app, publish_on_commit
from durak_site.engine_text import engine_message
from games import limits
from games import services as game_services
from games.exceptions import InvalidRules, NotAllowed, WrongStatus
from games.forms import TIME_CONTROLS
from games.models import Game

from .models import QueueEntry

logger = logging.getLogger(__name__)

#: The longest wait a player may choose before computer players fill in.
FILL_AFTER_MAX = timedelta(hours=1)
#: An entry whose player has not been active this long is dropped (they closed the page).
QUEUE_STALE = timedelta(minutes=3)
#: The computer players' level when the player names none.
DEFAULT_BOT_LEVEL = "rules"
#: The numbers of players a quick game may have.
PLAYER_COUNTS = range(2, 7)

Bucket = tuple[str, int, str]


def move_time_of(time_control: str) -> timedelta | None:
    """The time per move of a time control key (``InvalidRules`` for an unknown one)."""
    for value, _label, move_time in TIME_CONTROLS:
        if value == time_control:
            return move_time
    raise InvalidRules(_("Unknown time control %(name)r.") % {"name": time_control})


def validate_choice(
    *, preset: str, num_players: int, time_control: str, fill_after: timedelta | None, bot_level: str
) -> None:
    """``InvalidRules`` unless this is a game the site can start: the engine says whether the
    rules seat that many players."""
    rules = game_services.build_rules(preset=preset)
    if num_players not in PLAYER_COUNTS:
        raise InvalidRules(_("A quick game has 2 to 6 players."))
    try:
        rules.validate_players(num_players)
    except durak.DurakError as error:
        raise InvalidRules(engine_message(error)) from None
    except ValueError as error:
        raise InvalidRules(str(error)) from None
    move_time_of(time_control)
    if fill_after is not None and not timedelta(0) <= fill_after <= FILL_AFTER_MAX:
        raise InvalidRules(_("The wait before computer players fill in must be at most an hour."))
    if bot_level not in dict(BOT_LEVELS):
        raise InvalidRules(_("Unknown computer level %(level)r.") % {"level": bot_level})


def _lock_queue() -> None:
    """Until the end of the transaction, no other write to the queue."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", ["matchmaking.queue"])


def queue_join(
    *,
    user: User,
    preset: str,
    num_players: int,
    time_control: str,
    fill_after: timedelta | None = None,
    bot_level: str = DEFAULT_BOT_LEVEL,
    min_reliability: int | None = None,
    friends_only: bool = False,
    rating_min: int | None = None,
    rating_max: int | None = None,
    language: str = "",
) -> QueueEntry:
    """Wait for a game of ``preset`` with ``num_players`` players and ``time_control``; replaces
    the player's entry, if any. Pairs at once when enough players wait (the entry comes back
    ``matched``, naming its game). ``fill_after``: let computer players take the empty seats once
    the player has waited that long (None: people only; zero: at once). ``min_reliability``:
    pair them only with players whose reliability is at least this (new players have none: not
    them); ``friends_only``, ``rating_min``/``rating_max`` (in the rules' mode; unrated players
    are outside any range) and ``language``: the other filters of a game's join limits
    (``games.limits``), checked by its ``limits_errors``. Two players are paired only when each
    passes the other's filters; whoever pairs, nobody is seated with a player either of them
    blocked (``_pair_locked``).

    Takes the queue lock (module docstring), then, when computer players may fill in, the
    player's row (``games.services.check_bot_games``: ``TooManyBotGames`` when they have
    ``BOT_GAMES_PER_USER`` games with computer players open or running already; their place in
    the queue, if any, stays as it was). ``InvalidRules`` for a choice the site cannot start,
    ``NotAllowed`` for a computer player's account.
    """
    validate_choice(
        preset=preset,
        num_players=num_players,
        time_control=time_control,
        fill_after=fill_after,
        bot_level=bot_level,
    )
    wrong = limits.limits_errors(
        min_reliability=min_reliability, rating_min=rating_min, rating_max=rating_max, language=language
    )
    if wrong:
        raise InvalidRules(next(iter(wrong.values())))
    if user.is_bot or not user.is_active:
        raise NotAllowed(_("Only people can wait for a game."))
    presence.touch(user)  # before the lock: joining is being active, and the queue reads it
    now = timezone.now()
    with transaction.atomic():
        _lock_queue()
        if fill_after is not None:
            game_services.check_bot_games(user=user)
        previous = QueueEntry.objects.filter(user=user).first()
        if previous is not None:
            previous.delete()
        entry = QueueEntry.objects.create(
            user=user,
            preset=preset,
            num_players=num_players,
            time_control=time_control,
            bot_level=bot_level,
            fill_after=fill_after,
            min_reliability=min_reliability,
            friends_only=friends_only,
            rating_min=rating_min,
            rating_max=rating_max,
            language=language,
            joined_at=now,
            fill_at=None if fill_after is None else now + fill_after,
        )
        changed = {entry.bucket}
        if previous is not None and previous.status == QueueEntry.Status.WAITING:
            changed.add(previous.bucket)
        _pair_locked(entry.bucket, now=now)
        _queue_changed(changed)
        if entry.fill_at is not None:
            _sweep_at(entry.fill_at)
        # Read back inside the transaction: once it commits, a join of the same player running
        # at the same moment may replace (delete) this entry, and this join's answer is its own.
        entry.refresh_from_db()
    return entry


def queue_leave(*, user: User) -> QueueEntry:
    """Stop waiting; returns the entry that was removed. Takes the queue lock. ``WrongStatus`` when
    the player is not waiting, or when their game was found already (it names the game)."""
    with transaction.atomic():
        _lock_queue()
        entry = QueueEntry.objects.filter(user=user).select_related("game").first()
        if entry is None:
            raise WrongStatus(_("You are not waiting for a game."))
        if entry.status == QueueEntry.Status.MATCHED:
            assert entry.game is not None
            if not entry.game.is_over:
                raise WrongStatus(
                    _("Your game was found already: game %(number)s.") % {"number": entry.game_id}
                )
            raise WrongStatus(_("You are not waiting for a game."))
        entry.delete()
        _queue_changed({entry.bucket})
    return entry


def queue_sweep(*, now: datetime | None = None) -> list[Game]:
    """Beat's sweep (and the ETA task at each entry's ``fill_at``): drop the entries of players
    who left, then pair every bucket, with computer players where a wait is over. Returns the
    games started. Takes the queue lock, in one short transaction."""
    now = now or timezone.now()
    with transaction.atomic():
        _lock_queue()
        waiting = QueueEntry.objects.filter(status=QueueEntry.Status.WAITING)
        buckets = set(waiting.values_list("preset", "num_players", "time_control").distinct())
        games: list[Game] = []
        for bucket in sorted(buckets):
            games += _pair_locked(bucket, now=now)
        if buckets:
            _queue_changed(buckets)
    return games


def _pair_locked(bucket: Bucket, *, now: datetime) -> list[Game]:
    """Under the queue lock: seat the waiting players of ``bucket`` in games, people first.

    In the order they joined, each player goes to the first table forming that takes them: one
    where nobody and they are kept apart by a block (``accounts.relations.blocked_pairs``, one
    query a pass) and where each one's filters hold for the other (``_suit``): the friendships
    are read in one query and the ratings in one per player, only when someone asked for them. A
    table that fills starts; the others wait on. The players whose computer fill is due are
    seated the same way, with computer players in the seats left."""
    preset, num_players, time_control = bucket
    waiting = list(
        QueueEntry.objects.filter(
            status=QueueEntry.Status.WAITING,
            preset=preset,
            num_players=num_players,
            time_control=time_control,
        )
        .select_related("user")
        .order_by("joined_at", "pk")
    )
    gone = [entry for entry in waiting if not _still_here(entry.user, now)]
    if gone:
        QueueEntry.objects.filter(pk__in=[entry.pk for entry in gone]).delete()
        waiting = [entry for entry in waiting if entry not in gone]
    if len(waiting) >= num_players or any(entry.fill_at is not None for entry in waiting):
        apart = _Apart.read(waiting, preset=preset)
    else:
        apart = _Apart()
    games = []
    tables: list[list[QueueEntry]] = []
    for entry in waiting:
        table = next((table for table in tables if _suit(entry, table, apart)), None)
        if table is None:
            tables.append([entry])
        else:
            table.append(entry)
        if table is not None and len(table) == num_players:
            tables.remove(table)
            games.append(_start_game(table, bucket, now=now, with_bots=False))
    left = [entry for table in tables for entry in table]
    waiting = sorted(left, key=lambda entry: (entry.joined_at, entry.pk))
    due = [entry for entry in waiting if entry.fill_at is not None and entry.fill_at <= now]
    if due:
        # The game with computer players is its creator's: the first of them who may have one
        # more (``BOT_GAMES_PER_USER``; the join checked, but a game may have been opened since),
        # with the others due who suit them (the rest wait for the next sweep).
        creator = next((entry for entry in due if game_services.bot_games_left(user=entry.user)), None)
        if creator is not None:
            group = [creator]
            for entry in due:
                if entry is not creator and len(group) < num_players and _suit(entry, group, apart):
                    group.append(entry)
            games.append(_start_game(group, bucket, now=now, with_bots=True))
        else:  # nobody may: they wait for people, as their pages will say
            QueueEntry.objects.filter(pk__in=[entry.pk for entry in due]).update(
                fill_after=None, fill_at=None
            )
            logger.info("play now: no computer fill in %s: its players are at their limit", bucket)
    return games


@dataclass
class _Apart:
    """What keeps the waiting players of a pass apart, read once: the blocked pairs, the
    friendships (only if someone wants friends only) and the ratings in the bucket's mode (only
    of the players, if someone wants a range)."""

    blocked: set[frozenset[int]] = field(default_factory=set)
    friends: set[frozenset[int]] = field(default_factory=set)
    ratings: dict[int, float | None] = field(default_factory=dict)

    @classmethod
    def read(cls, waiting: list[QueueEntry], *, preset: str) -> "_Apart":
        ids = [entry.user_id for entry in waiting]
        friends = friend_pairs(ids) if any(entry.friends_only for entry in waiting) else set()
        ratings: dict[int, float | None] = {}
        if any(entry.rating_min is not None or entry.rating_max is not None for entry in waiting):
            rules = game_services.build_rules(preset=preset).to_dict()
            ratings = {user_id: limits.rating_in(user_id, rules) for user_id in ids}
        return cls(blocked_pairs(ids), friends, ratings)


def _suit(entry: QueueEntry, table: list[QueueEntry], apart: _Apart) -> bool:
    """Whether ``entry`` may sit with everyone at ``table``: no block between them either way,
    and each one's filters met by the other."""
    return all(
        frozenset((entry.user_id, other.user_id)) not in apart.blocked
        and _accepts(entry, other.user, apart)
        and _accepts(other, entry.user, apart)
        for other in table
    )


def _accepts(entry: QueueEntry, user: User, apart: _Apart) -> bool:
    """Whether ``user`` passes the filters ``entry``'s player set (``games.limits``' rules)."""
    if entry.friends_only and frozenset((entry.user_id, user.pk)) not in apart.friends:
        return False
    if entry.language and entry.language != user.language:
        return False
    if entry.rating_min is not None or entry.rating_max is not None:
        rating = apart.ratings.get(user.pk)
        if rating is None:
            return False
        if (entry.rating_min is not None and rating < entry.rating_min) or (
            entry.rating_max is not None and rating > entry.rating_max
        ):
            return False
    return _reliable_enough(user, entry.min_reliability)


def _reliable_enough(user: User, minimum: int | None) -> bool:
    if minimum is None:
        return True
    reliability = user.reliability
    return reliability is not None and reliability >= minimum


def _still_here(user: User, now: datetime) -> bool:
    seen = user.last_active_at
    return user.is_active and seen is not None and seen >= now - QUEUE_STALE


def _start_game(entries: list[QueueEntry], bucket: Bucket, *, now: datetime, with_bots: bool) -> Game:
    """A game of ``bucket`` with the players of ``entries`` (the first one its creator), and
    computer players in the other seats if ``with_bots``; it starts at once."""
    preset, num_players, time_control = bucket
    creator = entries[0].user
    game = game_services.game_create(
        creator=creator,
        preset=preset,
        num_players=num_players,
        move_time=move_time_of(time_control),
        bot_level=entries[0].bot_level if with_bots else "",
    )
    for entry in entries[1:]:
        game = game_services.game_join(user=entry.user, game_id=game.pk)
    if with_bots and len(entries) < num_players:
        game = game_services.game_fill_with_bots(user=creator, game_id=game.pk)
    QueueEntry.objects.filter(pk__in=[entry.pk for entry in entries]).update(
        status=QueueEntry.Status.MATCHED, game=game, matched_at=now
    )
    for entry in entries:
        live.send_on_commit(live.user_channel(entry.user_id), "queue", {"user": entry.user_id})
    logger.info("play now: game %s started for %s player(s) of %s", game.pk, len(entries), bucket)
    return game


def _queue_changed(buckets: Iterable[Bucket]) -> None:
    """After the commit: tell the players still waiting in ``buckets`` (their list of who waits
    changed) and the lobby (its counts of who waits for what)."""
    wanted = set(buckets)
    if not wanted:
        return

    def send() -> None:
        waiting = QueueEntry.objects.filter(status=QueueEntry.Status.WAITING).values_list(
            "user_id", "preset", "num_players", "time_control"
        )
        for user_id, *bucket in waiting:
            if tuple(bucket) in wanted:
                live.send(live.user_channel(user_id), "queue", {"user": user_id})
        live.send(live.LOBBY, "lobby", {"queue": True})

    transaction.on_commit(send)


#: ``matchmaking.tasks.sweep_queue``, queued by name: the task calls these services, so this
#: module does not import it.
SWEEP_QUEUE = "matchmaking.tasks.sweep_queue"


def _sweep_at(when: datetime) -> None:
    """After the commit, a sweep at ``when`` (an entry's computer fill); beat's sweep is the net."""
    publish_on_commit(lambda: app.signature(SWEEP_QUEUE).apply_async(eta=when), "sweep_queue")
