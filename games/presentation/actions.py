"""The buttons for a player's legal actions (the engine's ``legal_actions``, in the view's
``actions``): the JSON each posts, the cards it plays, its words (``games.words``)."""

import json
from dataclasses import dataclass
from typing import Any

from durak import SUIT_SYMBOLS

from .. import words
from .cards import suit_colour


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
        return words.confirm_question(self.label)


def _posted(action: dict[str, Any]) -> str:
    """The JSON a button posts: the action without its player (the seat is the poster's)."""
    return json.dumps({key: value for key, value in action.items() if key != "player"}, sort_keys=True)


def action_button(action: dict[str, Any], view: dict[str, Any] | None = None) -> ActionButton:
    """The button for ``action``; with the ``view``, a pass reads as at the table: «Бито» once
    every card is beaten, «Пас» while the defender takes or cards are still unbeaten."""
    cards = tuple(action["cards"]) if "cards" in action else (action["card"],) if "card" in action else ()
    if action["type"] == "pass" and view is not None:
        label, hint = words.pass_label(view), words.pass_hint()
    else:
        label, hint = words.action_label(action), ""
    return ActionButton(action=action, label=label, value=_posted(action), cards=cards, hint=hint)


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
                    label=words.naming_label(plain),
                    value="",
                    cards=button.cards,
                    choices=(button,),
                )
            )
    return grouped
