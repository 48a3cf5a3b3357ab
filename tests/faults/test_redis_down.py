"""Drill: Redis (the Celery broker) goes down mid-game and comes back.

A private ``redis-server`` on a free port, with a real Celery worker and beat on it. While
it is down, starting a game and moving still work at once: publishing the tasks that follow a
commit fails fast and is logged (``durak_site.celery.publish_on_commit``), the move is not
held up or failed. When Redis returns, worker and beat reconnect and catch up from the
database: the sweep applies the timeout whose ETA task was never queued, and the
notification emails that were never queued go out (``notifications.tasks.send_pending_emails``).
"""

import logging
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from django.test import Client

from durak_site.celery import app
from games.models import Game, Move
from notifications.models import Kind, Notification
from tests.celery_processes import CeleryEnv, _drop_pools, wait_until
from tests.factories import LONGER_DEAL, started_game

from .conftest import database_url_of_tests, free_port
from .snapshots import assert_consistent


class PrivateRedis:
    def __init__(self, directory: Path) -> None:
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            pytest.fail(
                "The Redis drill needs redis-server: apt-get install -y redis-server (bash .ci/run does it)."
            )
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.binary is not None
        with (self.directory / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                cwd=self.directory,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        wait_until(lambda: _pings(client), 60, "the private redis-server")

    def kill(self) -> None:
        """SIGKILL, no persistence: every queued message is lost, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


@pytest.fixture
def broker(transactional_db: Any, tmp_path: Path) -> Iterator[tuple[PrivateRedis, CeleryEnv]]:
    """A private Redis (running), this process publishing to it, and a CeleryEnv for its worker and beat."""
    private = PrivateRedis(tmp_path)
    private.start()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.test_settings",
        "DATABASE_URL": database_url_of_tests(),
        "CELERY_BROKER_URL": private.url,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "TIMEOUT_SWEEP_SECONDS": "1",
        "NOTIFICATION_EMAIL_SWEEP_SECONDS": "1",
        "NOTIFICATION_EMAIL_GRACE_SECONDS": "1",
        "PYTHONUNBUFFERED": "1",
    }
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager", "broker_transport_options")}
    app.conf.broker_url = private.url
    app.conf.task_always_eager = False
    app.conf.broker_transport_options = {
        "socket_connect_timeout": 2.0
    }  # as settings.py gives a redis:// broker
    _drop_pools()
    celery = CeleryEnv(env=env, logs=tmp_path)
    try:
        yield private, celery
    finally:
        celery.stop_all()
        private.kill()
        app.conf.update(saved)
        _drop_pools()


def test_with_redis_down_moves_work_and_timeouts_and_emails_catch_up_after(
    broker: tuple[PrivateRedis, CeleryEnv], caplog: pytest.LogCaptureFixture
) -> None:
    private, celery = broker
    workers = [celery.start_worker()]
    celery.start_beat()

    def supervised(condition: Any) -> Any:
        """A Celery worker may die of the broker's crash (an upstream kombu race in the Redis
        transport: "Unrecoverable error: AttributeError ... 'hostname'", celery/kombu#582), so
        production runs it under a supervisor that starts it again (README); so does the drill."""

        def check() -> Any:
            if workers[-1].poll() is not None:
                workers.append(celery.start_worker())
            return condition()

        return check

    private.kill()

    caplog.set_level(logging.WARNING, logger="durak_site.celery")
    began = time.monotonic()
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(seconds=8))
    page = Client()
    page.force_login(users[0])
    answer = page.post(
        f"/games/{game.pk}/move/",
        {"expected_version": game.version, "action": '{"type": "attack", "cards": ["6S"]}'},
    )
    assert answer.status_code == 302
    # A failed publish costs one refused connection and one 0.2 s retry; a publish that waited
    # for the broker would hold these two requests for kombu's retries or the broker's return.
    assert time.monotonic() - began < 20, "publishing to a dead broker held the requests up"
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == 1
    assert "broker unavailable" in caplog.text
    started = Notification.objects.filter(game=game, kind=Kind.GAME_STARTED)
    assert started.count() == 2 and all(n.email_pending and n.emailed_at is None for n in started)

    private.start()  # empty: every message published before the crash is gone, and none was published since
    # The defender never moves: the sweep (not an ETA task: none was queued) times them out.
    game = wait_until(supervised(lambda: _finished(game)), 120, "the timeout applied after Redis came back")
    assert game.state is not None and game.state["end"] == {"reason": "timeout", "player": 1}
    assert_consistent(game.pk)
    # The "game started" emails were never queued: the catch-up sweep sends them.
    wait_until(
        supervised(lambda: not Notification.objects.filter(game=game, email_pending=True).exists()),
        120,
        "pending emails handled",
    )
    assert all(n.emailed_at is not None for n in started.all())
    assert re.search(r"sent \d+ pending notification email", celery.log("worker"))


def _finished(game: Game) -> Game | None:
    game.refresh_from_db()
    return game if game.status == Game.Status.FINISHED else None
