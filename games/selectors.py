"""Reads of games. Everything a page shows of a running game comes from
``durak.Game.view(player)`` through ``game_view``; nothing here returns hidden cards.
"""

import secrets
from collections.abc import Collection, Container, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.sessions.backends.base import SessionBase
from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, Least
from django.utils.translation import gettext as _

import durak
from accounts.models import User
from durak_site import dates

from . import limits, versions
from .exceptions import GameNotFound
from .models import CORRESPONDENCE_FROM, TOURNAMENT_TABLE, Game, Invitation, Move, Seat

_SEATS_WITH_USERS = Prefetch("seats", queryset=Seat.objects.select_related("user"))

#: The session key listing the games whose share link this browser opened with the right token.
SHARE_LINKS_SESSION_KEY = "games_share_links"


def game_version(*, game_id: int) -> int | None:
    """The game's version alone: one query, no state loaded (for polling)."""
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def no_such_game(game_id: int) -> GameNotFound:
    """What a missing game and a game the viewer may not see both answer: the same words."""
    return GameNotFound(_("There is no game %(number)s.") % {"number": game_id})


def game_get(*, game_id: int, with_tournament: bool = False) -> Game:
    """The game with its seats and their users (two queries), whoever asks: for services and
    for callers that have already checked ``game_visible_to``; views use ``game_get_for_viewer``.
    ``with_tournament``: its tournament table, round and tournament in the same query (none, a
    ``DoesNotExist`` on reading ``game.tournament_table``, for a game of no tournament)."""
    games = Game.objects.prefetch_related(_SEATS_WITH_USERS)
    if with_tournament:
        games = games.select_related(TOURNAMENT_TABLE)
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise no_such_game(game_id) from None


# Who may see a game


class ShareLinks(Container[int]):
    """The ids of the games whose share link a session opened with the right token.

    Reads the session only when asked about a private game, so the polls of public games never
    load it.
    """

    def __init__(self, session: SessionBase) -> None:
        self._session = session

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._session.get(SHARE_LINKS_SESSION_KEY, [])

    def __iter__(self) -> Iterator[int]:
        """All of them (for ``visible_games``: a list's SQL names them)."""
        return iter(list(self._session.get(SHARE_LINKS_SESSION_KEY, [])))


def share_link_game_ids(session: SessionBase) -> ShareLinks:
    """The games whose share link this session opened (lazy: see ``ShareLinks``)."""
    return ShareLinks(session)


def share_link_matches(*, game: Game, token: str) -> bool:
    """Whether ``token`` is the game's share-link token (compared in constant time)."""
    return bool(game.invite_token) and secrets.compare_digest(token.encode(), game.invite_token.encode())


def share_link_remember(*, session: SessionBase, game: Game) -> None:
    """This session opened the game's share link with the right token: it may see the game."""
    opened = list(session.get(SHARE_LINKS_SESSION_KEY, []))
    if game.pk not in opened:
        session[SHARE_LINKS_SESSION_KEY] = [*opened, game.pk]


def game_visible_to(*, game: Game, user: User | Any, shared_game_ids: Container[int]) -> bool:
    """Whether ``user`` may see anything of ``game``: its page, table partial and poll, chats,
    replay and export, and the API's detail, move log and wait. The one place this is decided
    (``visible_games`` says the same in SQL, for the lists that name games).

    A public game: everyone (anonymous visitors too). A private game: its creator; everyone with
    a seat (also a player who went out or was the fool: a seat stays once the cards are dealt);
    every invitee (``Invitation``); every session that opened its share link with the right token
    (``shared_game_ids``, from ``share_link_game_ids``; also an anonymous visitor, who may
    watch); and whoever may view games in the admin (moderators, superusers), who read the
    same there and follow the admin's links to the page and the replay. Everyone else must get
    exactly what a missing game gives (``game_get_for_viewer`` raises ``GameNotFound``), so an
    id confirms nothing.

    Needs the game row's ``pk``, ``private`` and ``creator_id``; a public game needs nothing
    more and is decided without touching ``user`` or ``shared_game_ids`` (lazy objects stay
    unloaded). For a private game it reads ``game.seats`` and ``game.invitations``: no query
    when they are prefetched, else one each; an async view prefetches them or calls this (or
    ``game_get_for_viewer``, ``game_version_for_viewer``) through ``sync_to_async``.
    """
    if not game.private:
        return True
    if game.pk in shared_game_ids:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return (
        game.creator_id == user.pk
        or any(seat.user_id == user.pk for seat in game.seats.all())
        or any(invitation.user_id == user.pk for invitation in game.invitations.all())
        or _sees_every_game(user)
    )


