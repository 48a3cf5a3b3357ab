"""The bout: one attack and its defence, from the first card laid down to the table's clearing.

Everything that lives for one bout only is here, so that ending a bout is one ``Bout()``:

>>> bout = Bout()
>>> bout.lay("6S")
>>> bout.cover(bout.table[0], "8S")
>>> bout.table, sorted(bout.ranks), bout.unbeaten, bout.cards
([['6S', '8S']], ['6', '8'], 0, ['6S', '8S'])
"""

from __future__ import annotations

from dataclasses import dataclass

from durak.cards import RANK_OF


@dataclass(slots=True, init=False)
class Bout:
    """The running bout. ``table``: [attack card, defence card or None] pairs, in the order the
    attack cards landed; ``ranks``: the ranks on the table; ``named``: the suit each enchanted
    eight on it was named as; ``limit``: the most attack cards it may reach (None before its
    first card); ``taking``: the defender gave up; ``passed``: who said "done" since the last
    card landed; ``closed``: an enchanted queen beat a card; ``transfer_blocked``: an enchanted
    nine was thrown in; ``king_defended``: the defender beat a card with an enchanted king.
    ``attacks``: the attack cards, in order, and ``unbeaten``: how many are not yet beaten (both
    kept, not stored)."""

    table: list[list[str | None]]
    ranks: set[str]
    named: dict[str, str]
    limit: int | None
    taking: bool
    passed: set[int]
    closed: bool
    transfer_blocked: bool
    king_defended: bool
    attacks: list[str]
    unbeaten: int

    def __init__(self) -> None:
        # Written out rather than generated: a bout is made at the end of every bout, and a
        # dataclass's default factories cost twice as much.
        self.table = []
        self.ranks = set()
        self.named = {}
        self.limit = None
        self.taking = False
        self.passed = set()
        self.closed = False
        self.transfer_blocked = False
        self.king_defended = False
        self.attacks = []
        self.unbeaten = 0

    def recount(self) -> None:
        """Find what is kept from the table again, after the table was set from outside."""
        self.ranks = {RANK_OF[card] for pair in self.table for card in pair if card is not None}
        self.attacks = [attack for attack, _ in self.table if attack is not None]
        self.unbeaten = sum(1 for _, defence in self.table if defence is None)

    @property
    def cards(self) -> list[str]:
        """Every card on the table, pair by pair."""
        return [card for pair in self.table for card in pair if card is not None]

    @property
    def all_beaten(self) -> bool:
        return not self.unbeaten

    def lay(self, card: str, as_suit: str | None = None) -> None:
        """An attack card lands: opening, thrown in or transferred."""
        self.table.append([card, None])
        self.attacks.append(card)
        self.ranks.add(RANK_OF[card])
        self.unbeaten += 1
        if as_suit is not None:
            self.named[card] = as_suit

    def cover(self, pair: list[str | None], card: str, as_suit: str | None = None) -> None:
        """``card`` beats the attack card of ``pair``."""
        pair[1] = card
        self.ranks.add(RANK_OF[card])
        self.unbeaten -= 1
        if as_suit is not None:
            self.named[card] = as_suit

    def pair_of(self, attack: object) -> list[str | None] | None:
        """The table pair whose attack card is ``attack``, if any."""
        for pair in self.table:
            if pair[0] == attack:
                return pair
        return None

    def copy(self) -> Bout:
        bout = Bout()  # a compiled class has no instance that skipped its __init__
        bout.table = [list(pair) for pair in self.table]
        bout.ranks = set(self.ranks)
        bout.named = dict(self.named)
        bout.limit = self.limit
        bout.taking = self.taking
        bout.passed = set(self.passed)
        bout.closed = self.closed
        bout.transfer_blocked = self.transfer_blocked
        bout.king_defended = self.king_defended
        bout.attacks = list(self.attacks)
        bout.unbeaten = self.unbeaten
        return bout
