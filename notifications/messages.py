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
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from accounts.computers import bot_number, computer_name
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


def result_params(
    *, game: int, position: int, outcome: Any, users: dict[int, Any], teams: bool
) -> dict[str, Any]:
    """The facts of one player's "game finished", from the engine's ``outcome`` of the game
    (``durak.Outcome``: who lost, why, whom the end was about; never worked out again) and
    whether it was a team game (``durak.Rules.has_teams``). ``users``: each seat's user. A
    computer player is kept as its level and seat number, so that it is named in the reader's
    language when the notification is read ("Masha (rule of thumb)")."""
    if outcome is None:  # not a finished game of the engine's
        return {"game": game, "result": "not_fool"}
    how = outcome.reason if outcome.reason in words.ENDINGS else ""
    result = "fool" if outcome.lost(position) else "draw" if outcome.draw else "not_fool"
    params: dict[str, Any] = {"game": game, "result": result}
    if teams:
        params["teams"] = True
    if result == "draw":
        return params
    params["how"] = how
    if outcome.loser is not None and outcome.loser != position:
        params.update(_name_facts("fool", users.get(outcome.loser)))
    if how and outcome.player is not None and outcome.player != position and teams:
        params.update(_name_facts("ended_by", users.get(outcome.player)))
    elif how and outcome.player == position and teams:
        params["ended_by_me"] = True
    return params


def _name_facts(key: str, user: Any) -> dict[str, Any]:
    """``{key: name}`` for a person; a computer player's level and seat number besides."""
    if user is None:
        return {}
    if user.is_bot:
        return {
            key: user.username,
            f"{key}_bot": user.bot_level,
            f"{key}_bot_number": bot_number(user.username),
        }
    return {key: user.name}


def _name(params: dict[str, Any], key: str) -> str:
    """A name kept by :func:`_name_facts`, in the active language."""
    if params.get(f"{key}_bot"):
        return computer_name(params[f"{key}_bot"], int(params.get(f"{key}_bot_number") or 1))
    return str(params.get(key) or "")


def _finished(params: dict[str, Any]) -> str:
    """ "Game 12 is over: you won, anna is the fool." in the words of the table
    (``games.words.result_clause``)."""
    how, outcome = params.get("how") or "", params.get("result")
    teams = bool(params.get("teams"))
    about: str | None = None
    if how in words.ENDINGS:
        if teams:
            about = "" if params.get("ended_by_me") else (_name(params, "ended_by") or None)
        else:  # the player who ran out of time, resigned or was claimed against is the fool
            about = "" if outcome == "fool" else (_name(params, "fool") or None)
    result = words.Result(
        draw=outcome == "draw",
        teams=teams,
        lost=outcome == "fool",
        fool=_name(params, "fool"),
        reason=how or "cards",
        about=about,
    )
    return gettext("Game %(game)s is over: %(result)s.") % {
        "game": params["game"],
        "result": words.result_clause(result),
    }


def notification_text(kind: str, params: dict[str, Any], user: User) -> str:
    """The sentence of one notification for ``user``, in the active language."""
    game = params.get("game", "")
    if kind == Kind.GAME_STARTED:
        return gettext("Game %(game)s has started: the cards are dealt.") % {"game": game}
    if kind == Kind.YOUR_MOVE:
        times = int(params.get("times") or 1)  # the turns folded into one row (``services._write_turns``)
        if times > 1:
            text = ngettext(
                "Your move in game %(game)s (%(count)d turn since you last looked).",
                "Your move in game %(game)s (%(count)d turns since you last looked).",
                times,
            ) % {"game": game, "count": times}
        else:
            text = gettext("Your move in game %(game)s.") % {"game": game}
        if params.get("deadline"):
            text += " " + gettext("You have until %(deadline)s.") % {
                "deadline": _moment(params["deadline"], user)
            }
        return text
    if kind == Kind.REMATCH:
        return _rematch(params)
    if kind == Kind.CLAIM_POSSIBLE:
        return _claim_possible(params, user)
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
    if kind == Kind.FRIEND_REQUEST:
        return gettext("%(name)s asks to be your friend.") % {"name": params.get("by", "")}
    if kind == Kind.FRIEND_ACCEPTED:
        return gettext("%(name)s accepted your friend request.") % {"name": params.get("by", "")}
    if kind in _TOURNAMENT_TEXT:
        return _TOURNAMENT_TEXT[Kind(kind)](params, user)
    raise ValueError(f"unknown notification kind {kind!r}")


def opponents_facts(opponents: list[Any]) -> list[dict[str, Any]]:
    """The facts naming a round's opponents (users), a computer player's level and seat number
    besides (:func:`_name_facts`): named in the reader's language when read."""
    return [_name_facts("name", user) for user in opponents if user is not None]


def _opponents(params: dict[str, Any]) -> str:
    return ", ".join(_name(facts, "name") for facts in params.get("against") or [])