def _sees_every_game(user: User) -> bool:
    """Whoever may view games in the admin (an authenticated user): moderators, superusers."""
    return bool(user.is_active and user.is_staff and user.has_perm("games.view_game"))


def visible_games(
    games: QuerySet[Game], *, user: User | Any, shared_game_ids: Iterable[int]
) -> QuerySet[Game]:
    """``games`` narrowed to those ``user`` may see: ``game_visible_to``'s rule in SQL, for
    every list that names games (a profile's recent games, a series table, the API's list), so
    a private game appears, by id, title or result, only to whoever may open it. Its share
    links (``shared_game_ids``, e.g. ``share_link_game_ids``) are read here, once.

    No query of its own (one ``WHERE`` with two ``EXISTS``), except a moderator's permission
    check, who gets ``games`` unchanged. Filter seats, series rows, ... with
    ``game__in=visible_games(Game.objects.all(), ...)``. ``tests/security/test_private_games``
    checks that it and ``game_visible_to`` agree on every kind of game and viewer.
    """
    authenticated = getattr(user, "is_authenticated", False)
    if authenticated and _sees_every_game(user):
        return games
    rule = Q(private=False)
    shared = [game_id for game_id in shared_game_ids if isinstance(game_id, int)]
    if shared:
        rule |= Q(pk__in=shared)
    if authenticated:
        rule |= (
            Q(creator_id=user.pk)
            | Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk))
            | Exists(Invitation.objects.filter(game=OuterRef("pk"), user_id=user.pk))
        )
    return games.filter(rule)


def game_get_for_viewer(
    *, game_id: int, user: User | Any, shared_game_ids: Container[int], with_tournament: bool = False
) -> Game:
    """The game with its seats and their users, if ``user`` may see it (``game_visible_to``);
    else ``GameNotFound``, word for word what a missing game raises. Two queries for a public
    game, and for a private one at most one more (its invitations, when the user has no seat)."""
    game = game_get(game_id=game_id, with_tournament=with_tournament)
    if not game_visible_to(game=game, user=user, shared_game_ids=shared_game_ids):
        raise no_such_game(game_id)
    return game


#: How many moves the game page's history shows, and each of its "Earlier moves" pages.
HISTORY_PAGE = 10


@dataclass(frozen=True)
class HistoryWindow:
    """A page of a game's move log, as the history shows it: the moves from ``first`` (a
    ``Move.seq``) on, and before them the moves of the bout they start in, from its first move
    (after a ``bout_end``, or the game's first move): what the words of a pass on beaten cards
    and the last-move line need (``games.words.history``). ``moves``: oldest first.
    ``new_earlier``: how many of the others' moves before ``first`` the reader has not seen
    (``history_window``'s ``seen``), which the page counts as new without showing them."""

    moves: list[Move]
    first: int = 1
    new_earlier: int = 0

    @property
    def shown(self) -> list[Move]:
        return [move for move in self.moves if move.seq >= self.first]


def _not_by(position: int) -> Q:
    """Moves not made by the seat ``position`` (a server action names its player in the action)."""
    return ~Q(position=position) & ~Q(position__isnull=True, action__player=position)


