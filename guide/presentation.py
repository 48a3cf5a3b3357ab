"""The rules in words for people: preset summaries, each option's name and value, enchanted effects.

Nothing here decides a rule: the values come from ``durak.Rules`` and the effects from
``durak.enchanted``; this module only puts them into (translated) words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import durak
from durak.cards import LOWEST_RANK, SUIT_SYMBOLS
from durak.enchanted import ACE_BEATS, EFFECTS, ENCHANTABLE_RANKS, ENCHANTED_STAGES, SIX_BEATS

#: The preset the option table compares every preset with.
BASELINE = "classic"

PRESET_TITLES: dict[str, Promise] = {
    "classic": _("Podkidnoy durak"),
    "perevodnoy": _("Perevodnoy durak"),
    "black_book": _("Black Book durak"),
    "tabletop": _("Tabletop Simulator durak"),
    "durak24": _("Durak with 24 cards"),
}

PRESET_SUMMARIES: dict[str, Promise] = {
    "classic": _(
        "The classic throw-in game from the Full rules: the main attacker throws in first, the trump 6 "
        "may be swapped for the face-up trump while the stock lasts."
    ),
    "perevodnoy": _(
        "The Full rules with transfers: before beating anything, the defender may pass the attack on "
        "with a card of the same rank."
    ),
    "black_book": _(
        "The Black Book rulebook: transfers, anyone throws in at any moment, at most five cards until "
        "someone first defends, and the enchanted cards and team durak as options."
    ),
    "tabletop": _(
        "A Tabletop Simulator table: the player left of the dealer attacks first, the others join in "
        "only after the first card is beaten, 36 or 52 cards."
    ),
    "durak24": _(
        "The rules of durak24.com: a short, quick game with 24 cards (9 to ace), one card at a time."
    ),
}

#: Which rule text each preset plays (the files in shared/rules).
PRESET_SOURCES: dict[str, Promise] = {
    "classic": _("“Durak — Full rules”"),
    "perevodnoy": _("“Durak — Full rules”, the transfer variant"),
    "black_book": _("“Black Book: Durak” rulebook"),
    "tabletop": _("the description of a Tabletop Simulator table"),
    "durak24": _("the rules of durak24.com"),
}

OPTION_LABELS: dict[str, Promise] = {
    "deck_size": _("Deck"),
    "hand_size": _("Cards dealt to each player"),
    "max_attack": _("Most attack cards in one bout"),
    "multi_card_attack": _("Open a bout with several cards of one rank"),
    "transfer": _("Transfer (perevodnoy)"),
    "trump_swap": _("Swapping the lowest trump for the face-up trump"),
    "throw_in": _("Who may throw in"),
    "throw_priority": _("Who throws in first"),
    "throw_when": _("When cards may be thrown in"),
    "add_after_take": _("Adding cards after the defender takes"),
    "opening_limit": _("Lower limit at the start of the game"),
    "opening_limit_until": _("How long the lower limit holds"),
    "opening_limit_min_players": _("The lower limit applies with"),
    "first_attacker": _("Who attacks first in the first game"),
    "no_trump_first_attacker": _("Who attacks first when nobody holds a trump"),
    "later_first_attacker": _("Who attacks first in later games"),
    "draw_order": _("Drawing order after the main attacker"),
    "teams": _("Team play"),
    "enchanted": _("Enchanted cards"),
    "on_timeout": _("When a player's time runs out"),
}

CHOICE_WORDS: dict[tuple[str, str], Promise] = {
    ("trump_swap", "never"): _("never"),
    ("trump_swap", "before_first_attack"): _("only before the first attack"),
    ("trump_swap", "while_stock"): _("any time while the stock lasts"),
    ("throw_in", "all"): _("everyone but the defender"),
    ("throw_in", "neighbours"): _("only the defender's two neighbours"),
    ("throw_priority", "attacker_first"): _("the main attacker, then the others"),
    ("throw_priority", "free"): _("anyone, at any moment"),
    ("throw_when", "any_time"): _("any time"),
    ("throw_when", "after_first_beat"): _("once the first card is beaten"),
    ("throw_when", "all_beaten"): _("only when every card is beaten"),
    ("opening_limit_until", "first_bout"): _("the first bout only"),
    ("opening_limit_until", "first_defence"): _("until someone first beats off an attack"),
    ("first_attacker", "lowest_trump"): _("the lowest trump"),
    ("first_attacker", "left_of_dealer"): _("the player left of the dealer"),
    ("no_trump_first_attacker", "left_of_dealer"): _("the player left of the dealer"),
    ("no_trump_first_attacker", "dealer"): _("the dealer"),
    ("later_first_attacker", "left_of_dealer"): _("the player left of the dealer (the fool deals)"),
    ("later_first_attacker", "lowest_trump"): _("the lowest trump"),
    ("draw_order", "clockwise"): _("clockwise"),
    ("draw_order", "counterclockwise"): _("in reverse turn order"),
    ("teams", "none"): _("none: everyone plays alone"),
    ("teams", "partners"): _("partners (Full rules: 2 v 2 or 3 v 3)"),
    ("teams", "black_book"): _("Black Book team durak (2 v 2)"),
    ("on_timeout", "fool"): _("they are the fool at once"),
    ("on_timeout", "auto"): _("an automatic move; the fool at a second timeout in a row"),
}

YES = pgettext_lazy("option is on", "yes")
NO = pgettext_lazy("option is off", "no")

STAGE_LABELS: dict[str, Promise] = {
    "sixes_sevens": _("first game: sixes and sevens"),
    "to_tens": _("second game: six to ten"),
    "to_queens": _("third game: six to queen"),
    "all": _("all nine ranks"),
}


def value_in_words(name: str, value: Any) -> str:
    """One option's value as people say it, in the active language."""
    if (name, value) in CHOICE_WORDS:
        return str(CHOICE_WORDS[name, value])
    if isinstance(value, bool):
        return str(YES if value else NO)
    if name == "deck_size":
        words = ngettext("%(count)s card (%(lowest)s to ace)", "%(count)s cards (%(lowest)s to ace)", value)
        return words % {"count": value, "lowest": LOWEST_RANK[value]}
    if name == "max_attack" and value is None:
        return gettext("as many as the cards dealt")
    if name == "opening_limit":
        if value is None:
            return gettext("none")
        return ngettext("%(count)s card", "%(count)s cards", value) % {"count": value}
    if name == "opening_limit_min_players":
        return ngettext("%(count)s player or more", "%(count)s players or more", value) % {"count": value}
    if name == "enchanted":
        return ", ".join(value) if value else gettext("none")
    if isinstance(value, str):  # a choice the engine added after this table was written
        return value.replace("_", " ")
    return str(value)


