"""JSON from a client, parsed within limits: the API's bodies (``api.parsers``) and the move
form of the game page (``games.views``) both go through ``loads_limited``.

``json.loads`` recurses once per nested array or object, so ``[`` repeated 200,000 times
raises ``RecursionError``, which no view expects: a 500, and on the API an HTML one. The
nesting depth is therefore counted on the raw text first, by a loop that skips over strings
and never recurses, and ``json.loads`` only ever sees a text of bounded size and depth.

A ``\\u0000`` escape is refused too: PostgreSQL cannot store NUL in ``text`` or ``jsonb``.
"""

import json
import re
from typing import Any

from django.utils.translation import gettext as _

#: The largest JSON text taken, in bytes (UTF-8). The largest real body (a game with every rule
#: option) is well under a kilobyte.
MAX_BYTES = 64 * 1024
#: The deepest nesting of arrays and objects taken. Real bodies nest three deep.
MAX_DEPTH = 20

# Outside a string only brackets and the opening quote matter; inside one, the closing quote
# and backslashes (so that an escaped quote does not end it).
_OUTSIDE = re.compile(r'[\[\]{}"]')
_INSIDE = re.compile(r'["\\]')


class JSONLimitError(ValueError):
    """The text is too large, too deep, holds a NUL or is not JSON; ``message`` says which,
    for the person who sent it, and ``code`` for programs."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def check_limits(text: str, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise ``JSONLimitError`` if ``text`` nests deeper than ``max_depth`` or holds a
    ``\\u0000`` escape. Not a validator of the rest: ``json.loads`` does that next.

    >>> check_limits('{"action": {"cards": ["6S"]}, "note": "a [ in a string"}')
    >>> check_limits("[" * 21)
    Traceback (most recent call last):
    ...
    durak_site.jsonlimits.JSONLimitError: The data is nested too deeply (at most 20 levels).
    """
    depth = 0
    position = 0
    length = len(text)
    while position < length:
        found = _OUTSIDE.search(text, position)
        if found is None:
            return
        char = found.group()
        position = found.end()
        if char == '"':
            position = _skip_string(text, position)
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise JSONLimitError(
                    _("The data is nested too deeply (at most %(depth)s levels).") % {"depth": max_depth},
                    "too_deep",
                )
        else:
            depth -= 1


def _skip_string(text: str, position: int) -> int:
    """The index just after the string that starts before ``position``; refuses a NUL escape.
    An unterminated string runs to the end (``json.loads`` reports it)."""
    while True:
        found = _INSIDE.search(text, position)
        if found is None:
            return len(text)
        position = found.end()
        if found.group() == '"':
            return position
        if text.startswith("u0000", position):
            raise JSONLimitError(_("Text may not contain NUL characters."), "null_character")
        position += 1  # the escaped character, which may be a quote


def loads_limited(raw: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for text from a client, refusing with ``JSONLimitError`` (a
    ``ValueError``) what is larger than ``max_bytes``, deeper than ``max_depth``, holds a
    NUL, is not UTF-8 or is not JSON (``NaN`` and ``Infinity`` included).

    >>> loads_limited('{"type": "attack", "cards": ["6S"]}')
    {'type': 'attack', 'cards': ['6S']}
    >>> loads_limited("[" * 200_000)
    Traceback (most recent call last):
    ...
    durak_site.jsonlimits.JSONLimitError: The data is too large (at most 65536 bytes).
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", errors="surrogatepass"))
    if size > max_bytes:
        raise JSONLimitError(
            _("The data is too large (at most %(bytes)s bytes).") % {"bytes": max_bytes}, "too_large"
        )
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise JSONLimitError(_("The data is not UTF-8 text."), "parse_error") from None
    else:
        text = raw
    check_limits(text, max_depth=max_depth)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:  # RecursionError: belt and braces, cannot happen
        raise JSONLimitError(
            _("The data is not valid JSON: %(error)s") % {"error": error}, "parse_error"
        ) from None
