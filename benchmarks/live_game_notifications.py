"""How many e-mails and pushes does a live game send to two players who sit on its page?
(A benchmark, run by hand; the target is none.)

    python3 benchmarks/live_game_notifications.py [--seconds 120] [--seed 5] [--after 90]

Issue 18: one two-minute live game between two players sent 9 e-mails while both watched it.
This replays such a game: a two-minute move time, both players with the page open from before
the deal to after the end, polling the table every ``GAME_POLL_SECONDS`` as the page's script
does (``?version=``), each with a browser subscribed to web push. Moves are posted to the page's
move form (HTMX), chosen by the engine's rules-of-thumb bot and spread over ``--seconds``.
After the last move the pages stay open ``--after`` seconds (longer than the coalescing
window, so every e-mail and push queued by the game has been decided), then it reports what
reached the mail server (an aiosmtpd server in this process) and the push service (a push
service on localhost that checks each push's VAPID signature and decrypts it,
``tests/notifications/push_service.py``), and each player's unread count under the bell.

Real parts: PostgreSQL (its own database ``durak_bench_notify``, created and migrated if
missing; ``BENCH_DATABASE_URL`` to change it), a Celery worker and beat as subprocesses on Redis
(database 7; ``BENCH_BROKER_URL``), the site's views through Django's test client in this
process. It uses only the pages, so it runs unchanged against older code: check out a commit in
a ``git worktree`` and run this file from there (``python3 <worktree>/benchmarks/...``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import timedelta
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_bench_notify")
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/7")
POLL_SECONDS = 2
#: Every request of a page on the screen says so, as ``static/js/live.js`` makes it (issue 29).
HTMX = {"HX-Request": "true", "X-Page-Visible": "1"}
#: How often the page tells the server it is open and visible (``games.services.PRESENCE_HEARTBEAT``).
PRESENCE_SECONDS = 25


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Mailbox:
    """What the SMTP server accepted: (recipient, subject)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        with self._lock:
            self.messages.extend((rcpt, str(message["Subject"])) for rcpt in envelope.rcpt_tos)
        return "250 Message accepted for delivery"

    def all(self) -> list[tuple[str, str]]:
        with self._lock:
            return list(self.messages)


