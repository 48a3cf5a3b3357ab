"""Turns an engine ``view`` into what the game template shows: labels, buttons, sentences.

Presentation only: which actions exist comes from the view's ``actions`` (the engine's
``legal_actions``), who lost and whose team a seat is in from the engine (``engine``); nothing
here decides a rule. The sentences for actions, moves, events and results are ``games.words``'.
By what it presents:

- ``cards``: card and suit names in the reader's language, suit colours;
- ``enchanted``: an enchanted card's marks, the effects in sight, the create form's stage names;
- ``actions``: the buttons for the legal actions;
- ``seats``: the players around the table and who plays with whom;
- ``situation``: what is happening now and whose turn it is;
- ``results``: how a finished game came out;
- ``table``: all of it for the table partial (``build_table``).
"""

from .actions import ActionButton, action_button, auto_pass_action, group_suit_choices
from .cards import card_name, suit_colour, suit_name
from .enchanted import CardMarks, Spell, card_marks, stage_label
from .seats import Player
from .table import Pair, Table, build_table, last_move_line

__all__ = [
    "ActionButton",
    "CardMarks",
    "Pair",
    "Player",
    "Spell",
    "Table",
    "action_button",
    "auto_pass_action",
    "build_table",
    "card_marks",
    "card_name",
    "group_suit_choices",
    "last_move_line",
    "stage_label",
    "suit_colour",
    "suit_name",
]
