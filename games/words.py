"""The site's one words layer for what happens at a table: a button's label for an action, the
sentence for a move, for each event it led to and for how the game came out, from one reader's
point of view.

The table's buttons, last-move and result lines, the game page's history, the replays and the
tutorial all take their sentences from here. Everything is told from public facts only: an action's cards were laid on
the table for everyone to see, and the engine's events (``durak.Game.events``, stored in
``Move.events``) carry counts for draws, never the cards drawn, but the face-up trump.

Russian needs a gender for a past-tense verb about a player («отбился»/«отбилась»): the
sentences that name a player are in the present tense or name the player beside a noun
(«alice: пас»), so every translation reads right for anyone.

>>> from django.utils import translation
>>> with translation.override("en"):
...     move_sentence({"type": "defend", "player": 1, "target": "7H", "card": "9H"}, me=0, names={1: "anna"})
'anna beats 7♥ with 9♥.'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

import durak
from accounts.computers import bot_number, computer_name
from durak import SUIT_SYMBOLS
from durak_site import dates

#: The actions that lay a card on the table.
CARD_PLAYS = frozenset({"attack", "throw", "defend", "transfer"})
#: Team 0 (the even seats) and team 1 (the odd seats), as the sentences name them.
TEAM_WORDS: tuple[Callable[[], str], Callable[[], str]] = (lambda: _("team A"), lambda: _("team B"))


def cards_text(cards: Iterable[str]) -> str:
    """``["6S", "10H"]`` -> ``"6♠ 10♥"``."""
    return " ".join(durak.pretty(card) for card in cards)


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def mid_sentence(sentence: str, *, mine: bool) -> str:
    """A sentence as it reads after a colon: one about the reader ("You take the cards.",
    «Вы берёте карты.») starts with its pronoun, which goes to lower case there; one that starts
    with a name keeps it as written."""
    return sentence[:1].lower() + sentence[1:] if mine else sentence


def seat_name(user: Any) -> str:
    """A seated user as the sentences name them: a person by their name, a computer player by
    its own name and level ("Masha (rule of thumb)": ``accounts.computers``), never by its
    account's user name. ``user``: a ``User``, or anything with ``is_bot``, ``bot_level`` and
    ``username`` (a computer) or ``name`` (a person)."""
    if getattr(user, "is_bot", False):
        return computer_name(getattr(user, "bot_level", ""), bot_number(getattr(user, "username", "")))
    return str(user.name)


def player_name(position: int | None, names: Mapping[int, str]) -> str:
    """A seat's name for a sentence; a seat without one reads "player 2"."""
    if position is None:
        return _("nobody")
    return names.get(position) or _("player %(number)d") % {"number": position + 1}


def seat_word(position: int | None, *, me: int | None, names: Mapping[int, str]) -> str:
    """A seat as the table names it to ``me``: "you" for their own, else :func:`player_name`."""
    if position is not None and position == me:
        return _("you")
    return player_name(position, names)


def join_names(names: Sequence[str]) -> str:
    """``["anna", "ben", "carla"]`` -> ``"anna, ben and carla"``."""
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# --- buttons --------------------------------------------------------------------------------------


def plain_action_label(action: Mapping[str, Any]) -> str:
    """A button's label for one of the engine's legal actions, without an eight's named suit."""
    kind = action["type"]
    if kind == "attack":
        return _("Attack with %(cards)s") % {"cards": cards_text(action["cards"])}
    if kind == "throw":
        return _("Throw in %(card)s") % {"card": durak.pretty(action["card"])}
    if kind == "defend":
        return _("Beat %(target)s with %(card)s") % {
            "target": durak.pretty(action["target"]),
            "card": durak.pretty(action["card"]),
        }
    if kind == "transfer":
        return _("Transfer with %(card)s") % {"card": durak.pretty(action["card"])}
    if kind == "take":
        return _("Take the cards")
    if kind == "pass":
        return pgettext("pass", "Done")
    if kind == "swap_trump":
        return _("Swap the trump card")
    if kind == "reverse":
        return _("Reverse the direction of play")
    if kind == "timeout":
        return _("Timeout")
    return str(kind).replace("_", " ").capitalize()


