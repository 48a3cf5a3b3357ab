"""The rules engine's words in the reader's language.

The engine (``durak/``) has no languages: its errors carry an English template and parameters
(:class:`durak.DurakError`), its option help texts, preset summaries and enchanted card effects
are English templates marked with ``gettext_noop``. Their Russian lives in the project catalogue
(``locale/``). Every page, form and API answer that shows engine words goes through here, so a
rule's wording is translated once and never re-decided outside the engine.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

import durak
from durak import EFFECTS, PRESETS, effect_params

#: Engine parameters that hold a card code ("10H"): shown as the card ("10♥").
CARD_PARAMS = frozenset({"card", "target"})

#: Human names of the option values the engine offers as choices (``Rules.describe_options``).
CHOICE_LABELS: dict[tuple[str, Any], Any] = {
    ("trump_swap", "never"): gettext_lazy("never"),
    ("trump_swap", "before_first_attack"): gettext_lazy("before the first attack"),
    ("trump_swap", "while_stock"): gettext_lazy("while the stock lasts"),
    ("throw_in", "all"): gettext_lazy("everyone but the defender"),
    ("throw_in", "neighbours"): gettext_lazy("the defender's neighbours only"),
    ("throw_priority", "attacker_first"): gettext_lazy("the main attacker first"),
    ("throw_priority", "free"): gettext_lazy("anyone, any moment"),
    ("throw_when", "any_time"): gettext_lazy("any time"),
    ("throw_when", "after_first_beat"): gettext_lazy("once the first card is beaten"),
    ("throw_when", "all_beaten"): gettext_lazy("when every card is beaten"),
    ("opening_limit_until", "first_bout"): gettext_lazy("the first bout"),
    ("opening_limit_until", "first_defence"): gettext_lazy("the first successful defence"),
    ("first_attacker", "lowest_trump"): gettext_lazy("who holds the lowest trump"),
    ("first_attacker", "left_of_dealer"): gettext_lazy("the dealer's left neighbour"),
    ("no_trump_first_attacker", "left_of_dealer"): gettext_lazy("the dealer's left neighbour"),
    ("no_trump_first_attacker", "dealer"): gettext_lazy("the dealer"),
    ("later_first_attacker", "left_of_dealer"): gettext_lazy("the fool's left neighbour"),
    ("later_first_attacker", "lowest_trump"): gettext_lazy("who holds the lowest trump"),
    ("draw_order", "clockwise"): gettext_lazy("clockwise"),
    ("draw_order", "counterclockwise"): gettext_lazy("in reverse turn order"),
    ("teams", "none"): gettext_lazy("no teams"),
    ("teams", "partners"): gettext_lazy("partners (Full rules)"),
    ("teams", "black_book"): gettext_lazy("team durak (Black Book)"),
    ("on_timeout", "fool"): gettext_lazy("the fool at once"),
    ("on_timeout", "auto"): gettext_lazy("a safe automatic move first"),
}

#: Short names of the options, for form labels and tables (the engine's help text explains them).
OPTION_NAMES: dict[str, Any] = {
    "deck_size": gettext_lazy("Deck"),
    "hand_size": gettext_lazy("Hand size"),
    "max_attack": gettext_lazy("Most attack cards in a bout"),
    "multi_card_attack": gettext_lazy("Open with several cards"),
    "transfer": pgettext_lazy("rule option", "Transfer"),
    "trump_swap": gettext_lazy("Trump card swap"),
    "throw_in": gettext_lazy("Who throws in"),
    "throw_priority": gettext_lazy("Throw-in order"),
    "throw_when": gettext_lazy("When cards may be added"),
    "add_after_take": gettext_lazy("Adding after «take»"),
    "opening_limit": gettext_lazy("Opening limit"),
    "opening_limit_until": gettext_lazy("Opening limit lasts until"),
    "opening_limit_min_players": gettext_lazy("Opening limit from players"),
    "first_attacker": gettext_lazy("First attacker"),
    "no_trump_first_attacker": gettext_lazy("First attacker with no trumps dealt"),
    "later_first_attacker": gettext_lazy("First attacker in later games"),
    "draw_order": gettext_lazy("Drawing order"),
    "teams": gettext_lazy("Teams"),
    "enchanted": gettext_lazy("Enchanted cards"),
    "on_timeout": gettext_lazy("When time runs out"),
    "claim_after_days": gettext_lazy("Days before a stalled game may be claimed"),
}

#: The presets' display names.
PRESET_NAMES: dict[str, Any] = {
    "classic": gettext_lazy("Podkidnoy (classic throw-in)"),
    "perevodnoy": gettext_lazy("Perevodnoy (transfer)"),
    "black_book": gettext_lazy("The Black Book"),
    "tabletop": gettext_lazy("Tabletop"),
    "durak24": gettext_lazy("Durak 24"),
}


def _param(name: str, value: object) -> object:
    if name in CARD_PARAMS and isinstance(value, str) and durak.is_card(value):
        return durak.pretty(value)
    return value


def engine_message(error: durak.DurakError) -> str:
    """The engine's error in the active language, cards shown as cards.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     engine_message(durak.IllegalAction("you do not hold {card}", card="10H"))
    'you do not hold 10♥'
    """
    params = {name: _param(name, value) for name, value in error.params.items()}
    plural = getattr(error, "plural", None)
    if plural is not None:
        count = error.params.get(plural.count)
        return ngettext(plural.singular, plural.plural, count if isinstance(count, int) else 0).format(
            **params
        )
    return gettext(error.template).format(**params)


def option_help(option: dict[str, Any]) -> str:
    """The help text of one entry of ``Rules.describe_options()``, translated."""
    return gettext(option["help"])


def option_name(name: str) -> str:
    return str(OPTION_NAMES.get(name, name.replace("_", " ")))


def choice_label(option: str, value: Any) -> str:
    """A choice value in words: ``choice_label("throw_in", "neighbours")``."""
    label = CHOICE_LABELS.get((option, value))
    return str(label) if label is not None else str(value)


def option_value(option: str, value: Any) -> str:
    """Any option value in words, for tables: yes/no, none, ranks, choices.

    >>> option_value("enchanted", ["6", "7"]), option_value("enchanted", [])
    ('6, 7', 'none')
    """
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or gettext("none")
    if (option, value) in CHOICE_LABELS:
        return choice_label(option, value)
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if value is None:
        return gettext("none")
    return str(value)


def preset_name(name: str) -> str:
    return str(PRESET_NAMES.get(name, name))


def preset_summary(name: str) -> str:
    """The engine's one-line summary of a preset, translated."""
    return gettext(PRESETS[name])


def effect_text(card: str) -> str:
    """An enchanted card's effect in one translated sentence."""
    return gettext(EFFECTS[durak.card_rank(card)]).format(**effect_params(card))
