"""Reliability: how often a player sees their games to the end.

**What counts.** A player's *counted* games are their last ``RELIABILITY_WINDOW`` (50) finished
rated games (``Game.Status.FINISHED`` and ``Game.rated``, the newest by ``finished_at`` first)
that had at least one other person at the table: an unrated game (an unrated tournament's)
does not count, nor does a game against computers only, and an aborted game never does (it
has no result). Of those, the player *left* the ones whose seat has a
``Seat.left_by``: they ran out of time, resigned, or had the game claimed against them (the
engine's ``Outcome.reason`` and ``Outcome.player``, copied by ``games.write``).

``User.reliability_games`` and ``User.reliability_left`` hold the two figures (``User.reliability``
turns them into a percent, "new" below ``RELIABILITY_NEW_UNTIL`` games). They are kept current
by ``games.write``'s after-commit effects when a game finishes (:func:`refresh`), and
``manage.py rebuild_reliability`` recomputes them for everyone from the stored games
(:func:`rebuild`). Computers have none.

>>> from games.reliability import LEFT_REASONS
>>> sorted(LEFT_REASONS)
['claim', 'resign', 'timeout']
"""

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

import durak
from accounts import auth_cache
from accounts.models import RELIABILITY_WINDOW, User

from .models import Game, Seat

#: The ends of a game (``durak.EndReason``) that count as the player it is about leaving it.
LEFT_REASONS = frozenset({"timeout", "resign", "claim"})


def left_by(seat_position: int, outcome: durak.Outcome | None) -> str:
    """What ``Seat.left_by`` says for the seat at ``seat_position`` of a game that came out as
    ``outcome``: the reason when the end was about this seat and it was a leaving, else ""."""
    if outcome is None or outcome.reason not in LEFT_REASONS or outcome.player != seat_position:
        return ""
    return outcome.reason


def counted_seats(user_id: int) -> QuerySet[Seat]:
    """The seats of ``user_id``'s counted games, the newest first (at most the window)."""
    other_person = Seat.objects.filter(game_id=OuterRef("game_id"), user__is_bot=False).exclude(
        user_id=user_id
    )
    return (
        Seat.objects.filter(user_id=user_id, game__status=Game.Status.FINISHED, game__rated=True)
        .filter(Exists(other_person))
        .order_by("-game__finished_at", "-game_id")[:RELIABILITY_WINDOW]
    )


def figures(user_id: int) -> tuple[int, int]:
    """(games counted, games left) for ``user_id``: one aggregate query over the window."""
    totals = counted_seats(user_id).aggregate(games=Count("pk"), left=Count("pk", filter=~Q(left_by="")))
    return totals["games"], totals["left"]


def refresh(user_ids: Iterable[int]) -> None:
    """Recompute the figures of these players (people; computers are skipped) from the stored
    games and write them. Run after a finished game's commit (never inside its row lock): each
    player's row is locked for its recount and write alone, so two games finishing at once for
    the same player end with the figure of both, whichever recount runs last. Idempotent."""
    for user_id in sorted(set(user_ids)):
        with transaction.atomic():
            locked = User.objects.select_for_update().filter(pk=user_id, is_bot=False).values_list("pk")
            if not list(locked):
                continue
            games, left = figures(user_id)
            User.objects.filter(pk=user_id).update(reliability_games=games, reliability_left=left)
        auth_cache.forget_user(user_id)  # committed: a request from here on reads the new figure


def fill_left_by(*, batch: int = 500) -> int:
    """Set ``Seat.left_by`` from the stored state of finished games where no seat has one yet
    (games finished before it was recorded); returns how many seats were set. Asks the engine
    (``game.engine().outcome()``), as the write path does."""
    set_count = 0
    someone_left = Seat.objects.filter(game_id=OuterRef("pk")).exclude(left_by="")
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, state__isnull=False)
        .exclude(Exists(someone_left))
        .only("pk", "state")
    )
    for game in games.iterator(chunk_size=batch):
        assert game.state is not None
        outcome = game.engine().outcome()
        if outcome is None or outcome.player is None:
            continue
        reason = left_by(outcome.player, outcome)
        if reason:
            set_count += Seat.objects.filter(game_id=game.pk, position=outcome.player).update(left_by=reason)
    return set_count


def rebuild(*, batch: int = 500) -> int:
    """Recompute every person's figures from the stored games, ``batch`` users at a time, the
    way the live path does (:func:`refresh`: a game finishing meanwhile is not overwritten with
    an older figure); computers are set to none. Returns how many people were recomputed."""
    User.objects.filter(is_bot=True).exclude(reliability_games=0, reliability_left=0).update(
        reliability_games=0, reliability_left=0
    )
    ids = User.objects.filter(is_bot=False).order_by("pk").values_list("pk", flat=True)
    done, last = 0, 0
    while chunk := list(ids.filter(pk__gt=last)[:batch]):
        refresh(chunk)
        done += len(chunk)
        last = chunk[-1]
    return done
