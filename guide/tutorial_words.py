"""The tutorial in words: what just happened, what you may do now and why, in the active language.

Everything here describes the engine's actions and events; what is legal comes from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

import durak
from durak.cards import RED_SUITS
from games.presentation import card_name

from .tutorial import MAIN_LINE, OPPONENT, YOU, Step, Tutorial, token_of

TRUMP_NAMES = {
    "S": lambda: pgettext("trump suit", "spades ♠"),
    "H": lambda: pgettext("trump suit", "hearts ♥"),
    "D": lambda: pgettext("trump suit", "diamonds ♦"),
    "C": lambda: pgettext("trump suit", "clubs ♣"),
}


def trump_name(suit: str | None) -> str:
    return TRUMP_NAMES[suit]() if suit else pgettext("trump suit", "none")


@dataclass(frozen=True)
class Card:
    code: str
    text: str
    name: str
    red: bool


def card(code: str) -> Card:
    return Card(
        code=code, text=durak.pretty(code), name=card_name(code), red=durak.card_suit(code) in RED_SUITS
    )


def cards_text(codes: list[str]) -> str:
    return " ".join(durak.pretty(code) for code in codes)


def action_label(action: dict[str, Any]) -> str:
    """A button's label for one of your legal actions."""
    kind = action["type"]
    if kind == "attack":
        return pgettext("tutorial", "Attack with %(cards)s") % {"cards": cards_text(action["cards"])}
    if kind == "throw":
        return pgettext("tutorial", "Throw in %(card)s") % {"card": durak.pretty(action["card"])}
    if kind == "defend":
        return pgettext("tutorial", "Beat %(target)s with %(card)s") % {
            "target": durak.pretty(action["target"]),
            "card": durak.pretty(action["card"]),
        }
    if kind == "transfer":
        return pgettext("tutorial", "Transfer with %(card)s") % {"card": durak.pretty(action["card"])}
    if kind == "take":
        return pgettext("tutorial", "Take the cards (beru)")
    if kind == "pass":
        return pgettext("tutorial", "Pass: nothing more from me")
    if kind == "swap_trump":
        return pgettext("tutorial", "Swap the trump card")
    return str(kind)


def _move_line(step: Step) -> str:
    action, you = step.action, step.player == YOU
    kind = action["type"]
    if kind == "attack":
        cards = cards_text(action["cards"])
        return (
            gettext("You attack with %(cards)s.") if you else gettext("Your opponent attacks with %(cards)s.")
        ) % {"cards": cards}
    if kind == "throw":
        card_text = durak.pretty(action["card"])
        return (
            gettext("You throw in %(card)s.") if you else gettext("Your opponent throws in %(card)s.")
        ) % {"card": card_text}
    if kind == "defend":
        values = {"target": durak.pretty(action["target"]), "card": durak.pretty(action["card"])}
        return (
            gettext("You beat %(target)s with %(card)s.")
            if you
            else gettext("Your opponent beats %(target)s with %(card)s.")
        ) % values
    if kind == "transfer":
        card_text = durak.pretty(action["card"])
        return (
            gettext("You transfer with %(card)s.")
            if you
            else gettext("Your opponent transfers with %(card)s.")
        ) % {"card": card_text}
    if kind == "take":
        return (
            gettext("You take the cards.")
            if you
            else gettext("Your opponent says “beru”: they take the cards.")
        )
    if kind == "pass":
        return gettext("You pass.") if you else gettext("Your opponent passes.")
    if kind == "swap_trump":
        return gettext("You swap the trump card.") if you else gettext("Your opponent swaps the trump card.")
    return str(kind)


def _event_line(event: dict[str, Any]) -> str | None:
    kind = event["type"]
    if kind == "bout_end" and event.get("result") == "beaten":
        return gettext("Bito: the bout is beaten off and its cards go to the discard.")
    if kind == "drew":
        count = event["count"]
        if event["player"] == YOU:
            line = ngettext("You draw %(count)s card.", "You draw %(count)s cards.", count) % {"count": count}
        else:
            line = ngettext(
                "Your opponent draws %(count)s card.", "Your opponent draws %(count)s cards.", count
            ) % {"count": count}
        if event.get("face_up"):
            line += " " + gettext("The last one is the face-up trump, %(card)s.") % {
                "card": durak.pretty(event["face_up"])
            }
        return line
    if kind == "out":
        return gettext("You have no cards left: you are out!") if event["player"] == YOU else None
    return None


