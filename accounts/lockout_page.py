"""What a locked-out visitor sees (``AXES_LOCKOUT_CALLABLE``): the site's own page, in the
visitor's language, saying when the account may be tried again from their address, in the
visitor's time zone (their browser's, ``durak_site.dates.browser_zone``); still a 429. Every try
while the lock lasts gets it (``accounts.adapter.AccountAdapter.pre_authenticate``).

An API client (``/api/``) and a script asking by ``XMLHttpRequest`` get JSON instead, as
django-axes answers them.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from axes.helpers import get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from durak_site import dates
from durak_site.addresses import client_address

from .lockout import axes_username


def retry_at(request: HttpRequest, credentials: dict[str, Any] | None, cool_off: timedelta) -> datetime:
    """When the lock on this account and address ends: the cool-off after its latest failure
    (now plus the cool-off if none is stored, as when the lock was just reached)."""
    username = axes_username(request, credentials)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    latest = (
        AccessAttempt.objects.filter(username=username, ip_address=address)
        .order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    return (latest or timezone.now()) + cool_off


def lock_ends(request: HttpRequest, credentials: dict[str, Any] | None) -> tuple[datetime, int]:
    """When the lock on this account and address ends, and the whole seconds until then (at
    least 1: the ``Retry-After`` of every lockout answer, the site's and the API's)."""
    until = retry_at(request, credentials, get_cool_off(request) or timedelta(minutes=15))
    return until, max(1, int((until - timezone.now()).total_seconds()))


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """django-axes' lockout answer. Its asynchronous middleware passes ``(request, credentials)``,
    the synchronous one ``(request, response, credentials)``: both are taken."""
    if isinstance(original_response, dict) and credentials is None:
        credentials = original_response
    until, seconds = lock_ends(request, credentials)
    status = int(getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429))
    wants_json = request.path.startswith("/api/") or (
        request.headers.get("x-requested-with") == "XMLHttpRequest"
    )
    if wants_json:
        return JsonResponse(
            {
                "detail": _("Too many failed log-ins: try again later."),
                "code": "locked_out",
                "failure_limit": get_failure_limit(request, credentials),
                "retry_at": until.isoformat(),
            },
            status=status,
            headers={"Retry-After": str(seconds)},
        )
    response = render(
        request,
        "accounts/lockout.html",
        {
            "retry_at": until,
            "failure_limit": get_failure_limit(request, credentials),
            # The reader's zone by its name in their language (a visitor's: their browser's).
            "zone": dates.zone_name(timezone.get_current_timezone()),
        },
        status=status,
    )
    response["Retry-After"] = str(seconds)
    return response
