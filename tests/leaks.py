"""Looking for a number (a game's seed) in a page or a JSON answer.

A seed is a number: it leaks as a number of its own, never as digits inside a longer one. A
short seed such as 2024 would otherwise be "found" in a timestamp's microseconds
(``15:30:20.202417``) or an id, and the test would fail by chance.
"""

import re


def shows_number(text: str, number: int) -> bool:
    """Whether ``number`` appears in ``text`` as a whole number (no digit right before or after).

    >>> shows_number('{"seed": 2024}', 2024), shows_number('"at": "15:30:20.202417"', 2024)
    (True, False)
    """
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None