def history_window(
    *,
    game_id: int,
    before: int | None = None,
    size: int = HISTORY_PAGE,
    last_move: bool = False,
    me: int | None = None,
    seen: int | None = None,
) -> HistoryWindow:
    """The ``size`` newest moves of the game's log before the move ``before`` (None: all of its
    latest), read with the moves of the bout the first of them is in: one query, walking the
    ``(game, seq)`` index back from the newest, whatever the length of the log. ``last_move``:
    also back to the newest move of the game (``durak.is_move``) and its bout, when preferences
    alone came after it, for the last-move line. ``me`` and ``seen`` (``Seat.seen_moves``):
    count the moves of the others after ``seen`` that come before the page
    (``HistoryWindow.new_earlier``). Every logged action is public: played cards lie face up."""
    log = Move.objects.filter(game_id=game_id)
    if before is not None:
        log = log.filter(seq__lt=before)
    first = Coalesce(Subquery(log.order_by("-seq").values("seq")[size - 1 : size]), Value(1))
    reach: Any = first
    if last_move:
        newest_move = log.filter(action__type__in=sorted(durak.MOVE_TYPES)).order_by("-seq").values("seq")
        reach = Least(first, Coalesce(Subquery(newest_move[:1]), first))
    bout_start = Subquery(
        log.filter(seq__lt=reach, events__contains=[{"type": "bout_end"}]).order_by("-seq").values("seq")[:1]
    )
    new_earlier: Any = Value(0)
    if me is not None and seen is not None:
        unseen = (
            log.filter(seq__gt=seen, seq__lt=first, action__type__in=sorted(durak.MOVE_TYPES))
            .filter(_not_by(me))
            .order_by()
            .values("game_id")
            .annotate(count=Count("pk"))
            .values("count")
        )
        new_earlier = Coalesce(Subquery(unseen), Value(0))
    rows = list(
        log.filter(seq__gt=Coalesce(bout_start, Value(0)))
        .annotate(window_first=first, window_new_earlier=new_earlier)
        .order_by("seq")
    )
    if not rows:
        return HistoryWindow(moves=[])
    return HistoryWindow(
        moves=list[Move](rows), first=rows[0].window_first, new_earlier=rows[0].window_new_earlier
    )


@dataclass(frozen=True)
class GamePage:
    """What a game page is rendered from, read at one moment: the game with its seats and their
    users, and the latest page of its move log (``history_window``; empty before the cards are
    dealt). ``seen``: how many moves the reader had seen on screen, the others' after them
    marked new (None: a spectator, one who never looked, or a page that shows them live)."""

    game: Game
    history: HistoryWindow
    seen: int | None = None

    @property
    def moves(self) -> list[Move]:
        """The moves read: those shown and the start of the bout of the first (oldest first)."""
        return self.history.moves


