"""The Black Book's enchanted cards: one :class:`Enchantment` per rank, the hooks it changes.

"If the text of an enchanted card contradicts the rules of the game, follow the text of the card.
Otherwise the rules of durak do not change." The game consults this module only for ranks that
its rules enchant; everything else plays by the base rules. Each rank's object says which of the
game's questions it answers differently ("may be thrown in", "blocks a transfer", "closes the
bout", "beats"...), and :class:`Spells` gathers them for one game's enchanted ranks: the engine
asks it, never a rank by name.

>>> enchanted_beats("10H", "6S", trump="D", enchanted=frozenset({"6"}))   # the printed example
True
>>> enchanted_beats("7H", "6S", trump="S", enchanted=frozenset({"6", "7"}))  # a trump six: no
False
>>> effect("6S")
'Beats any ♥ card, even a trump; rank does not matter.'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from durak.cards import RANK_OF, RANK_VALUE, SUIT_OF, SUIT_SYMBOLS
from durak.messages import gettext_noop

ENCHANTABLE_RANKS: Final = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: The text's suggested progression, as ready choices.
ENCHANTED_STAGES: Final[dict[str, tuple[str, ...]]] = {
    "sixes_sevens": ("6", "7"),
    "to_tens": ("6", "7", "8", "9", "10"),
    "to_queens": ("6", "7", "8", "9", "10", "J", "Q"),
    "all": ENCHANTABLE_RANKS,
}

#: The suit each enchanted six beats. The text gives one pairing, "an enchanted spade six beats a
#: heart ten"; the rest pair the other two suits the same way, so every suit is beaten by one six.
SIX_BEATS: Final = {"S": "H", "H": "S", "D": "C", "C": "D"}

#: The ace each enchanted ace beats, as printed: "The spade ace beats the diamond ace, the club
#: ace beats the heart ace, the diamond ace beats the club ace, and the heart ace beats the spade."
ACE_BEATS: Final = {"S": "D", "C": "H", "D": "C", "H": "S"}

#: Each enchanted rank's effect: English templates, marked for translation (see :func:`effect_params`).
EFFECTS: Final = {
    "6": gettext_noop("Beats any {six} card, even a trump; rank does not matter."),
    "7": gettext_noop("Cannot be beaten by a trump of another suit."),
    "8": gettext_noop(
        "Whoever plays it names a suit other than trumps; it counts as that suit on the table."
    ),
    "9": gettext_noop("May be thrown in even with no nine on the table; then the defender cannot transfer."),
    "10": gettext_noop("Cannot be transferred: every ten must be beaten."),
    "J": gettext_noop("Beaten only by a 6 to 10 of its own suit or of trumps."),
    "Q": gettext_noop("Once it has beaten a card, nothing more may be thrown in this bout."),
    "K": gettext_noop("Who beats off a bout having defended with a king may reverse the direction of play."),
    "A": gettext_noop("Beats the {ace} ace, even a trump."),
}


def effect_params(card: str) -> dict[str, str]:
    """What fills in the placeholders of ``EFFECTS[rank]`` for ``card``: the suit its six or ace beats.

    A site translates the template ``EFFECTS[rank]`` and formats it with these.
    """
    return {"six": SUIT_SYMBOLS[SIX_BEATS[SUIT_OF[card]]], "ace": SUIT_SYMBOLS[ACE_BEATS[SUIT_OF[card]]]}


def effect(card: str) -> str:
    """The effect of ``card`` when its rank is enchanted, in one sentence (English)."""
    return EFFECTS[RANK_OF[card]].format(**effect_params(card))


def enchanted_beats(
    attack: str,
    defence: str,
    trump: str | None,
    enchanted: frozenset[str],
    attack_suit: str | None = None,
    defence_suit: str | None = None,
) -> bool:
    """Whether ``defence`` beats ``attack`` when the ranks in ``enchanted`` are enchanted.

    ``attack_suit`` and ``defence_suit`` are the suits the cards count as (an enchanted eight counts
    as the suit named when it was played); by default their printed suits.
    """
    attack_suit = attack_suit or SUIT_OF[attack]
    defence_suit = defence_suit or SUIT_OF[defence]
    attack_rank, defence_rank = RANK_OF[attack], RANK_OF[defence]
    six = defence_rank == "6" and "6" in enchanted and SIX_BEATS[SUIT_OF[defence]] == attack_suit
    # "A non-trump enchanted six can beat a seven, but a trump spade six does not beat a heart
    # seven": a six's power wins over a restriction only when the six is not a trump.
    six_not_trump = six and defence_suit != trump
    if attack_rank == "7" and "7" in enchanted:
        if defence_suit == attack_suit:
            return RANK_VALUE[defence] > RANK_VALUE[attack]
        return six_not_trump
    if attack_rank == "J" and "J" in enchanted:
        if six_not_trump:
            return True
        lower = RANK_VALUE[defence] < RANK_VALUE[attack]
        return lower and defence_suit in (attack_suit, trump)
    if six:
        return True
    ace = attack_rank == defence_rank == "A" and "A" in enchanted
    if ace and ACE_BEATS[SUIT_OF[defence]] == SUIT_OF[attack]:
        return True
    if defence_suit == attack_suit:
        return RANK_VALUE[defence] > RANK_VALUE[attack]
    return defence_suit == trump


@dataclass(frozen=True, slots=True)
class Enchantment:
    """What one enchanted rank changes, as hooks the game asks; each False by default, as the
    base rules. ``beats``: it takes part in :func:`enchanted_beats` (the six, seven, jack and
    ace); ``names_suit``: whoever plays it names the suit it counts as, and turned up as the
    trump card it leaves the game without trumps (the eight); ``thrown_in_freely``: may be thrown
    in with no card of its rank on the table, and then blocks a transfer (the nine);
    ``blocks_transfer``: an attack card of it cannot be transferred (the ten); ``closes_bout``:
    once it has beaten a card nothing more may be thrown in (the queen); ``lets_reverse``: who
    beats off a bout having defended with it may reverse the direction of play (the king)."""

    rank: str
    beats: bool = False
    names_suit: bool = False
    thrown_in_freely: bool = False
    blocks_transfer: bool = False
    closes_bout: bool = False
    lets_reverse: bool = False


#: Every enchantable rank's enchantment, the one table the game's hooks are read from.
ENCHANTMENTS: Final = {
    enchantment.rank: enchantment
    for enchantment in (
        Enchantment("6", beats=True),
        Enchantment("7", beats=True),
        Enchantment("8", names_suit=True),
        Enchantment("9", thrown_in_freely=True),
        Enchantment("10", blocks_transfer=True),
        Enchantment("J", beats=True),
        Enchantment("Q", closes_bout=True),
        Enchantment("K", lets_reverse=True),
        Enchantment("A", beats=True),
    )
}


class Spells:
    """The enchantments of one game's enchanted ranks, each hook as the set of ranks that have it,
    so the game asks a card ``spells.closes_bout(card)`` rather than its rank.

    >>> spells = Spells(("8", "Q"))
    >>> spells.names_suit("8H"), spells.closes_bout("QS"), spells.closes_bout("KS")
    (True, True, False)
    >>> Spells(()).active
    False
    """

    __slots__ = (
        "active",
        "beating",
        "blocking",
        "closing",
        "free_ranks",
        "naming",
        "ranks",
        "reversing",
    )

    def __init__(self, ranks: tuple[str, ...]) -> None:
        enchantments = [ENCHANTMENTS[rank] for rank in ranks]
        self.ranks: frozenset[str] = frozenset(ranks)
        self.active = bool(ranks)
        #: Some enchanted rank beats, or is beaten, by a rule of its own (:func:`enchanted_beats`).
        self.beating = any(e.beats for e in enchantments)
        self.naming = frozenset(e.rank for e in enchantments if e.names_suit)
        #: The ranks that may be thrown in whatever is on the table.
        self.free_ranks = frozenset(e.rank for e in enchantments if e.thrown_in_freely)
        self.blocking = frozenset(e.rank for e in enchantments if e.blocks_transfer)
        self.closing = frozenset(e.rank for e in enchantments if e.closes_bout)
        self.reversing = frozenset(e.rank for e in enchantments if e.lets_reverse)

    def names_suit(self, card: str) -> bool:
        return RANK_OF[card] in self.naming

    def thrown_in_freely(self, card: str) -> bool:
        return RANK_OF[card] in self.free_ranks

    def blocks_transfer(self, card: str) -> bool:
        return RANK_OF[card] in self.blocking

    def closes_bout(self, card: str) -> bool:
        return RANK_OF[card] in self.closing

    def lets_reverse(self, card: str) -> bool:
        return RANK_OF[card] in self.reversing

    def beats(
        self, attack: str, defence: str, trump: str | None, attack_suit: str | None, defence_suit: str | None
    ) -> bool:
        """Whether ``defence`` beats ``attack`` under these enchantments (:func:`enchanted_beats`):
        the base rule, by the suits the cards count as, unless a rank that beats otherwise is
        enchanted."""
        if self.beating:
            return enchanted_beats(attack, defence, trump, self.ranks, attack_suit, defence_suit)
        attack_suit = attack_suit or SUIT_OF[attack]
        defence_suit = defence_suit or SUIT_OF[defence]
        if defence_suit == attack_suit:
            return RANK_VALUE[defence] > RANK_VALUE[attack]
        return defence_suit == trump


@cache
def spells_of(ranks: tuple[str, ...]) -> Spells:
    """The :class:`Spells` of ``ranks``, made once: a game gets them as it is made or loaded, and
    nothing changes them."""
    return Spells(ranks)
