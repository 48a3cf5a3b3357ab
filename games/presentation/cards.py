"""Cards and suits in the reader's language: the names screen readers read out, suit colours."""

from django.utils.functional import Promise
from django.utils.translation import pgettext, pgettext_lazy

import durak
from durak import RED_SUITS

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


def order_hand(cards: list[str], trump: str | None, order: str = "suit_trumps_last") -> list[str]:
    """The hand as the player chose to hold it (``accounts.models.HAND_ORDERS``): grouped by suit
    (in the deck's suit order) or by rank (low to high, then by suit), the trumps kept apart at the
    end or at the start. Presentation only: the engine's view gives the cards, this their order.

    >>> hand = ["AH", "6S", "7H", "10S", "6D"]
    >>> order_hand(hand, "S"), order_hand(hand, "S", "suit_trumps_first")
    (['7H', 'AH', '6D', '6S', '10S'], ['6S', '10S', '7H', 'AH', '6D'])
    >>> order_hand(hand, "S", "rank_trumps_last"), order_hand(hand, "S", "rank_trumps_first")
    (['6D', '7H', 'AH', '6S', '10S'], ['6S', '10S', '6D', '7H', 'AH'])
    """
    by_rank = order.startswith("rank")
    trumps_first = order.endswith("trumps_first")
    suits = {suit: i for i, suit in enumerate(durak.SUITS)}

    def key(card: str) -> tuple[int, int, int]:
        suit, value = durak.card_suit(card), durak.RANKS.index(durak.card_rank(card))
        is_trump = suit == trump
        group = (0 if is_trump else 1) if trumps_first else (1 if is_trump else 0)
        return (group, value, suits[suit]) if by_rank else (group, suits[suit], value)

    return sorted(cards, key=key)
