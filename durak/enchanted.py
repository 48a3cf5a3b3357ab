"""The Black Book's enchanted cards: one :class:`Enchantment` subclass per rank, owning its effect.

"If the text of an enchanted card contradicts the rules of the game, follow the text of the card.
Otherwise the rules of durak do not change." The game consults this module only for ranks that
its rules enchant; everything else plays by the base rules. Each rank's object says which of the
game's questions it answers differently ("may be thrown in", "blocks a transfer", "closes the
bout", what it beats and what beats it), and :class:`Spells` gathers them for one game's
enchanted ranks: the engine asks it, never a rank by name.

>>> enchanted_beats("10H", "6S", trump="D", enchanted=frozenset({"6"}))   # the printed example
True
>>> enchanted_beats("7H", "6S", trump="S", enchanted=frozenset({"6", "7"}))  # a trump six: no
False
>>> effect("6S")
'Beats any ♥ card, even a trump; rank does not matter.'
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Final

from durak.cards import RANK_OF, RANK_VALUE, SUIT_OF, SUIT_SYMBOLS, beats_as
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


def effect_params(card: str) -> dict[str, str]:
    """What fills in the placeholders of ``EFFECTS[rank]`` for ``card``: the suit its six or ace beats.

    A site translates the template ``EFFECTS[rank]`` and formats it with these.
    """
    return {"six": SUIT_SYMBOLS[SIX_BEATS[SUIT_OF[card]]], "ace": SUIT_SYMBOLS[ACE_BEATS[SUIT_OF[card]]]}


def effect(card: str) -> str:
    """The effect of ``card`` when its rank is enchanted, in one sentence (English)."""
    return EFFECTS[RANK_OF[card]].format(**effect_params(card))


# What an enchanted card may do to the base rule of beating as the defence card: nothing, beat a
# card the base rule would not let it beat, or that and also a card whose rank restricts what
# beats it (the seven's and the jack's restrictions give way only to a non-trump six).
NO_POWER: Final = 0
BEATS: Final = 1
OVERRIDES: Final = 2


class Enchantment:
    """What one enchanted rank changes: its effect's words, and the questions the game asks of
    its cards, answered as the base rules would (this class). Each rank's subclass changes only
    what its text changes: ``names_suit`` (whoever plays it names the suit it counts as, and
    turned up as the trump card it leaves the game without trumps), ``thrown_in_freely`` (may be
    thrown in with no card of its rank on the table, and then blocks a transfer),
    ``blocks_transfer`` (an attack card of it cannot be transferred), ``closes_bout`` (once it has
    beaten a card nothing more may be thrown in), ``lets_reverse`` (who beats off a bout having
    defended with it may reverse the direction of play), :meth:`power` (what it beats as the
    defence card) and :meth:`beaten` (what beats it as the attack card)."""

    rank: ClassVar[str]
    effect: ClassVar[str]  # an English template, marked for translation (see effect_params)
    names_suit: ClassVar[bool] = False
    thrown_in_freely: ClassVar[bool] = False
    blocks_transfer: ClassVar[bool] = False
    closes_bout: ClassVar[bool] = False
    lets_reverse: ClassVar[bool] = False

    def power(self, attack: str, attack_suit: str, defence: str, defence_suit: str, trump: str | None) -> int:
        """Played as the defence card on ``attack``: :data:`NO_POWER`, :data:`BEATS` or
        :data:`OVERRIDES` (see above). The suits are those the cards count as."""
        return NO_POWER

    def beaten(
        self, attack: str, attack_suit: str, defence: str, defence_suit: str, trump: str | None, power: int
    ) -> bool:
        """Played as the attack card: whether ``defence`` (with the ``power`` its own enchantment
        gives it) beats it."""
        return power != NO_POWER or beats_as(
            attack_suit, RANK_VALUE[attack], defence_suit, RANK_VALUE[defence], trump
        )


class Six(Enchantment):
    rank = "6"
    effect = gettext_noop("Beats any {six} card, even a trump; rank does not matter.")

    def power(self, attack: str, attack_suit: str, defence: str, defence_suit: str, trump: str | None) -> int:
        if SIX_BEATS[SUIT_OF[defence]] != attack_suit:
            return NO_POWER
        # "A non-trump enchanted six can beat a seven, but a trump spade six does not beat a heart
        # seven": a six's power wins over a restriction only when the six is not a trump.
        return OVERRIDES if defence_suit != trump else BEATS


class Seven(Enchantment):
    rank = "7"
    effect = gettext_noop("Cannot be beaten by a trump of another suit.")

    def beaten(
        self, attack: str, attack_suit: str, defence: str, defence_suit: str, trump: str | None, power: int
    ) -> bool:
        if defence_suit == attack_suit:
            return RANK_VALUE[defence] > RANK_VALUE[attack]
        return power == OVERRIDES


class Eight(Enchantment):
    rank = "8"
    effect = gettext_noop(
        "Whoever plays it names a suit other than trumps; it counts as that suit on the table."
    )
    names_suit = True


class Nine(Enchantment):
    rank = "9"
    effect = gettext_noop(
        "May be thrown in even with no nine on the table; then the defender cannot transfer."
    )
    thrown_in_freely = True


class Ten(Enchantment):
    rank = "10"
    effect = gettext_noop("Cannot be transferred: every ten must be beaten.")
    blocks_transfer = True


class Jack(Enchantment):
    rank = "J"
    effect = gettext_noop("Beaten only by a 6 to 10 of its own suit or of trumps.")

    def beaten(
        self, attack: str, attack_suit: str, defence: str, defence_suit: str, trump: str | None, power: int
    ) -> bool:
        if power == OVERRIDES:
            return True
        return RANK_VALUE[defence] < RANK_VALUE[attack] and defence_suit in (attack_suit, trump)


class Queen(Enchantment):
    rank = "Q"
    effect = gettext_noop("Once it has beaten a card, nothing more may be thrown in this bout.")
    closes_bout = True


class King(Enchantment):
    rank = "K"
    effect = gettext_noop(
        "Who beats off a bout having defended with a king may reverse the direction of play."
    )
    lets_reverse = True


class Ace(Enchantment):
    rank = "A"
    effect = gettext_noop("Beats the {ace} ace, even a trump.")

    def power(self, attack: str, attack_suit: str, defence: str, defence_suit: str, trump: str | None) -> int:
        if RANK_OF[attack] == "A" and ACE_BEATS[SUIT_OF[defence]] == SUIT_OF[attack]:
            return BEATS
        return NO_POWER


#: Every enchantable rank's enchantment, the one table the game's questions are answered from.
ENCHANTMENTS: Final[dict[str, Enchantment]] = {
    enchantment.rank: enchantment
    for enchantment in (Six(), Seven(), Eight(), Nine(), Ten(), Jack(), Queen(), King(), Ace())
}
#: Each enchanted rank's effect: English templates, marked for translation (see :func:`effect_params`).
EFFECTS: Final = {rank: enchantment.effect for rank, enchantment in ENCHANTMENTS.items()}


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
    return spells_of(tuple(sorted(enchanted))).beats(attack, defence, trump, attack_suit, defence_suit)


class Spells:
    """The enchantments of one game's enchanted ranks, each question as the set of ranks whose
    answer differs from the base rules, so the game asks a card ``spells.closes_bout(card)``
    rather than its rank.

    >>> spells = Spells(("8", "Q"))
    >>> spells.names_suit("8H"), spells.closes_bout("QS"), spells.closes_bout("KS")
    (True, True, False)
    >>> Spells(()).active
    False
    """

    __slots__ = (
        "active",
        "blocking",
        "by_rank",
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
        self.by_rank = {e.rank: e for e in enchantments}
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
        """Whether ``defence`` beats ``attack`` under these enchantments, by the suits the cards
        count as: the attack card's enchantment decides, given the power the defence card's
        gives it; a card of an unenchanted rank plays by the base rule."""
        attack_suit = attack_suit or SUIT_OF[attack]
        defence_suit = defence_suit or SUIT_OF[defence]
        defending = self.by_rank.get(RANK_OF[defence])
        power = (
            NO_POWER
            if defending is None
            else defending.power(attack, attack_suit, defence, defence_suit, trump)
        )
        attacked = self.by_rank.get(RANK_OF[attack])
        if attacked is not None:
            return attacked.beaten(attack, attack_suit, defence, defence_suit, trump, power)
        return power != NO_POWER or beats_as(
            attack_suit, RANK_VALUE[attack], defence_suit, RANK_VALUE[defence], trump
        )


@cache
def spells_of(ranks: tuple[str, ...]) -> Spells:
    """The :class:`Spells` of ``ranks``, made once: a game gets them as it is made or loaded, and
    nothing changes them."""
    return Spells(ranks)
