"""Turns an engine ``view`` into what the game template shows: labels, buttons, sentences.

Presentation only: which actions exist comes from the view's ``actions``
(the engine's ``legal_actions``); nothing here decides a rule.
"""

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

import durak
from durak.enchanted import ACE_BEATS, ENCHANTABLE_RANKS, ENCHANTED_STAGES, SIX_BEATS
from durak_site.engine_text import effect_text

from . import words

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: English suit names (the engine's); pages show ``suit_name`` / ``card_name`` in the reader's language.
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
#: Team 0 (the even seats) and team 1 (the odd seats) of a team game, as the pages name them.
TEAM_NAMES: tuple[Promise, Promise] = (gettext_lazy("team A"), gettext_lazy("team B"))

#: "eight of diamonds" / "восьмёрка бубен": the names screen readers read out.
_RANK_NAMES: dict[str, Promise] = {
    "2": pgettext_lazy("card rank", "two"),
    "3": pgettext_lazy("card rank", "three"),
    "4": pgettext_lazy("card rank", "four"),
    "5": pgettext_lazy("card rank", "five"),
    "6": pgettext_lazy("card rank", "six"),
    "7": pgettext_lazy("card rank", "seven"),
    "8": pgettext_lazy("card rank", "eight"),
    "9": pgettext_lazy("card rank", "nine"),
    "10": pgettext_lazy("card rank", "ten"),
    "J": pgettext_lazy("card rank", "jack"),
    "Q": pgettext_lazy("card rank", "queen"),
    "K": pgettext_lazy("card rank", "king"),
    "A": pgettext_lazy("card rank", "ace"),
}
#: A suit as in "eight of diamonds" (Russian: the genitive, "бубен").
_SUIT_OF: dict[str, Promise] = {
    "S": pgettext_lazy("of a suit", "spades"),
    "H": pgettext_lazy("of a suit", "hearts"),
    "D": pgettext_lazy("of a suit", "diamonds"),
    "C": pgettext_lazy("of a suit", "clubs"),
}
#: A suit on its own ("trump: diamonds"; Russian: "бубны").
_SUIT_ALONE: dict[str, Promise] = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
}


def pretty(card: str) -> str:
    """``"10H"`` -> ``"10♥"``."""
    return durak.pretty(card)


def card_name(card: str) -> str:
    """``"8D"`` -> ``"eight of diamonds"`` (``"восьмёрка бубен"`` in Russian)."""
    rank, suit = durak.card_rank(card), durak.card_suit(card)
    return pgettext("card name", "%(rank)s of %(suit)s") % {"rank": _RANK_NAMES[rank], "suit": _SUIT_OF[suit]}


def suit_name(suit: str | None) -> str:
    """``"D"`` -> ``"diamonds"`` (``"бубны"``); no suit: ``"none"``."""
    return str(_SUIT_ALONE[suit]) if suit in _SUIT_ALONE else pgettext("suit", "none")


def suit_colour(suit: str | None, four_colour: bool = False) -> str:
    """The CSS class of a suit's colour: red/black, or with the four-colour deck ♦ blue and ♣ green."""
    if four_colour and suit == "D":
        return "blue"
    if four_colour and suit == "C":
        return "green"
    return "red" if suit in RED_SUITS else "black"


def _cards_text(cards: list[str]) -> str:
    return " ".join(pretty(card) for card in cards)


@dataclass(frozen=True)
class ActionButton:
    action: dict[str, Any]
    label: str
    value: str  # the JSON the form posts
    cards: tuple[str, ...]  # cards of the player's hand this action plays
    #: A suit picker: the same play once for each suit an enchanted eight may be named as (the
    #: engine lists them as separate actions); this button's own value is then not posted.
    choices: tuple["ActionButton", ...] = ()
    #: What the button means, when its label is one word ("Done"): the button's title.
    hint: str = ""

    @property
    def kind(self) -> str:
        return str(self.action["type"])

    @property
    def as_suit(self) -> str:
        return str(self.action.get("as_suit") or "")

    @property
    def suit_symbol(self) -> str:
        return SUIT_SYMBOLS.get(self.as_suit, "")

    @property
    def suit_colour(self) -> str:
        return suit_colour(self.as_suit)

    @property
    def cards_attr(self) -> str:
        return " ".join(self.cards)

    @property
    def confirm(self) -> str:
        """The question of the confirm bar: "Beat 7♦ with 9♦?"."""
        return _("%(move)s?") % {"move": self.label}


