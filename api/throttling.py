"""Request rates, per user and per IP address, from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``.

DRF's throttles copy the rates once at import; these read them on every request,
so a test (or a settings override) can change them. An address is
``durak_site.addresses.client_address``: DRF's own ``get_ident`` believes any
``X-Forwarded-For`` (with ``NUM_PROXIES`` None), so a client could pick a new address for
each request.
"""

from typing import Any, cast

from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

from durak_site.addresses import client_address


class _LiveRatesMixin:
    """The rate read when it is needed, and the address from ``client_address``."""

    scope: str | None

    def get_rate(self) -> str | None:
        if self.scope is None:
            return None
        # The stubs type the setting's values as numbers; DRF's rates are strings like "240/min".
        rates = cast("dict[str, str | None]", api_settings.DEFAULT_THROTTLE_RATES)
        return rates.get(self.scope)

    def get_ident(self, request: Request) -> str:
        return client_address(request)


class PerUserThrottle(_LiveRatesMixin, throttling.UserRateThrottle):
    """Each user's requests (an anonymous caller counts by IP address)."""

    scope = "user"


class PerIPThrottle(_LiveRatesMixin, throttling.SimpleRateThrottle):
    """Each IP address's requests, whoever is logged in: many accounts behind one address share it."""

    scope = "ip"

    def get_cache_key(self, request: Request, view: Any) -> str:
        key: str = self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
        return key


class ScopedThrottle(_LiveRatesMixin, throttling.ScopedRateThrottle):
    """A stricter rate for views that name a ``throttle_scope`` (logging in: per IP address)."""
