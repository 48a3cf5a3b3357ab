"""How soon what the worker does reaches an open page on ``dev.py serve``'s embedded defaults (a
benchmark, not a test).

    python -m benchmarks.embedded_live [--moves 30] [--fanout sockets redis poll] [--redis-db 9]

Each run is ``python3 dev.py serve``'s three processes (the ``Procfile``'s web server, worker and
beat: ``tests/embedded_processes.py``) on a new SQLite file and kombu's ``filesystem://`` in a
temporary folder. A player plays computers (level ``random``: they decide in a millisecond or
two) through the page's form, as htmx posts it, and holds the page's live stream. Every computer
move is the worker's; the figure is from the worker writing it (its ``Move.created_at``) to the
page knowing of it:

- ``sockets``: the stream's event, through the socket folder (``durak_site.live_sockets``: what
  the embedded default does now);
- ``redis``: the stream's event through Redis pub/sub (``LIVE_REDIS_URL`` on ``--redis-db``, as
  in production; the broker is still the folder);
- ``poll``: no fan-out between the processes (``LIVE_SOCKET_DIR`` empty: the embedded default
  before), so the page learns it from its poll every ``GAME_POLL_SECONDS`` (2), as ``live.js``
  polls with ``data-live-fanout="local"``: the first ``/poll/`` answer with the new table.

Also: from the player's move answered to the computer's answer known on the page (that includes
``BOT_MOVE_DELAY_SECONDS``, 0 here unless ``--bot-delay``, and the broker's trip to the worker).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.servers import free_port  # noqa: E402
from tests.embedded_processes import EmbeddedSite  # noqa: E402

VERSION = re.compile(r'"version":(\d+)')
POLL_SECONDS = 2.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


class Page:
    """The player's open game page: what it knows of the game's versions, and since when."""

    def __init__(self, base: str, session: str, game_id: int, *, stream: bool) -> None:
        import httpx

        self.client = httpx.Client(
            base_url=base, timeout=httpx.Timeout(30, read=None), cookies={"sessionid": session}
        )
        page = self.client.get(f"/games/{game_id}/")
        assert page.status_code == 200, page.status_code
        self.headers = {"X-CSRFToken": self.client.cookies["csrftoken"], "HX-Request": "true"}
        self.game_id = game_id
        self.known: dict[int, float] = {}  # version -> time.time() the page learnt it
        self.opened = threading.Event()
        self.stop = threading.Event()
        target = self._stream if stream else self._poll
        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()
        assert self.opened.wait(60), "the page did not start listening"

    def _stream(self) -> None:
        with self.client.stream("GET", f"/live/?channel=game-{self.game_id}") as answer:
            assert answer.status_code == 200, answer.status_code
            for line in answer.iter_lines():
                if line == "event: stream-open":
                    self.opened.set()
                elif found := VERSION.search(line):
                    self.known.setdefault(int(found[1]), time.time())
                if self.stop.is_set():
                    return

    def _poll(self) -> None:
        import httpx

        version = 0
        poller = httpx.Client(base_url=str(self.client.base_url), timeout=30, cookies=self.client.cookies)
        self.opened.set()
        while not self.stop.is_set():
            answer = poller.get(f"/games/{self.game_id}/poll/?version={version}", headers=self.headers)
            if answer.status_code == 200 and (found := re.search(r'data-version="(\d+)"', answer.text)):
                learnt = time.time()
                for known in range(version + 1, int(found[1]) + 1):
                    self.known.setdefault(known, learnt)
                version = int(found[1])
            self.stop.wait(POLL_SECONDS)

    def until(self, version: int, timeout: float = 60) -> float:
        deadline = time.monotonic() + timeout
        while version not in self.known:
            if time.monotonic() > deadline:
                raise SystemExit(f"version {version} of game {self.game_id} never reached the page")
            time.sleep(0.001)
        return self.known[version]

    def move(self, version: int, action: dict[str, Any]) -> float | None:
        """Post the player's move; when its answer came, or None if refused (the computer moved
        meanwhile: the game has moved on)."""
        answer = self.client.post(
            f"/games/{self.game_id}/move/",
            data={"action": json.dumps(action), "expected_version": str(version)},
            headers=self.headers,
        )
        if answer.status_code != 200 or 'class="error"' in answer.text:
            return None
        return time.time()

    def close(self) -> None:
        self.stop.set()
        self.client.close()


def written(database: Path, game_id: int) -> list[tuple[int, int | None, float]]:
    """(seq, position, when written) of the game's moves, read straight from the SQLite file."""
    with closing(sqlite3.connect(database, timeout=30)) as db:
        rows = db.execute(
            "SELECT seq, position, created_at FROM games_move WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [
        (seq, position, datetime.fromisoformat(at).replace(tzinfo=UTC).timestamp())
        for seq, position, at in rows
    ]


