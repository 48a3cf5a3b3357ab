"""The API's JSON parser: DRF's, within ``durak_site.jsonlimits``' size and depth limits.

A body larger than ``MAX_BYTES`` is refused after reading one byte more than the limit (never
the whole of it), and one nested deeper than ``MAX_DEPTH`` is refused too (the parser's own
``RecursionError`` caught), so neither a huge nor a deeply nested body can exhaust memory or the
stack: each is a 400 with the API's error body (``api.exceptions``), like any other malformed body.
"""

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from durak_site.jsonlimits import MAX_BYTES, JSONLimitError, loads_limited


class LimitedJSONParser(JSONParser):
    """``application/json`` of at most ``MAX_BYTES`` bytes, nested at most ``MAX_DEPTH`` deep."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = str((parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET)
        try:
            "".encode(encoding)  # a text codec, not a bytes-to-bytes one such as bz2_codec
        except (LookupError, UnicodeError):
            raise ParseError(
                _("The charset %(encoding)s is not supported.") % {"encoding": encoding}, code="parse_error"
            ) from None
        raw = stream.read(MAX_BYTES + 1)
        try:
            if len(raw) > MAX_BYTES:
                return loads_limited(raw)  # refuses it as too large, with the usual message
            try:
                text = raw.decode(encoding)
            except UnicodeDecodeError:
                raise ParseError(
                    _("The body is not valid %(encoding)s text.") % {"encoding": encoding}, code="parse_error"
                ) from None
            return loads_limited(text)
        except JSONLimitError as error:
            raise ParseError(error.message, code=error.code) from None
