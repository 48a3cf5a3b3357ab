"""``python3 dev.py serve`` on its embedded defaults, run as the README says: live, and stopped by Ctrl-C.

One real ``dev.py serve`` for the module: no ``DATABASE_URL`` of the tests (a SQLite file in a
temporary folder), no ``CELERY_BROKER_URL`` (kombu's ``filesystem://``, its folder there too),
no ``CACHE_URL`` or Redis at all; honcho starts the ``Procfile``'s web server (uvicorn with
``--reload``), worker and beat. The test plays the part of an open page by holding its live
stream (``/live/?channel=…``, as ``live.js`` opens it) and changes things the way the site does,
from other processes (``EmbeddedServe.run``: a script on the same database and broker).

- What the worker does reaches the stream: a computer's move, a timeout, a change in the
  lobby (the Play-now sweep seating a player with computers). A stream is only the stream: there
  is no poll in it, so the event arrived through the socket folder (``durak_site.live_sockets``)
  or not at all; the assertions wait with generous deadlines, and the time it took is
  ``benchmarks/embedded_live.py``'s to measure, not a test's.
- Ctrl-C (SIGINT to ``dev.py``'s process group, as a terminal sends it) stops the web server,
  the worker and beat by themselves: exit status 0, each process "stopped (rc=0)", no
  ``ERROR`` line (the worker's pool processes were killed under it: "exited with 'signal 15
  (SIGTERM)'") and no SIGKILL (honcho's, 5 s later).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.embedded_processes import FOREIGN, ROOT

#: Seconds ``dev.py serve`` may take to be up (migrating a new SQLite file on a loaded machine).
START_TIMEOUT = 240
#: Seconds a change may take to reach the stream: generous, for a loaded 2-core machine. A
#: computer moves ``BOT_MOVE_DELAY_SECONDS`` (1.5) after its turn comes; beat sweeps every 5 s.
DELIVERY_TIMEOUT = 90
#: Seconds Ctrl-C may take to stop everything (honcho kills what is left after 30).
STOP_TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Event:
    kind: str
    data: dict[str, Any]


@dataclass
class Stream:
    """An open page's live stream, read in a thread: its events as they come."""

    url: str
    cookies: dict[str, str]
    events: queue.Queue[Event] = field(default_factory=queue.Queue)
    opened: threading.Event = field(default_factory=threading.Event)
    failure: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._client = httpx.Client(timeout=httpx.Timeout(10, read=None), cookies=self.cookies)
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        if not self.opened.wait(60):
            raise AssertionError(f"the stream did not open: {self.failure}")

    def _read(self) -> None:
        try:
            with self._client.stream("GET", self.url) as response:
                if response.status_code != 200:
                    self.failure.append(f"{response.status_code} {response.read()[:200]!r}")
                    self.opened.set()
                    return
                kind = ""
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        kind = line.removeprefix("event: ")
                    elif line.startswith("data:") and kind:
                        if kind == "stream-open":
                            self.opened.set()
                        elif kind != "keep-alive":
                            raw = line.removeprefix("data:").strip()
                            self.events.put(Event(kind, json.loads(raw) if raw else {}))
                    elif not line:
                        kind = ""
        except httpx.HTTPError as error:
            self.failure.append(repr(error))
            self.opened.set()

    def wait_for(self, wanted: Any, what: str, timeout: float = DELIVERY_TIMEOUT) -> Event:
        """The first event for which ``wanted(event)`` holds."""
        deadline = time.monotonic() + timeout
        seen: list[Event] = []
        while time.monotonic() < deadline:
            try:
                event = self.events.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(event)
            if wanted(event):
                return event
        raise AssertionError(f"no {what} reached the stream in {timeout} s; it had {seen}, {self.failure}")

    def close(self) -> None:
        self._client.close()


