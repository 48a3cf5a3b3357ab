"""The database is out of reach (PostgreSQL restarting, a failover, too many connections):
answer "503, try again" instead of a 500 with a traceback.

Nothing half-done survives such an error: a move runs in one transaction, which PostgreSQL
rolls back when the connection drops, so "try again" is always safe. Django closes the broken
connection at the end of the request (``CONN_HEALTH_CHECKS`` tests a kept one before reuse), so
the first request after the database is back gets a fresh connection.

The answer never touches the database: a page is a bare template with no context processors
(the header's bell and user would query), the API answers ``{"detail", "code"}`` like every
other API error (``api.exceptions``), an htmx request gets a one-line fragment.
"""

import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views import defaults

logger = logging.getLogger(__name__)

#: Seconds a client is told to wait before trying again (the ``Retry-After`` header).
RETRY_AFTER_SECONDS = 5


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    """The 503 answer for ``request``: JSON for the API, a fragment for htmx, else a page."""
    message = gettext(
        "The game server is briefly unavailable. Nothing was lost: please try again in a few seconds."
    )
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message, "code": "service_unavailable"}, status=503, headers=headers)
    if request.headers.get("HX-Request") == "true":
        html = render_to_string("503.html#message", {"message": message})
    else:
        html = render_to_string("503.html", {"message": message})
    return HttpResponse(html, status=503, headers=headers)


class DatabaseUnavailableMiddleware:
    """Turns ``OperationalError``/``InterfaceError`` raised by a view into the 503 answer.

    Last in ``MIDDLEWARE``: its ``process_exception`` sees a view's exception first.
    Other database errors (``IntegrityError``, ``DataError``) are bugs and stay 500s.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.warning(
            "database unavailable, answered 503 to %s %s: %s", request.method, request.path, exception
        )
        return database_unavailable_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the catch-all for an error no ``process_exception`` saw (one raised by a
    middleware, such as the session's save). A lost database still gets the 503 answer;
    anything else Django's plain 500 page."""
    error = sys.exc_info()[1]
    if isinstance(error, (OperationalError, InterfaceError)):
        return database_unavailable_response(request)
    return defaults.server_error(request)
