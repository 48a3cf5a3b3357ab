"""The words of a notification, in the language of whoever reads it.

A notification is stored as its kind and the facts it reports (``Notification.params``:
the game, the deadline, who invited, how the game ended); its sentence is made when it is
shown or emailed, under the reader's language (the request's, or ``translation.override``
for an email), and its moments in the reader's time zone. ``Notification.text`` keeps the
English sentence written at the time, for the admin and for rows older than ``params``.

Beneath the models (a row's ``message`` is made here): this module knows the kinds
(``notifications.kinds``) and the facts, never a row.
"""

from datetime import datetime
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext, ngettext

from accounts.models import User
from durak_site import dates
from durak_site.engine_text import preset_name
from games import words

from .kinds import Kind


def format_local(moment: datetime, user: User) -> str:
    """A moment as the user reads it, in their time zone and language (Django's localised
    ``DATETIME_FORMAT``), with the zone's name: "March 2, 2026, 6:30 p.m. (Europe/Moscow)"."""
    return dates.with_zone(moment, user.tz)


def _moment(value: Any, user: User) -> str:
    return format_local(datetime.fromisoformat(value), user) if value else ""


def _finished(params: dict[str, Any]) -> str:
    game, how, fool = params["game"], params.get("how", ""), params.get("fool", "")
    if params.get("fool_bot"):
        fool = words.seat_name(SimpleNamespace(is_bot=True, bot_level=params["fool_bot"]))
    result = params.get("result")
    if result == "fool":
        if how == "timeout":
            return gettext("Game %(game)s is over: you are the fool (you ran out of time).") % {"game": game}
        if how == "resign":
            return gettext("Game %(game)s is over: you are the fool (you resigned).") % {"game": game}
        if how == "claim":
            return gettext(
                "Game %(game)s is over: you are the fool (it waited too long for your move and was claimed)."
            ) % {"game": game}
        return gettext("Game %(game)s is over: you are the fool.") % {"game": game}
    if result == "draw":
        return gettext("Game %(game)s is over: a draw, nobody is the fool.") % {"game": game}
    text = gettext("Game %(game)s is over: you are not the fool.") % {"game": game}
    if fool and how == "timeout":
        text += " " + gettext("%(fool)s ran out of time and is the fool.") % {"fool": fool}
    elif fool and how == "resign":
        text += " " + gettext("%(fool)s resigned and is the fool.") % {"fool": fool}
    elif fool and how == "claim":
        text += " " + gettext(
            "The game waited too long for %(fool)s and was claimed: %(fool)s is the fool."
        ) % {"fool": fool}
    elif fool:
        text += " " + gettext("%(fool)s is the fool.") % {"fool": fool}
    return text


def notification_text(kind: str, params: dict[str, Any], user: User) -> str:
    """The sentence of one notification for ``user``, in the active language."""
    game = params.get("game", "")
    if kind == Kind.GAME_STARTED:
        return gettext("Game %(game)s has started: the cards are dealt.") % {"game": game}
    if kind == Kind.YOUR_MOVE:
        text = gettext("Your move in game %(game)s.") % {"game": game}
        if params.get("deadline"):
            text += " " + gettext("You have until %(deadline)s.") % {
                "deadline": _moment(params["deadline"], user)
            }
        return text
    if kind == Kind.INVITED and "rematch" in params:
        return _rematch(params)
    if kind == Kind.INVITED:
        return gettext("%(name)s invites you to game %(game)s (%(preset)s).") % {
            "name": params.get("by", ""),
            "game": game,
            "preset": preset_name(params["preset"]) if params.get("preset") else "",
        }
    if kind == Kind.TIME_LOW:
        facts = {"game": game, "deadline": _moment(params.get("deadline"), user)}
        if _first_reminder(params):
            half = gettext("Half of your time for this move in game %(game)s is gone: move by %(deadline)s.")
            return half % facts
        return gettext("Time is almost up in game %(game)s: move by %(deadline)s.") % facts
    if kind == Kind.GAME_FINISHED:
        return _finished(params)
    raise ValueError(f"unknown notification kind {kind!r}")


def _rematch(params: dict[str, Any]) -> str:
    """An offer of a rematch after a finished game (an invitation to the next one)."""
    count = int(params.get("rematch") or 0)
    facts = {"name": params.get("by", ""), "game": params.get("game", ""), "count": count}
    text = gettext("%(name)s offers a rematch after game %(game)s.") % facts
    if count:
        proposed = ngettext(
            "Proposed: a series of %(count)d game.", "Proposed: a series of %(count)d games.", count
        )
        text += " " + proposed % facts
    return text


def _first_reminder(params: dict[str, Any]) -> bool:
    """A "time almost up" reminder sent at half the move time (``params["share"]``), not the last."""
    return int(params.get("share") or 90) < 90


def your_move_in_games(count: int) -> str:
    """The subject of one email (or the title of one push) for the "your move"s of several games."""
    return ngettext("It's your move in %(count)d game", "It's your move in %(count)d games", count) % {
        "count": count
    }


def subject(kind: str, game: object, params: dict[str, Any] | None = None) -> str:
    """An email's subject line, in the active language (``params``: the notification's facts)."""
    if kind == Kind.TIME_LOW and _first_reminder(params or {}):
        return gettext("Half of your move time is gone in game %(game)s") % {"game": game}
    if kind == Kind.INVITED and "rematch" in (params or {}):
        return gettext("%(name)s offers a rematch after game %(game)s") % {
            "name": (params or {}).get("by", ""),
            "game": game,
        }
    subjects = {
        Kind.YOUR_MOVE: gettext("Your move in game %(game)s"),
        Kind.GAME_STARTED: gettext("Game %(game)s has started"),
        Kind.INVITED: gettext("You are invited to game %(game)s"),
        Kind.GAME_FINISHED: gettext("Game %(game)s is over"),
        Kind.TIME_LOW: gettext("Time is almost up in game %(game)s"),
    }
    return subjects[Kind(kind)] % {"game": game}