@contextmanager
def _one_snapshot() -> Iterator[None]:
    """Reads inside see the database at one moment. On PostgreSQL a READ COMMITTED transaction
    sees each statement's own moment, so a move committed between the game's row and its log
    would give the old table with the new last move: here the transaction is REPEATABLE READ
    (read only, so it takes no lock and waits for no one). Inside a transaction already open its
    level can no longer change: the reads are then as that transaction sees them."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def game_page(
    *,
    game_id: int,
    user: User | Any,
    shared_game_ids: Container[int],
    live: bool = False,
    held: Game | None = None,
) -> GamePage:
    """The game as ``game_get_for_viewer`` gives it (else ``GameNotFound``) and the latest
    ``HISTORY_PAGE`` moves of its log (``history_window``), all at one moment
    (``_one_snapshot``): the table, its last-move line, the history and the clocks of a page
    always agree. Three queries (four for a private game without a seat), however long the
    game. ``live``: the page is on the screen and shown this table as the game goes on, so the
    moves since the reader's seat last looked are seen, none of them new.

    ``held``: the game as a change of the user's has just written it (``services.make_move``'s
    answer: its seats held, its tournament read): only its log is read, one query, up to the
    move it wrote, so the page agrees with it even if another move has come since."""
    if held is not None:
        return _page_of(held, user=user, live=live, up_to=held.moves_made)
    with _one_snapshot():
        game = game_get_for_viewer(
            game_id=game_id, user=user, shared_game_ids=shared_game_ids, with_tournament=True
        )
        return _page_of(game, user=user, live=live)


def _page_of(game: Game, *, user: User | Any, live: bool, up_to: int | None = None) -> GamePage:
    seat = seat_of(game=game, user=user)
    seen = None
    if seat is not None:
        seen = game.moves_made if live else seat.seen_moves
    window = HistoryWindow(moves=[])
    if game.state is not None and game.version:
        window = history_window(
            game_id=game.pk,
            before=None if up_to is None else up_to + 1,
            last_move=True,
            me=None if seat is None else seat.position,
            seen=seen,
        )
    return GamePage(game=game, history=window, seen=seen)


def game_version_for_viewer(
    *, game_id: int, user: User | Any, shared_game_ids: Container[int], known: int | None = None
) -> int:
    """The game's version, for polling, if ``user`` may see the game; else ``GameNotFound``.

    One query (no session, no user loaded) for a public game, none at all when the shared cache
    holds ``known``, the version the caller has, for a game it knows to be public
    (``versions.cached``). A private game's viewer is checked as by ``game_visible_to``.
    """
    cached = versions.cached(game_id)
    if known is not None and cached == known and versions.cached_public(game_id):
        return known  # a public game: everyone may see it, the cache alone answers
    game = Game.objects.only("pk", "version", "private", "creator_id").filter(pk=game_id).first()
    if game is None:
        raise no_such_game(game_id)
    if not game_visible_to(game=game, user=user, shared_game_ids=shared_game_ids):
        raise no_such_game(game_id)
    return game.version


def seat_of(*, game: Game, user: User | Any) -> Seat | None:
    """The user's seat in a game fetched by ``game_get`` (no query)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


@dataclass(frozen=True)
class GameView:
    """What one user may see of a game: the engine's view for their seat (or a spectator's)."""

    game: Game
    seat: Seat | None
    view: dict[str, Any] | None  # None until the game has started
    #: How the game came out (``durak.Game.outcome()``); None until it is over.
    outcome: durak.Outcome | None = None

    @property
    def position(self) -> int | None:
        return None if self.seat is None else self.seat.position


def game_view(*, game: Game, user: User | Any) -> GameView:
    seat = seat_of(game=game, user=user)
    if game.state is None:
        return GameView(game=game, seat=seat, view=None)
    engine = game.engine()
    return GameView(
        game=game,
        seat=seat,
        view=engine.view(None if seat is None else seat.position),
        outcome=engine.outcome(),
    )


def lobby_open_games(
    *,
    preset: str | None = None,
    num_players: int | None = None,
    time_control: str | None = None,
    viewer: User | Any = None,
    limit: int = 50,
) -> QuerySet[Game]:
    """The public open games, newest first, that ``viewer`` may join or sits in
    (``games.limits.joinable_by``: none they are kept out of by a limit or a block; a visitor,
    or None, sees those not for friends only), narrowed by the lobby's filters: the rule set,
    the number of players, the kind of time control (``Game.time_control``: "none", "live" or
    "correspondence"). Two queries (the games, their seats with users), and one for the
    viewer's ratings, whatever their number and the viewer's friends and blocks; the state,
    seed and deal are not loaded."""
    games = limits.joinable_by(Game.objects.filter(status=Game.Status.OPEN, private=False), viewer)
    if preset:
        games = games.filter(preset=preset)
    if num_players:
        games = games.filter(num_players=num_players)
    if time_control == "none":
        games = games.filter(move_time__isnull=True)
    elif time_control == "live":
        games = games.filter(move_time__lt=CORRESPONDENCE_FROM)
    elif time_control == "correspondence":
        games = games.filter(move_time__gte=CORRESPONDENCE_FROM)
    return (
        games.defer("state", "seed", "deal")
        .select_related("creator")
        .prefetch_related(_SEATS_WITH_USERS)
        .order_by("-created_at", "-pk")[:limit]
    )


