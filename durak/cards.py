"""Cards, suits, ranks and decks.

Cards are plain strings, rank then suit: ``"10H"``, ``"QS"``, ``"6C"``.

>>> card_rank("10H"), card_suit("10H")
('10', 'H')
>>> pretty("QS")
'Q♠'
>>> deck(24)[:3]
['9S', '10S', 'JS']
"""

from __future__ import annotations

import random
import sys
from functools import cache
from typing import Final

SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
RANKS: Final[tuple[str, ...]] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS: Final = frozenset({"H", "D"})

#: The lowest rank of each deck size: 52 cards run 2..A, 36 cards 6..A, 24 cards 9..A.
LOWEST_RANK: Final = {52: "2", 36: "6", 24: "9"}
DECK_SIZES: Final = tuple(LOWEST_RANK)


def card_rank(card: str) -> str:
    """The rank of a card: ``card_rank("10H") == "10"``."""
    return card[:-1]


def card_suit(card: str) -> str:
    """The suit of a card: ``card_suit("10H") == "H"``."""
    return card[-1]


def card_of_parts(rank: str, suit: str) -> str:
    """The card of ``rank`` and ``suit``, always the same string object (interned). The card
    tables and every dealt deck are made of these objects, so comparing two dealt cards, or
    looking one up in a table, mostly stops at the first check, that they are the same object
    (a card read from JSON is an equal string, only slower to compare).

    >>> card_of_parts("10", "H") is card_of_parts("1" + "0", "H")
    True
    """
    return sys.intern(rank + suit)


#: The index of the character of a card (and of a rank) that names its rank: the first, since
#: ten is the only rank of two characters and no other rank begins with its "1". Comparing
#: ``card[RANK_KEY]`` compares ranks with no table lookup, where the engine runs hot.
RANK_KEY: Final = 0

#: Rank strength of every card, for speed: ``RANK_VALUE["10H"] == 10``, ``RANK_VALUE["AS"] == 14``.
RANK_VALUE: Final[dict[str, int]] = {
    card_of_parts(rank, suit): value for value, rank in enumerate(RANKS, start=2) for suit in SUITS
}
ALL_CARDS: Final = frozenset(RANK_VALUE)
#: The rank and the suit of every card, looked up rather than sliced where the engine runs hot.
RANK_OF: Final[dict[str, str]] = {card: sys.intern(card_rank(card)) for card in RANK_VALUE}
SUIT_OF: Final[dict[str, str]] = {card: card_suit(card) for card in RANK_VALUE}


def is_card(value: object) -> bool:
    """Whether ``value`` is a card string.

    >>> is_card("AH"), is_card("1H"), is_card(7)
    (True, False, False)
    """
    return isinstance(value, str) and value in ALL_CARDS


def beats(attack: str, defence: str, trump: str | None) -> bool:
    """Whether ``defence`` beats ``attack``: a higher card of its suit, or any trump on a non-trump.

    >>> beats("9S", "10S", "H"), beats("9S", "6H", "H")
    (True, True)
    >>> beats("9H", "AS", "H"), beats("9H", "8H", "H")
    (False, False)
    """
    return beats_as(SUIT_OF[attack], RANK_VALUE[attack], SUIT_OF[defence], RANK_VALUE[defence], trump)


def beats_as(
    attack_suit: str, attack_value: int, defence_suit: str, defence_value: int, trump: str | None
) -> bool:
    """The base rule of beating, the one place it is written: a card of ``defence_suit`` and
    rank value ``defence_value`` beats one of ``attack_suit`` and ``attack_value`` if it is
    higher in the same suit, or a trump on a non-trump. Enchanted cards (:mod:`durak.enchanted`)
    change it for their ranks and otherwise ask it, with the suits their cards count as.

    >>> beats_as("S", 9, "S", 10, "H"), beats_as("S", 14, "H", 6, "H"), beats_as("H", 9, "S", 14, "H")
    (True, True, False)
    """
    if attack_suit == defence_suit:
        return defence_value > attack_value
    return defence_suit == trump


@cache
def beaters(trump: str | None) -> dict[str, frozenset[str]]:
    """Every card of the 52 with the cards that beat it under ``trump`` (:func:`beats`), built
    once per trump: a defender's choices are then set lookups.

    >>> sorted(beaters("H")["KS"])
    ['10H', '2H', '3H', '4H', '5H', '6H', '7H', '8H', '9H', 'AH', 'AS', 'JH', 'KH', 'QH']
    """
    return {
        attack: frozenset(defence for defence in ALL_CARDS if beats(attack, defence, trump))
        for attack in ALL_CARDS
    }


def pretty(card: str) -> str:
    """The card with its suit symbol, for people."""
    return card_rank(card) + SUIT_SYMBOLS[card_suit(card)]


#: Each deck in order, made once (of the interned cards).
_DECKS: Final[dict[int, tuple[str, ...]]] = {
    size: tuple(card_of_parts(rank, suit) for suit in SUITS for rank in RANKS[RANKS.index(low) :])
    for size, low in LOWEST_RANK.items()
}


def deck(size: int = 36) -> list[str]:
    """A fresh, ordered deck of ``size`` cards (24, 36 or 52), suit by suit, low to high."""
    if size not in _DECKS:
        raise ValueError(f"a deck has 24, 36 or 52 cards, not {size}")
    return list(_DECKS[size])


def shuffle(cards: list[str], rng: random.Random) -> None:
    """Shuffle ``cards`` in place with ``rng`` exactly as ``rng.shuffle(cards)`` does, written
    out so that the compiled build runs it compiled (a seed must deal the same cards under
    both): the Fisher-Yates shuffle of CPython's :mod:`random`, each index drawn with
    ``getrandbits`` of its bit length, a draw out of range drawn again. A test holds the two
    equal, so a Python that shuffled otherwise would be noticed, not deal other games."""
    getrandbits = rng.getrandbits
    for last in range(len(cards) - 1, 0, -1):
        below = last + 1
        bits = below.bit_length()
        other = getrandbits(bits)
        while other >= below:
            other = getrandbits(bits)
        cards[last], cards[other] = cards[other], cards[last]


def sort_hand(cards: list[str], trump: str | None) -> list[str]:
    """Cards in the order a player holds them: by suit, trumps last, low to high.

    >>> sort_hand(["AH", "6S", "7H", "10S"], trump="S")
    ['7H', 'AH', '6S', '10S']
    """
    order = {suit: i for i, suit in enumerate(s for s in SUITS if s != trump)}
    order[trump or ""] = len(SUITS)
    return sorted(cards, key=lambda c: (order[SUIT_OF[c]], RANK_VALUE[c]))
