"""A real Celery worker and beat, as subprocesses, against the test database and Redis.

Not eager mode: the test process publishes to Redis (``celery_env`` switches eager off
for the test), the worker consumes from it and writes to the test database, beat sends
the sweep every second. Each test's broker keys are under a prefix of its own
(``CELERY_REDIS_KEY_PREFIX``), so test processes that share a Redis database (two engineers'
runs, an xdist worker's number added to another's base) never take or flush each other's
messages; each xdist worker also starts from a Redis database of its own.

Nothing here fails because the machine is slow: a worker or beat gets ``START_TIMEOUT`` to
start (importing Django on a loaded machine takes seconds), and the tests wait for what they
expect with generous deadlines; a test that bounds a lateness measures it from the moment
the thing could first happen (``CeleryEnv.ready_at``: when the last process was up).
"""

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection
from django.utils import timezone
from kombu import pools as kombu_pools

from durak_site.celery import app

ROOT = Path(__file__).resolve().parent.parent
REDIS_HOST = os.environ.get("TEST_REDIS_HOST", "127.0.0.1")
REDIS_PORT = int(os.environ.get("TEST_REDIS_PORT", "6379"))
SWEEP_SECONDS = 1
#: Seconds a worker or beat may take to start: a slow start is waited for, never a failure.
START_TIMEOUT = 120

REDIS_HELP = (
    "These tests need Redis at {host}:{port} ({error}). Start one: "
    'redis-server --daemonize yes --port 6379 --save ""  (bash .ci/run does it).'
)


@dataclass
class CeleryEnv:
    env: dict[str, str]
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    #: When the last started worker or beat was seen ready (the database's clock, as deadlines).
    ready_at: datetime | None = None
    #: Every broker key of this test starts with it (``CELERY_REDIS_KEY_PREFIX``).
    key_prefix: str = ""

    def forget_messages(self) -> None:
        """Delete every message this test has queued (its keys only: another test process
        sharing the Redis database keeps its own)."""
        client = redis.Redis.from_url(self.env["CELERY_BROKER_URL"], socket_connect_timeout=3)
        for key in client.scan_iter(match=f"{self.key_prefix}*"):
            client.delete(key)

    def _start(
        self, name: str, args: list[str], ready: str, timeout: float = START_TIMEOUT
    ) -> subprocess.Popen[bytes]:
        log = self.logs / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "durak_site", *args],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(process)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready in log.read_text(errors="replace"):
                self.ready_at = timezone.now()
                return process
            if process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(
            f"celery {name} did not start within {timeout} s:\n{log.read_text(errors='replace')[-3000:]}"
        )

    def start_worker(self, name: str = "worker", concurrency: int = 4) -> subprocess.Popen[bytes]:
        return self._start(
            name,
            [
                "worker",
                "--pool=threads",
                f"--concurrency={concurrency}",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                f"--hostname={name}@%h",
            ],
            ready=" ready.",
        )

    def start_beat(self, name: str = "beat") -> subprocess.Popen[bytes]:
        # The settings' scheduler: django-celery-beat's DatabaseScheduler, fed by CELERY_BEAT_SCHEDULE.
        return self._start(
            name,
            ["beat", "--loglevel=DEBUG", "--max-interval=1", f"--pidfile={self.logs / (name + '.pid')}"],
            ready="Sending due task sweep-deadlines",
        )

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def wait_for_log(self, name: str, text: str, timeout: float = 60) -> None:
        wait_until(lambda: text in self.log(name), timeout, f"{text!r} in the {name} log")

    def wait_for_sweeps(self, count: int, name: str = "worker", timeout: float = 60) -> None:
        """Until ``count`` more sweeps than so far have run to the end in worker ``name``."""
        done = "Task games.tasks.sweep_deadlines["
        seen = self._finished(name, done)
        wait_until(lambda: self._finished(name, done) >= seen + count, timeout, f"{count} more sweeps")

    def _finished(self, name: str, task: str) -> int:
        return sum(1 for line in self.log(name).splitlines() if task in line and " succeeded in " in line)

    @staticmethod
    def kill(process: subprocess.Popen[bytes]) -> None:
        """SIGKILL: no warm shutdown, the worker's reserved ETA messages stay unacknowledged."""
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for process in self.processes:
            self.kill(process)


def wait_until(condition: Callable[[], Any], timeout: float, what: str, interval: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def _redis_db(worker_id: str) -> int:
    if os.environ.get("TEST_REDIS_DB"):  # engineers sharing one Redis each pick their own base
        return int(os.environ["TEST_REDIS_DB"]) + (
            0 if worker_id == "master" else int(worker_id.removeprefix("gw") or 0)
        )
    return 9 if worker_id == "master" else 10 + int(worker_id.removeprefix("gw") or 0) % 6


@pytest.fixture
def celery_env(transactional_db: Any, tmp_path: Path) -> Iterator[CeleryEnv]:
    """Redis, the test database's URL for subprocesses, and the app switched to the broker."""
    # xdist's name for this process ("gw0", ...), also when run without xdist (-p no:xdist).
    worker_id = os.environ.get("PYTEST_XDIST_WORKER", "master")
    broker = f"redis://{REDIS_HOST}:{REDIS_PORT}/{_redis_db(worker_id)}"
    # A process that shares the database took another test's send_push and dropped it: its rows
    # are not in this test's database. A new prefix starts empty; nothing else is flushed.
    prefix = f"test-{os.getpid()}-{uuid.uuid4().hex[:12]}:"
    client = redis.Redis.from_url(broker, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.fail(REDIS_HELP.format(host=REDIS_HOST, port=REDIS_PORT, error=error))
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    database_url = (
        f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.test_settings",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "CELERY_REDIS_KEY_PREFIX": prefix,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "TIMEOUT_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "TOURNAMENT_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "PYTHONUNBUFFERED": "1",
    }
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager", "broker_transport_options")}
    app.conf.broker_url = broker
    app.conf.broker_transport_options = {
        **(saved["broker_transport_options"] or {}),
        "global_keyprefix": prefix,
    }
    app.conf.task_always_eager = False
    _drop_pools()  # a producer pool made for another broker must not be reused
    celery = CeleryEnv(env=env, logs=tmp_path, key_prefix=prefix)
    try:
        yield celery
    finally:
        celery.stop_all()
        app.conf.update(saved)
        _drop_pools()
        try:
            for key in client.scan_iter(match=f"{prefix}*"):
                client.delete(key)
        except redis.RedisError:
            pass  # a test that stopped Redis; its keys die with it


def _drop_pools() -> None:
    """Forget every connection and producer pool (the app's and kombu's global ones)."""
    kombu_pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
