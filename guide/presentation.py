"""The rules in words for people: preset summaries, each option's name and value, enchanted effects.

Nothing here decides a rule: the values come from ``durak.Rules`` and the effects from
``durak.enchanted``; this module only puts them into (translated) words, through the site's words for
the engine (``durak_site.engine_text``: option names, values, help texts and effects) and the guide's
own (preset titles and summaries, a few values said more fully).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

import durak
from durak import ENCHANTABLE_RANKS, ENCHANTED_STAGES, LOWEST_RANK
from durak_site import engine_text

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

STAGE_LABELS: dict[str, Promise] = {
    "sixes_sevens": _("first game: sixes and sevens"),
    "to_tens": _("second game: six to ten"),
    "to_queens": _("third game: six to queen"),
    "all": _("all nine ranks"),
}


def value_in_words(name: str, value: Any) -> str:
    """One option's value as players say it, in the active language: the site's words for the
    engine's values (``durak_site.engine_text``), with a few said more fully for the rules table."""
    if name == "deck_size":
        words = ngettext("%(count)s card (%(lowest)s to ace)", "%(count)s cards (%(lowest)s to ace)", value)
        return words % {"count": value, "lowest": LOWEST_RANK[value]}
    if name == "max_attack" and value is None:
        return gettext("as many as the cards dealt")
    if name == "opening_limit" and value is not None:
        return ngettext("%(count)s card", "%(count)s cards", value) % {"count": value}
    if name == "opening_limit_min_players":
        return ngettext("%(count)s player or more", "%(count)s players or more", value) % {"count": value}
    return engine_text.option_value(name, value)


def option_label(name: str) -> str:
    return engine_text.option_name(name)


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
        rows.append(
            OptionRow(
                name=name,
                label=option_label(name),
                help=engine_text.option_help(option) if option.get("help") else "",
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


@dataclass(frozen=True)
class EnchantedRank:
    rank: str
    #: (card, its effect): one per suit where the effect names a suit (six, ace), else one row.
    effects: list[tuple[str, str]]


def enchanted_ranks() -> list[EnchantedRank]:
    rows = []
    for rank in ENCHANTABLE_RANKS:
        texts = [(durak.pretty(rank + suit), engine_text.effect_text(rank + suit)) for suit in durak.SUITS]
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
