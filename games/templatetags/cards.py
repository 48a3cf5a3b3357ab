"""``{% card "10H" %}`` draws a face-up card, ``{% card_back %}`` a hidden one."""

from typing import Any

from django import template

import durak
from games.presentation import RED_SUITS, SUIT_NAMES, SUIT_SYMBOLS, CardMarks, Table

register = template.Library()


@register.inclusion_tag("games/_card.html")
def card(code: str, extra_class: str = "", table: Table | None = None) -> dict[str, Any]:
    """``table`` (a ``presentation.Table``): mark the card as its view says (enchanted, its
    effect, the suit a six or an ace beats, an eight's named suit)."""
    suit = durak.card_suit(code)
    marks = table.marks(code) if table is not None else CardMarks()
    return {
        "marks": marks,
        "code": code,
        "rank": durak.card_rank(code),
        "suit": SUIT_SYMBOLS[suit],
        "label": f"{durak.card_rank(code)} of {SUIT_NAMES[suit]}",
        "pretty": durak.pretty(code),
        "colour": "red" if suit in RED_SUITS else "black",
        "extra_class": extra_class,
    }


@register.inclusion_tag("games/_card_back.html")
def card_back(extra_class: str = "") -> dict[str, Any]:
    return {"extra_class": extra_class}


@register.filter
def suit_symbol(suit: str | None) -> str:
    return SUIT_SYMBOLS.get(suit or "", "")


@register.filter
def suit_colour(suit: str | None) -> str:
    return "red" if suit in RED_SUITS else "black"


@register.filter
def option_value(value: Any) -> str:
    """A rule option's value as the pages show it: ``["6", "7"]`` -> ``6 7``; None -> ``none``."""
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value)) or "none"
    return str(value)


@register.filter
def times(count: int) -> range:
    """``{% for _ in n|times %}``: repeat a card back once per hidden card."""
    return range(int(count or 0))