def user_games(*, user: User, limit: int = 50) -> QuerySet[Game]:
    """The user's open, running and recently finished games: those waiting for their move
    first, in the order ``turns_waiting`` gives them (the earliest deadline first, then the
    longest wait), then the running, the open and the finished ones, the latest change first.
    Each game carries ``my_turn`` (it cannot go on without them), ``my_option`` (they may act,
    and it goes on without them) and ``my_deadline`` (None without a clock or when not waited
    for)."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.ABORTED)
        .annotate(
            my_turn=Exists(mine.filter(must_move=True)),
            my_option=Exists(mine.filter(awaiting_move=True, must_move=False)),
            my_deadline=Subquery(mine.filter(must_move=True).values("deadline")[:1]),
            waiting_since=Case(When(my_turn=True, then=F("updated_at"))),
            status_order=Case(
                When(status=Game.Status.ACTIVE, then=Value(0)),
                When(status=Game.Status.OPEN, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
        )
        .prefetch_related(_SEATS_WITH_USERS)
        .order_by(
            "-my_turn",
            F("my_deadline").asc(nulls_last=True),
            F("waiting_since").asc(nulls_last=True),
            "status_order",
            "-updated_at",
            "-pk",
        )[:limit]
    )


# Whose move it is: from the stored seats (``Seat.must_move``, which ``write.sync`` copies from the
# engine's ``must_act()`` after every change, and ``awaiting_move``, from ``waiting_for()``),
# never from a game's state. A game waits for a player's move when it cannot go on without them;
# one where they only *may* act (throw in, or say "done" while the defender still has cards to
# beat) is counted apart, as optional.


@dataclass(frozen=True)
class TurnsWaiting:
    """The running games waiting for one player's move: how many, and the first two of them in
    the order to play them (``turns_waiting``); and how many more only let them act
    (``optional``: the game goes on without them)."""

    count: int
    first: tuple[int, ...]  # game ids, at most two
    optional: int = 0

    def next_game(self, *, excluding: int | None = None) -> int | None:
        """The game to play next, other than ``excluding`` (the one on the screen)."""
        return next((game_id for game_id in self.first if game_id != excluding), None)


@dataclass(frozen=True)
class TurnCounts:
    """How many running games wait for one player's move, and how many only let them act."""

    waiting: int = 0
    optional: int = 0


def _seats_waited_for(user_ids: Collection[int]) -> QuerySet[Seat]:
    return Seat.objects.filter(user_id__in=user_ids, awaiting_move=True, game__status=Game.Status.ACTIVE)


#: The order to play the games waiting for a player: the earliest deadline first (games without a
#: clock after those with one), then the one that has waited longest (its last change is oldest).
_MOST_URGENT_FIRST = (F("deadline").asc(nulls_last=True), F("game__updated_at").asc(), F("game_id").asc())


def turns_waiting(*, user_id: int) -> TurnsWaiting:
    """The games waiting for the user's move (for the header, the tab's title and the "next game"
    buttons), and how many others only let them act: one query over the user's waited-for seats
    (``seat_my_games_idx``), whatever the number of games. A throw-in counts when the bout cannot
    close without it ("throw in or say done" once every card is beaten), not while the defender
    still has cards to beat."""
    needed = Q(must_move=True)
    rows = list(
        _seats_waited_for([user_id])
        .annotate(total=Window(Count("pk")), must=Window(Count("pk", filter=needed)))
        .order_by("-must_move", *_MOST_URGENT_FIRST)
        .values_list("game_id", "must_move", "total", "must")[:2]
    )
    if not rows:
        return TurnsWaiting(count=0, first=())
    _game, _needed, total, must = rows[0]
    return TurnsWaiting(
        count=must,
        first=tuple(game_id for game_id, needed_here, _t, _m in rows if needed_here),
        optional=total - must,
    )


