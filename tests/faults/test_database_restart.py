"""Drill: PostgreSQL stops and comes back in the middle of a game.

Not the machine's shared PostgreSQL (other test runs use it): a private cluster, made with
``initdb`` in a temporary directory on a free port (trust auth, fsync off), loaded with a
dump of this test's database, and the site served against it. While it is down every request
is answered 503 with a "try again" message (``durak_site.middleware``: a page, an htmx
fragment, the API's JSON with a code), never a 500 with a traceback, and nothing is half
applied; once it is back (stopped and started, or restarted under the site's kept
connection: ``CONN_HEALTH_CHECKS``) the game goes on.
"""

import glob
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from django.db import connection

from tests.factories import LONGER_DEAL, api_token, started_game

from .conftest import Site, free_port, login_session, site_env

TRY_AGAIN = "please try again in a few seconds"


def postgres_bin() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(re.findall(r"/(\d+)/", p)[0])
    )
    if not found:
        pytest.fail(
            "The PostgreSQL drill needs the server binaries (initdb, pg_ctl) in /usr/lib/postgresql/<version>/bin: "
            "apt-get install -y postgresql (bash .ci/run installs it)."
        )
    return Path(found[-1]).parent


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1:<port>, run as the postgres user when the
    tests run as root (the server refuses to run as root)."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="durak-pg-drill-"))
        self.data = self.dir / "data"
        self.as_server_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_server_user = ["runuser", "-u", "postgres", "--"]
        self.server(
            ["initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]
        )

    def server(self, command: list[str]) -> None:
        done = subprocess.run(
            [*self.as_server_user, str(self.bin / command[0]), *command[1:]], capture_output=True, timeout=180
        )
        assert done.returncode == 0, (
            f"{command[0]} failed: {done.stdout.decode()[-1500:]}{done.stderr.decode()[-1500:]}"
        )

    def pg_ctl(self, action: str, *options: str) -> None:
        self.server(
            [
                "pg_ctl",
                action,
                "-D",
                str(self.data),
                "-w",
                "-t",
                "120",  # a loaded machine starts it slowly
                "-l",
                str(self.dir / "server.log"),
                "-o",
                f"-p {self.port} -h 127.0.0.1 -k {self.dir} -F",
                *options,
            ]
        )

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def load_copy_of(self, settings_dict: dict[str, Any], name: str) -> None:
        """A copy of a database of the shared server (schema and rows) as ``name`` in this cluster."""
        env = {**os.environ, "PGPASSWORD": settings_dict.get("PASSWORD") or ""}
        subprocess.run(
            [str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name],
            check=True,
            env=env,
            timeout=30,
        )
        dump = subprocess.run(
            [
                str(self.bin / "pg_dump"),
                "--no-owner",
                "--no-privileges",
                "-h",
                settings_dict.get("HOST") or "127.0.0.1",
                "-p",
                str(settings_dict.get("PORT") or 5432),
                "-U",
                settings_dict.get("USER") or "postgres",
                settings_dict["NAME"],
            ],
            check=True,
            capture_output=True,
            env=env,
            timeout=60,
        ).stdout
        subprocess.run(
            [
                str(self.bin / "psql"),
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                name,
            ],
            input=dump,
            check=True,
            capture_output=True,
            timeout=60,
        )

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    cluster = PrivatePostgres()
    try:
        cluster.pg_ctl("start")
        yield cluster
    finally:
        cluster.destroy()


def stored(cluster: PrivatePostgres, game_id: int) -> tuple[int, int]:
    """The game's version and number of moves, straight from the private database."""
    with psycopg.connect(cluster.url("drill")) as db:
        row = db.execute(
            "SELECT version, (SELECT count(*) FROM games_move WHERE game_id = %s) FROM games_game WHERE id = %s",
            [game_id, game_id],
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def assert_try_again(response: httpx.Response, *, api: bool = False, fragment: bool = False) -> None:
    assert response.status_code == 503, (response.status_code, response.text[:500])
    assert response.headers["Retry-After"].isdigit()
    if api:
        assert response.json()["code"] == "service_unavailable"
        assert TRY_AGAIN in response.json()["detail"]
        return
    assert TRY_AGAIN in response.text
    assert ("<html" in response.text) is not fragment
    assert "Traceback" not in response.text


def test_requests_while_postgres_is_down_get_try_again_and_the_game_goes_on(
    site: Site, private_postgres: PrivatePostgres
) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    version = game.version
    sessions = [login_session(user) for user in users]
    tokens = [api_token(user) for user in users]
    private_postgres.load_copy_of(connection.settings_dict, "drill")
    site.env = site_env(private_postgres.url("drill"))
    site.start()
    attacker_page = site.page_client(users[0], game.pk, session=sessions[0])
    defender_page = site.page_client(users[1], game.pk, session=sessions[1])
    apis = [
        httpx.Client(base_url=site.url, timeout=30, headers={"Authorization": f"Token {t}"}) for t in tokens
    ]

    attack = {"expected_version": version, "action": {"type": "attack", "cards": ["6S"]}}
    assert apis[0].post(f"/api/games/{game.pk}/actions/", json=attack).status_code == 200
    assert stored(private_postgres, game.pk) == (version + 1, 1)

    private_postgres.pg_ctl("stop", "-m", "fast")  # the site's kept connection dies with it
    defend = {"expected_version": version + 1, "action": {"type": "defend", "card": "8S", "target": "6S"}}
    assert_try_again(apis[1].post(f"/api/games/{game.pk}/actions/", json=defend), api=True)
    assert_try_again(apis[1].get(f"/api/games/{game.pk}/"), api=True)
    assert_try_again(defender_page.get(f"/games/{game.pk}/"))
    assert_try_again(
        defender_page.get(f"/games/{game.pk}/poll/", headers={"HX-Request": "true"}), fragment=True
    )
    form = {
        "expected_version": str(version + 1),
        "action": '{"type": "defend", "card": "8S", "target": "6S"}',
    }
    assert_try_again(defender_page.post(f"/games/{game.pk}/move/", data=form))

    private_postgres.pg_ctl("start")
    assert stored(private_postgres, game.pk) == (version + 1, 1)  # nothing of the refused tries
    # The player tries again. The pool may still lend a connection the stop killed before its check
    # replaces it: that try is one more "try again" (503), never a 500 and never half a move.
    for _ in range(5):
        answer = defender_page.post(f"/games/{game.pk}/move/", data=form)
        if answer.status_code != 503:
            break
        assert_try_again(answer)
    assert answer.status_code == 302, answer.text[:500]
    assert attacker_page.get(f"/games/{game.pk}/").status_code == 200

    # A restart between two requests: the health check replaces the dead kept connection.
    private_postgres.pg_ctl("restart", "-m", "fast")
    # 6S was beaten: the attacker says "done", the bout is over and the defender leads.
    done = {"expected_version": version + 2, "action": {"type": "pass"}}
    answer = apis[0].post(f"/api/games/{game.pk}/actions/", json=done)
    assert answer.status_code == 200, answer.text[:500]
    lead = {"expected_version": version + 3, "action": {"type": "attack", "cards": ["9D"]}}
    answer = apis[1].post(f"/api/games/{game.pk}/actions/", json=lead)
    assert answer.status_code == 200, answer.text[:500]
    assert stored(private_postgres, game.pk) == (version + 4, 4)

    log = site.log()
    assert "database unavailable, answered 503" in log
    assert "Traceback" not in log and "Internal Server Error" not in log