def action_label(action: Mapping[str, Any]) -> str:
    """A button's label: "Beat 7♦ with 9♦", "Attack with 8♣ as ♥"."""
    label = plain_action_label(action)
    if action.get("as_suit"):
        label = _("%(move)s as %(suit)s") % {"move": label, "suit": SUIT_SYMBOLS[action["as_suit"]]}
    return label


def naming_label(action: Mapping[str, Any]) -> str:
    """The label of a suit picker, before its suits: "Attack with 8♠, naming"."""
    return _("%(move)s, naming") % {"move": plain_action_label(action)}


def pass_label(view: Mapping[str, Any]) -> str:
    """The "done" button's word for the moment: every card beaten, the defender taking, or cards
    still to beat (the Russian table says «Бито» only for the first, «Пас» for the others)."""
    table = view.get("table") or []
    if view.get("taking"):
        return pgettext("pass while the defender takes", "Done")
    if table and all(defence for _attack, defence in table):
        return pgettext("pass when every card is beaten", "Done")
    return pgettext("pass while cards are still to beat", "Done")


def pass_hint() -> str:
    """What the one-word "done" button means: its title."""
    return _("Nothing more from me until a new card lands on the table.")


def confirm_question(label: str) -> str:
    """The question of the confirm bar for a button's label: "Beat 7♦ with 9♦?"."""
    return _("%(move)s?") % {"move": label}


# --- moves ----------------------------------------------------------------------------------------


def _mine(action: Mapping[str, Any], kind: str, all_beaten: bool = False) -> str:
    card = durak.pretty(action["card"]) if action.get("card") else ""
    if kind == "pass" and all_beaten:
        return pgettext("pass when every card is beaten", "You: done.")  # «Бито», as the button said
    if kind == "attack":
        return _("You attack with %(cards)s.") % {"cards": cards_text(action.get("cards") or [])}
    if kind == "throw":
        return _("You throw in %(card)s.") % {"card": card}
    if kind == "defend":
        return _("You beat %(target)s with %(card)s.") % {
            "target": durak.pretty(action["target"]),
            "card": card,
        }
    if kind == "transfer":
        return _("You transfer with %(card)s.") % {"card": card}
    sentences = {
        "take": lambda: _("You take the cards."),
        "pass": lambda: _("You: done."),  # the button's word ("Done", «Пас»)
        "auto_pass": lambda: (
            _("You pass on throw-ins.") if action.get("on") else _("You no longer pass on throw-ins.")
        ),
        "swap_trump": lambda: _("You swap the trump card."),
        "reverse": lambda: _("You reverse the direction of play."),
        "timeout": lambda: _("Your time ran out."),
        "resign": lambda: _("You resign."),
        "claim": lambda: _("You claim the game."),
    }
    return sentences[kind]() if kind in sentences else ""


def _theirs(action: Mapping[str, Any], kind: str, name: str, all_beaten: bool = False) -> str:
    who = {"name": name}
    card = durak.pretty(action["card"]) if action.get("card") else ""
    if kind == "pass" and all_beaten:
        return pgettext("pass when every card is beaten", "%(name)s: done.") % who
    if kind == "attack":
        return _("%(name)s attacks with %(cards)s.") % {**who, "cards": cards_text(action.get("cards") or [])}
    if kind == "throw":
        return _("%(name)s throws in %(card)s.") % {**who, "card": card}
    if kind == "defend":
        return _("%(name)s beats %(target)s with %(card)s.") % {
            **who,
            "target": durak.pretty(action["target"]),
            "card": card,
        }
    if kind == "transfer":
        return _("%(name)s transfers with %(card)s.") % {**who, "card": card}
    sentences = {
        "take": lambda: _("%(name)s takes the cards."),
        "pass": lambda: _("%(name)s: done."),
        "auto_pass": lambda: (
            _("%(name)s passes on throw-ins.")
            if action.get("on")
            else _("%(name)s no longer passes on throw-ins.")
        ),
        "swap_trump": lambda: _("%(name)s swaps the trump card."),
        "reverse": lambda: _("%(name)s reverses the direction of play."),
        "timeout": lambda: _("%(name)s ran out of time."),
        "resign": lambda: _("%(name)s resigns."),
        "claim": lambda: _("%(name)s claims the game."),
    }
    return sentences[kind]() % who if kind in sentences else ""


