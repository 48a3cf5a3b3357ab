"""Cards and suits in the reader's language: the names screen readers read out, suit colours."""

from django.utils.functional import Promise
from django.utils.translation import pgettext, pgettext_lazy

import durak
from durak.cards import RED_SUITS

#: "eight of diamonds" / "восьмёрка бубен": the names screen readers read out.
_RANK_NAMES: dict[str, Promise] = {
    "2": pgettext_lazy("card rank", "two"),
    "3": pgettext_lazy("card rank", "three"),
    "4": pgettext_lazy("card rank", "four"),
    "5": pgettext_lazy("card rank", "five"),
    "6": pgettext_lazy("card rank", "six"),
    "7": pgettext_lazy("card rank", "seven"),
    "8": pgettext_lazy("card rank", "eight"),
    "9": pgettext_lazy("card rank", "nine"),
    "10": pgettext_lazy("card rank", "ten"),
    "J": pgettext_lazy("card rank", "jack"),
    "Q": pgettext_lazy("card rank", "queen"),
    "K": pgettext_lazy("card rank", "king"),
    "A": pgettext_lazy("card rank", "ace"),
}
#: A suit as in "eight of diamonds" (Russian: the genitive, "бубен").
_SUIT_OF: dict[str, Promise] = {
    "S": pgettext_lazy("of a suit", "spades"),
    "H": pgettext_lazy("of a suit", "hearts"),
    "D": pgettext_lazy("of a suit", "diamonds"),
    "C": pgettext_lazy("of a suit", "clubs"),
}
#: A suit on its own ("trump: diamonds"; Russian: "бубны").
_SUIT_ALONE: dict[str, Promise] = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
}


def card_name(card: str) -> str:
    """``"8D"`` -> ``"eight of diamonds"`` (``"восьмёрка бубен"`` in Russian)."""
    rank, suit = durak.card_rank(card), durak.card_suit(card)
    return pgettext("card name", "%(rank)s of %(suit)s") % {"rank": _RANK_NAMES[rank], "suit": _SUIT_OF[suit]}


def suit_name(suit: str | None) -> str:
    """``"D"`` -> ``"diamonds"`` (``"бубны"``); no suit: ``"none"``."""
    return str(_SUIT_ALONE[suit]) if suit in _SUIT_ALONE else pgettext("suit", "none")


def suit_colour(suit: str | None) -> str:
    """The CSS class of a suit's colour, red or black (the four-colour deck recolours by the
    card's ``suit-D``/``suit-C`` class, in the stylesheet)."""
    return "red" if suit in RED_SUITS else "black"
