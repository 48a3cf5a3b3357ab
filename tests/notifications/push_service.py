"""A push service on 127.0.0.1 for the tests, and browsers' subscriptions to it.

It does what a browser vendor's push service does with a push (RFC 8030), as far as the site
can tell: it checks the VAPID authorization (RFC 8292: the ``vapid t=<JWT>, k=<key>`` header,
an ES256 signature verified against the key, ``aud`` the endpoint's origin, ``exp`` in the
future and at most a day away, a ``sub`` contact), and, standing in for the browser behind it,
decrypts the aes128gcm payload (RFC 8188, RFC 8291) with the private key and the auth secret
the browser made. Each push is recorded; the answer is 201 unless the test chose another for
that subscription (404 or 410: gone; 429 or 5xx: try later), or a redirect elsewhere.
"""

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_keys() -> tuple[str, str]:
    """A new VAPID pair as the environment holds it: (public, private), base64url."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(public), b64url(private.private_numbers().private_value.to_bytes(32, "big"))


class Unauthorized(ValueError):
    """The VAPID authorization does not hold: a real service answers 401 or 403."""


@dataclass
class Browser:
    """What a browser makes when it subscribes: an ECDH P-256 key pair and a 16-byte secret."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def subscription(self) -> dict[str, str]:
        """What the settings page's script posts."""
        return {"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": self.auth}


@dataclass
class Push:
    """One push the service received, checked and decrypted."""

    name: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: dict[str, Any]
    status: int


class PushService:
    def __init__(self, vapid_public_key: str) -> None:
        self.vapid_public_key = vapid_public_key
        self.browsers: dict[str, Browser] = {}
        self.answers: dict[str, int] = {}
        #: A subscription's redirect (status, Location), answered before anything is checked.
        self.redirects: dict[str, tuple[int, str]] = {}
        self.pushes: list[Push] = []
        #: Every request's path, whatever became of it.
        self.requests: list[str] = []
        #: Pushes the service refused as a real one would (a bad signature, an undecryptable body).
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "PushService":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def browser(self, name: str) -> Browser:
        """A new browser whose endpoint is at this service."""
        browser = Browser(endpoint=f"{self.origin}/push/{name}")
        self.browsers[name] = browser
        return browser

    def to(self, name: str) -> list[Push]:
        with self._lock:
            return [push for push in self.pushes if push.name == name]

    def wait_for(self, count: int, timeout: float = 60) -> list[Push]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.pushes) >= count:
                    return list(self.pushes)
            time.sleep(0.05)
        raise AssertionError(
            f"{count} pushes expected within {timeout} s, got {len(self.pushes)}: {self.errors}"
        )

    # The service's side ---------------------------------------------------------------------

    def _claims(self, authorization: str) -> dict[str, Any]:
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise Unauthorized(f"not a VAPID authorization: {scheme!r}")
        parts = dict(part.strip().split("=", 1) for part in params.split(","))
        token, key = parts["t"], parts["k"]
        if key != self.vapid_public_key:
            raise Unauthorized("signed with another key than the one the browser subscribed with")
        header_b64, claims_b64, signature_b64 = token.split(".")
        header = json.loads(b64url_decode(header_b64))
        if header.get("alg") != "ES256" or header.get("typ", "JWT") != "JWT":
            raise Unauthorized(f"not an ES256 JWT: {header}")
        signature = b64url_decode(signature_b64)
        if len(signature) != 64:
            raise Unauthorized("an ES256 signature is r and s, 32 bytes each")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(key))
        try:
            public.verify(
                encode_dss_signature(
                    int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
                ),
                f"{header_b64}.{claims_b64}".encode(),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature as error:
            raise Unauthorized("the VAPID signature does not verify") from error
        claims: dict[str, Any] = json.loads(b64url_decode(claims_b64))
        now = time.time()
        if claims.get("aud") != self.origin:
            raise Unauthorized(f"aud {claims.get('aud')!r} is not the endpoint's origin {self.origin!r}")
        if not now < int(claims["exp"]) <= now + 24 * 3600 + 60:
            raise Unauthorized(f"exp {claims['exp']} is not in the coming 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise Unauthorized(f"sub {claims.get('sub')!r} is not a contact")
        return claims

    def _receive(self, path: str, headers: dict[str, str], body: bytes) -> int:
        name = path.removeprefix("/push/")
        browser = self.browsers.get(name)
        if browser is None:
            return 404
        try:
            claims = self._claims(headers.get("authorization", ""))
            if headers.get("content-encoding") != "aes128gcm":
                raise ValueError(f"Content-Encoding {headers.get('content-encoding')!r}")
            if not headers.get("ttl", "").isdigit():
                raise ValueError(f"TTL {headers.get('ttl')!r}")
            plain = http_ece.decrypt(
                body, private_key=browser.private_key, auth_secret=browser.auth_secret, version="aes128gcm"
            )
            payload = json.loads(plain)
        except Exception as error:  # whatever a real service refuses, it refuses with a 4xx
            with self._lock:
                self.errors.append(f"{name}: {type(error).__name__}: {error}")
            return 403 if isinstance(error, Unauthorized) else 400
        status = self.answers.get(name, 201)
        with self._lock:
            self.pushes.append(
                Push(name=name, headers=headers, claims=claims, payload=payload, status=status)
            )
        return status

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {key.lower(): value for key, value in self.headers.items()}
                with service._lock:
                    service.requests.append(self.path)
                redirect = service.redirects.get(self.path.removeprefix("/push/"))
                if redirect is not None:
                    self.send_response(redirect[0])
                    self.send_header("Location", redirect[1])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status = service._receive(self.path, headers, body)
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"{service.origin}/message/{len(service.pushes)}")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler
