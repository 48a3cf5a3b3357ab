"""JSON from a client, parsed within limits: the API's bodies (``api.parsers``) and the move
form of the game page (``games.views``) both go through ``loads_limited``.

What the parser and Django already bound is left to them: the size of a request
(``DATA_UPLOAD_MAX_MEMORY_SIZE``) and the stack (``json.loads`` raises ``RecursionError`` past
Python's recursion limit, caught here). What neither knows is checked here, each a
``JSONLimitError`` with a message for the person who sent it: a text larger than a real one
(``MAX_BYTES``), nesting deeper than a real one (``MAX_DEPTH``), ``NaN`` and ``Infinity`` (not
JSON), and strings holding a control character (a NUL above all: PostgreSQL cannot store one in
``text`` or ``jsonb``) or half of a surrogate pair (not UTF-8: psycopg cannot send it); tab,
newline and carriage return are text.
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


def _too_deep(max_depth: int) -> JSONLimitError:
    return JSONLimitError(
        ngettext(
            "The data is nested too deeply (at most %(depth)s level).",
            "The data is nested too deeply (at most %(depth)s levels).",
            max_depth,
        )
        % {"depth": max_depth},
        "too_deep",
    )


def check_value(value: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise ``JSONLimitError`` if parsed JSON ``value`` nests arrays and objects deeper than
    ``max_depth``, or a string of it (a key or a value, at any depth) holds a control character
    other than tab, newline and carriage return, or a lone surrogate. Walks with a list, not
    recursion.

    >>> check_value({"text": "two\\nlines", "cards": ["6S"]})
    >>> check_value({"cards": ["6S\\x00"]})
    Traceback (most recent call last):
    ...
    durak_site.jsonlimits.JSONLimitError: Text may not contain control characters.
    >>> check_value([[["6S"]]], max_depth=2)
    Traceback (most recent call last):
    ...
    durak_site.jsonlimits.JSONLimitError: The data is nested too deeply (at most 2 levels).
    """
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth + 1 > max_depth:
                raise _too_deep(max_depth)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
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
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:  # the parser's own limit: far deeper than max_depth
        raise _too_deep(max_depth) from None
    except ValueError as error:
        raise JSONLimitError(
            _("The data is not valid JSON: %(error)s") % {"error": error}, "parse_error"
        ) from None
    check_value(value, max_depth=max_depth)
    return value
