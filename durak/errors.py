"""The engine's refusals: an action the rules do not allow, and a turn-order search that found nobody.

>>> str(IllegalAction("you do not hold {card}", card="10H"))
'you do not hold 10H'
"""

from __future__ import annotations

from durak.messages import DurakError


class IllegalAction(DurakError):
    """An action the rules do not allow now; the game is left exactly as it was."""


class NoPlayerLeft(RuntimeError):
    """A search for the next player found none: a state the engine never reaches through
    ``apply``, reported instead of searching forever."""