def move_sentence(
    action: Mapping[str, Any] | None,
    *,
    me: int | None,
    names: Mapping[int, str],
    position: int | None = None,
    show_cards: bool = True,
    all_beaten: bool = False,
) -> str:
    """A move in words, for ``me`` (``None``: a spectator or a replay): "anna attacks with 6♠.",
    "You take the cards.". ``position``: the seat that chose it (``Move.position``; a server
    action such as a timeout has none and names its player in the action). Without
    ``show_cards`` a card play reads "anna played a card." (the last-move line, once the card
    went on into a hand). ``all_beaten``: a pass made when every card on the table was beaten,
    which the button called «Бито» (:func:`passes_on_beaten`)."""
    if not action:
        return ""
    kind = str(action.get("type"))
    player = position if position is not None else action.get("player")
    if not show_cards and kind in CARD_PLAYS:
        if player == me:
            return _("You played a card.")
        return _("%(name)s played a card.") % {"name": player_name(player, names)}
    if player == me:
        sentence = _mine(action, kind, all_beaten)
    else:
        sentence = _theirs(action, kind, player_name(player, names), all_beaten)
    if sentence and action.get("as_suit") and kind in CARD_PLAYS:
        sentence = _("%(move)s Named as %(suit)s.") % {
            "move": sentence,
            "suit": SUIT_SYMBOLS[action["as_suit"]],
        }
    return sentence


# --- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """How a finished game came out for one reader, in the facts its words need: made from the
    engine's :class:`durak.Outcome` and team facts (:meth:`of`), never worked out again, or from
    a notification's stored facts. ``lost``: the reader lost (None: a spectator or a replay);
    ``fool``: the fool's name in a game without teams; ``losing_team``: the team that lost;
    ``reason`` and ``about``: why it ended and whom that was about ("" for the reader, None for
    nobody)."""

    draw: bool
    teams: bool
    lost: bool | None = None
    fool: str = ""
    losing_team: int | None = None
    reason: str = "cards"
    about: str | None = None

    @classmethod
    def of(cls, outcome: durak.Outcome, *, me: int | None, names: Mapping[int, str], teams: bool) -> Result:
        about = None
        if outcome.reason in ENDINGS and outcome.player is not None:
            about = "" if outcome.player == me else player_name(outcome.player, names)
        return cls(
            draw=outcome.draw,
            teams=teams,
            lost=None if me is None else outcome.lost(me),
            fool=player_name(outcome.loser, names) if outcome.loser is not None else "",
            losing_team=outcome.losing_team,
            reason=outcome.reason,
            about=about,
        )


#: The ends of a game that one player brought about, and say so beside the result.
ENDINGS = ("timeout", "resign", "claim")


def _why(result: Result) -> str:
    """Why the game ended, when one player's timeout, resignation or claim ended it."""
    if result.about is None or result.reason not in ENDINGS:
        return ""
    if result.about == "":
        return {
            "timeout": lambda: _("you ran out of time"),
            "resign": lambda: _("you resigned"),
            "claim": lambda: _("the game waited too long for your move and was claimed"),
        }[result.reason]()
    sentences = {
        "timeout": lambda: _("%(name)s ran out of time"),
        "resign": lambda: _("%(name)s resigned"),
        "claim": lambda: _("the game waited too long for %(name)s and was claimed"),
    }
    return sentences[result.reason]() % {"name": result.about}


def _fool_clause(result: Result) -> str:
    """Who is the fool, and why when it was their timeout, resignation or claim: "anna is the
    fool", "anna ran out of time and is the fool"."""
    fool = {"fool": result.fool or _("nobody")}
    if result.about and result.about == result.fool:
        ended = {
            "timeout": lambda: _("%(fool)s ran out of time and is the fool"),
            "resign": lambda: _("%(fool)s resigned and is the fool"),
            "claim": lambda: _("%(fool)s let the game wait too long and is the fool"),
        }
        if result.reason in ended:
            return ended[result.reason]() % fool
    return _("%(fool)s is the fool") % fool


