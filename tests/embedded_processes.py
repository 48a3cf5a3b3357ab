"""``python3 dev.py serve``'s worker and beat on its embedded defaults, as subprocesses.

No PostgreSQL, no Redis: a SQLite file and kombu's ``filesystem://`` transport in a folder
of their own (what ``dev.py serve`` uses without ``DATABASE_URL`` and ``CELERY_BROKER_URL``,
only in a temporary place), the production settings with ``DEBUG=true``, and the worker
and beat commands read from the ``Procfile``, so what is measured is what ``serve`` runs.
Used by ``tests/games/test_embedded_defaults.py``, ``benchmarks/timeouts.py`` and
``benchmarks/embedded_live.py``.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Seconds a process may take to start (migrations, Django's import): waited for, never a failure.
START_TIMEOUT = 180
#: What each process writes once it works: the worker is consuming, beat has sent its first sweep,
#: the web server (it needs ``PORT`` and ``HOST``) answers.
READY = {
    "worker": " ready.",
    "beat": "Sending due task sweep-deadlines",
    "web": "Application startup complete",
}
#: Variables of the surrounding run that would point the processes elsewhere.
FOREIGN = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_TASK_ALWAYS_EAGER",
    "CACHE_URL",
    "LIVE_REDIS_URL",
    "LIVE_SOCKET_DIR",
    "DJANGO_SETTINGS_MODULE",
    "TIMEOUT_SWEEP_SECONDS",
    "CELERY_FILESYSTEM_DIR",
    "PYTEST_XDIST_WORKER",
    "LOG_LEVEL",
    "EMAIL_URL",
)


def procfile_command(name: str) -> str:
    """The Procfile's command line of process ``name``."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        key, _, command = line.partition(":")
        if key.strip() == name and not line.startswith("#"):
            return command.strip()
    raise LookupError(f"no {name!r} process in the Procfile")


@dataclass
class EmbeddedSite:
    folder: Path
    env: dict[str, str] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @classmethod
    def make(cls, folder: Path, **extra_env: str) -> EmbeddedSite:
        """A fresh SQLite database (migrated) and broker folder in ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        env = {key: value for key, value in os.environ.items() if key not in FOREIGN}
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "durak_site.settings",
                "DEBUG": "true",  # as dev.py serve
                "PYTHON": sys.executable,
                # The default is sqlite:///<project>/db.sqlite3; the same engine and options, elsewhere.
                "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
                "CELERY_FILESYSTEM_DIR": str(folder / "celery"),
                "EMAIL_URL": "dummymail://",
                "PYTHONUNBUFFERED": "1",
                **extra_env,
            }
        )
        site = cls(folder=folder, env=env)
        site.run_python(["manage.py", "migrate", "--noinput", "-v", "0"])
        return site

    @property
    def database(self) -> Path:
        return self.folder / "db.sqlite3"

    def run_python(self, args: list[str], timeout: float = 600) -> str:
        done = subprocess.run(
            [sys.executable, *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(
                f"{' '.join(args[:2])} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
            )
        return done.stdout

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, name: str) -> None:
        """The Procfile's ``name`` process (``worker``, ``beat`` or ``web``), once it works."""
        with (self.folder / f"{name}.log").open("wb") as out:
            process = subprocess.Popen(
                ["/bin/sh", "-c", procfile_command(name)],  # it execs its program
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes[name] = process
        deadline = time.monotonic() + START_TIMEOUT
        while READY[name] not in self.log(name):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{name} did not start:\n{self.log(name)[-3000:]}")
            time.sleep(0.1)

    def stop_all(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)

    def start_games_due_together(self, count: int) -> dict[int, datetime]:
        """``count`` two-player games whose deadlines fall in the same second, a few seconds
        ahead, each started by its last player joining (so the start queues its ETA task and
        notifications as on the site); {game id: deadline}."""
        script = f"""
import json, math, time
from datetime import timedelta
import django
django.setup()
from django.utils import timezone
from accounts.models import User
from games import services
from games.models import Game
from tests.factories import LONGER_DEAL

began = time.monotonic()
users = User.objects.bulk_create(User(username=f"embedded-{{n}}", email=f"embedded-{{n}}@example.com") for n in range(2 * {count}))
games = [
    services.game_create(creator=creator, preset="classic", num_players=2, deal=LONGER_DEAL, move_time=timedelta(minutes=10))
    for creator in users[:{count}]
]
joiners = users[{count}:]
opened = time.monotonic() - began
# Joining takes about as long as opening: the last join must still be a second before the deadline.
due = timezone.now() + timedelta(seconds=3 + 2 * opened)
due = due.replace(microsecond=0) + timedelta(seconds=1)
deadlines = {{}}
for game, user in zip(games, joiners):
    Game.objects.filter(pk=game.pk).update(move_time=due - timezone.now())
    services.game_join(user=user, game_id=game.pk)
    game.refresh_from_db()
    deadlines[game.pk] = game.deadline.isoformat()
print(json.dumps(deadlines))
"""
        output = self.run_python(["-c", script])
        return {int(key): datetime.fromisoformat(value) for key, value in json.loads(output).items()}

    def timeouts_applied(self, game_ids: list[int]) -> dict[int, datetime]:
        """{game id: when its timeout was written} for the games timed out so far (read
        straight from the SQLite file: this process's Django uses another database)."""
        placeholders = ",".join("?" * len(game_ids))
        with closing(sqlite3.connect(self.database, timeout=30)) as db:
            rows = db.execute(
                "SELECT game_id, created_at, action FROM games_move"
                f" WHERE position IS NULL AND game_id IN ({placeholders})",
                game_ids,
            ).fetchall()
        return {
            int(game_id): _utc(created)
            for game_id, created, action in rows
            if json.loads(action)["type"] == "timeout"
        }


def _utc(stored: str) -> datetime:
    """Django keeps aware datetimes in SQLite as naive UTC text."""
    moment = datetime.fromisoformat(stored)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