def action_label(action: dict[str, Any]) -> str:
    return words.action_label(action)


def _plain_label(action: dict[str, Any]) -> str:
    return words.plain_action_label(action)


def action_button(action: dict[str, Any], view: dict[str, Any] | None = None) -> ActionButton:
    """The button for ``action``; with the ``view``, a pass reads as at the table: «Бито» once
    every card is beaten, «Пас» while the defender takes or cards are still unbeaten."""
    posted = {key: value for key, value in action.items() if key != "player"}
    if "cards" in action:
        cards = tuple(action["cards"])
    elif "card" in action:
        cards = (action["card"],)
    else:
        cards = ()
    label, hint = action_label(action), ""
    if action["type"] == "pass" and view is not None:
        label, hint = pass_label(view), _("Nothing more from me until a new card lands on the table.")
    return ActionButton(
        action=action,
        label=label,
        value=json.dumps(posted, sort_keys=True),
        cards=cards,
        hint=hint,
    )


def pass_label(view: dict[str, Any]) -> str:
    """The "done" button's word for the moment: every card beaten, the defender taking, or cards
    still to beat (the Russian table says «Бито» only for the first)."""
    table = view.get("table") or []
    if view.get("taking"):
        return pgettext("pass while the defender takes", "Done")
    if table and all(defence for _attack, defence in table):
        return pgettext("pass when every card is beaten", "Done")
    return pgettext("pass while cards are still to beat", "Done")


def auto_pass_action(on: bool) -> str:
    """The JSON a "don't wait for me to throw in" toggle posts (``durak.PREFERENCE_ACTION_TYPES``)."""
    return json.dumps({"on": on, "type": "auto_pass"}, sort_keys=True)


def group_suit_choices(buttons: list[ActionButton]) -> list[ActionButton]:
    """One suit picker for each play the engine lists once per ``as_suit`` (an enchanted eight),
    in the order the actions came; other buttons unchanged."""
    grouped: list[ActionButton] = []
    pickers: dict[str, int] = {}
    for button in buttons:
        if not button.as_suit:
            grouped.append(button)
            continue
        plain = {key: value for key, value in button.action.items() if key != "as_suit"}
        key = json.dumps(plain, sort_keys=True)
        if key in pickers:
            picker = grouped[pickers[key]]
            grouped[pickers[key]] = ActionButton(
                action=picker.action,
                label=picker.label,
                value=picker.value,
                cards=picker.cards,
                choices=(*picker.choices, button),
            )
        else:
            pickers[key] = len(grouped)
            grouped.append(
                ActionButton(
                    action=plain,
                    label=_("%(move)s, naming") % {"move": _plain_label(plain)},
                    value="",
                    cards=button.cards,
                    choices=(button,),
                )
            )
    return grouped


@dataclass(frozen=True)
class CardMarks:
    """How a face-up card is marked on the page: enchanted or not, its effect, a short note."""

    enchanted: bool = False
    effect: str = ""
    note: str = ""  # "beats ♥" (six), "beats ♦A" (ace; never "A♦", which reads as a card), "as ♣" (an eight named on the table)
    note_colour: str = ""


