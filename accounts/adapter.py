"""allauth's account adapter, with the site's idea of a client's address.

allauth keys its rate limits (failed log-ins, sign-ups, password resets per address) on the
adapter's ``get_client_ip``; here that is ``durak_site.addresses.client_address``, the one
every other per-address limit uses, so the log-in form and the API count a client alike.
"""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from durak_site.addresses import client_address


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def get_client_ip(self, request: HttpRequest) -> str:
        address = client_address(request)
        if not address:  # as allauth's own: no address, no limit to count it against
            raise PermissionDenied("Unable to determine client IP address")
        return address
