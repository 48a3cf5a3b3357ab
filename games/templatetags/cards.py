"""``{% card "10H" %}`` draws a face-up card, ``{% card_back %}`` a hidden one."""

from typing import Any

from django import template
from django.utils.translation import gettext as _

import durak
from durak import SUIT_SYMBOLS
from durak_site import engine_text
from games import presentation
from games.presentation import CardMarks, Table

register = template.Library()


@register.inclusion_tag("games/_card.html")
def card(code: str, extra_class: str = "", table: Table | None = None) -> dict[str, Any]:
    """``table`` (a ``presentation.Table``): mark the card as its view says (enchanted, its
    effect, the suit a six or an ace beats, an eight's named suit).

    The card says its suit in its classes (``suit-D``): the page's ``four-colour`` class
    turns diamonds blue and clubs green."""
    suit = durak.card_suit(code)
    marks = table.marks(code) if table is not None else CardMarks()
    name = presentation.card_name(code)
    if marks.enchanted:
        name = _("%(card)s, enchanted") % {"card": name}
        if marks.note:
            name = f"{name}, {marks.note}"
    # The last move's cards on the table, marked until the next move (presentation.Table.last_played).
    last = table is not None and extra_class in ("attack", "defence") and code in table.last_played
    if last:
        name = _("%(card)s, the last move") % {"card": name}
    rank = durak.card_rank(code)
    return {
        "marks": marks,
        "code": code,
        "rank": rank,
        "face": rank in ("J", "Q", "K"),
        "suit": SUIT_SYMBOLS[suit],
        "suit_code": suit,
        "label": name,
        "pretty": durak.pretty(code),
        "colour": presentation.suit_colour(suit),
        "extra_class": f"{extra_class} last-played" if last else extra_class,
    }


@register.inclusion_tag("games/_card_back.html")
def card_back(extra_class: str = "") -> dict[str, Any]:
    return {"extra_class": extra_class}


@register.filter
def suit_symbol(suit: str | None) -> str:
    return SUIT_SYMBOLS.get(suit or "", "")


@register.filter
def suit_colour(suit: str | None) -> str:
    return presentation.suit_colour(suit)


@register.filter
def suit_name(suit: str | None) -> str:
    return presentation.suit_name(suit)


@register.filter
def card_name(code: str) -> str:
    return presentation.card_name(code)


@register.filter
def times(count: int) -> range:
    """``{% for _ in n|times %}``: repeat a card back once per hidden card."""
    return range(int(count or 0))


@register.filter
def preset_label(name: str) -> str:
    """A preset's name in the reader's language: ``classic``."""
    return engine_text.preset_name(name)


@register.simple_tag
def override_label(name: str, value: Any) -> str:
    """One rule override as the pages show it: "Teams: partners (Full rules)" (as
    ``games.terms.rules_summary`` words them)."""
    return _("%(option)s: %(value)s") % {
        "option": engine_text.option_name(name),
        "value": engine_text.option_value(name, value),
    }
