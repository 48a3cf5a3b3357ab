"""The database is out of reach (PostgreSQL restarting, a failover, too many connections):
answer "503, try again" instead of a 500 with a traceback.

Nothing half-done survives such an error: a move runs in one transaction, which PostgreSQL
rolls back when the connection drops, so "try again" is always safe. Django closes the broken
connection at the end of the request (``CONN_HEALTH_CHECKS`` tests a kept one before reuse), so
the first request after the database is back gets a fresh connection.

The answer never touches the database: a page is a bare template with no context processors
(the header's bell and user would query), the API answers ``{"detail", "code"}`` like every
other API error (``api.exceptions``), an htmx request gets a one-line fragment.

Bad input answered before any view (``ControlCharacterMiddleware``) and requests Django itself
refuses (``handler400``) get a 400 of the same three shapes.

A write that lost a race to a request at the same moment, which a unique constraint refused
(``LostRaceMiddleware``), gets a 409 of the same three shapes: nothing of it was saved, and the
player looks again. The services lock so that this does not happen (docs/locking.md, "When a
write loses a race"); this is the net under them, not a way of answering.
"""

import logging
import re
import sys
from collections.abc import Callable, Iterator

from django.db import IntegrityError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
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
    Other database errors (``IntegrityError``, ``DataError``) are bugs and stay 500s, but for a
    unique constraint's, a lost race (``LostRaceMiddleware``).
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


# --- a write that lost a race: a unique constraint refused it -------------------------------------

#: PostgreSQL's SQLSTATE of a unique violation (``psycopg.errors.UniqueViolation``).
UNIQUE_VIOLATION = "23505"


def lost_race(error: BaseException) -> bool:
    """Whether ``error`` is the database refusing a row that a unique constraint holds already:
    a request at the same moment wrote it first. Any other integrity error (a check, a foreign
    key, a NULL) is a bug, and stays one."""
    if not isinstance(error, IntegrityError):
        return False
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) == UNIQUE_VIOLATION:
        return True
    return str(cause or error).startswith("UNIQUE constraint failed")  # SQLite, for local use


def constraint_of(error: BaseException) -> str:
    """The name of the constraint that refused ``error``'s write, for the log: never the row's
    values (PostgreSQL's DETAIL names them, and a row may hold what a log must not)."""
    diag = getattr(error.__cause__, "diag", None)
    return str(getattr(diag, "constraint_name", None) or "a unique constraint")


def lost_race_message() -> str:
    return gettext(
        "Another request changed this at the same moment, so nothing of this one was saved: "
        "look again, and try once more if it is still needed."
    )


def lost_race_response(request: HttpRequest) -> HttpResponse:
    """The 409 answer for ``request``: the API's error body (code ``conflict``, as
    ``api.exceptions`` answers it), a fragment for htmx, else a bare page (no query)."""
    message = lost_race_message()
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message, "code": "conflict"}, status=409)
    if request.headers.get("HX-Request") == "true":
        return HttpResponse(render_to_string("409.html#message", {"message": message}), status=409)
    return HttpResponse(render_to_string("409.html", {"message": message}), status=409)


class LostRaceMiddleware:
    """Turns a view's ``IntegrityError`` of a unique constraint (``lost_race``) into the 409
    answer, logged as a warning naming the constraint (a race that a lock should have ordered:
    worth fixing where it happens). The view's transaction rolled back already: its
    ``atomic`` block ended with the error.

    Just before ``DatabaseUnavailableMiddleware`` in ``MIDDLEWARE`` (each answers errors the
    other lets through). The API's views answer it themselves (``api.exceptions``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not lost_race(exception):
            return None
        logger.warning(
            "lost race, answered 409 to %s %s: %s refused the write",
            request.method,
            request.path,
            constraint_of(exception),
        )
        return lost_race_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the catch-all for an error no ``process_exception`` saw (one raised by a
    middleware, such as the session's save). A lost database still gets the 503 answer;
    anything else Django's plain 500 page, or under /api/ the API's error body."""
    error = sys.exc_info()[1]
    if isinstance(error, (OperationalError, InterfaceError)):
        return database_unavailable_response(request)
    if request.path.startswith("/api/"):  # the API's error body, even for a bug
        return JsonResponse({"detail": gettext("Server error."), "code": "server_error"}, status=500)
    return defaults.server_error(request)


# --- bad input: control characters in the address or a form --------------------------------------

#: C0 control characters (NUL to US). No address of the site has one in its path or query.
_C0_CONTROL = re.compile(r"[\x00-\x1f]")
#: The same but tab, newline and carriage return, which a multi-line text field may hold.
_C0_CONTROL_NOT_WHITESPACE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def bad_request_response(request: HttpRequest, message: str, code: str = "invalid") -> HttpResponse:
    """A 400 for ``request``: the API's error body under /api/, a fragment for htmx, else a bare
    page (rendered without the request, so without a query: it can answer before a session or a
    user is loaded)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message, "code": code}, status=400)
    if request.headers.get("HX-Request") == "true":
        return HttpResponse(render_to_string("400.html#message", {"message": message}), status=400)
    return HttpResponse(render_to_string("400.html", {"message": message}), status=400)


class ControlCharacterMiddleware:
    """Answers 400 before any view runs when the URL's path or query holds a C0 control
    character, or a field of a submitted form (urlencoded or multipart: its name or a value)
    holds one other than tab, newline and carriage return.

    PostgreSQL cannot store NUL in ``text``: psycopg refuses such a parameter with a
    ``ValueError``, which was a 500 wherever a view put one into a query (a profile's name, the
    ``?vs=`` of a profile, a chat message, a share-link token). The other control characters
    are no text anyone types, in an address or any field of the site's forms, so one check here
    keeps them out of every field, including those of views that read ``request.POST`` without
    a form. JSON bodies are the API parser's (``api.parsers``, the same rule).

    Early in ``MIDDLEWARE``, after ``LocaleMiddleware`` (the answer is in the reader's
    language) and before anything that reads the session, the user or the database.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _C0_CONTROL.search(request.path) or any(
            _C0_CONTROL.search(key) or _C0_CONTROL.search(value) for key, value in _items(request.GET)
        ):
            return bad_request_response(
                request,
                gettext("The address holds a control character; no page of this site has one."),
                "control_character",
            )
        if request.method == "POST" and any(
            _C0_CONTROL_NOT_WHITESPACE.search(key) or _C0_CONTROL_NOT_WHITESPACE.search(value)
            for key, value in _items(request.POST)
        ):
            return bad_request_response(
                request,
                gettext("A field of the form holds a control character, which no field takes."),
                "control_character",
            )
        return self.get_response(request)


def _items(data: QueryDict) -> Iterator[tuple[str, str]]:
    for key, values in data.lists():
        for value in values:
            yield key, value


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a request Django itself refused (a ``SuspiciousOperation`` such as a body
    over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, raised by any middleware or view) gets the same 400 as
    above, so the API answers its JSON error body and never an HTML page."""
    return bad_request_response(request, gettext("The request was not understood."), "bad_request")
