"""The address a request comes from, for everything that counts or records per address: the
API's throttles (``api.throttling``), allauth's log-in and sign-up limits
(``accounts.adapter``), the django-axes lockout (``AXES_CLIENT_IP_CALLABLE``) and its page.

``X-Forwarded-For`` is anyone's to write, so it counts only when the connection comes from a
proxy the operator trusts (``TRUSTED_PROXIES``: addresses or CIDR networks; none by default).
Each proxy appends the address it got the request from, so the header is read right to left,
past the trusted hops, and the first address that is not a trusted proxy is the client.
Whatever a client writes to the left of that is never reached. An entry that is not an address
ends the walk at the hop that passed it on: a proxy's own address is a coarse key, but not one
a client can choose.

The web server rewrites the connection's address from the same header before Django sees it
(uvicorn's proxy headers, gunicorn's ``forwarded_allow_ips``): ``gunicorn.conf.py`` and the
``Procfile`` give it the same list, and then the walk here stops at once at the address the
server found (it is not a trusted proxy). docs/client-addresses.md has the whole story.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable
from typing import Any, Protocol

import environ
from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class HasMeta(Protocol):
    """A Django ``HttpRequest``, or DRF's ``Request`` wrapped around one."""

    @property
    def META(self) -> dict[str, Any]: ...


def proxy_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``' entries as networks (an address is a network of one).

    A malformed entry is a configuration error, not something to guess around; so is a network
    with host bits set (``10.0.0.1/8``), which gunicorn refuses as well.

    >>> proxy_networks(["127.0.0.1", " 10.0.0.0/8 ", "::1", ""])
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'), IPv6Network('::1/128'))
    >>> proxy_networks(["localhost"])
    Traceback (most recent call last):
    ...
    django.core.exceptions.ImproperlyConfigured: TRUSTED_PROXIES: 'localhost' is not an IP address or network (CIDR).
    """
    networks: list[Network] = []
    for raw in entries:
        entry = raw.strip()
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry))
        except ValueError as error:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {entry!r} is not an IP address or network (CIDR)."
            ) from error
    return tuple(networks)


def trusted_proxies(env: environ.Env) -> list[str]:
    """The ``TRUSTED_PROXIES`` variable, checked: what settings and ``gunicorn.conf.py`` read."""
    entries = [entry.strip() for entry in env.list("TRUSTED_PROXIES", default=[]) if entry.strip()]
    proxy_networks(entries)
    return entries


def parse_address(value: str) -> Address | None:
    """An address as a proxy or the server writes it: bare, IPv4 with a port, or IPv6 in
    brackets with or without one; an IPv4 address mapped into IPv6 is the IPv4 one. None for
    anything else.

    >>> [str(parse_address(v)) for v in ("203.0.113.7", "203.0.113.7:5678", "[2001:DB8::1]:443", "::ffff:10.1.2.3")]
    ['203.0.113.7', '203.0.113.7', '2001:db8::1', '10.1.2.3']
    >>> [parse_address(v) for v in ("unknown", "", "1.2.3", "[::1", "1.2.3.4:x", "_hidden")]
    [None, None, None, None, None, None]
    """
    text = value.strip()
    if text.startswith("["):
        host, bracket, rest = text[1:].partition("]")
        if not bracket or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        text = host
    elif text.count(":") == 1:
        text, _, port = text.partition(":")
        if not port.isdigit():
            return None
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return proxy_networks(entries)


def is_trusted_proxy(address: Address) -> bool:
    return any(address in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_address(request: HasMeta) -> str:
    """The address ``request`` comes from, as every per-address limit counts it.

    The connection's address (``REMOTE_ADDR``), unless that is a trusted proxy: then the first
    address in ``X-Forwarded-For``, from the right, that is not one (all of them trusted: the
    leftmost). Written the one way ``ipaddress`` writes it, so spellings of one address count
    as one. A connection whose address is no IP address (a Unix socket) keeps what it has.
    """
    remote = str(request.META.get("REMOTE_ADDR") or "")
    hop = parse_address(remote)
    if hop is None:
        return remote
    if is_trusted_proxy(hop):
        for entry in reversed(str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")):
            forwarded = parse_address(entry)
            if forwarded is None:
                break  # not an address: the hop that passed it on is what we know
            hop = forwarded
            if not is_trusted_proxy(hop):
                break
    return str(hop)


@checks.register(checks.Tags.security, deploy=True)
def check_trusted_proxies(**kwargs: Any) -> list[checks.CheckMessage]:
    """``check --deploy``: behind a proxy (it says the request was HTTPS) with no proxy
    trusted, every visitor counts as the proxy's address and shares its limits."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and not settings.TRUSTED_PROXIES:
        return [
            checks.Warning(
                "SECURE_PROXY_SSL_HEADER is on but TRUSTED_PROXIES is empty: every request counts "
                "as coming from the proxy's address, so all visitors share one address's rate limits "
                "and log-in lockouts.",
                hint="Set TRUSTED_PROXIES to the proxy's address or network (docs/client-addresses.md).",
                id="durak_site.W001",
            )
        ]
    return []