def card_marks(card: str, view: dict[str, Any]) -> CardMarks:
    """What the view says about ``card``: whether its rank is enchanted (``view["enchanted"]``),
    the engine's sentence for its effect, the suit a six or an ace beats, an eight's named suit."""
    rank, suit = durak.card_rank(card), durak.card_suit(card)
    if rank not in (view.get("enchanted") or []):
        return CardMarks()
    named = (view.get("named_suits") or {}).get(card)
    if named:
        note_suit, note = (
            named,
            pgettext("an eight named as a suit", "as %(suit)s") % {"suit": SUIT_SYMBOLS[named]},
        )
    elif rank == "6":
        note_suit = SIX_BEATS[suit]
        note = pgettext("an enchanted six", "beats %(suit)s") % {"suit": SUIT_SYMBOLS[note_suit]}
    elif rank == "A":
        note_suit = ACE_BEATS[suit]
        note = pgettext("an enchanted ace", "beats %(suit)sA") % {"suit": SUIT_SYMBOLS[note_suit]}
    else:
        note_suit, note = "", ""
    return CardMarks(
        enchanted=True,
        effect=effect_text(card),
        note=note,
        note_colour=suit_colour(note_suit) if note_suit else "",
    )


@dataclass(frozen=True)
class Spell:
    """An enchanted card in sight, with its effect: the page's tap-to-read list."""

    card: str
    pretty: str
    effect: str
    note: str


@dataclass
class Pair:
    attack: str
    defence: str | None
    defend_buttons: list[ActionButton] = field(default_factory=list)


@dataclass
class Player:
    position: int
    name: str
    is_me: bool
    hand_size: int
    role: str  # "attacker", "defender" or ""
    out: bool
    waited_for: bool
    team: int | None = None  # 0 or 1 in a team game (view["teams"])
    partner: bool = False  # in my team, not me
    auto_pass: bool = False  # asked not to be waited for to throw in (public: view["auto_pass"])

    @property
    def team_name(self) -> str:
        return str(TEAM_NAMES[self.team]) if self.team is not None else ""

    @property
    def role_label(self) -> str:
        """The marker beside the name: "attacks" / "defends"."""
        if self.role == "attacker":
            return pgettext("role marker", "attacks")
        if self.role == "defender":
            return pgettext("role marker", "defends")
        return ""

    @property
    def count_label(self) -> str:
        if self.out:
            return pgettext("a player who has no cards left", "out")
        return ngettext("%(count)d card", "%(count)d cards", self.hand_size) % {"count": self.hand_size}


@dataclass
class Table:
    """Everything the table partial renders, from one player's view."""

    view: dict[str, Any]
    me: int | None
    players: list[Player]
    opponents: list[Player]
    pairs: list[Pair]
    play_buttons: list[ActionButton]  # attack, throw, transfer: a card goes to the table
    other_buttons: list[ActionButton]  # take, pass, swap trump, ...
    status_line: str
    role_line: str
    team_line: str = ""
    direction_line: str = ""
    team_results: list[tuple[str, str, bool]] = field(default_factory=list)  # (team, names, lost)
    #: What is happening, in words: "8♦ attacks you: beat it or take."
    situation_line: str = ""
    #: The last move, in words, for the live region: "anna attacks with 6♠."
    last_move_line: str = ""

    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand") or [])

    @property
    def playable(self) -> set[str]:
        """Cards of my hand that some legal action plays."""
        buttons = self.play_buttons + [b for pair in self.pairs for b in pair.defend_buttons]
        return {card for button in buttons for card in button.cards}

    @property
    def my_turn(self) -> bool:
        return self.me is not None and self.me in (self.view.get("waiting_for") or [])

    @property
    def auto_pass(self) -> bool:
        """Whether I asked not to be waited for to throw in."""
        return self.me is not None and self.me in (self.view.get("auto_pass") or [])

    @property
    def can_choose_auto_pass(self) -> bool:
        """The engine takes the choice from a player still in a running game."""
        return (
            self.me is not None
            and not self.view.get("over")
            and self.me not in (self.view.get("finished") or [])
        )

    @property
    def auto_pass_value(self) -> str:
        """What the toggle posts: the other setting."""
        return auto_pass_action(not self.auto_pass)

    @property
    def my_team(self) -> int | None:
        return next((i for i, team in enumerate(self.view.get("teams") or []) if self.me in team), None)

    @property
    def my_player(self) -> Player | None:
        return next((player for player in self.players if player.is_me), None)

    @property
    def enchanted(self) -> list[str]:
        return list(self.view.get("enchanted") or [])

    @property
    def trump_name(self) -> str:
        return suit_name(self.view.get("trump"))

    @property
    def announcement(self) -> str:
        """What the live region reads out after a change: the last move, then whose turn it is."""
        parts = [self.last_move_line, self.status_line if self.my_turn or self.view.get("over") else ""]
        return " ".join(part for part in parts if part)

    def marks(self, card: str) -> CardMarks:
        return card_marks(card, self.view)

    @property
    def spells(self) -> list[Spell]:
        """The enchanted cards in sight (my hand, the table, the face-up trump card), each once."""
        if not self.enchanted:
            return []
        cards = [*self.hand, *(c for pair in self.pairs for c in (pair.attack, pair.defence) if c)]
        if self.view.get("trump_card"):
            cards.append(self.view["trump_card"])
        spells: dict[str, Spell] = {}
        for card in cards:
            marks = self.marks(card)
            if marks.enchanted and card not in spells:
                spells[card] = Spell(card=card, pretty=pretty(card), effect=marks.effect, note=marks.note)
        return list(spells.values())


