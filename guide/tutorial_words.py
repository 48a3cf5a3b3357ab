"""The tutorial in words: what just happened (the real table's sentences, ``games.words``), what you
may do now and why, in the active language.

Everything here describes the engine's actions and events; what is legal comes from the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from games import words
from games.presentation import ActionButton, action_button

from .tutorial import MAIN_LINE, OPPONENT, YOU, Step, Tutorial, token_of


#: How the tutorial's sentences name its scripted opponent (the table says "you" for you).
def names() -> dict[int, str]:
    return {OPPONENT: gettext("your opponent")}


def cards_text(codes: list[str]) -> str:
    return words.cards_text(codes)


def _step_lines(step: Step) -> list[str]:
    """A move and what it led to, in the real table's words (``games.words``)."""
    lines = [words.move_sentence(step.action, me=YOU, names=names(), position=step.player)]
    lines += words.event_sentences(step.events, me=YOU, names=names())
    return [words.capfirst(line) for line in lines if line]


def history(tutorial: Tutorial) -> list[str]:
    """Every move so far and what it led to, in order."""
    return [line for step in tutorial.steps for line in _step_lines(step)]


def latest(tutorial: Tutorial) -> list[str]:
    """What happened since your last move (your move included)."""
    start = max((i for i, step in enumerate(tutorial.steps) if step.player == YOU), default=0)
    return [line for step in tutorial.steps[start:] for line in _step_lines(step)]


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
    result = tutorial.game.outcome()
    if result is not None and result.lost(OPPONENT):
        return gettext(
            "You got rid of all your cards while your opponent still holds some: they are the durak. Well played!"
        )
    if result is not None and result.lost(YOU):
        return gettext("You are the last one holding cards: this time you are the durak. Try again!")
    return gettext("Nobody holds any cards: a draw, there is no fool.")


@dataclass(frozen=True)
class TutorialButton:
    """One of your legal actions as the real table labels it (``games.presentation``), the moves
    after it, and whether the tutorial suggests it."""

    button: ActionButton
    moves: str
    suggested: bool


def buttons(tutorial: Tutorial) -> list[TutorialButton]:
    view = tutorial.game.view(YOU)
    found = []
    for action in tutorial.legal_actions():
        token = token_of(action)
        found.append(
            TutorialButton(
                button=action_button(action, view),
                moves=",".join([*tutorial.moves, token]),
                suggested=token == tutorial.suggested,
            )
        )
    return found


def progress(tutorial: Tutorial) -> tuple[int, int]:
    return len(tutorial.moves) + 1, len(MAIN_LINE)