def option_label(name: str) -> str:
    return str(OPTION_LABELS.get(name, name.replace("_", " ")))


@dataclass(frozen=True)
class OptionRow:
    name: str
    label: str
    help: str
    value: str
    baseline: str
    differs: bool


def option_rows(preset: str) -> list[OptionRow]:
    """Every option the engine describes, with its value in ``preset`` and in the baseline."""
    rules = durak.Rules.preset(preset).to_dict()
    baseline = durak.Rules.preset(BASELINE).to_dict()
    rows = []
    for option in durak.Rules.describe_options():
        name = option["name"]
        help_text = option.get("help") or option.get("description") or ""
        rows.append(
            OptionRow(
                name=name,
                label=option_label(name),
                help=gettext(help_text) if help_text else "",
                value=value_in_words(name, _as_value(rules[name])),
                baseline=value_in_words(name, _as_value(baseline[name])),
                differs=rules[name] != baseline[name],
            )
        )
    return rows


def _as_value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def player_range(preset: str) -> str:
    counts = durak.Rules.preset(preset).player_counts()
    return f"{counts[0]}\u2013{counts[-1]}" if len(counts) > 1 else str(counts[0])


@dataclass(frozen=True)
class PresetCard:
    name: str
    title: str
    summary: str
    source: str
    players: str
    deck: str


def preset_cards() -> list[PresetCard]:
    """One card per preset for the index, in the engine's display order."""
    cards = []
    for name in durak.PRESETS:
        rules = durak.Rules.preset(name)
        cards.append(
            PresetCard(
                name=name,
                title=str(PRESET_TITLES.get(name, name)),
                summary=str(PRESET_SUMMARIES.get(name, durak.PRESETS[name])),
                source=str(PRESET_SOURCES.get(name, "")),
                players=player_range(name),
                deck=value_in_words("deck_size", rules.deck_size),
            )
        )
    return cards


def effect_text(card: str) -> str:
    """What an enchanted card does, in the engine's sentence (translated when a catalogue has it)."""
    suit = card[-1]
    return gettext(EFFECTS[card[:-1]]).format(
        six=SUIT_SYMBOLS[SIX_BEATS[suit]], ace=SUIT_SYMBOLS[ACE_BEATS[suit]]
    )


@dataclass(frozen=True)
class EnchantedRank:
    rank: str
    #: (card, its effect): one per suit where the effect names a suit (six, ace), else one row.
    effects: list[tuple[str, str]]


def enchanted_ranks() -> list[EnchantedRank]:
    rows = []
    for rank in ENCHANTABLE_RANKS:
        texts = [(durak.pretty(rank + suit), effect_text(rank + suit)) for suit in durak.SUITS]
        if len({text for _, text in texts}) == 1:
            texts = [(rank, texts[0][1])]
        rows.append(EnchantedRank(rank=rank, effects=texts))
    return rows


def enchanted_stages() -> list[str]:
    return [
        f"{STAGE_LABELS.get(stage, stage.replace('_', ' '))} ({', '.join(ranks)})"
        for stage, ranks in ENCHANTED_STAGES.items()
    ]


def team_counts() -> dict[str, str]:
    """For each kind of team play, the numbers of players it is for (36 cards, six each)."""
    return {
        kind: gettext(" or ").join(map(str, durak.Rules(teams=kind).player_counts()))
        for kind in ("partners", "black_book")
    }
