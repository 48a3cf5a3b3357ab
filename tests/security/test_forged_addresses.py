"""A forged ``X-Forwarded-For`` buys no fresh address: every per-address limit counts the
connection's address unless it is a proxy named in ``TRUSTED_PROXIES``
(``durak_site.addresses.client_address``), and then the address that proxy forwarded.

Each limit is driven with a new forged header on every request, from the machine itself (as
the audit did) and, with a proxy trusted, from a stranger: the limit still bites. Behind a
trusted proxy two clients are counted apart, and whatever a client writes to the left of the
proxy's entry is ignored. (The same against the real server, where uvicorn could rewrite the
address before Django sees it: tests/faults/test_forged_addresses.py.)
"""

from collections.abc import Callable
from dataclasses import dataclass
from itertools import count
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import PASSWORD, UserFactory, api_token

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"
PROXY = "127.0.0.1"
#: Addresses the trusted proxy says its clients have (TEST-NET-3, RFC 5737).
CLIENT_A, CLIENT_B = "203.0.113.1", "203.0.113.2"

#: One request of a limited kind from ``client`` (its REMOTE_ADDR set), with this
#: X-Forwarded-For; the attempt's number lets it vary the account.
Attempt = Callable[[Client, str, int], Any]
#: allauth's answer once an address has failed to log in 10 times in a minute: the form again,
#: with this error (its 429 comes only after 30 log-in posts a minute).
TOO_MANY_FAILED = "Too many failed login attempts"


@dataclass
class Limit:
    """A per-address limit: ``allowed`` attempts answered, the next one refused."""

    attempt: Attempt
    allowed: int
    form_error: bool = False

    def refused(self, response: Any) -> bool:
        if self.form_error:
            return response.status_code == 200 and TOO_MANY_FAILED in response.content.decode()
        return bool(response.status_code == 429)

    def refusals(self, responses: list[Any]) -> list[bool]:
        return [self.refused(response) for response in responses]


def throttle_rates(settings: Any, **rates: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1000/min", "ip": "1000/min", "auth": "1000/min", **rates},
    }


def api_log_in(client: Client, forwarded: str, n: int) -> int:
    # A wrong password at a different account each time, as a guesser over many accounts does:
    # the per-account lockout never bites, only the per-address rate can.
    body = {"username": f"target-{n}", "password": "guess"}
    return client.post(TOKEN_URL, body, format="json", HTTP_X_FORWARDED_FOR=forwarded)


def api_anonymous(client: Client, forwarded: str, n: int) -> int:
    return client.post(TOKEN_URL, {}, format="json", HTTP_X_FORWARDED_FOR=forwarded)


def api_per_address(client: Client, forwarded: str, n: int) -> int:
    # A different account each time: the per-user rate never bites, the per-address one must.
    token = api_token(UserFactory())
    return client.get("/api/me/", HTTP_AUTHORIZATION=f"Token {token}", HTTP_X_FORWARDED_FOR=forwarded)


def site_log_in(client: Client, forwarded: str, n: int) -> int:
    # allauth's "login_failed" limit: 10 failures a minute per address (names of no account, so
    # that django-axes' per-account lock stays out of it).
    body = {"login": f"ghost-{n}", "password": "guess"}
    return client.post(reverse("account_login"), body, HTTP_X_FORWARDED_FOR=forwarded)


def lockout(client: Client, forwarded: str, n: int) -> int:
    # django-axes: AXES_FAILURE_LIMIT (3 here) failures at one account from one address lock it;
    # the failure that reaches the limit is answered 429 already.
    body = {"login": "carol", "password": "wrong"}
    return client.post(reverse("account_login"), body, HTTP_X_FORWARDED_FOR=forwarded)


@pytest.fixture(params=["api_log_in", "api_per_address", "api_anonymous", "site_log_in", "lockout"])
def limit(request: Any, settings: Any) -> Limit:
    name = request.param
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("carol", "carol@example.com", PASSWORD)
    if name == "api_log_in":
        throttle_rates(settings, auth="3/min")
        return Limit(api_log_in, 3)
    if name == "api_per_address":
        throttle_rates(settings, ip="3/min")
        return Limit(api_per_address, 3)
    if name == "api_anonymous":
        throttle_rates(settings, user="3/min")  # an anonymous caller's "user" is its address
        return Limit(api_anonymous, 3)
    throttle_rates(settings)
    if name == "site_log_in":
        return Limit(site_log_in, 10, form_error=True)
    return Limit(lockout, 2)


def forged_headers() -> Any:
    """A new forged X-Forwarded-For for each request: one address, or a made-up chain."""
    for n in count(1):
        yield f"198.51.100.{n % 250 + 1}" if n % 2 else f"192.0.2.{n % 250 + 1}, 10.0.{n % 250}.1"


@pytest.mark.parametrize(
    ("peer", "trusted"),
    [(PROXY, []), ("192.0.2.50", [PROXY])],
    ids=["from-the-machine-itself", "from-a-stranger-with-a-proxy-trusted"],
)
def test_a_forged_forwarded_for_still_hits_the_limit(
    limit: Limit, settings: Any, peer: str, trusted: list[str]
) -> None:
    settings.TRUSTED_PROXIES = trusted
    client = APIClient(REMOTE_ADDR=peer)
    headers = forged_headers()
    answers = [limit.attempt(client, next(headers), n) for n in range(limit.allowed + 1)]
    assert limit.refusals(answers) == [False] * limit.allowed + [True], answers


def test_behind_a_trusted_proxy_two_clients_are_counted_apart_and_forged_hops_ignored(
    limit: Limit, settings: Any
) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    behind_proxy = APIClient(REMOTE_ADDR=PROXY)
    answers = [limit.attempt(behind_proxy, CLIENT_A, n) for n in range(limit.allowed + 1)]
    assert limit.refusals(answers) == [False] * limit.allowed + [True], answers
    # What client A writes itself comes before the proxy's entry: still client A, still limited.
    assert limit.refused(limit.attempt(behind_proxy, f"198.51.100.9, {CLIENT_A}", 100))
    # Client B, behind the same proxy, has its own count.
    assert not limit.refused(limit.attempt(behind_proxy, CLIENT_B, 101))