def _capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _role_line(view: dict[str, Any], me: int | None, name: Any) -> str:
    """Who attacks whom: "anna attacks you."."""
    attacker, defender = view.get("attacker"), view.get("defender")
    if view.get("over") or attacker is None or defender is None:
        return ""
    if view.get("taking"):
        if defender == me:
            return _("You take the cards.")
        return _("%(defender)s takes the cards.") % {"defender": name(defender)}
    if view.get("table"):
        if attacker == me:
            return _("You attack %(defender)s.") % {"defender": name(defender)}
        if defender == me:
            return _("%(attacker)s attacks you.") % {"attacker": name(attacker)}
        return _("%(attacker)s attacks %(defender)s.") % {
            "attacker": name(attacker),
            "defender": name(defender),
        }
    if attacker == me:
        return _("You lead the next attack on %(defender)s.") % {"defender": name(defender)}
    if defender == me:
        return _("%(attacker)s leads the next attack on you.") % {"attacker": name(attacker)}
    return _("%(attacker)s leads the next attack on %(defender)s.") % {
        "attacker": name(attacker),
        "defender": name(defender),
    }


def _situation_line(view: dict[str, Any], me: int | None, name: Any) -> str:
    """What is happening and what I may do, in a few words: "8♦ attacks you: beat it or take."."""
    attacker, defender = view.get("attacker"), view.get("defender")
    if view.get("over") or attacker is None or defender is None:
        return ""
    kinds = {action["type"] for action in view.get("actions") or []}
    unbeaten = [attack for attack, defence in view.get("table") or [] if defence is None]
    cards = _cards_text(unbeaten)
    waited = me is not None and me in (view.get("waiting_for") or [])
    if defender == me:
        if view.get("taking"):
            return _("You take the cards: the others may still throw in more.")
        if unbeaten and "transfer" in kinds:
            return ngettext(
                "%(cards)s attacks you: beat it, transfer or take.",
                "%(cards)s attack you: beat them, transfer or take.",
                len(unbeaten),
            ) % {"cards": cards}
        if unbeaten:
            return ngettext(
                "%(cards)s attacks you: beat it or take.",
                "%(cards)s attack you: beat them or take.",
                len(unbeaten),
            ) % {"cards": cards}
        if view.get("table"):
            return _("You beat every card: waiting to see if more are thrown in.")
        return _("%(attacker)s is about to attack you.") % {"attacker": name(attacker)}
    target = {"defender": name(defender)}
    if view.get("taking"):
        if waited:
            return _("%(defender)s takes: throw in more cards, or say you are done.") % target
        return _("%(defender)s takes the cards.") % target
    if unbeaten:
        return ngettext(
            "%(defender)s has to beat %(cards)s or take.",
            "%(defender)s has to beat %(cards)s or take.",
            len(unbeaten),
        ) % {**target, "cards": cards}
    if view.get("table"):
        if waited:
            return _("%(defender)s beat every card: throw in more, or say you are done (bito).") % target
        return _("%(defender)s beat every card.") % target
    if waited and attacker == me:
        return _("Your lead: attack %(defender)s with one card or several of a rank.") % target
    return _("%(attacker)s leads against %(defender)s.") % {"attacker": name(attacker), **target}


