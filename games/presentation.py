"""Turns an engine ``view`` into what the game template shows: labels, buttons, sentences.

Presentation only: which actions exist comes from the view's ``actions``
(the engine's ``legal_actions``); nothing here decides a rule.
"""

import json
from dataclasses import dataclass, field
from typing import Any

import durak
from durak.enchanted import ACE_BEATS, ENCHANTABLE_RANKS, ENCHANTED_STAGES, SIX_BEATS, effect

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
#: Team 0 (the even seats) and team 1 (the odd seats) of a team game, as the pages name them.
TEAM_NAMES = ("team A", "team B")


def pretty(card: str) -> str:
    """``"10H"`` -> ``"10♥"``."""
    return durak.pretty(card)


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
        return "red" if self.as_suit in RED_SUITS else "black"

    @property
    def cards_attr(self) -> str:
        return " ".join(self.cards)


def action_label(action: dict[str, Any]) -> str:
    label = _plain_label(action)
    if action.get("as_suit"):
        label += f" as {SUIT_SYMBOLS[action['as_suit']]}"
    return label


def _plain_label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "attack":
        return f"Attack with {_cards_text(action['cards'])}"
    if kind == "throw":
        return f"Throw in {pretty(action['card'])}"
    if kind == "defend":
        return f"Beat {pretty(action['target'])} with {pretty(action['card'])}"
    if kind == "transfer":
        return f"Transfer with {pretty(action['card'])}"
    if kind == "take":
        return "Take the cards"
    if kind == "pass":
        return "Pass (nothing more from me)"
    if kind == "swap_trump":
        return "Swap the trump card"
    if kind == "reverse":
        return "Reverse the direction of play"
    return str(kind).replace("_", " ").capitalize()


def action_button(action: dict[str, Any]) -> ActionButton:
    posted = {key: value for key, value in action.items() if key != "player"}
    if "cards" in action:
        cards = tuple(action["cards"])
    elif "card" in action:
        cards = (action["card"],)
    else:
        cards = ()
    return ActionButton(
        action=action,
        label=action_label(action),
        value=json.dumps(posted, sort_keys=True),
        cards=cards,
    )


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
                action=picker.action, label=picker.label, value=picker.value, cards=picker.cards,
                choices=(*picker.choices, button),
            )
        else:
            pickers[key] = len(grouped)
            grouped.append(
                ActionButton(
                    action=plain, label=f"{_plain_label(plain)}, naming", value="", cards=button.cards,
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
        note_suit, note = named, f"as {SUIT_SYMBOLS[named]}"
    elif rank == "6":
        note_suit = SIX_BEATS[suit]
        note = f"beats {SUIT_SYMBOLS[note_suit]}"
    elif rank == "A":
        note_suit = ACE_BEATS[suit]
        note = f"beats {SUIT_SYMBOLS[note_suit]}A"
    else:
        note_suit, note = "", ""
    return CardMarks(
        enchanted=True,
        effect=effect(card),
        note=note,
        note_colour=("red" if note_suit in RED_SUITS else "black") if note_suit else "",
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

    @property
    def team_name(self) -> str:
        return TEAM_NAMES[self.team] if self.team is not None else ""


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
    def my_team(self) -> int | None:
        return next((i for i, team in enumerate(self.view.get("teams") or []) if self.me in team), None)

    @property
    def enchanted(self) -> list[str]:
        return list(self.view.get("enchanted") or [])

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


def _join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def build_table(view: dict[str, Any], names: dict[int, str], me: int | None) -> Table:
    def name(position: int | None) -> str:
        if position is None:
            return "nobody"
        return "you" if position == me else names.get(position, f"player {position + 1}")

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
        )
        for position, size in enumerate(view.get("hand_sizes") or [])
    ]
    # Opponents in play order, starting left of me.
    start = 0 if me is None else me + 1
    opponents = [players[(start + i) % len(players)] for i in range(len(players))]
    opponents = [player for player in opponents if not player.is_me]

    buttons = group_suit_choices([action_button(action) for action in view.get("actions") or []])
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
            status_line = "The game is over: a draw, no team lost."
        elif losing_team == my_team:
            status_line = f"The game is over: your team lost ({team_names(losing_team)})."
        else:
            status_line = f"The game is over: {TEAM_NAMES[losing_team]} ({team_names(losing_team)}) lost."
    elif over:
        loser = view.get("loser")
        if loser is None:
            status_line = "The game is over: a draw, nobody is the fool."
        elif loser == me:
            status_line = "The game is over: you are the fool."
        else:
            status_line = f"The game is over: {name(loser)} is the fool."
    elif me is not None and me in waiting:
        others = [name(p) for p in waiting if p != me]
        status_line = "Your move." + (f" ({_join_names(others)} may act too.)" if others else "")
    elif waiting:
        status_line = f"Waiting for {_join_names([name(p) for p in waiting])}."
    else:
        status_line = ""

    if over or attacker is None or defender is None:
        role_line = ""
    elif view.get("taking"):
        role_line = f"{name(defender).capitalize()} {'take' if defender == me else 'takes'} the cards."
    elif view.get("table"):
        verb = "attack" if attacker == me else "attacks"
        role_line = f"{name(attacker).capitalize()} {verb} {name(defender)}."
    else:
        verb = "lead" if attacker == me else "leads"
        role_line = f"{name(attacker).capitalize()} {verb} the next attack on {name(defender)}."

    team_line = ""
    if teams:
        if my_team is not None:
            partners = [name(p) for p in teams[my_team] if p != me]
            team_line = f"You play in {TEAM_NAMES[my_team]} with {_join_names(partners)}."
        else:
            team_line = "; ".join(f"{TEAM_NAMES[i][0].upper()}{TEAM_NAMES[i][1:]}: {team_names(i)}" for i in range(len(teams))) + "."
    direction = view.get("direction", 1)
    direction_line = ""
    if direction == -1:
        direction_line = "↺ Play runs counter-clockwise: an enchanted king reversed it."
    elif "K" in (view.get("enchanted") or []):
        direction_line = "↻ Play runs clockwise."
    team_results = (
        [
            (TEAM_NAMES[i], _join_names([names.get(p, f"player {p + 1}") for p in teams[i]]), losing_team == i)
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
        role_line=role_line,
        team_line=team_line,
        direction_line=direction_line,
        team_results=team_results,
    )


#: How the create form and the rules page name the engine's ready choices of enchanted ranks.
STAGE_LABELS = {
    "sixes_sevens": "sixes and sevens",
    "to_tens": "6 to 10",
    "to_queens": "6 to queen",
    "all": "all nine ranks",
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
        texts = [(pretty(card), effect(card)) for card in cards]
        if len({text for _, text in texts}) == 1:
            texts = [(rank, texts[0][1])]
        rows.append(EnchantedRank(rank=rank, effects=texts))
    return rows
