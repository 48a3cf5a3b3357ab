"""What a player may do to leave a running game, for the table's "Resign" and "Claim the game"
(``games/_leave.html``) and the API: the engine decides, this module only asks it and puts the
answer into words and the reader's dates.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import durak

from .models import Game, Seat
from .services import waited_since

#: The claim line appears once the game has waited this long on the same players.
CLAIM_LINE_AFTER = timedelta(days=1)


@dataclass(frozen=True)
class Claim:
    """A claim the viewer may make now or later, if nobody moves before."""

    against: list[str]  # the names of the players it would be against, the fool first
    against_seats: list[int]
    since: datetime  # the game has waited on them since
    possible_from: datetime
    possible: bool  # the engine allows it now
    line: str  # in words, dates in the reader's language and time zone


@dataclass(frozen=True)
class ClaimWarning:
    """The viewer is waited for, and others may claim the game from ``possible_from`` (or now)
    if the viewer does not move: the table tells them, as the bell and one e-mail do once the
    claim is possible (``notifications.services.send_claim_warnings``)."""

    by: list[str]  # the names of the players who may claim it
    possible_from: datetime
    possible: bool  # one of them may claim it now
    line: str


@dataclass(frozen=True)
class Leaving:
    can_resign: bool
    claim: Claim | None
    warning: ClaimWarning | None = None


def local_moment(moment: datetime, viewer: Any) -> str:
    """A moment in the reader's time zone (UTC for a visitor) and language."""
    tz = viewer.tz if getattr(viewer, "is_authenticated", False) else UTC
    return formats.date_format(moment.astimezone(tz), "DATETIME_FORMAT")


def leaving_for(
    *,
    game: Game,
    seat: Seat | None,
    seats: list[Seat],
    viewer: Any,
    now: datetime | None = None,
) -> Leaving | None:
    """What ``seat``'s player may do to leave ``game`` (``seats``: all of its seats, as read);
    None for a spectator or a game not running."""
    if seat is None or game.status != Game.Status.ACTIVE or game.state is None:
        return None
    engine = game.engine()
    trial = engine.copy()
    try:
        trial.apply({"type": "resign", "player": seat.position})
    except durak.IllegalAction:
        can_resign = False
    else:
        can_resign = True
    now = now or timezone.now()
    return Leaving(
        can_resign=can_resign,
        claim=_claim(game, seat, seats, engine, viewer, now),
        warning=_warning(game, seat, seats, engine, viewer, now),
    )


def _warning(
    game: Game,
    seat: Seat,
    seats: list[Seat],
    engine: durak.Game,
    viewer: Any,
    now: datetime,
) -> ClaimWarning | None:
    """What the waited-for ``seat``'s player is told of claims against them: from the moment
    the others' claim line appears (``CLAIM_LINE_AFTER``), the date from which they may claim;
    once they may, that they may now."""
    if game.move_time is not None:
        return None
    since = waited_since(game, seats)
    if since is None or now - since < CLAIM_LINE_AFTER:
        return None
    claimers = [
        (p, wait)
        for p in range(engine.players)
        if seat.position in engine.claim_against(p) and (wait := engine.claim_wait(p)) is not None
    ]
    if not claimers:
        return None
    names = {s.position: s.user.name for s in seats}
    by = [names.get(p, str(p + 1)) for p, _wait in claimers]
    possible_from = since + timedelta(seconds=min(wait for _p, wait in claimers))
    possible = now >= possible_from
    facts = {"names": ", ".join(by), "when": local_moment(possible_from, viewer)}
    if possible:
        line = ngettext(
            "%(names)s may claim the game now (since %(when)s): if you do not move, it ends as if you had "
            "resigned.",
            "%(names)s may claim the game now (since %(when)s): if you do not move, it ends as if you had "
            "resigned.",
            len(by),
        )
    else:
        line = ngettext(
            "If you do not move, %(names)s may claim the game from %(when)s: it would end as if you had "
            "resigned.",
            "If you do not move, %(names)s may claim the game from %(when)s: it would end as if you had "
            "resigned.",
            len(by),
        )
    return ClaimWarning(by=by, possible_from=possible_from, possible=possible, line=line % facts)


def _claim(
    game: Game,
    seat: Seat,
    seats: list[Seat],
    engine: durak.Game,
    viewer: Any,
    now: datetime,
) -> Claim | None:
    clock = game.move_time is not None
    wait = engine.claim_wait(seat.position, clock=clock)
    since = waited_since(game, seats)
    if wait is None or since is None or now - since < CLAIM_LINE_AFTER:
        return None
    waited = max(0, int((now - since).total_seconds()))
    possible = engine.why_no_claim(seat.position, waited=waited, clock=clock) is None
    names = {s.position: s.user.username for s in seats}
    against = [names.get(p, str(p + 1)) for p in engine.claim_against(seat.position)]
    days = waited // 86400
    waited_text = ngettext(
        "The game has waited for %(names)s for %(days)d day.",
        "The game has waited for %(names)s for %(days)d days.",
        days,
    ) % {"names": ", ".join(against), "days": days}
    possible_from = since + timedelta(seconds=wait)
    if possible:
        then = _("You may claim the game: %(fool)s will be the fool, as if they had resigned.") % {
            "fool": against[0]
        }
    else:
        then = _("You may claim the game from %(when)s if nobody moves before.") % {
            "when": local_moment(possible_from, viewer)
        }
    return Claim(
        against=against,
        against_seats=engine.claim_against(seat.position),
        since=since,
        possible_from=possible_from,
        possible=possible,
        line=f"{waited_text} {then}",
    )


def claim_of(*, game: Game, seat: Seat | None, now: datetime | None = None) -> Claim | None:
    """The claim ``seat``'s player may make in ``game`` (for the API: reads the seats)."""
    if seat is None or game.status != Game.Status.ACTIVE or game.state is None:
        return None
    prefetched = "seats" in getattr(game, "_prefetched_objects_cache", {})  # read with the game, or held
    seats = list(game.seats.all() if prefetched else game.seats.select_related("user"))
    return _claim(game, seat, seats, game.engine(), seat.user, now or timezone.now())
