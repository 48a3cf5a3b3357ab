"""Turns an engine ``view`` into what the game template shows: labels, buttons, sentences.

Presentation only: which actions exist comes from the view's ``actions``
(the engine's ``legal_actions``); nothing here decides a rule.
"""

import json
from dataclasses import dataclass, field
from typing import Any

import durak

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")


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

    @property
    def kind(self) -> str:
        return str(self.action["type"])

    @property
    def cards_attr(self) -> str:
        return " ".join(self.cards)


def action_label(action: dict[str, Any]) -> str:
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
        )
        for position, size in enumerate(view.get("hand_sizes") or [])
    ]
    # Opponents in play order, starting left of me.
    start = 0 if me is None else me + 1
    opponents = [players[(start + i) % len(players)] for i in range(len(players))]
    opponents = [player for player in opponents if not player.is_me]

    buttons = [action_button(action) for action in view.get("actions") or []]
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

    if over:
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
    )
