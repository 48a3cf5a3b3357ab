"""durak: the rules of the Russian card game, as one configurable, replayable engine.

Standard library only. Every rule of the site lives here; the web app asks, it never decides.
This module is the engine's public API: the site imports ``durak`` or names from it, never a
submodule (a test holds it).

>>> import durak
>>> game = durak.Game.new(durak.Rules.preset("classic"), players=2, seed=7)
>>> len(game.hands[0]), game.stock_size
(6, 24)
>>> sorted(durak.PRESETS)
['black_book', 'classic', 'durak24', 'perevodnoy', 'tabletop']

The game:
    ``Game`` (a deal, its play, ``view(player)`` and ``from_view``, ``to_dict``/``from_dict``),
    ``Bout`` (the attack now on the table), ``Outcome`` and ``EndReason`` (how a game ended),
    ``STATE_FORMAT`` (the version of ``Game.to_dict()``'s layout).
Rules:
    ``Rules`` (every option, frozen), ``PRESETS`` (the named sets of them), ``ADDED_LATER``
    (options newer than some stored games, with the value those games played by), ``RulesError``.
Actions:
    ``Move`` (one action as a value), ``Action`` (its JSON dict), ``is_move``; the type names
    ``ACTION_TYPES`` (a player's), ``MOVE_TYPES`` (moves proper), ``PREFERENCE_ACTION_TYPES``
    (a seat's standing choices), ``SYSTEM_ACTION_TYPES`` (the server's: timeouts).
Errors:
    ``DurakError`` (a message for people, translatable: a template and its parameters),
    ``IllegalAction`` (an action the rules refuse), ``NoPlayerLeft``; ``gettext_noop`` and
    ``ngettext_noop`` mark the engine's messages for translation tools.
Cards:
    a card is a string, rank then suit (``"10H"``); ``SUITS``, ``RANKS``, ``DECK_SIZES``,
    ``LOWEST_RANK`` (a deck size's lowest rank), ``SUIT_SYMBOLS``, ``SUIT_NAMES`` (English),
    ``RED_SUITS``; ``beats``, ``card_rank``, ``card_suit``, ``deck``, ``is_card``, ``pretty``,
    ``sort_hand``.
Enchanted cards (the ``black_book`` variant):
    ``ENCHANTABLE_RANKS``, ``ENCHANTED_STAGES`` (the ranks each stage enchants), ``EFFECTS``
    (each rank's effect, an English template), ``effect_params`` (what fills it in for a card),
    ``effect`` (the filled-in sentence), ``SIX_BEATS`` and ``ACE_BEATS`` (the suit an enchanted
    six or ace beats, by its own).
The JSON shapes, each declared once as a TypedDict (``typing`` reads them: a key's JSON type, its
meaning as a string in ``Annotated``, a type's meaning in its docstring):
    ``View`` (``Game.view(player)``), ``ACTION_SHAPES`` and ``EVENT_SHAPES`` (each action and event
    type by name), ``BoutResult``; ``JsonKind`` (what a string holds: a card, a suit...) and
    ``Length`` (a list's bounds), their ``Annotated`` metadata; ``unwrap`` (a key's type without
    ``NotRequired`` and ``Annotated``, and that metadata), ``meaning_of`` (a type's docstring as
    one line).
Computer players:
    ``Bot`` (the protocol: ``choose(view, log)``), ``RandomBot``, ``RuleBot``, ``SearchBot``,
    ``BOTS`` (them by name), ``rule_choice`` (the rule-of-thumb choice among actions).
"""

from durak import compiled as _compiled

# The compiled build of this source, if DURAK_ENGINE_BUILD names one (durak.compiled): before any
# other module of the package is imported, so that they all come from it.
_compiled.use_build(__path__)

from durak.actions import (
    ACTION_SHAPES,
    ACTION_TYPES,
    MOVE_TYPES,
    PREFERENCE_ACTION_TYPES,
    SYSTEM_ACTION_TYPES,
    Action,
    JsonKind,
    Length,
    Move,
    is_move,
    meaning_of,
    unwrap,
)
from durak.bots import BOTS, Bot, RandomBot, RuleBot, SearchBot, rule_choice
from durak.bout import Bout
from durak.cards import (
    DECK_SIZES,
    LOWEST_RANK,
    RANKS,
    RED_SUITS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    beats,
    card_rank,
    card_suit,
    deck,
    is_card,
    pretty,
    sort_hand,
)
from durak.enchanted import (
    ACE_BEATS,
    EFFECTS,
    ENCHANTABLE_RANKS,
    ENCHANTED_STAGES,
    SIX_BEATS,
    effect,
    effect_params,
)
from durak.errors import IllegalAction, NoPlayerLeft
from durak.game import Game
from durak.messages import DurakError, gettext_noop, ngettext_noop
from durak.outcome import EndReason, Outcome
from durak.playerview import EVENT_SHAPES, BoutResult, View
from durak.rules import ADDED_LATER, PRESETS, Rules, RulesError
from durak.state import STATE_FORMAT

__all__ = [
    "ACE_BEATS",
    "ACTION_SHAPES",
    "ACTION_TYPES",
    "ADDED_LATER",
    "BOTS",
    "DECK_SIZES",
    "EFFECTS",
    "ENCHANTABLE_RANKS",
    "ENCHANTED_STAGES",
    "EVENT_SHAPES",
    "LOWEST_RANK",
    "MOVE_TYPES",
    "PREFERENCE_ACTION_TYPES",
    "PRESETS",
    "RANKS",
    "RED_SUITS",
    "SIX_BEATS",
    "STATE_FORMAT",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "SYSTEM_ACTION_TYPES",
    "Action",
    "Bot",
    "Bout",
    "BoutResult",
    "DurakError",
    "EndReason",
    "Game",
    "IllegalAction",
    "JsonKind",
    "Length",
    "Move",
    "NoPlayerLeft",
    "Outcome",
    "RandomBot",
    "RuleBot",
    "Rules",
    "RulesError",
    "SearchBot",
    "View",
    "beats",
    "card_rank",
    "card_suit",
    "deck",
    "effect",
    "effect_params",
    "gettext_noop",
    "is_card",
    "is_move",
    "meaning_of",
    "ngettext_noop",
    "pretty",
    "rule_choice",
    "sort_hand",
    "unwrap",
]