def place_words(rank: int) -> str:
    """A final place in the active language: "1st", "2nd", "3rd", "11th", "21st"; "3-e" (with a
    Cyrillic e) in Russian (the word for a place is neuter).

    >>> [place_words(rank) for rank in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    last, tens = rank % 10, rank % 100
    if last == 1 and tens != 11:
        words = pgettext("a final place ending in 1 (not 11): 1st, 21st", "%(rank)dst")
    elif last == 2 and tens != 12:
        words = pgettext("a final place ending in 2 (not 12): 2nd, 22nd", "%(rank)dnd")
    elif last == 3 and tens != 13:
        words = pgettext("a final place ending in 3 (not 13): 3rd, 23rd", "%(rank)drd")
    else:
        words = pgettext("any other final place: 4th, 11th, 12th", "%(rank)dth")
    return words % {"rank": rank}


def _tournament_open(params: dict[str, Any], user: User) -> str:
    return gettext("Registration for the tournament “%(tournament)s” is open: it starts on %(starts)s.") % {
        "tournament": params.get("name", ""),
        "starts": _moment(params.get("starts"), user),
    }


def _tournament_soon(params: dict[str, Any], user: User) -> str:
    return gettext("The tournament “%(tournament)s” you registered for starts on %(starts)s.") % {
        "tournament": params.get("name", ""),
        "starts": _moment(params.get("starts"), user),
    }


def _tournament_round(params: dict[str, Any], user: User) -> str:
    return gettext(
        "Round %(round)s of the tournament “%(tournament)s” has started: your game against %(against)s."
    ) % {
        "round": params.get("round", ""),
        "tournament": params.get("name", ""),
        "against": _opponents(params),
    }


def _tournament_ended(params: dict[str, Any], user: User) -> str:
    facts = {"tournament": params.get("name", "")}
    if params.get("cancelled"):
        return gettext("The tournament “%(tournament)s” was cancelled.") % facts
    rank, count = params.get("rank"), int(params.get("count") or 0)
    if not rank:
        return gettext("The tournament “%(tournament)s” has ended.") % facts
    return gettext("The tournament “%(tournament)s” has ended: you finished %(place)s of %(count)d.") % {
        **facts,
        "place": place_words(int(rank)),
        "count": count,
    }


_TOURNAMENT_TEXT = {
    Kind.TOURNAMENT_OPEN: _tournament_open,
    Kind.TOURNAMENT_SOON: _tournament_soon,
    Kind.TOURNAMENT_ROUND: _tournament_round,
    Kind.TOURNAMENT_ENDED: _tournament_ended,
}


def tournament_games_started(count: int) -> str:
    """The subject of one e-mail for the round games of several tournaments that have started."""
    return ngettext(
        "%(count)d tournament game of yours has started",
        "%(count)d tournament games of yours have started",
        count,
    ) % {"count": count}


def _tournament_subject(kind: str, params: dict[str, Any]) -> str:
    facts = {"tournament": params.get("name", ""), "round": params.get("round", "")}
    if kind == Kind.TOURNAMENT_OPEN:
        return gettext("Registration is open: %(tournament)s") % facts
    if kind == Kind.TOURNAMENT_SOON:
        return gettext("%(tournament)s starts soon") % facts
    if kind == Kind.TOURNAMENT_ROUND:
        return gettext("Round %(round)s of %(tournament)s has started") % facts
    if params.get("cancelled"):
        return gettext("%(tournament)s was cancelled") % facts
    return gettext("%(tournament)s has ended") % facts


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


def _claim_possible(params: dict[str, Any], user: User) -> str:
    """The game waited on the reader so long that the others (``params["by"]``, the players who
    may claim it) may now end it, as if the reader had resigned."""
    by = [str(name) for name in params.get("by") or []]
    facts = {
        "names": ", ".join(by),
        "game": params.get("game", ""),
        "since": _moment(params.get("since"), user),
    }
    return (
        ngettext(
            "%(names)s may claim game %(game)s from %(since)s: if you do not move, it ends as if you had resigned.",
            "%(names)s may claim game %(game)s from %(since)s: if you do not move, it ends as if you had resigned.",
            max(1, len(by)),
        )
        % facts
    )


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
    if kind in _TOURNAMENT_TEXT:
        return _tournament_subject(kind, params or {})
    if kind == Kind.TIME_LOW and _first_reminder(params or {}):
        return gettext("Half of your move time is gone in game %(game)s") % {"game": game}
    if kind == Kind.FRIEND_REQUEST:
        return gettext("%(name)s asks to be your friend") % {"name": (params or {}).get("by", "")}
    if kind == Kind.FRIEND_ACCEPTED:
        return gettext("%(name)s accepted your friend request") % {"name": (params or {}).get("by", "")}
    if kind == Kind.REMATCH:
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
        Kind.CLAIM_POSSIBLE: gettext("Game %(game)s may be claimed: it waits for your move"),
    }
    return subjects[Kind(kind)] % {"game": game}
