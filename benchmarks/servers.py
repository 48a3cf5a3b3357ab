"""What the benchmarks that serve the site share: a fresh database, the production-like
environment, logged-in sessions, and the processes (gunicorn with uvicorn workers, a Celery
worker), on 127.0.0.1 only.

Used by ``benchmarks.load``, ``benchmarks.live`` and ``benchmarks.waits``; each started
process runs in a process group of its own and is stopped as a whole when its ``with`` ends.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def site_env(*, database_url: str, redis_db: int, **overrides: str) -> dict[str, str]:
    """The environment of the server, the worker and the benchmark's own process (for the
    ORM): the README's production settings on plain HTTP, with the API throttles lifted
    (every client comes from one address). ``overrides`` adds or replaces variables."""
    return {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": f"redis://{HOST}:6379/{redis_db}",
        # The shared cache of the production section (flushed with the broker's database).
        "CACHE_URL": f"redis://{HOST}:6379/{redis_db}",
        "EMAIL_URL": "dummymail://",
        "ALLOWED_HOSTS": HOST,
        "LOG_LEVEL": "WARNING",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "API_RATE_USER": "1000000/min",
        "API_RATE_IP": "1000000/min",
        **overrides,
    }


def fresh_database(database_url: str) -> None:
    """Drop and re-create the database that ``database_url`` names (never the server's own)."""
    import psycopg

    server, name = database_url.rsplit("/", 1)
    if name in ("", "postgres", "template0", "template1"):
        raise SystemExit(f"refusing to re-create the database {name!r}")
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def flush_redis(redis_db: int) -> None:
    import redis

    redis.Redis.from_url(f"redis://{HOST}:6379/{redis_db}").flushdb()


def prepare(env: dict[str, str], *, static_files: bool = False) -> None:
    """Make this process the site's (``env`` in its environment), on a clean slate: the Redis
    database of ``CACHE_URL`` flushed (the broker's too: the benchmarks give both one), the
    database of ``DATABASE_URL`` re-created and migrated, Django set up; ``static_files``: also
    collected (``DEBUG`` off serves the manifest's names)."""
    import django
    import redis

    os.environ.update(env)
    redis.Redis.from_url(env["CACHE_URL"]).flushdb()
    fresh_database(env["DATABASE_URL"])
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if static_files:
        call_command("collectstatic", interactive=False, verbosity=0)


def login_session(user: Any) -> str:
    """A session key logged in as ``user``, as the log-in page would leave it (Django set up)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "moderation.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start(args: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``python -m <args>`` in the project's folder, its output in ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped as a whole at the end
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    base: str  # http://127.0.0.1:<port>

    @property
    def pid(self) -> int:
        return self.process.pid


@contextmanager
def gunicorn(
    *, application: str, workers: int, env: dict[str, str], log: Path, up_within: float = 60.0
) -> Iterator[Server]:
    """The README's production server (gunicorn supervising ``workers`` uvicorn workers)
    serving ``application`` on a free port of 127.0.0.1, once ``/healthz`` answers."""
    import httpx
    from django.db import connections

    connections.close_all()  # this process's own: it waits while the server works
    port = free_port()
    process = start(
        [
            "gunicorn",
            application,
            "--worker-class=uvicorn_worker.UvicornWorker",
            f"--workers={workers}",
            f"--bind={HOST}:{port}",
            "--timeout=60",
        ],
        env=env,
        log=log,
    )
    server = Server(process, f"http://{HOST}:{port}")
    try:
        up_by = time.monotonic() + up_within
        while True:
            try:
                if httpx.get(server.base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > up_by or process.poll() is not None:
                sys.exit(f"gunicorn did not come up; see {log}")
            time.sleep(0.2)
        yield server
    finally:
        stop(process)


@contextmanager
def celery_worker(*, concurrency: int, env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A Celery worker of the site (no gossip, mingle or heartbeat: one worker alone)."""
    process = start(
        [
            "celery",
            "-A",
            "durak_site",
            "worker",
            f"--concurrency={concurrency}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
        ],
        env=env,
        log=log,
    )
    try:
        yield process
    finally:
        stop(process)


def logs_folder(name: str) -> Path:
    """``.celery/<name>`` in the project (git ignores ``.celery``): the processes' logs."""
    folder = ROOT / ".celery" / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
