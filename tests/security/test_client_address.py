"""``durak_site.addresses.client_address``: the connection's address, unless it is a trusted
proxy; then X-Forwarded-For read right to left past the trusted hops."""

from typing import Any

import pytest
from django.test import RequestFactory

from durak_site.addresses import client_address

PROXIES = ["127.0.0.1", "10.0.0.0/8", "fd00::/8"]


def address(settings: Any, remote: str | None, forwarded: str | None = None, trusted: Any = PROXIES) -> str:
    settings.TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/")
    if remote is None:
        del request.META["REMOTE_ADDR"]
    else:
        request.META["REMOTE_ADDR"] = remote
    if forwarded is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(request)


def test_with_no_proxy_trusted_the_header_is_never_read(settings: Any) -> None:
    assert address(settings, "127.0.0.1", "203.0.113.9", trusted=[]) == "127.0.0.1"
    assert address(settings, "198.51.100.4", "203.0.113.9", trusted=[]) == "198.51.100.4"


def test_a_stranger_is_its_own_address_whatever_it_says(settings: Any) -> None:
    assert address(settings, "198.51.100.4", "10.0.0.1") == "198.51.100.4"
    assert address(settings, "198.51.100.4", "127.0.0.1, 10.1.2.3") == "198.51.100.4"


@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        ("127.0.0.1", "203.0.113.9", "203.0.113.9"),
        # Past every trusted hop, and no further: what the client wrote on the left is not read.
        ("127.0.0.1", "198.51.100.66, 203.0.113.9, 10.2.3.4", "203.0.113.9"),
        ("10.9.9.9", "6.6.6.6,203.0.113.9,10.0.0.5 ,127.0.0.1", "203.0.113.9"),
        # A proxy that writes a port, or IPv6 in brackets; one address in any spelling.
        ("127.0.0.1", "203.0.113.9:51234", "203.0.113.9"),
        ("127.0.0.1", "[2001:DB8::1]:443", "2001:db8::1"),
        ("fd00::1", "2001:0db8:0000::1", "2001:db8::1"),
        ("::ffff:127.0.0.1", "::ffff:203.0.113.9", "203.0.113.9"),
        # Every hop trusted: the leftmost is all we know.
        ("127.0.0.1", "10.0.0.7, 10.0.0.8", "10.0.0.7"),
        # No header, or an empty one: the proxy itself.
        ("127.0.0.1", None, "127.0.0.1"),
        ("127.0.0.1", "", "127.0.0.1"),
        # Not an address: the walk ends at the hop that passed it on.
        ("127.0.0.1", "203.0.113.9, unknown", "127.0.0.1"),
        ("127.0.0.1", "203.0.113.9, 10.0.0.3, _hidden", "127.0.0.1"),
        ("127.0.0.1", "unknown, 10.0.0.3", "10.0.0.3"),
        ("127.0.0.1", "203.0.113.9,, 10.0.0.3", "10.0.0.3"),
        ("127.0.0.1", "x" * 5000, "127.0.0.1"),
    ],
)
def test_behind_trusted_proxies_the_first_untrusted_hop_from_the_right(
    settings: Any, remote: str, forwarded: str | None, client: str
) -> None:
    assert address(settings, remote, forwarded) == client


def test_a_connection_without_an_ip_address_keeps_what_it_has(settings: Any) -> None:
    assert address(settings, None, "203.0.113.9") == ""
    assert address(settings, "unix:/run/durak.sock", "203.0.113.9") == "unix:/run/durak.sock"
