"""How a finished game came out: who went out in what order, who lost, and why.

The engine's one answer to "who is the fool?": the site's seats, stats, series, replays,
notifications and API read it instead of working it out from the stored state.

>>> import durak
>>> game = durak.Game.from_deal(
...     durak.Rules.preset("classic"), [["6S", "7H"], ["8S"]], [], trump="C", first_attacker=0
... )
>>> game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
>>> game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
>>> outcome = game.outcome()
>>> outcome.order_out, outcome.loser, outcome.losers, outcome.reason
((1,), 0, (0,), 'cards')
>>> outcome.lost(0), outcome.place(1), outcome.draw
(True, 1, False)
"""

from dataclasses import dataclass
from typing import Literal

#: Why a game ended: the cards ran out on every side but one (or all: a draw), a player's time
#: ran out, a player resigned, or a player claimed a game that waited too long on the others.
EndReason = Literal["cards", "timeout", "resign", "claim"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game's result. ``order_out``: the players in the order they went out (the
    first out first). ``loser``: the fool of a game without teams; ``losing_team``: the index
    (0 or 1, as :meth:`durak.Game.team_of`) of the team that lost a team game; both None in a
    draw. ``losers``: every player who lost (the fool, or each player of the losing team).
    ``reason``: see :data:`EndReason`. ``player``: whom the end was about: the fool of a game
    without teams that ended by its cards; the player who ran out of time or resigned; the first
    of those a claim was made against. None in a draw and when a team game ends by its cards (no
    one player ended it: a whole side still held cards)."""

    order_out: tuple[int, ...]
    loser: int | None
    losing_team: int | None
    losers: tuple[int, ...]
    reason: EndReason
    player: int | None

    @property
    def draw(self) -> bool:
        """Nobody lost: the last cards went out on every side at once."""
        return not self.losers

    def lost(self, player: int) -> bool:
        return player in self.losers

    def place(self, player: int) -> int | None:
        """1 for the first player out, 2 for the next...; None for a player the game ended for
        while they still held cards (the fool, or a timeout, resignation or claim ended it)."""
        try:
            return self.order_out.index(player) + 1
        except ValueError:
            return None
