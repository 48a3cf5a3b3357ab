"""What the service worker may keep, for whom, to show when the network is gone.

The service worker (``notifications/static/notifications/sw.js``, at ``/sw.js``) keeps a copy of
each of a player's own tables as they last saw it, and ``/offline/`` for every other page. What it
may keep and whose it is, the server says in two headers:

- ``X-Offline-Copy: table`` on a page a seated player of that game was shown (the game view,
  :func:`keep_offline`): their own view of their own game, nothing of anyone else's. No other
  page is kept: not a game watched as a spectator, not the lobby, not anybody's profile.
- ``X-Durak-Reader`` on every page of a logged-in reader (:class:`ReaderMiddleware`): a key that
  stands for the user (an HMAC of their id under the site's secret, never the id itself). The
  worker keeps copies for one reader at a time: a page with another key, or with none (after a
  log-out, an expired session, another account), and it throws every copy away first. So the
  tables are gone the moment the page after a log-out arrives, and a browser shared with the
  next person never shows them the last one's cards.

Offline, a kept table is shown read-only: its scripts left out (nothing polls or posts), every
control disabled, and above it the notice ``base.html`` carries hidden for this
("offline — this is the table as you last saw it").
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponseBase
from django.utils.crypto import salted_hmac

COPY_HEADER = "X-Offline-Copy"
READER_HEADER = "X-Durak-Reader"


def reader_key(user_id: int) -> str:
    """What stands for the user ``user_id`` in :data:`READER_HEADER`."""
    return salted_hmac("durak_site.offline.reader", str(user_id)).hexdigest()[:32]


def keep_offline(response: HttpResponseBase) -> None:
    """Let the service worker keep ``response`` (a seated player's own table) for offline reading."""
    response[COPY_HEADER] = "table"


class ReaderMiddleware:
    """Names the reader of every page (:data:`READER_HEADER`): the service worker keeps its copies
    for one reader only.

    A page is what the worker looks at: an HTML answer with a body to a request that is not
    HTMX's (a navigation). The rest (a poll's 204 or partial, ``/healthz``'s text) get no header,
    and the user is not loaded for them: a request that needs no one costs no query. Nor does a
    server error (5xx: the worker keeps its copies through one), and a database that cannot say
    who the reader is leaves the answer as it was, not a 500 in its place."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            200 <= response.status_code < 500
            and response.status_code != 204
            and response.get("Content-Type", "").startswith("text/html")
            and "HX-Request" not in request.headers
        ):
            user = getattr(request, "user", None)
            try:
                if user is not None and user.is_authenticated:
                    response[READER_HEADER] = reader_key(user.pk)
            except DatabaseError:
                pass  # the page as it is: who reads it is not known now
        return response
