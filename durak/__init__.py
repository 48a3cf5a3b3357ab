"""durak: the rules of the Russian card game, as one configurable, replayable engine.

Standard library only. Every rule of the site lives here; the web app asks, it never decides.

>>> import durak
>>> game = durak.Game.new(durak.Rules.preset("classic"), players=2, seed=7)
>>> len(game.hands[0]), game.stock_size
(6, 24)
>>> sorted(durak.PRESETS)
['black_book', 'classic', 'durak24', 'perevodnoy', 'tabletop']
"""

from durak.actions import (
    ACTION_TYPES,
    MOVE_TYPES,
    PREFERENCE_ACTION_TYPES,
    SYSTEM_ACTION_TYPES,
    Action,
    Move,
    is_move,
)
from durak.bout import Bout
from durak.cards import (
    DECK_SIZES,
    RANKS,
    SUITS,
    beats,
    card_rank,
    card_suit,
    deck,
    is_card,
    pretty,
    sort_hand,
)
from durak.errors import IllegalAction, NoPlayerLeft
from durak.game import Game
from durak.messages import DurakError
from durak.outcome import EndReason, Outcome
from durak.rules import PRESETS, Rules, RulesError
from durak.state import STATE_FORMAT

__all__ = [
    "ACTION_TYPES",
    "DECK_SIZES",
    "MOVE_TYPES",
    "PREFERENCE_ACTION_TYPES",
    "PRESETS",
    "RANKS",
    "STATE_FORMAT",
    "SUITS",
    "SYSTEM_ACTION_TYPES",
    "Action",
    "Bout",
    "DurakError",
    "EndReason",
    "Game",
    "IllegalAction",
    "Move",
    "NoPlayerLeft",
    "Outcome",
    "Rules",
    "RulesError",
    "beats",
    "card_rank",
    "card_suit",
    "deck",
    "is_card",
    "is_move",
    "pretty",
    "sort_hand",
]