def run(fanout: str, args: argparse.Namespace) -> None:
    import django

    extra = {
        "BOT_MOVE_DELAY_SECONDS": str(args.bot_delay),
        "GAME_POLL_SECONDS": str(int(POLL_SECONDS)),
        "HOST": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
    }
    if fanout == "redis":
        extra |= {
            "LIVE_REDIS_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
            "REDIS_NAMESPACE": f"bench-embedded-{os.getpid()}",
        }
    elif fanout == "poll":
        extra["LIVE_SOCKET_DIR"] = ""
    with tempfile.TemporaryDirectory(prefix="durak-live-") as folder:
        extra["PORT"] = str(free_port())
        site = EmbeddedSite.make(Path(folder), **extra)
        os.environ.update(site.env)  # this process makes the games, on the same file
        django.setup()
        try:
            for name in ("worker", "beat", "web"):
                site.start(name)
            base = f"http://127.0.0.1:{extra['PORT']}"
            delivered, answered = play(site, base, args, stream=fanout != "poll")
            if fanout == "sockets":
                page_sizes(base)
        finally:
            site.stop_all()
    print(
        f"{fanout:8}: a computer's move, from the worker writing it to the page knowing it "
        f"({len(delivered)} moves): p50 {statistics.median(delivered) * 1000:.0f} ms, "
        f"p95 {percentile(delivered, 0.95) * 1000:.0f} ms, max {max(delivered) * 1000:.0f} ms; "
        f"from the player's move answered to the computer's answer on the page: "
        f"p50 {statistics.median(answered) * 1000:.0f} ms, p95 {percentile(answered, 0.95) * 1000:.0f} ms"
    )


def play(
    site: EmbeddedSite, base: str, args: argparse.Namespace, *, stream: bool
) -> tuple[list[float], list[float]]:
    from django.test import Client

    from accounts.models import User
    from games import services
    from games.models import Game

    player = User.objects.create_user("bench", "bench@example.com", None)
    client = Client()
    client.force_login(player)
    session = client.cookies["sessionid"].value
    delivered: list[float] = []
    answered: list[float] = []
    while len(delivered) < args.moves:
        game = services.game_against_computer(creator=player, level="random", preset="classic", num_players=2)
        page = Page(base, session, game.pk, stream=stream)
        try:
            while len(delivered) < args.moves:
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE or game.state is None:
                    break
                engine = game.engine()
                before = len(written(site.database, game.pk))
                sent = page.move(game.version, engine.legal_json(0)[0]) if 0 in engine.waiting_for() else None
                # The computer's answer: a move of seat 1 written after ``before``.
                deadline = time.monotonic() + 60
                while not (
                    computer := [row for row in written(site.database, game.pk)[before:] if row[1] == 1]
                ):
                    game.refresh_from_db()
                    waits_for_player = 0 in game.engine().waiting_for()
                    if game.status != Game.Status.ACTIVE or waits_for_player or time.monotonic() > deadline:
                        break
                    time.sleep(0.005)
                if not computer:
                    continue
                game.refresh_from_db()
                known = page.until(game.version)
                delivered.append(known - computer[-1][2])
                if sent is not None:
                    answered.append(known - sent)
        finally:
            page.close()
    return delivered, answered


def page_sizes(base: str) -> None:
    """What the lobby and a game page weigh on the wire, plain and gzipped (``durak_site.compression``)."""
    import httpx
    from django.test import Client

    from accounts.models import User
    from games.models import Game

    player = User.objects.get(username="bench")
    client = Client()
    client.force_login(player)
    game = Game.objects.filter(seats__user=player).latest("pk")
    own = {"Sec-Fetch-Site": "same-origin"}
    with httpx.Client(
        base_url=base, timeout=30, cookies={"sessionid": client.cookies["sessionid"].value}
    ) as http:
        for path in ("/", f"/games/{game.pk}/"):
            plain = http.get(path, headers={**own, "Accept-Encoding": "identity"})
            # httpx decodes the body: the bytes on the wire are what Content-Length says.
            zipped = http.get(path, headers={**own, "Accept-Encoding": "gzip"})
            assert zipped.headers.get("Content-Encoding") == "gzip", zipped.headers
            print(
                f"page {path}: {len(plain.content) / 1024:.1f} KiB plain, "
                f"{int(zipped.headers['Content-Length']) / 1024:.1f} KiB gzipped"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="computer moves measured a run (default 30)")
    parser.add_argument(
        "--fanout", nargs="+", choices=["sockets", "redis", "poll"], default=["sockets", "redis", "poll"]
    )
    parser.add_argument("--redis-db", type=int, default=int(os.environ.get("TEST_REDIS_DB", "9")))
    parser.add_argument("--bot-delay", type=float, default=0.0, help="BOT_MOVE_DELAY_SECONDS (default 0)")
    args = parser.parse_args()
    for fanout in args.fanout:
        # Each run in a process of its own: Django is set up once a process, on that run's file.
        if len(args.fanout) > 1:
            import subprocess

            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "benchmarks.embedded_live",
                    "--moves",
                    str(args.moves),
                    "--fanout",
                    fanout,
                    "--redis-db",
                    str(args.redis_db),
                    "--bot-delay",
                    str(args.bot_delay),
                ],
                cwd=ROOT,
                check=True,
            )
        else:
            run(fanout, args)


if __name__ == "__main__":
    main()
