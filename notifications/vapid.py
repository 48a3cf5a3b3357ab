"""The site's VAPID key pair (RFC 8292), which signs every web push, and whether the site
pushes at all (``enabled``: both keys set, and matching).

Beneath the policy and the push: the policy asks ``enabled`` (a reminder goes by push only if
the site pushes), the push signs with ``vapid``; this module imports neither.
"""

import base64
import functools
import logging

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

logger = logging.getLogger(__name__)


def enabled() -> bool:
    """Whether the site pushes at all: only with both VAPID keys set, and matching."""
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    return bool(public and private) and _keys_usable(public, private)


@functools.cache
def _keys_usable(public: str, private: str) -> bool:
    try:
        key = _vapid(private)
    except Exception:  # py_vapid raises what the decoding raised: binascii, ValueError, ...
        logger.error("VAPID_PRIVATE_KEY is not a P-256 private key (raw base64url, DER or PEM): push is off")
        return False
    if public_key_of(key.private_key) != public.strip().rstrip("="):
        logger.error("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY: push is off")
        return False
    return True


def vapid_public_key() -> str:
    """The key browsers subscribe with (the settings page's data attribute); empty when push is off."""
    return settings.VAPID_PUBLIC_KEY.strip().rstrip("=") if enabled() else ""


@functools.cache
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key=private_key)


def vapid() -> Vapid02:
    """The site's VAPID key, from ``VAPID_PRIVATE_KEY`` (raw base64url, or DER/PEM)."""
    return _vapid(settings.VAPID_PRIVATE_KEY)


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_key_of(private: ec.EllipticCurvePrivateKey) -> str:
    """The application server key a browser subscribes with: the public point, uncompressed,
    base64url (what ``VAPID_PUBLIC_KEY`` holds)."""
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)
