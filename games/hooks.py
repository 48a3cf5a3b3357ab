"""What the apps above games add to a game's changes: asked by games, answered by those apps.

Notifications and stats sit above games (their rows point at games and seats, their services read
them), yet a move must write its notifications and a finished game must be counted, in the same
transaction. So games does not import them: each registers its callables here when the site starts
(``notifications.apps``, ``stats.apps``; stats also answers ``ratings_of``, a player's ratings
for a game's join limits), and the write core, the services and the sweep call them
(the precedent: ``chat.restrictions``, which moderation answers).

Each hook is a list of callables of one documented signature, called in the order registered.
Every hook is required: the system check ``games.E001`` (``manage.py check``, and every command
that runs the checks) fails while one has nothing registered, so that a missing app cannot
silently drop notifications or stats.
"""

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from django.core import checks
from django.db.models import Expression, QuerySet

import durak

if TYPE_CHECKING:
    from accounts.models import User

    from .models import Game, Seat


class SeatFacts(Protocol):
    """Add to the seats' one query what the handlers of ``change_recorded`` read of them
    (``select_related``, annotations); never a query of its own."""

    def __call__(self, seats: "QuerySet[Seat]", /) -> "QuerySet[Seat]": ...


class ChangeRecorded(Protocol):
    """One change of a game, inside its transaction: the game row locked, the seats written.
    ``newly_waiting``: the seats (among ``seats``) the game cannot go on without now
    (``Seat.must_move``) and could before;
    ``outcome``: the engine's ``Game.outcome()`` (None while it goes on)."""

    def __call__(
        self,
        *,
        game: "Game",
        seats: Sequence["Seat"],
        newly_waiting: Iterable["Seat"],
        started: bool,
        finished: bool,
        outcome: durak.Outcome | None,
    ) -> None: ...


class BellsChanged(Protocol):
    """The games waiting for these users changed (a seat's ``awaiting_move`` or ``must_move``
    flipped), inside the change's transaction; what follows for them comes after the commit."""

    def __call__(self, user_ids: Iterable[int], /) -> None: ...


class GameFinished(Protocol):
    """A game has just finished, inside the transaction that finishes it (the game row locked,
    before its seats are written): ``engine`` is its final state."""

    def __call__(self, *, game: "Game", seats: Iterable["Seat"], engine: durak.Game) -> None: ...


class Invited(Protocol):
    """``invited_by`` has just invited ``user`` to the open ``game`` (in the invitation's transaction)."""

    def __call__(self, *, game: "Game", user: "User", invited_by: "User") -> None: ...


class GameSeen(Protocol):
    """The user has seen the game's current state (inside a transaction; never waits for a lock)."""

    def __call__(self, *, game_id: int, user_id: int) -> None: ...


class RemindersSent(Protocol):
    """The shares of the move time (``games.timeouts.REMINDER_SHARES``) whose "time almost up"
    reminders the user got in the game since ``since`` (their turn's start)."""

    def __call__(self, *, user_id: int, game_id: int, since: datetime) -> set[int]: ...


class ShownRatings(Protocol):
    """One player's ratings as shown (in each mode), read once: for the join limits of games
    (``games.limits``: a rating range)."""

    def in_rules(self, rules: Mapping[str, Any], /) -> float | None:
        """The rating in the mode of a game of these rules; None: not rated in it yet."""
        ...

    def over_games(self) -> Expression:
        """The same, as an expression over ``Game`` rows (NULL where not rated): the lobby's
        one query compares it with each game's range."""
        ...


class RatingsOf(Protocol):
    """The player's ``ShownRatings``, in one query at most (only the first registered is asked)."""

    def __call__(self, user_id: int, /) -> ShownRatings: ...


class SweepStep(Protocol):
    """A step of the deadline sweep (``games.tasks.sweep_deadlines``, every
    ``TIMEOUT_SWEEP_SECONDS``): returns how many rows it wrote."""

    def __call__(self) -> int: ...


F = TypeVar("F")


class Hook(Generic[F]):
    """The callables registered for one hook, in the order registered."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._handlers: list[F] = []

    def register(self, handler: F) -> None:
        """Call ``handler`` from now on (once: registering it again changes nothing)."""
        if handler not in self._handlers:
            self._handlers.append(handler)

    def __iter__(self) -> Iterator[F]:
        return iter(tuple(self._handlers))

    def __bool__(self) -> bool:
        return bool(self._handlers)

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {self._handlers!r}>"


seat_facts: Hook[SeatFacts] = Hook("seat_facts")
change_recorded: Hook[ChangeRecorded] = Hook("change_recorded")
bells_changed: Hook[BellsChanged] = Hook("bells_changed")
game_finished: Hook[GameFinished] = Hook("game_finished")
invited: Hook[Invited] = Hook("invited")
game_seen: Hook[GameSeen] = Hook("game_seen")
reminders_sent: Hook[RemindersSent] = Hook("reminders_sent")
ratings_of: Hook[RatingsOf] = Hook("ratings_of")
sweep: Hook[SweepStep] = Hook("sweep")

#: Every hook, each required (``games.E001``).
HOOKS: tuple[Hook[Any], ...] = (
    seat_facts,
    change_recorded,
    bells_changed,
    game_finished,
    invited,
    game_seen,
    reminders_sent,
    ratings_of,
    sweep,
)


@checks.register()
def check_hooks(**kwargs: Any) -> list[checks.CheckMessage]:
    """``games.E001`` for each hook nothing has registered into."""
    return [
        checks.Error(
            f"Nothing is registered for the games hook {hook.name!r}: the changes of games would "
            "drop what the apps above add to them (notifications, stats).",
            hint="Keep notifications and stats in INSTALLED_APPS: their AppConfig.ready() registers them.",
            obj="games.hooks",
            id="games.E001",
        )
        for hook in HOOKS
        if not hook
    ]
