"""What is happening at the table now, in words: who attacks whom, what the viewer may do, whose
turn it is, which way play runs. The moves and events themselves are told by ``games.words``."""

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import words

#: How these sentences name a seat for the viewer ("you" for their own: ``words.seat_word``).
Name = Callable[[int | None], str]


def role_line(view: dict[str, Any], me: int | None, name: Name) -> str:
    """Who attacks whom: "anna attacks you."."""
    attacker, defender = view.get("attacker"), view.get("defender")
    if view.get("over") or attacker is None or defender is None:
        return ""
    if view.get("taking"):
        if defender == me:
            return _("You take the cards.")
        return _("%(defender)s takes the cards.") % {"defender": name(defender)}
    if view.get("table"):
        if attacker == me:
            return _("You attack %(defender)s.") % {"defender": name(defender)}
        if defender == me:
            return _("%(attacker)s attacks you.") % {"attacker": name(attacker)}
        return _("%(attacker)s attacks %(defender)s.") % {
            "attacker": name(attacker),
            "defender": name(defender),
        }
    if attacker == me:
        return _("You lead the next attack on %(defender)s.") % {"defender": name(defender)}
    if defender == me:
        return _("%(attacker)s leads the next attack on you.") % {"attacker": name(attacker)}
    return _("%(attacker)s leads the next attack on %(defender)s.") % {
        "attacker": name(attacker),
        "defender": name(defender),
    }


def _unbeaten(view: dict[str, Any]) -> list[str]:
    return [attack for attack, defence in view.get("table") or [] if defence is None]


def _defender_situation(view: dict[str, Any], name: Name) -> str:
    """The situation as the defender reads it."""
    if view.get("taking"):
        return _("You take the cards: the others may still throw in more.")
    unbeaten = _unbeaten(view)
    cards = words.cards_text(unbeaten)
    if unbeaten and "transfer" in {action["type"] for action in view.get("actions") or []}:
        return ngettext(
            "%(cards)s attacks you: beat it, transfer or take.",
            "%(cards)s attack you: beat them, transfer or take.",
            len(unbeaten),
        ) % {"cards": cards}
    if unbeaten:
        return ngettext(
            "%(cards)s attacks you: beat it or take.",
            "%(cards)s attack you: beat them or take.",
            len(unbeaten),
        ) % {"cards": cards}
    if view.get("table"):
        return _("You beat every card: waiting to see if more are thrown in.")
    return _("%(attacker)s is about to attack you.") % {"attacker": name(view.get("attacker"))}


def _others_situation(view: dict[str, Any], me: int | None, name: Name) -> str:
    """The situation as anyone but the defender reads it (a spectator too)."""
    target = {"defender": name(view.get("defender"))}
    waited = me is not None and me in (view.get("waiting_for") or [])
    unbeaten = _unbeaten(view)
    if view.get("taking"):
        if waited:
            return _("%(defender)s takes: throw in more cards, or say you are done.") % target
        return _("%(defender)s takes the cards.") % target
    if unbeaten:
        return ngettext(
            "%(defender)s has to beat %(cards)s or take.",
            "%(defender)s has to beat %(cards)s or take.",
            len(unbeaten),
        ) % {**target, "cards": words.cards_text(unbeaten)}
    if view.get("table"):
        if waited:
            return _("%(defender)s beat every card: throw in more, or say you are done (bito).") % target
        return _("%(defender)s beat every card.") % target
    if waited and view.get("attacker") == me:
        return _("Your lead: attack %(defender)s with one card or several of a rank.") % target
    return _("%(attacker)s leads against %(defender)s.") % {"attacker": name(view.get("attacker")), **target}


def situation_line(view: dict[str, Any], me: int | None, name: Name) -> str:
    """What is happening and what I may do, in a few words: "8♦ attacks you: beat it or take."."""
    attacker, defender = view.get("attacker"), view.get("defender")
    if view.get("over") or attacker is None or defender is None:
        return ""
    if defender == me:
        return _defender_situation(view, name)
    return _others_situation(view, me, name)


def turn_line(view: dict[str, Any], me: int | None, name: Name) -> str:
    """Whose move it is: "Your move. (carla may act too.)", "Waiting for ben and carla."."""
    waiting = list(view.get("waiting_for") or [])
    if view.get("over") or not waiting:
        return ""
    if me is not None and me in waiting:
        others = [name(p) for p in waiting if p != me]
        line = _("Your move.")
        if others:
            line += " " + _("(%(names)s may act too.)") % {"names": words.join_names(others)}
        return line
    return _("Waiting for %(names)s.") % {"names": words.join_names([name(p) for p in waiting])}


def direction_line(view: dict[str, Any]) -> str:
    """Which way play runs, in a game where an enchanted king may reverse it."""
    if view.get("direction", 1) == -1:
        return _("↺ Play runs counter-clockwise: an enchanted king reversed it.")
    if "K" in (view.get("enchanted") or []):
        return _("↻ Play runs clockwise.")
    return ""
