"""The names computer players go by.

A computer player has one account per level and seat number (``computer-rules``,
``computer-rules-2``, ...: ``games.bots.bot_account``), so the computers at one table are
always different accounts. Each account is given a first name from its level's list, in the
reader's language, with the level beside it: "Masha (rule of thumb)", «Маша (по правилам)».
The lists of the levels share no name, so every computer at a table has its own name, and the
same account has the same name on every page (the table, the history, the results, My games, its
profile, notifications, e-mail, replays, stats). Its account's user name never shows.

>>> from django.utils import translation
>>> with translation.override("en"):
...     computer_name("rules", 1), computer_name("rules", 2), computer_name("random", 1)
('Masha (rule of thumb)', 'Petya (rule of thumb)', 'Vanya (beginner)')
>>> with translation.override("ru"):
...     computer_name("rules", 1)
'Маша (по правилам)'
>>> bot_username("rules", 1), bot_username("rules", 3), bot_number("computer-rules-3~17")
('computer-rules', 'computer-rules-3', 3)
"""

import re

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import pgettext_lazy as p_

#: A computer player's first name: its account's seat number picks one from its level's list.
_NAME = "a computer player's name"
FIRST_NAMES: dict[str, tuple[Promise, ...]] = {
    "random": (
        p_(_NAME, "Vanya"),
        p_(_NAME, "Katya"),
        p_(_NAME, "Fedya"),
        p_(_NAME, "Olya"),
        p_(_NAME, "Tolya"),
        p_(_NAME, "Nadya"),
    ),
    "rules": (
        p_(_NAME, "Masha"),
        p_(_NAME, "Petya"),
        p_(_NAME, "Dasha"),
        p_(_NAME, "Grisha"),
        p_(_NAME, "Lena"),
        p_(_NAME, "Kolya"),
    ),
    "search": (
        p_(_NAME, "Sonya"),
        p_(_NAME, "Misha"),
        p_(_NAME, "Vera"),
        p_(_NAME, "Yura"),
        p_(_NAME, "Tanya"),
        p_(_NAME, "Zhenya"),
    ),
}
#: The level as it stands beside the name.
LEVEL_WORDS: dict[str, Promise] = {
    "random": p_("a computer player's level, beside its name", "beginner"),
    "rules": p_("a computer player's level, beside its name", "rule of thumb"),
    "search": p_("a computer player's level, beside its name", "strongest"),
}

_USERNAME = re.compile(r"computer-[a-z]+(?:-(?P<number>\d+))?(?:~\d+)?")


def bot_username(level: str, number: int) -> str:
    """The user name of the computer account of ``level`` for a game's ``number``-th computer
    seat (a person who took it first gets ``~`` and a count appended: ``games.bots``)."""
    return f"computer-{level}" + (f"-{number}" if number > 1 else "")


def bot_number(username: str) -> int:
    """The seat number a computer account's user name carries (1 for ``computer-rules``)."""
    match = _USERNAME.fullmatch(username)
    return int(match["number"] or 1) if match else 1


def computer_name(level: str, number: int = 1) -> str:
    """The name of the computer account of ``level`` and seat ``number``, in the active
    language: "Masha (rule of thumb)"; past the end of its level's list, a count follows the
    name ("Masha 2 (rule of thumb)")."""
    names = FIRST_NAMES.get(level)
    level_word = LEVEL_WORDS.get(level)
    if not names or level_word is None:
        return gettext("Computer")
    index = max(number, 1) - 1
    first = str(names[index % len(names)])
    if index >= len(names):
        first = f"{first} {index // len(names) + 1}"
    return gettext("%(name)s (%(level)s)") % {"name": first, "level": level_word}
