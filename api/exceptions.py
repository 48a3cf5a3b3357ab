"""One error body for every failure: ``{"detail": message, "code": machine_code}``, plus
``"errors"`` (field -> messages) when the request body or query did not validate.

A ``games.exceptions.GameError`` from a service keeps its message (for an illegal
move, the engine's) and its status code: 400, 403, 404 or 409.

A write refused by a unique constraint, because a request at the same moment wrote the row
first (``durak_site.middleware.lost_race``: a race no lock of the service ordered), is a 409, code
``conflict``: nothing of it was saved. Logged as a warning: such a race is fixed where it happens.

A body the view has no parser for (no ``Content-Type``, or one it does not read) is bad input
like any other: 400, code ``unsupported_media_type``, rather than DRF's 415, which the schema
would have to list on every call that takes a body.

``detail`` and the messages in ``errors`` are in the request's language (``LocaleMiddleware``:
the language cookie, else the Accept-Language header); ``code`` is for programs and never
changes with the language.
"""

import logging
import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from accounts.relations import RelationError
from durak_site.middleware import constraint_of, lost_race, lost_race_message
from games.exceptions import Conflict, GameError

logger = logging.getLogger(__name__)


def error_code(error: GameError) -> str:
    """``StaleVersion`` -> ``"stale_version"``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(error).__name__).lower()


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if lost_race(exc):
        request = context.get("request")
        where = f"{request.method} {request.path}" if request is not None else "?"
        logger.warning("lost race, answered 409 to %s: %s refused the write", where, constraint_of(exc))
        set_rollback()
        exc = Conflict(lost_race_message())
    if isinstance(exc, RelationError):  # accounts.relations' refusals: friends, blocks, notes
        return Response({"detail": str(exc), "code": "relation_error"}, status=400)
    if isinstance(exc, GameError):
        return Response({"detail": exc.message, "code": error_code(exc)}, status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        errors = response.data if isinstance(response.data, dict) else {"non_field_errors": response.data}
        response.data = {"detail": _("The request is not valid."), "code": "invalid", "errors": errors}
    else:
        if isinstance(exc, exceptions.UnsupportedMediaType):
            response.status_code = 400
        codes = exc.get_codes()
        response.data = {
            "detail": str(exc.detail),
            "code": codes if isinstance(codes, str) else exc.default_code,
        }
    return response
