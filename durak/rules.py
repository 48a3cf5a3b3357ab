"""The rule options and the presets that play each rule text.

A :class:`Preset` is data, a row of :data:`PRESET_TABLE` found by :func:`find_preset`: the options
it changes. An option changes one predicate of the engine, never a preset name check, so a preset
with an option changed plays like any other rules with those options.

>>> rules = Rules.preset("perevodnoy")
>>> rules.transfer, rules.deck_size
(True, 36)
>>> Rules.preset("classic", deck_size=24).swap_rank
'9'
>>> Rules.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from durak.cards import LOWEST_RANK
from durak.enchanted import ENCHANTABLE_RANKS
from durak.messages import DurakError, gettext_noop, ngettext_noop
from durak.seating import SEATINGS


class RulesError(DurakError):
    """Options that do not make a playable game."""


# The values of each choice option. A field's type states them once: the form's and the API's
# choices and the check of stored and posted values are read from it (``typing.get_args``).
DeckSize = Literal[24, 36, 52]
TrumpSwap = Literal["never", "before_first_attack", "while_stock"]
ThrowIn = Literal["all", "neighbours"]
ThrowPriority = Literal["attacker_first", "free"]
ThrowWhen = Literal["any_time", "after_first_beat", "all_beaten"]
OpeningLimitUntil = Literal["first_bout", "first_defence"]
FirstAttacker = Literal["lowest_trump", "left_of_dealer"]
NoTrumpFirstAttacker = Literal["left_of_dealer", "dealer"]
LaterFirstAttacker = Literal["left_of_dealer", "lowest_trump"]
DrawOrder = Literal["clockwise", "counterclockwise"]
Teams = Literal["none", "partners", "black_book"]
OnTimeout = Literal["fool", "auto"]


@dataclass(frozen=True)
class Rules:
    """The options of one game of durak. Build them with :meth:`preset`."""

    deck_size: DeckSize = field(default=36, metadata={"help": gettext_noop("Cards in the deck")})
    hand_size: int = field(
        default=6,
        # Its bounds depend on the deck: the rules' own check says them ("between 1 and 18").
        metadata={"help": gettext_noop("Cards dealt to each player, and drawn back up to")},
    )
    max_attack: int | None = field(
        default=6,
        metadata={
            "help": gettext_noop("Most attack cards in one bout (empty: as many as the hand size)"),
            "min": 1,
            "max": 52,
        },
    )
    multi_card_attack: bool = field(
        default=True,
        metadata={"help": gettext_noop("The opening attack may be several cards of one rank at once")},
    )
    transfer: bool = field(
        default=False,
        metadata={
            "help": gettext_noop(
                "Transfer (perevodnoy): the defender may pass the attack on with a card of the same rank"
            )
        },
    )
    trump_swap: TrumpSwap = field(
        default="while_stock",
        metadata={"help": gettext_noop("Who holds the lowest trump may swap it for the face-up trump card")},
    )
    throw_in: ThrowIn = field(
        default="all",
        metadata={
            "help": gettext_noop(
                "Who may throw in: everyone but the defender, or only the defender's two neighbours"
            )
        },
    )
    throw_priority: ThrowPriority = field(
        default="attacker_first",
        metadata={"help": gettext_noop("The main attacker throws in first, or anyone at any moment")},
    )
    throw_when: ThrowWhen = field(
        default="any_time",
        metadata={
            "help": gettext_noop(
                "When cards may be added: any time, once the first card is beaten, or when all are beaten"
            )
        },
    )
    add_after_take: bool = field(
        default=True,
        metadata={"help": gettext_noop("After the defender says 'take', the others may still add cards")},
    )
    opening_limit: int | None = field(
        default=None,
        metadata={
            "help": gettext_noop(
                "A lower limit of attack cards at the start of the game (usually 5; empty: none)"
            ),
            "min": 1,
            "max": 52,
        },
    )
    opening_limit_until: OpeningLimitUntil = field(
        default="first_bout",
        metadata={
            "help": gettext_noop(
                "The opening limit holds for the first bout, or until someone first defends successfully"
            )
        },
    )
    opening_limit_min_players: int = field(
        default=4,
        metadata={
            "help": gettext_noop("The opening limit applies only with at least this many players"),
            "min": 0,
            "max": 6,
        },
    )
    first_attacker: FirstAttacker = field(
        default="lowest_trump", metadata={"help": gettext_noop("Who attacks first in the first game")}
    )
    no_trump_first_attacker: NoTrumpFirstAttacker = field(
        default="left_of_dealer",
        metadata={"help": gettext_noop("Who attacks first when nobody holds a trump")},
    )
    later_first_attacker: LaterFirstAttacker = field(
        default="left_of_dealer",
        metadata={"help": gettext_noop("Who attacks first in later games of a series (the fool deals)")},
    )
    draw_order: DrawOrder = field(
        default="clockwise",
        metadata={
            "help": gettext_noop(
                "After the main attacker, the others draw clockwise or in reverse turn order"
            )
        },
    )

    teams: Teams = field(
        default="none",
        metadata={
            "help": gettext_noop(
                "Team play: none; the Full rules' partners (2 v 2 or 3 v 3, alternating seats); "
                "or the Black Book's team durak (2 v 2)"
            )
        },
    )
    enchanted: tuple[str, ...] = field(
        default=(),
        metadata={"help": gettext_noop("The Black Book's enchanted ranks (36 cards only), e.g. 6 and 7")},
    )
    on_timeout: OnTimeout = field(
        default="fool",
        metadata={
            "help": gettext_noop(
                "A player who runs out of time is the fool at once, or gets a safe automatic move "
                "and is the fool only at a second timeout in a row"
            )
        },
    )
    claim_after_days: int = field(
        default=14,
        metadata={
            "help": gettext_noop(
                "In a game without a clock: the days the game must wait on the same players, with no "
                "move made, before the others may claim it (those it waits on lose as if they had resigned)"
            ),
            "min": 1,
            "max": 365,
        },
    )

    def __post_init__(self) -> None:
        if isinstance(self.enchanted, (list, tuple, set, frozenset)):
            ranks = set(self.enchanted)
            if not ranks <= set(ENCHANTABLE_RANKS):
                raise RulesError(
                    gettext_noop("enchanted ranks are among {ranks}"), ranks=", ".join(ENCHANTABLE_RANKS)
                )
            ordered = tuple(rank for rank in ENCHANTABLE_RANKS if rank in ranks)
            object.__setattr__(self, "enchanted", ordered)
        for spec in dataclasses.fields(self):
            value = getattr(self, spec.name)
            # The types are not checked at run time and the values come from JSON: check them here.
            choices = _CHOICES.get(spec.name)
            if choices is not None and value not in choices:
                raise RulesError(
                    gettext_noop("{option} must be one of {choices}, not {value}"),
                    option=spec.name,
                    choices=", ".join(map(str, choices)),
                    value=repr(value),
                )
            expected = _TYPES[spec.name]
            if value is None and spec.name in _OPTIONAL_INTS:
                continue
            if type(value) is not expected:
                raise RulesError(
                    gettext_noop("{option} must be {type}, not {value}"),
                    option=spec.name,
                    type=expected.__name__,
                    value=repr(value),
                )
        if not 1 <= self.hand_size <= self.deck_size // 2:
            raise RulesError(gettext_noop("hand_size must be between 1 and {most}"), most=self.deck_size // 2)
        if self.max_attack is not None and self.max_attack < 1:
            raise RulesError(gettext_noop("max_attack must be at least 1"))
        if self.opening_limit is not None and self.opening_limit < 1:
            raise RulesError(gettext_noop("opening_limit must be at least 1"))
        if not 1 <= self.claim_after_days <= MAX_CLAIM_DAYS:
            raise RulesError(
                gettext_noop("the days before a game may be claimed must be from 1 to {most}"),
                most=MAX_CLAIM_DAYS,
            )
        if self.enchanted and self.deck_size != 36:
            raise RulesError(gettext_noop("enchanted cards are played with the 36-card deck"))

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The rules of a preset, with some options changed (:meth:`Preset.options_with`).

        >>> Rules.preset("tabletop", deck_size=52).hand_size
        7
        >>> Rules.preset("poker")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        durak.rules.RulesError: unknown preset 'poker': choose one of classic, perevodnoy, ...
        """
        return cls(**find_preset(name).options_with(overrides))

    @property
    def swap_rank(self) -> str:
        """The rank of the lowest trump, the one that may be swapped for the face-up trump card."""
        return LOWEST_RANK[self.deck_size]

    @property
    def bout_max(self) -> int:
        """The most attack cards in one bout, before the defender's hand limits it further."""
        return self.hand_size if self.max_attack is None else self.max_attack

    @property
    def has_teams(self) -> bool:
        """Whether the players play in two teams (a team loses together).

        >>> Rules.preset("classic").has_teams, Rules.preset("classic", teams="partners").has_teams
        (False, True)
        """
        return SEATINGS[self.teams].has_teams

    @property
    def min_players(self) -> int:
        """The fewest players: the seating of ``teams`` says.

        >>> Rules.preset("classic").min_players, Rules.preset("classic", teams="partners").min_players
        (2, 4)
        """
        return SEATINGS[self.teams].least_players

    @property
    def max_players(self) -> int:
        """The most players: as many full hands as the deck deals (at most six), unless the
        seating of ``teams`` takes fewer.

        >>> Rules.preset("classic").max_players, Rules.preset("classic", teams="black_book").max_players
        (6, 4)
        """
        return SEATINGS[self.teams].most_players(self.deck_size, self.hand_size)

    @property
    def claim_after_seconds(self) -> int:
        """How long a game without a clock waits on the same players before it may be claimed."""
        return self.claim_after_days * 86400

    def player_counts(self) -> list[int]:
        """Every number of players these rules can be played with."""
        seating = SEATINGS[self.teams]
        return [n for n in range(self.min_players, self.max_players + 1) if seating.seats(n)]

    def validate_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless ``players`` can play with these rules."""
        if self.has_teams and players not in self.player_counts():
            counts = "/".join(map(str, self.player_counts())) or "0"
            raise RulesError(
                gettext_noop("team play with these rules is for {counts} players, not {players}"),
                counts=counts,
                players=players,
            )
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                ngettext_noop(
                    "{deck} cards with {hand} each are for {least} to {most} player, not {players}",
                    "{deck} cards with {hand} each are for {least} to {most} players, not {players}",
                    count="most",
                ),
                deck=self.deck_size,
                hand=self.hand_size,
                least=self.min_players,
                most=self.max_players,
                players=players,
            )

    def to_dict(self, *, stored: bool = False) -> dict[str, Any]:
        """Every option as JSON data. ``stored``: the copy a game's stored state keeps, without the
        options added after states were first stored while they hold their default, so that an
        old state reads and writes back the same (and replaying an old game gives its state).

        >>> "claim_after_days" in Rules().to_dict(), "claim_after_days" in Rules().to_dict(stored=True)
        (True, False)
        >>> Rules(claim_after_days=3).to_dict(stored=True)["claim_after_days"]
        3
        """
        data = dataclasses.asdict(self)
        data["enchanted"] = list(self.enchanted)
        if stored:
            for name, default in ADDED_LATER.items():
                if data[name] == default:
                    del data[name]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data) - _TYPES.keys()
        if unknown:
            raise RulesError(gettext_noop("unknown option {options}"), options=", ".join(sorted(unknown)))
        return cls(**data)

    @classmethod
    def describe_options(cls) -> list[dict[str, Any]]:
        """Every option with its type, choices, default and help text, for building forms and the
        API's schema; a number's ``min`` and ``max`` (which values fit together, such as a hand
        for the deck, is the rules' own check).

        >>> days = next(o for o in Rules.describe_options() if o["name"] == "claim_after_days")
        >>> days["type"], days["min"], days["max"]
        ('int', 1, 365)
        """
        described = []
        defaults = cls().to_dict()
        for spec in dataclasses.fields(cls):
            kind = _TYPES[spec.name]
            choices: tuple[Any, ...] | None = _CHOICES.get(spec.name)
            if spec.name == "enchanted":
                type_name, choices = "ranks", ENCHANTABLE_RANKS
            elif choices is not None:
                type_name = "choice"
            elif spec.name in _OPTIONAL_INTS:
                type_name = "optional_int"
            else:
                type_name = kind.__name__
            described.append(
                {
                    "name": spec.name,
                    "type": type_name,
                    "choices": list(choices) if choices is not None else None,
                    "default": defaults[spec.name],
                    "help": spec.metadata["help"],
                    "min": spec.metadata.get("min"),
                    "max": spec.metadata.get("max"),
                }
            )
        return described


_OPTIONAL_INTS: Final = frozenset({"max_attack", "opening_limit"})
#: Options added after game states were first stored, with their defaults (``to_dict(stored=True)``).
ADDED_LATER: Final[dict[str, Any]] = {"claim_after_days": 14}
#: The most days a game without a clock can be set to wait before it may be claimed.
MAX_CLAIM_DAYS: Final = 365
_TYPES: Final[dict[str, type]] = {
    spec.name: (int if spec.name in _OPTIONAL_INTS else type(spec.default))
    for spec in dataclasses.fields(Rules)
}
# The values each choice option may take, in the order forms offer them, read from its ``Literal``.
_CHOICES: Final[dict[str, tuple[str | int, ...]]] = {
    name: get_args(hint) for name, hint in get_type_hints(Rules).items() if get_origin(hint) is Literal
}


@dataclass(frozen=True)
class Preset:
    """A named set of options that plays one rule text: the options it changes from the
    defaults, and the hand its text deals when another deck is chosen (Tabletop: seven of 52).

    >>> tabletop = find_preset("tabletop")
    >>> tabletop.options["first_attacker"], dict(tabletop.hand_sizes)
    ('left_of_dealer', {52: 7})
    """

    name: str
    #: What it plays, in a sentence (``gettext_noop``: the site translates it).
    description: str
    #: The options it changes from :class:`Rules`' defaults.
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Hand size by deck size, where the rule text deals differently with another deck than its
    #: own; the hand size asked for wins.
    hand_sizes: Mapping[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Read-only, so that a caller cannot change a preset every later game would be built from.
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "hand_sizes", MappingProxyType(dict(self.hand_sizes)))

    def options_with(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """This preset's options with some changed, for :class:`Rules` (see :meth:`Rules.preset`).

        >>> find_preset("tabletop").options_with({"deck_size": 52})["hand_size"]
        7
        >>> find_preset("tabletop").options_with({"deck_size": 52, "hand_size": 6})["hand_size"]
        6
        """
        unknown = set(overrides) - _TYPES.keys()
        if unknown:
            raise RulesError(gettext_noop("unknown option {options}"), options=", ".join(sorted(unknown)))
        options = {**self.options, **overrides}
        deck = options.get("deck_size", Rules.deck_size)
        if "hand_size" not in overrides and deck in self.hand_sizes:
            options["hand_size"] = self.hand_sizes[deck]
        return options


#: Every preset, in display order.
PRESET_TABLE: Final[tuple[Preset, ...]] = (
    Preset(
        "classic",
        gettext_noop("Podkidnoy, the Full rules: throw-in with attacker priority, trump 6 swap"),
    ),
    Preset(
        "perevodnoy",
        gettext_noop("The Full rules' transfer variant: pass the attack on with a same-rank card"),
        {"transfer": True},
    ),
    Preset(
        "black_book",
        gettext_noop("The Black Book: transfer, throw in any time, limit of 5 until the first defence"),
        {
            "multi_card_attack": False,
            "transfer": True,
            "trump_swap": "never",
            "throw_priority": "free",
            "opening_limit": 5,
            "opening_limit_until": "first_defence",
            "opening_limit_min_players": 2,
            "no_trump_first_attacker": "dealer",
            "later_first_attacker": "lowest_trump",
            "draw_order": "counterclockwise",
        },
    ),
    Preset(
        "tabletop",
        gettext_noop("Tabletop Simulator: left of the dealer attacks, others join after the first beat"),
        {
            "max_attack": None,
            "multi_card_attack": False,
            "trump_swap": "before_first_attack",
            "throw_priority": "free",
            "throw_when": "after_first_beat",
            "first_attacker": "left_of_dealer",
        },
        # "If the large deck is used deal seven (usually)"
        hand_sizes={52: 7},
    ),
    Preset(
        "durak24",
        gettext_noop("durak24.com: 24 cards (9 to ace), one card at a time"),
        {
            "deck_size": 24,
            "multi_card_attack": False,
            "trump_swap": "never",
            "throw_when": "all_beaten",
            "add_after_take": False,
            "later_first_attacker": "lowest_trump",
        },
    ),
)

_PRESETS_BY_NAME: Final = {preset.name: preset for preset in PRESET_TABLE}

#: Presets in display order: name -> what it plays.
PRESETS: Final = {preset.name: preset.description for preset in PRESET_TABLE}


def find_preset(name: str) -> Preset:
    """The preset called ``name``.

    >>> find_preset("perevodnoy").options
    mappingproxy({'transfer': True})
    >>> find_preset("Classic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    durak.rules.RulesError: unknown preset 'Classic': choose one of classic, perevodnoy, ...
    """
    try:
        return _PRESETS_BY_NAME[name]
    except KeyError:
        raise RulesError(
            gettext_noop("unknown preset {name}: choose one of {presets}"),
            name=repr(name),
            presets=", ".join(PRESETS),
        ) from None
