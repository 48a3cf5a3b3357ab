"""JSON from a client, parsed within limits: the API's bodies (``api.parsers``) and the move
form of the game page (``games.views``) both go through ``loads_limited``.

``json.loads`` recurses once per nested array or object, so ``[`` repeated 200,000 times
raises ``RecursionError``, which no view expects: a 500, and on the API an HTML one. The
nesting depth is therefore counted on the raw text first, by a loop that skips over strings
and never recurses, and ``json.loads`` only ever sees a text of bounded size and depth.

Strings holding a control character (a NUL above all: PostgreSQL cannot store one in ``text``
or ``jsonb``) or half of a surrogate pair (not UTF-8: psycopg cannot send it) are refused too;
tab, newline and carriage return are text.
"""

import json
import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: The largest JSON text taken, in bytes (UTF-8). The largest real body (a game with every rule
#: option) is well under a kilobyte.
MAX_BYTES = 64 * 1024
#: The deepest nesting of arrays and objects taken. Real bodies nest three deep.
MAX_DEPTH = 20

# Outside a string only brackets and the opening quote matter; inside one, the closing quote
# and backslashes (so that an escaped quote does not end it).
_OUTSIDE = re.compile(r'[\[\]{}"]')
_INSIDE = re.compile(r'["\\]')
#: C0 control characters but tab, newline and carriage return; lone surrogates (``"\\ud800"``).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


class JSONLimitError(ValueError):
    """The text is too large, too deep, not JSON, or a string in it holds a control character;
    ``message`` says which, for the person who sent it, and ``code`` for programs."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def check_limits(text: str, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise ``JSONLimitError`` if ``text`` nests deeper than ``max_depth``. Not a validator of
    the rest: ``json.loads`` does that next.

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
                    ngettext(
                        "The data is nested too deeply (at most %(depth)s level).",
                        "The data is nested too deeply (at most %(depth)s levels).",
                        max_depth,
                    )
                    % {"depth": max_depth},
                    "too_deep",
                )
        else:
            depth -= 1


def _skip_string(text: str, position: int) -> int:
    """The index just after the string that starts before ``position``. An unterminated
    string runs to the end (``json.loads`` reports it)."""
    while True:
        found = _INSIDE.search(text, position)
        if found is None:
            return len(text)
        position = found.end()
        if found.group() == '"':
            return position
        position += 1  # the escaped character, which may be a quote


def check_strings(value: Any) -> None:
    """Raise ``JSONLimitError`` if a string of parsed JSON ``value`` (a key or a value, at any
    depth) holds a control character other than tab, newline and carriage return, or a lone
    surrogate. Walks with a list, not recursion (``value`` is bounded by ``MAX_DEPTH`` anyway).

    >>> check_strings({"text": "two\\nlines", "cards": ["6S"]})
    >>> check_strings({"cards": ["6S\\x00"]})
    Traceback (most recent call last):
    ...
    durak_site.jsonlimits.JSONLimitError: Text may not contain control characters.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and _FORBIDDEN.search(item):
            raise JSONLimitError(_("Text may not contain control characters."), "control_character")


def loads_limited(raw: str | bytes, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for text from a client, refusing with ``JSONLimitError`` (a
    ``ValueError``) what is larger than ``max_bytes``, deeper than ``max_depth``, is not UTF-8,
    is not JSON (``NaN`` and ``Infinity`` included) or has a control character in a string.

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
            ngettext(
                "The data is too large (at most %(bytes)s byte).",
                "The data is too large (at most %(bytes)s bytes).",
                max_bytes,
            )
            % {"bytes": max_bytes},
            "too_large",
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
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:  # RecursionError: belt and braces, cannot happen
        raise JSONLimitError(
            _("The data is not valid JSON: %(error)s") % {"error": error}, "parse_error"
        ) from None
    check_strings(value)
    return value