def turn_count_rows(user_ids: Collection[int], **before: Any) -> QuerySet[Seat, tuple[Any, ...]]:
    """The rows :func:`turn_counts` reads: ``(user_id, *before, total, must)`` for each of these
    users with a game waiting; ``before``, constant columns (expressions) ahead of the counts, so
    that another count can be read with it in one ``UNION ALL`` (the bell's)."""
    return (
        _seats_waited_for(user_ids)
        .order_by()
        .values("user_id")
        .annotate(**before, total=Count("pk"), must=Count("pk", filter=Q(must_move=True)))
        .values_list("user_id", *before, "total", "must")
    )


def turn_counts_of(rows: Iterable[tuple[Any, ...]], user_ids: Collection[int]) -> dict[int, TurnCounts]:
    """:class:`TurnCounts` for each of ``user_ids`` (zeros for none) from ``(user_id, total,
    must)`` rows."""
    found = {user_id: TurnCounts(waiting=must, optional=total - must) for user_id, total, must in rows}
    return {user_id: found.get(user_id, TurnCounts()) for user_id in user_ids}


def turn_counts(*, user_ids: Collection[int]) -> dict[int, TurnCounts]:
    """:class:`TurnCounts` for each of these users (zeros for none): one query."""
    return turn_counts_of(turn_count_rows(user_ids), user_ids)


def turns_waiting_counts(*, user_ids: Collection[int]) -> dict[int, int]:
    """How many running games wait for each of these users' move (0 for none): one query."""
    return {user_id: counts.waiting for user_id, counts in turn_counts(user_ids=user_ids).items()}


def game_list(
    *,
    user: User,
    status: str | None = None,
    mine: bool = False,
    waiting_for_me: bool = False,
    open_to_join: bool = False,
    shared_game_ids: Iterable[int] = (),
) -> QuerySet[Game]:
    """Games newest first, narrowed by every filter given; hidden columns are not loaded.

    Only the games the user may see (``visible_games``: a private game to its players,
    invitees, creator and share-link holders). ``mine``: the user has a seat.
    ``waiting_for_me``: running and the engine waits for the user. ``open_to_join``: open, with
    a free seat, and the user not seated yet.
    """
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    games = visible_games(
        Game.objects.defer("state", "seed", "deal"), user=user, shared_game_ids=shared_game_ids
    )
    if status:
        games = games.filter(status=status)
    if mine:
        games = games.filter(Exists(seated))
    if waiting_for_me:
        games = games.filter(Exists(seated.filter(awaiting_move=True)), status=Game.Status.ACTIVE)
    if open_to_join:
        taken = Seat.objects.filter(game=OuterRef("pk")).values("game").annotate(n=Count("pk")).values("n")
        games = (
            games.filter(status=Game.Status.OPEN)
            .exclude(Exists(seated))
            .annotate(seats_taken=Coalesce(Subquery(taken), 0))
            .filter(seats_taken__lt=F("num_players"))
        )
    return games.select_related("creator").prefetch_related(_SEATS_WITH_USERS).order_by("-created_at", "-pk")


def game_moves(*, game_id: int) -> QuerySet[Move]:
    """The game's move log in order. Every logged action is public: played cards lie face up."""
    return Move.objects.filter(game_id=game_id).order_by("seq")


@dataclass(frozen=True)
class Clock:
    """One running deadline, as a viewer reads it."""

    name: str
    position: int
    deadline: datetime
    local: str  # in the viewer's time zone, with the zone's name
    mine: bool


def game_clocks(*, game: Game, seats: list[Seat], viewer: User | Any) -> list[Clock]:
    """The deadlines of the players the game waits for (no query: seats come with their users)."""
    if game.status != Game.Status.ACTIVE:
        return []
    authenticated = getattr(viewer, "is_authenticated", False)
    tz = viewer.tz if authenticated else ZoneInfo("UTC")
    return [
        Clock(
            name=seat.user.username,
            position=seat.position,
            deadline=seat.deadline,
            local=dates.with_zone(seat.deadline, tz),
            mine=authenticated and seat.user_id == viewer.pk,
        )
        for seat in sorted(seats, key=lambda s: (s.deadline or datetime.max.replace(tzinfo=UTC), s.position))
        if seat.awaiting_move and seat.deadline is not None
    ]
