"""Compressed answers (gzip), with care for BREACH.

A page is 70 to 90 KiB of HTML; gzip makes it a fifth of that. But a compressed answer's length
says something about what is in it: BREACH has a page echo text an attacker chose next to a
secret, loads it many times through the victim's browser with a different guess each time,
and reads the lengths off the wire. Here the secrets in a page are the CSRF token, the reader's
own cards, a private game's share link, an e-mail address; and every page echoes its own URL
(the language switcher's ``next``), so a cross-site page could choose the guess. So
(``docs/security.md``, "Compression"):

- **Only the reader's own requests are compressed**, when they carry the session: those the
  site's pages made (``Sec-Fetch-Site: same-origin``: links, forms, htmx) or the reader did
  (``none``: the address bar, a bookmark). One another site started (``cross-site``,
  ``same-site``), or from a browser that does not say, is answered uncompressed, so its length
  tells nothing. A request without the session cookie (a visitor who is not logged in, an API
  client with a token, which no other site can make a browser send) reads no secret of anyone's
  and is compressed.
- **Random padding**: Django's ``GZipMiddleware`` adds 0 to 99 bytes to each answer (the gzip
  header's file name, "Heal the Breach"), so even one length measured twice differs.
- **The CSRF token is masked anew in every answer** (Django's), so it never repeats to be guessed.
- **Streams are not compressed** (the live stream, ``text/event-stream``: gzip would hold events
  back in its buffer), nor answers already encoded, nor short ones (Django's 200 bytes).

Static files are not served through here: whitenoise answers them before this middleware (in
production from files compressed once at ``collectstatic``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers

#: ``Sec-Fetch-Site`` values of requests the reader's own browsing made.
OWN_REQUESTS = frozenset({"same-origin", "none"})


def may_compress(request: HttpRequest) -> bool:
    """Whether an answer to ``request`` may be compressed (the module's rule)."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return True
    return request.headers.get("Sec-Fetch-Site", "") in OWN_REQUESTS


class CompressionMiddleware(GZipMiddleware):
    """Django's ``GZipMiddleware`` (with its random padding), for the answers :func:`may_compress`
    allows; never a stream."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.streaming:
            return response
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            patch_vary_headers(response, ("Cookie", "Sec-Fetch-Site"))
        if not may_compress(request):
            patch_vary_headers(response, ("Accept-Encoding",))
            return response
        compressed: HttpResponseBase = super().process_response(request, response)
        return compressed
