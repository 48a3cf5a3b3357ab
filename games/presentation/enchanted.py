"""Enchanted cards on the page: how a face-up card is marked, the tap-to-read list of effects in
sight, and the create form's names for the engine's ready choices of enchanted ranks.

The effects are the engine's (``durak.enchanted``), in the site's words for it
(``durak_site.engine_text``); nothing here decides what a card does.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext

import durak
from durak import ACE_BEATS, ENCHANTED_STAGES, SIX_BEATS, SUIT_SYMBOLS
from durak_site.engine_text import effect_text

from .cards import suit_colour


@dataclass(frozen=True)
class CardMarks:
    """How a face-up card is marked on the page: enchanted or not, its effect, a short note."""

    enchanted: bool = False
    effect: str = ""
    note: str = ""  # "beats ♥" (six), "beats ♦A" (ace; never "A♦", which reads as a card), "as ♣" (an eight named on the table)
    note_colour: str = ""


def _note(card: str, view: dict[str, Any]) -> tuple[str, str]:
    """(the suit the note names, the note) for an enchanted card: an eight's named suit, the
    suit a six or an ace beats."""
    rank, suit = durak.card_rank(card), durak.card_suit(card)
    named = (view.get("named_suits") or {}).get(card)
    if named:
        return named, pgettext("an eight named as a suit", "as %(suit)s") % {"suit": SUIT_SYMBOLS[named]}
    if rank == "6":
        beaten = SIX_BEATS[suit]
        return beaten, pgettext("an enchanted six", "beats %(suit)s") % {"suit": SUIT_SYMBOLS[beaten]}
    if rank == "A":
        beaten = ACE_BEATS[suit]
        return beaten, pgettext("an enchanted ace", "beats %(suit)sA") % {"suit": SUIT_SYMBOLS[beaten]}
    return "", ""


def card_marks(card: str, view: dict[str, Any]) -> CardMarks:
    """What the view says about ``card``: whether its rank is enchanted (``view["enchanted"]``),
    the engine's sentence for its effect, the suit a six or an ace beats, an eight's named suit."""
    if durak.card_rank(card) not in (view.get("enchanted") or []):
        return CardMarks()
    note_suit, note = _note(card, view)
    return CardMarks(
        enchanted=True,
        effect=effect_text(card),
        note=note,
        note_colour=suit_colour(note_suit) if note_suit else "",
    )


@dataclass(frozen=True)
class Spell:
    """An enchanted card in sight, with its effect: the page's tap-to-read list."""

    card: str
    pretty: str
    effect: str
    note: str


def spells(cards: Iterable[str], view: dict[str, Any]) -> list[Spell]:
    """The enchanted ones of ``cards``, each once, in their order."""
    found: dict[str, Spell] = {}
    for card in cards:
        marks = card_marks(card, view)
        if marks.enchanted and card not in found:
            found[card] = Spell(card=card, pretty=durak.pretty(card), effect=marks.effect, note=marks.note)
    return list(found.values())


#: How the create form names the engine's ready choices of enchanted ranks (the rules page says
#: them more fully: ``guide.presentation.STAGE_LABELS``).
STAGE_LABELS: dict[str, Promise] = {
    "sixes_sevens": gettext_lazy("sixes and sevens"),
    "to_tens": gettext_lazy("6 to 10"),
    "to_queens": gettext_lazy("6 to queen"),
    "all": gettext_lazy("all nine ranks"),
}


def stage_label(stage: str) -> str:
    """One of ``durak.ENCHANTED_STAGES`` with its ranks: "sixes and sevens (6, 7)"."""
    ranks = ENCHANTED_STAGES[stage]
    return f"{STAGE_LABELS.get(stage, stage.replace('_', ' '))} ({', '.join(ranks)})"