def last_move_line(
    action: dict[str, Any] | None,
    position: int | None,
    me: int | None,
    names: dict[int, str],
    in_sight: frozenset[str] = frozenset(),
) -> str:
    """A public move, in words, for the live region: "anna attacks with 6♠." / "You take the cards.".

    ``in_sight``: the cards the viewer sees now (table, own hand, discard pile, face-up trump). A
    move's cards are named only while in sight: a card thrown in and then taken lies in a hand."""
    if not action:
        return ""
    played = [*(action.get("cards") or []), *([action["card"]] if action.get("card") else [])]
    return words.move_sentence(
        action, me=me, names=names, position=position, show_cards=set(played) <= in_sight
    )


def _cards_in_sight(view: dict[str, Any]) -> frozenset[str]:
    on_table = [card for pair in view.get("table") or [] for card in pair if card]
    trump = [view["trump_card"]] if view.get("trump_card") else []
    return frozenset([*on_table, *(view.get("hand") or []), *(view.get("discarded") or []), *trump])


def build_table(
    view: dict[str, Any],
    names: dict[int, str],
    me: int | None,
    *,
    last_action: dict[str, Any] | None = None,
    last_position: int | None = None,
) -> Table:
    """``last_action``/``last_position``: the game's last public move (``Move.action``), told in words."""

    def name(position: int | None) -> str:
        if position is None:
            return _("nobody")
        return (
            _("you")
            if position == me
            else names.get(position, _("player %(number)d") % {"number": position + 1})
        )

    finished = set(view.get("finished") or [])
    team_of = {seat: index for index, team in enumerate(view.get("teams") or []) for seat in team}
    my_team = team_of.get(me) if me is not None else None
    waiting = list(view.get("waiting_for") or [])
    over = bool(view.get("over"))
    attacker, defender = view.get("attacker"), view.get("defender")
    players = [
        Player(
            position=position,
            name=name(position),
            is_me=position == me,
            hand_size=size,
            role="attacker" if position == attacker else "defender" if position == defender else "",
            out=position in finished,
            waited_for=position in waiting and not over,
            team=team_of.get(position),
            partner=position != me and my_team is not None and team_of.get(position) == my_team,
            auto_pass=position in (view.get("auto_pass") or []) and not over,
        )
        for position, size in enumerate(view.get("hand_sizes") or [])
    ]
    # Opponents in play order, starting left of me.
    start = 0 if me is None else me + 1
    opponents = [players[(start + i) % len(players)] for i in range(len(players))]
    opponents = [player for player in opponents if not player.is_me]

    buttons = group_suit_choices([action_button(action, view) for action in view.get("actions") or []])
    pairs = [Pair(attack=attack, defence=defence) for attack, defence in view.get("table") or []]
    by_target = {pair.attack: pair for pair in pairs}
    play_buttons: list[ActionButton] = []
    other_buttons: list[ActionButton] = []
    for button in buttons:
        target = by_target.get(button.action.get("target", "")) if button.kind == "defend" else None
        if target is not None:
            target.defend_buttons.append(button)
        elif button.cards:
            play_buttons.append(button)
        else:
            other_buttons.append(button)

    teams: list[list[int]] = list(view.get("teams") or [])
    losing_team = view.get("losing_team")

    def team_names(index: int) -> str:
        return _join_names([name(p) for p in teams[index]])

    if over and teams:
        if losing_team is None:
            status_line = _("The game is over: a draw, no team lost.")
        elif losing_team == my_team:
            status_line = _("The game is over: your team lost (%(names)s).") % {
                "names": team_names(losing_team)
            }
        else:
            status_line = _("The game is over: %(team)s (%(names)s) lost.") % {
                "team": TEAM_NAMES[losing_team],
                "names": team_names(losing_team),
            }
    elif over:
        loser = view.get("loser")
        if loser is None:
            status_line = _("The game is over: a draw, nobody is the fool.")
        elif loser == me:
            status_line = _("The game is over: you are the fool.")
        else:
            status_line = _("The game is over: %(name)s is the fool.") % {"name": name(loser)}
    elif me is not None and me in waiting:
        others = [name(p) for p in waiting if p != me]
        status_line = _("Your move.")
        if others:
            status_line += " " + _("(%(names)s may act too.)") % {"names": _join_names(others)}
    elif waiting:
        status_line = _("Waiting for %(names)s.") % {"names": _join_names([name(p) for p in waiting])}
    else:
        status_line = ""

    team_line = ""
    if teams:
        if my_team is not None:
            partners = [name(p) for p in teams[my_team] if p != me]
            team_line = _("You play in %(team)s with %(names)s.") % {
                "team": TEAM_NAMES[my_team],
                "names": _join_names(partners),
            }
        else:
            team_line = (
                "; ".join(
                    _("%(team)s: %(names)s") % {"team": _capfirst(str(TEAM_NAMES[i])), "names": team_names(i)}
                    for i in range(len(teams))
                )
                + "."
            )
    direction = view.get("direction", 1)
    direction_line = ""
    if direction == -1:
        direction_line = _("↺ Play runs counter-clockwise: an enchanted king reversed it.")
    elif "K" in (view.get("enchanted") or []):
        direction_line = _("↻ Play runs clockwise.")
    team_results = (
        [
            (
                str(TEAM_NAMES[i]),
                _join_names([names.get(p, _("player %(number)d") % {"number": p + 1}) for p in teams[i]]),
                losing_team == i,
            )
            for i in range(len(teams))
        ]
        if over and teams
        else []
    )

    return Table(
        view=view,
        me=me,
        players=players,
        opponents=opponents,
        pairs=pairs,
        play_buttons=play_buttons,
        other_buttons=other_buttons,
        status_line=status_line,
        role_line=_role_line(view, me, name),
        team_line=team_line,
        direction_line=direction_line,
        team_results=team_results,
        situation_line=_situation_line(view, me, name),
        last_move_line=last_move_line(last_action, last_position, me, names, _cards_in_sight(view)),
    )


