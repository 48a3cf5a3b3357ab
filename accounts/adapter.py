"""allauth's account adapter, with the site's idea of a client's address.

allauth keys its rate limits (failed log-ins, sign-ups, password resets per address) on the
adapter's ``get_client_ip``; here that is ``durak_site.addresses.client_address``, the one
every other per-address limit uses, so the log-in form and the API count a client alike.

A try at an account that django-axes has locked gets axes' lock-out page (the site's, with the
time to try again: ``accounts.lockout_page``) every time while the lock lasts, not allauth's own
"too many attempts" line, which allauth's limit would answer first from the sixth try on.
"""

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from durak_site.addresses import client_address


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def get_client_ip(self, request: HttpRequest) -> str:
        address = client_address(request)
        if not address:  # as allauth's own: no address, no limit to count it against
            raise PermissionDenied("Unable to determine client IP address")
        return address

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        if settings.AXES_ENABLED and AxesProxyHandler.is_locked(request, credentials):
            # AxesMiddleware answers with the lock-out page (AXES_LOCKOUT_CALLABLE) for this flag.
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.axes_credentials = credentials  # type: ignore[attr-defined]
            raise self.validation_error("too_many_login_attempts")
        super().pre_authenticate(request, **credentials)