@dataclass
class EmbeddedServe:
    process: subprocess.Popen[bytes]
    log_path: Path
    env: dict[str, str]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def run(self, script: str) -> Any:
        """Run ``script`` (after ``django.setup()``) against the site's database and broker; the
        JSON it prints last."""
        done = subprocess.run(
            [sys.executable, "-c", "import django\ndjango.setup()\n" + script],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"the script failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
        return json.loads(done.stdout.strip().splitlines()[-1])

    def stream(self, *channels: str, session: str = "") -> Stream:
        query = "&".join(f"channel={channel}" for channel in channels)
        return Stream(f"{self.url}/live/?{query}", {"sessionid": session} if session else {})


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServe]:
    # A short folder: the web process's socket is named in it, and a socket's name is at most
    # 107 bytes.
    folder = tmp_path_factory.mktemp("serve")
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key not in FOREIGN}
    env.update(
        {
            # As dev.py serve's own defaults, only in the temporary folder.
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "CELERY_FILESYSTEM_DIR": str(folder / "celery"),
            "EMAIL_URL": "dummymail://",
            "DJANGO_SETTINGS_MODULE": "durak_site.settings",
            "DEBUG": "true",
            "PORT": str(port),
            "HOST": "127.0.0.1",
            "PYTHONUNBUFFERED": "1",
        }
    )
    for name in ("LIVE_REDIS_URL", "LIVE_SOCKET_DIR", "REDIS_NAMESPACE", "GAME_POLL_SECONDS"):
        env.pop(name, None)
    log = folder / "serve.log"
    with log.open("wb") as out:
        # Its own process group, as a terminal's foreground job: Ctrl-C is a SIGINT to the group.
        process = subprocess.Popen(
            [sys.executable, "dev.py", "serve"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    site = EmbeddedServe(process=process, log_path=log, env=env, port=port)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not all(
            line in site.log() for line in ("Application startup complete", " ready.", "Sending due task")
        ):
            assert process.poll() is None, f"dev.py serve ended:\n{site.log()[-4000:]}"
            assert time.monotonic() < deadline, f"dev.py serve did not start:\n{site.log()[-4000:]}"
            time.sleep(0.2)
        yield site
    finally:
        if process.poll() is None:
            # honcho's processes have process groups of their own (their pids, in the log).
            for pid in re.findall(r"started \(pid=(\d+)\)", site.log()):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(int(pid), signal.SIGKILL)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


PLAYER = """
import json
from accounts.models import User
from django.test import Client
def player(name):
    user = User.objects.create_user(name, f"{name}@example.com", "correct-horse-battery")
    client = Client()
    client.force_login(user)
    return user, client.cookies["sessionid"].value
"""


def test_the_page_hears_the_whole_site(serve: EmbeddedServe) -> None:
    """``data-live-fanout``: the page listens, and does not poll besides (``live.js``)."""
    page = httpx.get(serve.url + "/", timeout=60)
    assert page.status_code == 200
    assert 'data-live-fanout="sockets"' in page.text


def test_a_computers_move_reaches_the_open_stream(serve: EmbeddedServe) -> None:
    made = serve.run(
        PLAYER
        + """
from games import services
from tests.factories import LONGER_DEAL
alice, session = player("alice")
game = services.game_against_computer(creator=alice, level="rules", preset="classic", num_players=2, deal=LONGER_DEAL)
print(json.dumps({"game": game.pk, "version": game.version, "session": session}))
"""
    )
    game_id = made["game"]
    stream = serve.stream(f"game-{game_id}", session=made["session"])
    try:
        # Alice leads (as her page would post it); the computer's answer is the worker's.
        moved = serve.run(
            f"""
import durak, json
from accounts.models import User
from games import services
from games.models import Game
game = Game.objects.get(pk={game_id})
action = game.engine().legal_json(0)[0]
game = services.make_move(user=User.objects.get(username="alice"), game_id=game.pk, action=action, expected_version=game.version)
print(json.dumps({{"version": game.version}}))
"""
        )
        event = stream.wait_for(
            lambda event: event.kind == "game" and event.data["version"] > moved["version"],
            "event of the computer's move",
        )
    finally:
        stream.close()
    answered = serve.run(
        f"""
import json
from games.models import Move
print(json.dumps([move.position for move in Move.objects.filter(game_id={game_id}).order_by("seq")]))
"""
    )
    assert event.data["game"] == game_id
    assert answered[0] == 0 and 1 in answered[1:], answered  # alice's lead, then the computer's


def test_a_timeout_reaches_the_open_stream(serve: EmbeddedServe) -> None:
    made = serve.run(
        PLAYER
        + """
from datetime import timedelta
from games import services
bob, session = player("bob")
game = services.game_create(creator=bob, preset="classic", num_players=2, move_time=timedelta(hours=1))
print(json.dumps({"game": game.pk, "session": session}))
"""
    )
    game_id = made["game"]
    stream = serve.stream(f"game-{game_id}", session=made["session"])
    try:
        # Carol joins a game whose clock gives 2 s a move: the game starts, and the worker's
        # ETA task (or beat's sweep) times it out.
        joined = serve.run(
            PLAYER
            + f"""
from datetime import timedelta
from games import services
from games.models import Game
Game.objects.filter(pk={game_id}).update(move_time=timedelta(seconds=2))
carol, _session = player("carol")
game = services.game_join(user=carol, game_id={game_id})
print(json.dumps({{"version": game.version}}))
"""
        )
        stream.wait_for(
            lambda event: event.kind == "game" and event.data["version"] > joined["version"],
            "event of the timeout",
        )
    finally:
        stream.close()
    actions = serve.run(
        f"""
import json
from games.models import Move
print(json.dumps([move.action["type"] for move in Move.objects.filter(game_id={game_id})]))
"""
    )
    assert "timeout" in actions, actions


def test_a_change_in_the_lobby_reaches_the_open_stream(serve: EmbeddedServe) -> None:
    """A player waits in the Play-now queue for computers to fill in, written straight to the
    database (no service, so no event): only beat's sweep, in the worker, seats them, and tells
    the lobby."""
    stream = serve.stream("lobby")
    try:
        serve.run(
            PLAYER
            + """
from datetime import timedelta
from django.utils import timezone
from matchmaking.models import QueueEntry
dave, _session = player("dave")
now = timezone.now()
User.objects.filter(pk=dave.pk).update(last_active_at=now)
QueueEntry.objects.create(user=dave, preset="classic", num_players=2, time_control="none", bot_level="rules", fill_after=timedelta(0), joined_at=now, fill_at=now)
print(json.dumps({}))
"""
        )
        stream.wait_for(lambda event: event.kind == "lobby", "news of the lobby")
    finally:
        stream.close()
    status = serve.run(
        """
import json
from matchmaking.models import QueueEntry
print(json.dumps(QueueEntry.objects.get(user__username="dave").status))
"""
    )
    assert status == "matched"


def test_ctrl_c_stops_web_worker_and_beat_cleanly(serve: EmbeddedServe) -> None:
    """Last: it stops the module's ``dev.py serve``."""
    os.killpg(serve.process.pid, signal.SIGINT)
    try:
        status = serve.process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"dev.py serve still runs after Ctrl-C:\n{serve.log()[-4000:]}") from None
    log = serve.log()
    stopping = log[log.index("SIGINT received") :]
    assert status == 0, stopping
    for name in ("web", "worker", "beat"):
        assert re.search(rf"{name}\.1 stopped \(rc=0\)", stopping), (
            f"{name} did not stop by itself:\n{stopping}"
        )
    assert "SIGKILL" not in stopping, stopping
    errors = [line for line in log.splitlines() if "ERROR" in line or "Traceback" in line]
    assert errors == [], "\n".join(errors)
