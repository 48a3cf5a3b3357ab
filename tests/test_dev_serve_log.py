"""``python3 dev.py serve``'s web process logs no poll that went well.

The web command is read from the ``Procfile`` (uvicorn with ``--reload``, as ``serve`` runs it)
and served against the test database. A logged-in player's page polls its table and its chat,
counts the player's turns, holds a live stream and (through the API) a long poll: none of these
may leave a line in the access log when it succeeds, while the page itself, a failed poll and a
move still do.
"""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from games.models import Game
from tests.embedded_processes import ROOT, procfile_command
from tests.factories import api_token, started_game
from tests.faults.conftest import database_url_of_tests, free_port, login_session, site_env

pytestmark = pytest.mark.django_db(transaction=True)


class Served:
    def __init__(self, log: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.log_path, self.port, self.process = log, port, process

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_line(self, text: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout  # a loaded machine is slow: wait, never fail early
        while time.monotonic() < deadline:
            if text in self.log():
                return
            assert self.process.poll() is None, f"the web process ended:\n{self.log()[-3000:]}"
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never reached the log:\n{self.log()[-3000:]}")


@pytest.fixture
def served(transactional_db: Any, tmp_path: Path) -> Iterator[Served]:
    port = free_port()
    log = tmp_path / "web.log"
    env = site_env(
        database_url_of_tests(),
        DEBUG="true",
        PYTHON=sys.executable,
        HOST="127.0.0.1",
        PORT=str(port),
        API_WAIT_SECONDS="1",
        LOG_LEVEL="INFO",
    )
    # As serve runs it, reloader and all, but watching an empty folder: the tree it would watch
    # may change while the test runs, and a reload would cut the requests off.
    watched = tmp_path / "watched"
    watched.mkdir()
    command = f"{procfile_command('web')} --reload-dir {watched}"
    assert "--reload" in command
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["bash", "-c", command],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    site = Served(log, port, process)
    try:
        site.wait_for_line("Application startup complete")
        yield site
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def test_successful_polls_leave_no_line_but_pages_and_failures_do(served: Served) -> None:
    game, (alice, _bob) = started_game()
    assert game.status == Game.Status.ACTIVE
    page = httpx.Client(base_url=served.url, timeout=60, cookies={"sessionid": login_session(alice)})
    api = httpx.Client(
        base_url=served.url, timeout=60, headers={"Authorization": f"Token {api_token(alice)}"}
    )

    assert page.get(f"/games/{game.pk}/").status_code == 200
    polls = {
        f"/games/{game.pk}/poll/?version={game.version}": 204,
        f"/games/{game.pk}/chat/": 200,
        f"/games/turns/?current={game.pk}": 200,
        "/games/turns/": 200,
    }
    for _ in range(3):
        for path, status in polls.items():
            assert page.get(path).status_code == status, path
        assert api.get(f"/api/games/{game.pk}/wait/?version={game.version}").status_code < 400
        with page.stream("GET", f"/live/?channel=game-{game.pk}") as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
    # Failures are still logged, and so is an ordinary request after them.
    assert page.get("/games/999999/poll/?version=1").status_code == 404
    assert page.get("/live/").status_code == 400
    assert page.get("/").status_code == 200

    served.wait_for_line('"GET / HTTP/1.1" 200')
    access = [line for line in served.log().splitlines() if '"GET ' in line or '"POST ' in line]
    assert any(f'"GET /games/{game.pk}/ HTTP/1.1" 200' in line for line in access), access
    assert any('"GET /games/999999/poll/?version=1 HTTP/1.1" 404' in line for line in access), access
    assert any('"GET /live/ HTTP/1.1" 400' in line for line in access), access
    quiet = ("/poll/?version=", "/chat/", "/games/turns/", "/live/?channel", "/wait/")
    noisy = [
        line for line in access if any(p in line for p in quiet) and " 404" not in line and " 400" not in line
    ]
    assert noisy == [], "successful polls were logged:\n" + "\n".join(noisy)


def test_a_forged_forwarded_for_is_not_taken_for_the_client(served: Served) -> None:
    """uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise; the Procfile gives
    it TRUSTED_PROXIES (empty here): the access log, and every limit, see the connection."""
    client = httpx.Client(base_url=served.url, timeout=60)
    assert client.get("/", headers={"X-Forwarded-For": "198.51.100.23"}).status_code == 200
    served.wait_for_line('"GET / HTTP/1.1" 200')
    line = next(line for line in served.log().splitlines() if '"GET / HTTP/1.1" 200' in line)
    assert "127.0.0.1:" in line and "198.51.100.23" not in served.log(), line