def result_clause(result: Result) -> str:
    """The result in a few words, for the reader: "you are the fool", "your team lost", "you won,
    anna is the fool", "a draw, nobody is the fool" (with why, when one player's timeout,
    resignation or claim ended it). The same words on the table, in the history, the replays,
    the bell and e-mail."""
    if result.draw:
        return _("a draw, no team lost") if result.teams else _("a draw, nobody is the fool")
    if result.teams:
        if result.lost is None:
            team = TEAM_WORDS[result.losing_team]() if result.losing_team is not None else _("a team")
            clause = _("%(team)s lost") % {"team": team}
        else:
            clause = _("your team lost") if result.lost else _("your team won")
    elif result.lost:
        clause = _("you are the fool")
    elif result.lost is None:
        return _fool_clause(result)
    else:
        return _("you won, %(fool)s") % {"fool": _fool_clause(result)} if result.fool else _("you won")
    why = _why(result)
    return _("%(result)s (%(why)s)") % {"result": clause, "why": why} if why else clause


def outcome_sentence(
    outcome: durak.Outcome, *, me: int | None, names: Mapping[int, str], teams: bool = False
) -> str:
    """How a finished game came out (the engine's :class:`durak.Outcome`), for ``me``: "The game
    is over: anna is the fool.", "The game is over: your team lost."; ``teams``: a team game
    (``durak.Rules.has_teams``)."""
    return over_sentence(Result.of(outcome, me=me, names=names, teams=teams))


def over_sentence(result: Result) -> str:
    """ "The game is over: you won, anna is the fool."."""
    return _("The game is over: %(result)s.") % {"result": result_clause(result)}


def ordinal(place: int) -> str:
    """A place in the reader's language: "1st", "2nd", "11th"; in Russian the number and its ending."""
    if (translation.get_language() or "en").startswith("en"):
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place % 10 if place % 100 not in (11, 12, 13) else 0, "th")
        return f"{place}{suffix}"
    return pgettext("an ordinal place (not used in English)", "%(place)s.") % {"place": place}


@dataclass(frozen=True)
class SeatResult:
    """How a finished game came out for one seat, for a list of seats (the table's results, the
    profile, My games, the replay): from the engine's :class:`durak.Outcome` (:meth:`of`) or
    from the seat's copy of it (``Seat.result`` and ``Seat.place``, written from
    ``Game.outcome()`` by ``games.write.sync``: :meth:`stored`)."""

    lost: bool
    draw: bool
    teams: bool
    place: int | None = None
    players: int = 2

    @classmethod
    def of(cls, outcome: durak.Outcome, position: int, *, teams: bool, players: int) -> SeatResult:
        return cls(
            lost=outcome.lost(position),
            draw=outcome.draw,
            teams=teams,
            place=outcome.place(position),
            players=players,
        )

    @classmethod
    def stored(cls, *, result: str, place: int | None, teams: bool, players: int) -> SeatResult:
        return cls(lost=result == "fool", draw=result == "draw", teams=teams, place=place, players=players)

    @property
    def word(self) -> str:
        """ "the fool", "won", "team lost", "team won", "draw"."""
        if self.draw:
            return pgettext("a seat's result", "draw")
        if self.teams:
            return _("team lost") if self.lost else _("team won")
        return pgettext("a seat's result", "the fool") if self.lost else pgettext("a seat's result", "won")

    @property
    def label(self) -> str:
        """The word, with the place of a player who went out in a game of three or more: "won
        (2nd place)"."""
        if self.place is None or self.lost or self.draw or self.teams or self.players < 3:
            return self.word
        return _("%(result)s (%(place)s place)") % {"result": self.word, "place": ordinal(self.place)}


# --- events ---------------------------------------------------------------------------------------