def configure(smtp_port: int, vapid: tuple[str, str], push_origin: str) -> dict[str, str]:
    env = {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "true",
        "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": BROKER_URL,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
        "SITE_URL": "http://127.0.0.1:8000",
        "VAPID_PUBLIC_KEY": vapid[0],
        "VAPID_PRIVATE_KEY": vapid[1],
        "VAPID_SUBJECT": "mailto:bench@example.com",
        "WEB_PUSH_SERVICES": push_origin,
        "GAME_POLL_SECONDS": str(POLL_SECONDS),
        "BOT_MOVE_DELAY_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    os.environ.update(env)
    return {**os.environ, **env}


def setup_django() -> None:
    import django
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    server = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django_celery_beat.models import PeriodicTask

    from accounts.models import User
    from games.models import Game

    Game.objects.all().delete()
    User.objects.filter(username__startswith="bench-").delete()
    PeriodicTask.objects.all().delete()


def start(name: str, args: list[str], ready: str, env: dict[str, str], logs: Path) -> subprocess.Popen[bytes]:
    log = logs / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "durak_site", *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 180
    while ready not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"celery {name} did not start:\n{log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.1)
    return process


def moves_of(game: Any) -> int:
    """How many moves the bots' play of ``game`` takes (the engine alone), to spread them."""
    from durak import RuleBot
    from games import services

    engine = services.initial_engine(game)
    bot, count = RuleBot(), 0
    while not engine.over:
        player = engine.waiting_for()[0]
        engine.apply(bot.choose(engine.view(player)))
        count += 1
    return count


class Page:
    """One player's open game page: polls the table as its script does, in a thread."""

    def __init__(self, user: Any, game_id: int) -> None:
        from django.test import Client
        from django.urls import reverse

        self.client = Client()
        self.client.force_login(user)
        self.url = reverse("games:poll", args=[game_id])
        self.game_id = game_id
        self.version = 0
        self.stopped = threading.Event()
        self.polls = Counter[int]()
        response = self.client.get(reverse("games:detail", args=[game_id]))
        assert response.status_code == 200, response.status_code
        self.version = self._version(response.content.decode()) or 0
        # The page's word that it is open and visible (404 on code older than issue 29: ignored).
        self.presence = f"/games/{game_id}/presence/"
        self.present()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    @staticmethod
    def _version(page: str) -> int | None:
        found = re.search(r"/poll/\?version=(\d+)", page)
        return int(found[1]) if found else None

    def present(self) -> None:
        self.client.post(self.presence, {"visible": "1", "version": self.version})

    def _run(self) -> None:
        from django.db import connection

        last_said = time.monotonic()
        try:
            while not self.stopped.wait(POLL_SECONDS):
                if time.monotonic() - last_said >= PRESENCE_SECONDS:
                    self.present()
                    last_said = time.monotonic()
                response = self.client.get(f"{self.url}?version={self.version}", headers=HTMX)
                self.polls[response.status_code] += 1
                if response.status_code == 200:
                    self.version = self._version(response.content.decode()) or self.version
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(30)


def subscribe(user: Any, service: Any, name: str) -> None:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(user)
    response = client.post(reverse("notifications:push_subscribe"), service.browser(name).subscription())
    assert response.status_code == 201, response.content


def play(seconds: float, seed: int, after: float, service: Any, mailbox: Mailbox) -> dict[str, Any]:
    from django.test import Client
    from django.urls import reverse

    from accounts.models import User
    from durak import RuleBot
    from games import services
    from games.models import Game
    from notifications.models import Notification

    alice = User.objects.create_user(username="bench-alice", email="alice@example.com", password="x" * 12)
    bob = User.objects.create_user(username="bench-bob", email="bob@example.com", password="x" * 12)
    subscribe(alice, service, "alice")
    subscribe(bob, service, "bob")
    game = services.game_create(
        creator=alice, preset="classic", num_players=2, seed=seed, move_time=timedelta(minutes=2)
    )
    pages = [Page(alice, game.pk)]
    time.sleep(POLL_SECONDS)
    joining = Client()
    joining.force_login(bob)
    assert joining.post(reverse("games:join", args=[game.pk])).status_code == 302  # the deal
    pages.append(Page(bob, game.pk))  # where the join leads
    movers = {}
    for user in (alice, bob):
        client = Client()
        client.force_login(user)
        movers[user.pk] = client
    users = {seat.position: seat.user for seat in Game.objects.get(pk=game.pk).seats.select_related("user")}
    think = seconds / max(1, moves_of(game))
    bot, moves, started = RuleBot(), 0, time.monotonic()
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        time.sleep(think)
        assert game.state is not None
        engine = game.engine()
        player = engine.waiting_for()[0]
        action = bot.choose(engine.view(player))
        response = movers[users[player].pk].post(
            reverse("games:move", args=[game.pk]),
            {"expected_version": game.version, "action": json.dumps(action)},
            headers=HTMX,
        )
        assert response.status_code == 200, (response.status_code, response.content[:300])
        moves += 1
    played = time.monotonic() - started
    time.sleep(after)  # the pages stay open: every e-mail and push queued is decided meanwhile
    deadline = time.monotonic() + 120
    while Notification.objects.filter(game=game, email_pending=True).exists() and time.monotonic() < deadline:
        time.sleep(1)
    time.sleep(3)
    for page in pages:
        page.stop()
    written = Counter(Notification.objects.filter(game=game).values_list("kind", flat=True))
    return {
        "moves": moves,
        "seconds played": round(played),
        "status": game.status,
        "notifications written": dict(written),
        "your move rows (alice, bob)": (
            Notification.objects.filter(game=game, user=alice, kind="your_move").count(),
            Notification.objects.filter(game=game, user=bob, kind="your_move").count(),
        ),
        "unread under the bell (alice, bob)": (
            Notification.objects.filter(user=alice, read_at__isnull=True).count(),
            Notification.objects.filter(user=bob, read_at__isnull=True).count(),
        ),
        "polls (alice, bob)": tuple(dict(page.polls) for page in pages),
        "emails": mailbox.all(),
        "pushes": [(push.name, push.payload.get("title", "")) for push in service.pushes],
        "push errors": list(service.errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120, help="how long the game lasts")
    parser.add_argument("--seed", type=int, default=5, help="the deal")
    parser.add_argument("--after", type=float, default=90, help="seconds the pages stay open after the end")
    options = parser.parse_args()

    from aiosmtpd.controller import Controller

    from tests.notifications.push_service import PushService, vapid_keys

    mailbox = Mailbox()
    smtp_port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    vapid = vapid_keys()
    processes: list[subprocess.Popen[bytes]] = []
    with PushService(vapid[0]) as service, tempfile.TemporaryDirectory() as folder:
        env = configure(smtp_port, vapid, service.origin)
        setup_django()
        import redis

        redis.Redis.from_url(BROKER_URL).flushdb()
        logs = Path(folder)
        worker_args = ["worker", "--pool=threads", "--concurrency=4", "--without-gossip", "--without-mingle"]
        processes.append(start("worker", [*worker_args, "--loglevel=INFO"], " ready.", env, logs))
        processes.append(
            start("beat", ["beat", "--loglevel=INFO", "--max-interval=1"], "Sending due task", env, logs)
        )
        try:
            figures = play(options.seconds, options.seed, options.after, service, mailbox)
        finally:
            for process in processes:
                process.terminate()
                process.wait(30)
            controller.stop()
    emails, pushes = figures.pop("emails"), figures.pop("pushes")
    print(f"live game notifications ({ROOT}):")
    for label, value in figures.items():
        print(f"  {label}: {value}")
    print(f"  e-mails sent: {len(emails)}")
    for (rcpt, subject), count in sorted(Counter(emails).items()):
        print(f"    {count} x {rcpt}: {subject}")
    print(f"  pushes sent: {len(pushes)}")
    for (name, title), count in sorted(Counter(pushes).items()):
        print(f"    {count} x {name}: {title}")


if __name__ == "__main__":
    main()