#: How the create form and the rules page name the engine's ready choices of enchanted ranks.
STAGE_LABELS: dict[str, Promise] = {
    "sixes_sevens": gettext_lazy("sixes and sevens"),
    "to_tens": gettext_lazy("6 to 10"),
    "to_queens": gettext_lazy("6 to queen"),
    "all": gettext_lazy("all nine ranks"),
}


def stage_label(stage: str) -> str:
    ranks = ENCHANTED_STAGES[stage]
    return f"{STAGE_LABELS.get(stage, stage.replace('_', ' '))} ({', '.join(ranks)})"


@dataclass(frozen=True)
class EnchantedRank:
    rank: str
    #: (card, its effect): one per suit where the effect names a suit (six, ace), else one.
    effects: list[tuple[str, str]]


def enchanted_rules() -> list[EnchantedRank]:
    """Each enchantable rank with the engine's sentence for its effect (``durak.enchanted``)."""
    rows = []
    for rank in ENCHANTABLE_RANKS:
        cards = [rank + suit for suit in durak.SUITS]
        texts = [(pretty(card), effect_text(card)) for card in cards]
        if len({text for _, text in texts}) == 1:
            texts = [(rank, texts[0][1])]
        rows.append(EnchantedRank(rank=rank, effects=texts))
    return rows
