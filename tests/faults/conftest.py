"""The site served the production way (gunicorn with a uvicorn worker, ASGI) in a subprocess,
for the fault drills and the waits.

Each drill needs a web process it can kill or cut off from its database, so the site runs
outside the test process: ``durak_site.test_settings``, against the test database (the
``transactional_db`` the test writes its users and games into) unless a drill points it
at a database of its own. Players talk to it over HTTP: a session cookie for the pages (made
by ``force_login``, so no password round trip), a token for the API.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from tests.factories import api_token

#: Not test modules: the web process's applications for the kill drill (it patches the write
#: core when imported) and the held wait's, never to be imported by the collection of doctests.
collect_ignore = ["held_move.py", "held_wait.py"]

ROOT = Path(__file__).resolve().parent.parent.parent
#: The README's production command with one worker process: under ASGI each request's synchronous
#: code runs in a thread of its own, so two requests at once really run side by side.
GUNICORN = [
    "--worker-class=uvicorn_worker.UvicornWorker",
    "--workers=1",
    "--timeout=60",
    "--graceful-timeout=1",
    "--error-logfile=-",
]


#: The drills' clients open a connection per request. The server closes a connection that sat
#: idle for gunicorn's ``keepalive`` (2 s); a client that sends on one at that instant gets "Server
#: disconnected" or "Connection reset", which a browser silently retries and a drill would count
#: as the server's failure.
NO_KEEPALIVE = httpx.Limits(max_keepalive_connections=0)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url_of_tests() -> str:
    """The URL of the database this test process uses (pytest-django's test database)."""
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


@dataclass
class Site:
    """gunicorn serving the site on 127.0.0.1; ``start`` again after ``kill`` for a fresh process."""

    logs: Path
    env: dict[str, str]
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.logs / f"gunicorn-{self.starts}.log"

    def start(self, app: str = "durak_site.asgi:application", **extra_env: str) -> None:
        """Serve ``app`` (the site's ASGI application unless a drill wraps it) in a fresh
        gunicorn, with ``extra_env`` added to its environment."""
        assert self.process is None or self.process.poll() is not None, "the site is running"
        self.starts += 1
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    app,
                    f"--bind=127.0.0.1:{self.port}",
                    *GUNICORN,
                ],
                cwd=ROOT,
                env={**self.env, **extra_env},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 120  # a loaded machine boots it slowly: wait, do not fail
        while time.monotonic() < deadline:
            if "Booting worker" in self.log():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"gunicorn did not start:\n{self.log()[-3000:]}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def all_logs(self) -> str:
        return "".join(path.read_text(errors="replace") for path in sorted(self.logs.glob("gunicorn-*.log")))

    def kill(self) -> None:
        """SIGKILL to master and worker at once: no shutdown code runs, as when a machine dies."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def page_client(self, user: User, game_id: int, session: str | None = None) -> httpx.Client:
        """A browser-like client of ``user``: logged in (with ``session`` if given, made by
        ``login_session``), with the CSRF token the game page set."""
        client = httpx.Client(base_url=self.url, timeout=30, follow_redirects=False, limits=NO_KEEPALIVE)
        client.cookies.set("sessionid", session or login_session(user))
        response = client.get(f"/games/{game_id}/")
        assert response.status_code == 200, response.text[:500]
        client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
        return client

    def api_client(self, user: User) -> httpx.Client:
        return httpx.Client(
            base_url=self.url,
            timeout=30,
            headers={"Authorization": f"Token {api_token(user)}"},
            limits=NO_KEEPALIVE,
        )


def login_session(user: User) -> str:
    """A session key of ``user``, logged in, stored in the test database."""
    django_client = Client()
    django_client.force_login(user)
    return str(django_client.cookies["sessionid"].value)


def site_env(database_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.test_settings",
        "DATABASE_URL": database_url,
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


@pytest.fixture
def site(transactional_db: Any, tmp_path: Path) -> Iterator[Site]:
    """The site (not started yet) against the test database."""
    served = Site(logs=tmp_path, env=site_env(database_url_of_tests()))
    try:
        yield served
    finally:
        served.kill()
