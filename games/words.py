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

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

import durak
from durak.cards import SUIT_SYMBOLS
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


#: How sentences name a computer player: by its level (``accounts.models.BOT_LEVELS``), never by
#: its account's user name.
BOT_NAMES: dict[str, Callable[[], str]] = {
    "random": lambda: _("Computer (beginner)"),
    "rules": lambda: _("Computer (rule of thumb)"),
    "search": lambda: _("Computer (strongest)"),
}


def seat_name(user: Any) -> str:
    """A seated user as the sentences name them: a person by their name, a computer player by
    its level ("Computer (beginner)")."""
    if getattr(user, "is_bot", False):
        level = BOT_NAMES.get(getattr(user, "bot_level", ""))
        return level() if level else _("Computer")
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


def _mine(action: Mapping[str, Any], kind: str) -> str:
    card = durak.pretty(action["card"]) if action.get("card") else ""
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
            _("You asked not to be waited for to throw in.")
            if action.get("on")
            else _("You asked to be waited for to throw in again.")
        ),
        "swap_trump": lambda: _("You swap the trump card."),
        "reverse": lambda: _("You reverse the direction of play."),
        "timeout": lambda: _("Your time ran out."),
        "resign": lambda: _("You resign."),
        "claim": lambda: _("You claim the game."),
    }
    return sentences[kind]() if kind in sentences else ""


def _theirs(action: Mapping[str, Any], kind: str, name: str) -> str:
    who = {"name": name}
    card = durak.pretty(action["card"]) if action.get("card") else ""
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
            _("%(name)s asked not to be waited for to throw in.")
            if action.get("on")
            else _("%(name)s asked to be waited for to throw in again.")
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
) -> str:
    """A move in words, for ``me`` (``None``: a spectator or a replay): "anna attacks with 6♠.",
    "You take the cards.". ``position``: the seat that chose it (``Move.position``; a server
    action such as a timeout has none and names its player in the action). Without
    ``show_cards`` a card play reads "anna played a card." (the last-move line, once the card
    went on into a hand)."""
    if not action:
        return ""
    kind = str(action.get("type"))
    player = position if position is not None else action.get("player")
    if not show_cards and kind in CARD_PLAYS:
        if player == me:
            return _("You played a card.")
        return _("%(name)s played a card.") % {"name": player_name(player, names)}
    sentence = _mine(action, kind) if player == me else _theirs(action, kind, player_name(player, names))
    if sentence and action.get("as_suit") and kind in CARD_PLAYS:
        sentence = _("%(move)s Named as %(suit)s.") % {
            "move": sentence,
            "suit": SUIT_SYMBOLS[action["as_suit"]],
        }
    return sentence


# --- events ---------------------------------------------------------------------------------------


def _fool_sentence(fool: int | None, me: int | None, names: Mapping[int, str]) -> str:
    if fool is None:
        return _("The game is over: a draw, nobody is the fool.")
    if fool == me:
        return _("The game is over: you are the fool.")
    return _("The game is over: %(name)s is the fool.") % {"name": player_name(fool, names)}


def _team_draw_sentence() -> str:
    return _("The game is over: a draw, no team lost.")


def outcome_sentence(
    outcome: durak.Outcome, *, me: int | None, names: Mapping[int, str], teams: bool = False
) -> str:
    """How a finished game came out (the engine's :class:`durak.Outcome`), for ``me``: "The game
    is over: anna is the fool.", "The game is over: your team lost (you and clara)."; ``teams``:
    a team game."""
    if not teams:
        return _fool_sentence(outcome.loser, me, names)
    if outcome.losing_team is None:
        return _team_draw_sentence()
    losers = join_names([seat_word(p, me=me, names=names) for p in outcome.losers])
    if me is not None and outcome.lost(me):
        return _("The game is over: your team lost (%(names)s).") % {"names": losers}
    return _("The game is over: %(team)s (%(names)s) lost.") % {
        "team": TEAM_WORDS[outcome.losing_team](),
        "names": losers,
    }


def _game_over(event: Mapping[str, Any], me: int | None, names: Mapping[int, str]) -> str:
    reason, player = event.get("reason"), event.get("player")
    name = {"name": player_name(player, names)}
    if reason == "timeout":
        return (
            _("Your time ran out: the game is over.")
            if player == me
            else (_("%(name)s ran out of time: the game is over.") % name)
        )
    if reason == "resign":
        return (
            _("You resigned: the game is over.")
            if player == me
            else (_("%(name)s resigns: the game is over.") % name)
        )
    if reason == "claim":
        return (
            _("You stopped playing: the game is claimed.")
            if player == me
            else (_("%(name)s stopped playing: the game is claimed.") % name)
        )
    if "team" in event:
        team = event.get("team")
        if team is None:
            return _team_draw_sentence()
        return _("The game is over: %(team)s lost.") % {"team": TEAM_WORDS[int(team)]()}
    return _fool_sentence(player, me, names)


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
    "game_over": _game_over,
}


def event_sentence(event: Mapping[str, Any], *, me: int | None, names: Mapping[int, str]) -> str:
    """What an engine event means, in words ("" for one that says nothing to people). Only public
    facts: a draw is a count (and the face-up trump, which everybody saw), a bout's cards lay on
    the table."""
    sentence = _EVENT_SENTENCES.get(str(event.get("type")))
    return sentence(event, me, names) if sentence else ""


def event_sentences(
    events: Iterable[Mapping[str, Any]], *, me: int | None, names: Mapping[int, str]
) -> list[str]:
    return [line for event in events if (line := event_sentence(event, me=me, names=names))]


# --- the history ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryEntry:
    """One move of the log in words, with what it led to."""

    seq: int
    move: str
    events: list[str]
    at: datetime | None
    mine: bool
    #: Made by someone else since the reader last looked at the game.
    new: bool

    @property
    def when(self) -> str:
        """``at`` as the page's other moments read: the time alone today, else the date too."""
        return dates.in_a_list(self.at) if self.at else ""


@dataclass(frozen=True)
class History:
    """The entries of a game's history, newest first."""

    entries: list[HistoryEntry]

    def __iter__(self) -> Iterator[HistoryEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def new_count(self) -> int:
        return sum(entry.new for entry in self.entries)


def history(
    moves: Iterable[Any],
    *,
    me: int | None,
    names: Mapping[int, str],
    since: datetime | None = None,
) -> History:
    """The public move log in words, newest first. ``moves``: ``Move`` rows (or anything with
    ``seq``, ``position``, ``action``, ``events``, ``created_at``), oldest first, as read at once.
    ``since``: when the reader last looked; the others' moves after it are ``new``."""
    entries = []
    for move in moves:
        player = move.position if move.position is not None else move.action.get("player")
        at = getattr(move, "created_at", None)
        mine = me is not None and player == me
        entries.append(
            HistoryEntry(
                seq=move.seq,
                move=move_sentence(move.action, me=me, names=names, position=move.position),
                events=event_sentences(move.events or [], me=me, names=names),
                at=at,
                mine=mine,
                new=bool(
                    me is not None
                    and since is not None
                    and at is not None
                    and at > since
                    and not mine
                    and durak.is_move(move.action["type"])  # a preference is no news
                ),
            )
        )
    entries.reverse()
    return History(entries)