def history(tutorial: Tutorial) -> list[str]:
    """Every move so far and what it led to, in order."""
    lines = []
    for step in tutorial.steps:
        lines.append(_move_line(step))
        lines.extend(line for event in step.events if (line := _event_line(event)))
    return lines


def latest(tutorial: Tutorial) -> list[str]:
    """What happened since your last move (your move included)."""
    start = max((i for i, step in enumerate(tutorial.steps) if step.player == YOU), default=0)
    lines = []
    for step in tutorial.steps[start:]:
        lines.append(_move_line(step))
        lines.extend(line for event in step.events if (line := _event_line(event)))
    return lines


#: What the tutorial says before each move of the main line (the index is the number of your moves).
def _main_line_tip(index: int) -> str:
    tips = [
        gettext(
            "You attack first. Hearts are trumps: the 9♥ lies face up under the stock. Lay a card in front of your "
            "opponent; a low card that is not a trump is a good start. Try the 6♠."
        ),
        gettext(
            "Your opponent beat your 6♠ with the 8♠. Now you may throw in (podkinut') a card of a rank already on "
            "the table, a 6 or an 8: throw in the 6♣."
        ),
        gettext(
            "The 7♣ beat it. Sixes, sevens and eights are on the table now, and your only seven is the 7♥, a trump: "
            "keep it. Pass: nothing more from you, and the bout is beaten off."
        ),
        gettext(
            "You drew first, as the attacker, and got the last cards of the stock, the face-up 9♥ among them. Your "
            "opponent beat off your attack, so now they attack you with the 9♦. Beat it with the 10♦, a higher "
            "diamond, and save your trumps."
        ),
        gettext(
            "Your opponent had nothing to throw in, so you beat off the attack and it is your turn to attack. The "
            "stock is empty: whoever runs out of cards now is out. Attack with the J♠."
        ),
        gettext(
            "The 8♥ is a trump, so it beat your jack although it is lower. Now your opponent attacks with the J♣. "
            "You have no higher club: beat it with a trump, your lowest one, the 7♥."
        ),
        gettext("Your opponent has a single card left, the Q♦. Attack with the K♠: they cannot beat it."),
        gettext(
            "Your opponent could not beat the K♠ and took it, so they lose their turn: you attack again. Play the A♦."
        ),
        gettext("One card left: the 9♥, a trump. Play it and you are out of cards."),
    ]
    return tips[index] if index < len(tips) else ""


def _situation_tip(tutorial: Tutorial) -> str:
    game = tutorial.game
    actions = tutorial.legal_actions()
    kinds = {action["type"] for action in actions}
    if "defend" in kinds or ("take" in kinds and game.defender == YOU):
        unbeaten = [str(attack) for attack, defence in game.table if defence is None]
        return gettext(
            "Attacking you: %(cards)s. Beat each card with a higher card of its suit or with a trump, or take the "
            "cards."
        ) % {"cards": cards_text(unbeaten)}
    if "attack" in kinds:
        return gettext("You attack: lay any card, or several cards of one rank, in front of your opponent.")
    if game.taking:
        return gettext("Your opponent takes: you may still add cards of the ranks on the table, or pass.")
    if "throw" in kinds:
        return gettext(
            "Your cards are beaten. Throw in a card of a rank on the table, or pass and the bout is bito."
        )
    return ""


def tip(tutorial: Tutorial) -> str:
    if tutorial.game.over:
        return outcome(tutorial)
    if tutorial.on_main_line and tutorial.suggested is not None:
        return _main_line_tip(len(tutorial.moves))
    return _situation_tip(tutorial)


def outcome(tutorial: Tutorial) -> str:
    game = tutorial.game
    if game.loser == OPPONENT:
        return gettext(
            "You got rid of all your cards while your opponent still holds some: they are the durak. Well played!"
        )
    if game.loser == YOU:
        return gettext("You are the last one holding cards: this time you are the durak. Try again!")
    return gettext("Nobody holds any cards: a draw, there is no fool.")


def tokens_for_buttons(tutorial: Tutorial) -> list[tuple[str, str, bool]]:
    """(label, the moves after this action, suggested) for each of your legal actions."""
    buttons = []
    for action in tutorial.legal_actions():
        token = token_of(action)
        moves = ",".join([*tutorial.moves, token])
        buttons.append((action_label(action), moves, token == tutorial.suggested))
    return buttons


def progress(tutorial: Tutorial) -> tuple[int, int]:
    return len(tutorial.moves) + 1, len(MAIN_LINE)