def _game_over(
    event: Mapping[str, Any], me: int | None, names: Mapping[int, str], outcome: durak.Outcome | None
) -> str:
    """The end of the game, as the table tells it (``outcome``: the game's, if known)."""
    teams = "team" in event  # the engine names the losing team of a team game's end
    if outcome is not None:
        return outcome_sentence(outcome, me=me, names=names, teams=teams)
    reason, player = str(event.get("reason") or "cards"), event.get("player")
    if teams:  # whose team each seat is in is the outcome's to say: told as to a spectator
        team = event.get("team")
        about = None if player is None or reason not in ENDINGS else player_name(player, names)
        return over_sentence(
            Result(
                draw=team is None,
                teams=True,
                losing_team=None if team is None else int(team),
                reason=reason,
                about="" if player is not None and player == me else about,
            )
        )
    about = None
    if reason in ENDINGS and player is not None:
        about = "" if player == me else player_name(player, names)
    return over_sentence(
        Result(
            draw=player is None,
            teams=False,
            lost=None if me is None else player == me,
            fool=player_name(player, names) if player is not None else "",
            reason=reason,
            about=about,
        )
    )


def _bout_end(event: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    played = list(event.get("cards") or [])
    cards, count = cards_text(played), len(played)
    if event.get("result") == "beaten":
        return ngettext(
            "Bito: %(cards)s goes to the discard.", "Bito: %(cards)s go to the discard.", count
        ) % {"cards": cards}
    defender = event.get("defender")
    if defender == me:
        return ngettext("%(cards)s goes to your hand.", "%(cards)s go to your hand.", count) % {
            "cards": cards
        }
    return ngettext(
        "%(cards)s goes to the hand of %(name)s.", "%(cards)s go to the hand of %(name)s.", count
    ) % {"cards": cards, "name": player_name(defender, names)}


def _drew(event: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    player = event.get("player")
    count = int(event.get("count") or 0)
    if player == me:
        line = ngettext("You draw %(count)d card.", "You draw %(count)d cards.", count) % {"count": count}
    else:
        line = ngettext("%(name)s draws %(count)d card.", "%(name)s draws %(count)d cards.", count) % {
            "name": player_name(player, names),
            "count": count,
        }
    if event.get("face_up"):
        line += " " + _("The last one is the face-up trump, %(card)s.") % {
            "card": durak.pretty(event["face_up"])
        }
    return line


def _out(event: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    player = event.get("player")
    if player == me:
        return _("You have no cards left: you are out!")
    return _("%(name)s has no cards left: out of the game.") % {"name": player_name(player, names)}


def _swap(event: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    return _("Face up now: %(gave)s; %(took)s goes into the hand.") % {
        "gave": durak.pretty(event["gave"]),
        "took": durak.pretty(event["took"]),
    }


def _automatic(event: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    return _("Out of time, the game moves instead: %(move)s") % {
        "move": move_sentence(event.get("action") or {}, me=me, names=names)
    }


#: The sentence of each kind of engine event that says something to people.
_EVENT_SENTENCES: dict[str, Callable[[Mapping[str, Any], int | None, Mapping[int, str]], str]] = {
    "bout_end": _bout_end,
    "drew": _drew,
    "swap": _swap,
    "out": _out,
    "automatic": _automatic,
}


def event_sentence(
    event: Mapping[str, Any],
    *,
    me: int | None,
    names: Mapping[int, str],
    outcome: durak.Outcome | None = None,
) -> str:
    """What an engine event means, in words ("" for one that says nothing to people). Only public
    facts: a draw is a count (and the face-up trump, which everybody saw), a bout's cards lay on
    the table. ``outcome``: the finished game's (``durak.Game.outcome``), so that its end reads
    as the table's result line does."""
    if event.get("type") == "game_over":
        return _game_over(event, me, names, outcome)
    sentence = _EVENT_SENTENCES.get(str(event.get("type")))
    return sentence(event, me, names) if sentence else ""


def event_sentences(
    events: Iterable[Mapping[str, Any]],
    *,
    me: int | None,
    names: Mapping[int, str],
    outcome: durak.Outcome | None = None,
) -> list[str]:
    return [line for event in events if (line := event_sentence(event, me=me, names=names, outcome=outcome))]


# --- the history ----------------------------------------------------------------------------------


def passes_on_beaten(moves: Iterable[Any]) -> set[int]:
    """The ``seq`` of each pass made while every card on the table was beaten and nobody was
    taking: the moment the "done" button reads «Бито» (:func:`pass_label`), so that the history
    says what the button said. Read from the public log alone (``Move`` rows, oldest first):
    the cards laid, the cards beaten, a "take", and the end of each bout."""
    beaten: dict[str, bool] = {}  # each attack card on the table: beaten yet?
    taking = False
    found = set()

    def lay(action: Mapping[str, Any]) -> None:
        nonlocal taking
        kind = action.get("type")
        if kind == "attack":
            beaten.update(dict.fromkeys(action.get("cards") or [], False))
        elif kind in ("throw", "transfer"):
            beaten[action["card"]] = False
        elif kind == "defend":
            beaten[action["target"]] = True
        elif kind == "take":
            taking = True

    for move in moves:
        action = move.action
        if action.get("type") == "pass" and beaten and all(beaten.values()) and not taking:
            found.add(move.seq)
        lay(action)
        for event in move.events or []:
            if event.get("type") == "automatic":
                lay(event.get("action") or {})
            elif event.get("type") == "bout_end":
                beaten.clear()
                taking = False
    return found


@dataclass(frozen=True)
class HistoryEntry:
    """One move of the log in words, with what it led to."""

    seq: int
    move: str
    events: list[str]
    at: datetime | None
    mine: bool
    #: Made by someone else and not yet seen by the reader on screen.
    new: bool

    @property
    def when(self) -> str:
        """``at`` as the page's other moments read: the time alone today, else the date too."""
        return dates.in_a_list(self.at) if self.at else ""


@dataclass(frozen=True)
class History:
    """The entries of a game's history, newest first: all of them, or a page of the latest
    (``first_seq`` the oldest shown). ``new_earlier``: the others' moves the reader has not
    seen that come before the page, counted in ``new_count`` without being shown."""

    entries: list[HistoryEntry]
    new_earlier: int = 0

    def __iter__(self) -> Iterator[HistoryEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def new_count(self) -> int:
        return sum(entry.new for entry in self.entries) + self.new_earlier

    @property
    def first_seq(self) -> int:
        """The ``seq`` of the oldest entry shown (1 for none)."""
        return self.entries[-1].seq if self.entries else 1

    @property
    def has_earlier(self) -> bool:
        """Whether moves of the log come before the oldest entry shown."""
        return self.first_seq > 1


def history(
    moves: Iterable[Any],
    *,
    me: int | None,
    names: Mapping[int, str],
    seen: int | None = None,
    outcome: durak.Outcome | None = None,
    since: int = 1,
    new_earlier: int = 0,
) -> History:
    """The public move log in words, newest first. ``moves``: ``Move`` rows (or anything with
    ``seq``, ``position``, ``action``, ``events``, ``created_at``), oldest first, as read at once:
    the whole log, or a part of it that starts with a bout (the game's first move, or the one
    after a ``bout_end``: ``games.selectors.history_window``), which tells its moves exactly as
    the whole log would. ``since``: the ``seq`` of the first move to tell (those before only
    say what was on the table). ``seen``: how many moves of the log the reader has seen on
    screen (``Seat.seen_moves``; None: they never looked); the others' moves after those are
    ``new``, and ``new_earlier`` more of them come before ``since``. ``outcome``: the finished
    game's, told at its end as on the table."""
    moves = list(moves)
    on_beaten = passes_on_beaten(moves)
    entries = []
    for move in moves:
        if move.seq < since:
            continue
        player = move.position if move.position is not None else move.action.get("player")
        at = getattr(move, "created_at", None)
        mine = me is not None and player == me
        entries.append(
            HistoryEntry(
                seq=move.seq,
                move=move_sentence(
                    move.action, me=me, names=names, position=move.position, all_beaten=move.seq in on_beaten
                ),
                events=event_sentences(move.events or [], me=me, names=names, outcome=outcome),
                at=at,
                mine=mine,
                new=bool(
                    me is not None
                    and seen is not None
                    and move.seq > seen
                    and not mine
                    and durak.is_move(move.action["type"])  # a preference is no news
                ),
            )
        )
    entries.reverse()
    return History(entries, new_earlier=new_earlier)
