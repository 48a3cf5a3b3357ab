"""No deadlock between a move and any task, with a slow mail server (issue 17).

A move holds its game row from its first statement to its commit and writes the seats, then the
notifications (docs/locking.md). The "your move" e-mail task used to lock the player's seat and
the notification across the whole SMTP conversation, then update the notification twice (a
savepoint), so PostgreSQL checked its foreign key to the game at the commit
(``SELECT 1 FROM games_game ... FOR KEY SHARE``) while the move, holding the game, waited for
the seat: "deadlock detected", a 503 for the move or an e-mail sent, rolled back and sent again.
The time-warning sweep closed the same cycle without any mail (seats locked, then a
notification inserted, whose foreign-key check waits for the game), and the digest held its
preferences row while it talked to the mail server.

Real parts: an aiosmtpd server that holds its answer to DATA (for seconds, or until the test
releases it), a real Celery worker and beat delivering the e-mails to it, moves through
``games.services.make_move`` in threads of the test process, each thread with a PostgreSQL
connection of its own. The interleavings that deadlocked are provoked deterministically: the test
waits until the message is at the server before it moves, and reads ``pg_stat_activity`` to see
whether a move waits for a lock and what holds it.

The long run makes ``DEADLOCK_RUN_MOVES`` moves (300 in the suite; 2,000 by hand:
``DEADLOCK_RUN_MOVES=2000 pytest tests/notifications/test_no_deadlock.py -k many -s``) and prints
its figures.
"""

import asyncio
import functools
import itertools
import os
import random
import smtplib
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games import services
from games.exceptions import TimeExpired
from games.models import Game, Seat
from notifications import services as notification_services
from notifications.models import Kind, Notification, Preferences
from tests.celery_processes import CeleryEnv, celery_env, wait_until
from tests.factories import LONGER_DEAL, UserFactory, started_game

__all__ = ["celery_env"]  # the fixture, imported for the tests below

#: Three players: after player 0 leads 6S, players 1 (to beat it) and 2 (to throw in) are waited for;
#: when player 2 passes, player 1 is still waited for.
THREE_DEAL: dict[str, Any] = {
    "hands": [["6S", "7D", "QC"], ["8S", "9D", "6C"], ["6D", "KS", "10S"]],
    "stock": ["AH", "9H"],
    "first_attacker": 0,
}
RUN_MOVES = int(os.environ.get("DEADLOCK_RUN_MOVES", "300"))
RUN_SMTP_SECONDS = float(os.environ.get("DEADLOCK_RUN_SMTP_SECONDS", "0.5"))
RUN_GAMES_AT_ONCE = int(os.environ.get("DEADLOCK_RUN_GAMES", "4"))
RUN_THINK_SECONDS = float(os.environ.get("DEADLOCK_RUN_THINK_SECONDS", "0.4"))


class SlowMailServer:
    """An aiosmtpd handler that answers DATA only after ``hold_seconds`` (or at once after
    ``release()``), for the messages ``hold_only`` picks (all when None); ``refuse`` answers the
    next that many messages "451 try again later" instead of accepting them."""

    def __init__(self) -> None:
        self.hold_seconds = 0.0
        self.hold_only: Callable[[EmailMessage], bool] | None = None
        self.refuse = 0
        self.released = threading.Event()
        self.port = 0
        self._lock = threading.Lock()
        self.arrived: list[EmailMessage] = []
        self.accepted: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message: EmailMessage = message_from_bytes(envelope.original_content, policy=policy.default)
        with self._lock:
            self.arrived.append(message)
            if self.refuse:
                self.refuse -= 1
                return "451 4.3.0 Try again later"
        if self.hold_only is None or self.hold_only(message):
            loop = asyncio.get_running_loop()
            until = loop.time() + self.hold_seconds
            while loop.time() < until and not self.released.is_set():
                await asyncio.sleep(0.02)
        with self._lock:
            self.accepted.append(message)
        return "250 Message accepted for delivery"

    def release(self) -> None:
        self.released.set()

    def arrived_to(self, address: str, subject_part: str) -> bool:
        with self._lock:
            return any(address in str(m["To"]) and subject_part in str(m["Subject"]) for m in self.arrived)

    def accepted_messages(self) -> list[EmailMessage]:
        with self._lock:
            return list(self.accepted)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def slow_smtp(settings: Any) -> Iterator[SlowMailServer]:
    server = SlowMailServer()
    server.port = _free_port()
    controller = Controller(server, hostname="127.0.0.1", port=server.port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = server.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.SITE_URL = "https://durak.example"
    try:
        yield server
    finally:
        server.release()
        controller.stop()


def start_mail_worker(celery_env: CeleryEnv, server: SlowMailServer, *, concurrency: int = 4) -> None:
    """A worker that sends the e-mails to ``server``, and beat, whose catch-up sweep sends every
    e-mail still pending 3 s after it was written (every second)."""
    celery_env.env.update(
        DJANGO_SETTINGS_MODULE="tests.notifications.smtp_worker_settings",
        TEST_SMTP_PORT=str(server.port),
        NOTIFICATION_EMAIL_SWEEP_SECONDS="1",
        NOTIFICATION_EMAIL_GRACE_SECONDS="3",
        # The players here open the game before each move: e-mails are sent all the same, to
        # keep the mail server busy (quiet while watching: tests/notifications/test_coalesce.py).
        NOTIFY_QUIET_MINUTES="0",
    )
    celery_env.start_worker(concurrency=concurrency)
    celery_env.start_beat()


class InThread:
    """``work()`` in a thread with a database connection of its own; its outcome and the pid of
    its PostgreSQL backend."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.pid = 0
        self.result: Any = None
        self.error: BaseException | None = None
        self._started = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self.thread.start()
        assert self._started.wait(30), "the thread did not start"

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self._started.set()
            self.result = work()
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            self._started.set()
            connection.close()

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def join(self, timeout: float = 120) -> None:
        self.thread.join(timeout)
        assert self.done, f"the thread is still running after {timeout}s"


def lock_wait(pid: int) -> str | None:
    """None unless backend ``pid`` waits for a lock; else who holds it (state and query)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT wait_event_type, pg_blocking_pids(pid) FROM pg_stat_activity WHERE pid = %s", [pid]
        )
        row = cursor.fetchone()
        if row is None or row[0] != "Lock":
            return None
        cursor.execute(
            "SELECT pid, state, left(query, 160) FROM pg_stat_activity WHERE pid = ANY(%s)", [row[1]]
        )
        holders = [f"backend {p} ({state}) last ran: {query}" for p, state, query in cursor.fetchall()]
    return "; ".join(holders) or "a lock"


def watch(run: InThread, *, waiting_seconds: float = 5, timeout: float = 60) -> str | None:
    """Wait for ``run`` to end. If it waits for a lock for ``waiting_seconds`` on end first,
    return what holds that lock (a move waits milliseconds for a short transaction; seconds
    mean a lock held across something slow)."""
    since: float | None = None
    deadline = time.monotonic() + timeout
    while not run.done:
        assert time.monotonic() < deadline, f"still running after {timeout}s"
        holders = lock_wait(run.pid)
        if holders is None:
            since = None
        elif since is None:
            since = time.monotonic()
        elif time.monotonic() - since >= waiting_seconds:
            return holders
        time.sleep(0.05)
    return None


def attack(game: Game, users: list[User]) -> Game:
    """Player 0 leads 6S (THREE_DEAL, LONGER_DEAL)."""
    game.refresh_from_db()
    return services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )


def test_a_move_while_a_your_move_email_is_at_a_slow_mail_server_waits_for_nothing_and_the_email_goes_once(
    celery_env: CeleryEnv, slow_smtp: SlowMailServer
) -> None:
    server = slow_smtp
    server.hold_seconds = 120  # until released
    start_mail_worker(celery_env, server)
    game, users = started_game(players=3, deal=THREE_DEAL)
    subject_move, subject_started = f"Your move in game {game.pk}", f"Game {game.pk} has started"
    server.hold_only = lambda m: users[1].email in str(m["To"]) and subject_move in str(m["Subject"])
    wait_until(  # "game started" for three, "your move" for player 0
        lambda: Notification.objects.filter(game=game, emailed_at__isnull=False).count() == 4,
        180,  # a loaded machine: the worker and the slow server take their time
        "the first emails",
    )
    # Player 1 must defend: a "your move" e-mail; player 2 may throw in, which the game does not
    # wait on (issue 29): no "your move" for that.
    attack(game, users)
    wait_until(lambda: server.arrived_to(users[1].email, subject_move), 60, "player 1's email at the server")

    # Player 1's e-mail is at the mail server, which does not answer: player 2 passes (the move
    # locks the game, then writes every seat, player 1's too).
    version = Game.objects.get(pk=game.pk).version
    move = InThread(
        lambda: services.make_move(
            user=users[2], game_id=game.pk, action={"type": "pass"}, expected_version=version
        )
    )
    held_by = watch(move)
    server.release()
    move.join()
    wait_until(
        lambda: (
            not Notification.objects.filter(game=game, email_pending=True).exists()
            and len(server.accepted_messages()) == len(server.arrived)
        ),
        90,
        "every email settled",
    )
    time.sleep(3)  # one more catch-up sweep: an email wrongly left to be sent again would go now

    problems = []
    if held_by:
        problems.append(f"the move waited for a lock held while an e-mail was at the mail server: {held_by}")
    if move.error is not None:
        problems.append(f"the move failed: {move.error!r}")
    expected = {(u.email, subject_started) for u in users} | {(u.email, subject_move) for u in users[:2]}
    delivered = Counter((str(m["To"]), str(m["Subject"])) for m in server.accepted_messages())
    if set(delivered) != expected or set(delivered.values()) != {1}:
        problems.append(f"delivered {dict(delivered)}, expected each of {sorted(expected)} once")
    recorded = {
        (n.user.email, subject_move if n.kind == Kind.YOUR_MOVE else subject_started)
        for n in Notification.objects.filter(game=game, emailed_at__isnull=False).select_related("user")
    }
    if recorded != expected:
        problems.append(f"recorded as sent: {sorted(recorded)}, expected {sorted(expected)}")
    if "deadlock detected" in celery_env.log("worker"):
        problems.append("the worker's log has a deadlock")
    assert not problems, "\n".join(problems)


@pytest.mark.django_db(transaction=True)
def test_the_time_warning_sweep_never_waits_for_a_game_a_move_holds() -> None:
    game, users = started_game(players=3, deal=THREE_DEAL, move_time=timedelta(hours=1))
    attack(game, users)
    seats = {seat.position: seat for seat in Seat.objects.filter(game=game)}
    Seat.objects.filter(pk=seats[1].pk).update(warn_at=timezone.now() - timedelta(seconds=1))

    # A transaction of its own holds seat 0 for a moment, so the move below stops at its seats
    # with the game row locked, where a move spends its time between its first and last write.
    held, release = threading.Event(), threading.Event()

    def hold_seat() -> None:
        with transaction.atomic():
            Seat.objects.select_for_update().get(pk=seats[0].pk)
            held.set()
            release.wait(60)

    holder = InThread(hold_seat)
    assert held.wait(30)
    version = Game.objects.get(pk=game.pk).version
    move = InThread(
        lambda: services.make_move(
            user=users[2], game_id=game.pk, action={"type": "pass"}, expected_version=version
        )
    )
    wait_until(lambda: lock_wait(move.pid), 30, "the move waiting at the seats")
    sweep = InThread(notification_services.send_time_warnings)
    wait_until(lambda: sweep.done or lock_wait(sweep.pid), 30, "the sweep done or waiting")
    release.set()
    for run in (holder, move, sweep):
        run.join()
    assert move.error is None, f"the move failed: {move.error!r}"
    assert sweep.error is None, f"the sweep failed: {sweep.error!r}"
    assert (
        sweep.result == 0
    )  # the game was held: left to the next sweep (the move restarted the clocks anyway)

    # With no move holding the game, the next sweep writes the warning.
    Seat.objects.filter(pk=seats[1].pk).update(warn_at=timezone.now() - timedelta(seconds=1))
    assert notification_services.send_time_warnings() == 1
    assert Notification.objects.filter(game=game, user=users[1], kind=Kind.TIME_LOW).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_daily_digest_holds_no_lock_while_the_mail_server_is_slow_and_goes_once(
    slow_smtp: SlowMailServer, settings: Any
) -> None:
    server = slow_smtp
    settings.DIGEST_HOUR = 0
    reader = UserFactory()
    Preferences.objects.create(user=reader, daily_digest=True)
    started_game(deal=LONGER_DEAL, creator=reader)  # the reader is to move
    wait_until(lambda: len(server.accepted_messages()) == 2, 30, "the 'game started' emails")
    server.hold_seconds = 120
    server.hold_only = lambda m: "waiting for your move" in str(m["Subject"])

    digest = InThread(notification_services.send_digests)
    wait_until(
        lambda: server.arrived_to(reader.email, "waiting for your move"), 30, "the digest at the server"
    )
    problems = []
    try:  # the settings page saves this row: it must not wait for the mail server
        with transaction.atomic():
            Preferences.objects.select_for_update(nowait=True).get(user=reader)
    except Exception as error:
        problems.append(f"the preferences row is locked while the digest is at the mail server: {error!r}")
    second = InThread(notification_services.send_digests)
    second.join(30)
    server.release()
    digest.join()
    assert digest.error is None and second.error is None, (digest.error, second.error)
    if (digest.result, second.result) != (1, 0):
        problems.append(f"the two runs sent {digest.result} and {second.result} digests, expected 1 and 0")
    if notification_services.send_digests() != 0:
        problems.append("a third run sent another digest the same day")
    digests = [m for m in server.accepted_messages() if "waiting for your move" in str(m["Subject"])]
    if len(digests) != 1:
        problems.append(f"{len(digests)} digests reached the mail server")
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_a_refused_email_is_given_back_and_sent_once_by_the_next_try(
    slow_smtp: SlowMailServer, settings: Any
) -> None:
    """The mail server refuses (451): nothing was sent, so the claim is given back and the task's
    retry (or the catch-up sweep) sends it, once; a refused digest goes with the next run.
    Not a transactional test: no task is queued, the test sends as the task would."""
    server = slow_smtp
    game, users = started_game(deal=LONGER_DEAL)
    started = Notification.objects.get(game=game, user=users[0], kind=Kind.GAME_STARTED)
    server.refuse = 1
    with pytest.raises(smtplib.SMTPDataError):
        notification_services.email_notification(notification_id=started.pk)
    started.refresh_from_db()
    assert started.email_pending and started.email_claimed_at is None and started.emailed_at is None
    assert notification_services.email_notification(notification_id=started.pk) is True
    assert notification_services.email_notification(notification_id=started.pk) is False
    started.refresh_from_db()
    assert started.emailed_at is not None and not started.email_pending
    assert [str(m["To"]) for m in server.accepted_messages()] == [users[0].email]
    assert server.accepted_messages()[0]["Message-ID"] == f"<notification-{started.pk}@durak.example>"

    settings.DIGEST_HOUR = 0
    Preferences.objects.create(user=users[0], daily_digest=True)
    server.refuse = 1
    assert notification_services.send_digests() == 0  # refused: left to the next run
    assert notification_services.send_digests() == 1
    assert notification_services.send_digests() == 0  # once a day
    assert sum("waiting for your move" in str(m["Subject"]) for m in server.accepted_messages()) == 1


def test_many_moves_with_a_worker_mailing_through_a_slow_server_no_deadlock_each_email_once(
    celery_env: CeleryEnv, slow_smtp: SlowMailServer
) -> None:
    """``RUN_MOVES`` moves in ``RUN_GAMES_AT_ONCE`` games at a time, each player opening the game
    (``seat_seen``) before moving, so every turn brings a "your move" e-mail, each held
    ``RUN_SMTP_SECONDS`` at the server while the game goes on; meanwhile turns are made to look
    48 minutes old, so beat's sweep writes time warnings (and e-mails them) in games being played."""
    server = slow_smtp
    server.hold_seconds = RUN_SMTP_SECONDS
    start_mail_worker(celery_env, server, concurrency=8)
    made = itertools.count()
    moves_made = 0
    failures: list[str] = []
    expired = 0
    creating = threading.Lock()
    finished = threading.Event()
    started_at = time.monotonic()

    def play(index: int) -> None:
        nonlocal moves_made, expired
        rng = random.Random(index)
        game: Game | None = None
        users: list[User] = []
        while not finished.is_set():
            if game is None or game.status != Game.Status.ACTIVE:
                with creating:
                    game, users = started_game(
                        players=rng.choice([2, 2, 3]), seed=rng.randrange(2**40), move_time=timedelta(hours=1)
                    )
            assert game.state is not None
            engine = game.engine()
            player = rng.choice(engine.waiting_for())
            try:
                seat = Seat.objects.get(game=game, position=player)
                services.seat_seen(game=game, seat=seat)  # the player opens the game, thinks, moves
                time.sleep(rng.uniform(0, RUN_THINK_SECONDS))
                services.make_move(
                    user=users[player],
                    game_id=game.pk,
                    action=rng.choice(engine.legal_json(player)),
                    expected_version=game.version,
                )
            except TimeExpired:
                expired += 1
            except Exception as error:  # a deadlock, a 503's OperationalError: counted, reported
                failures.append(f"game {game.pk}: {error!r}")
            count = next(made) + 1
            moves_made = max(moves_made, count)
            if count >= RUN_MOVES:
                finished.set()
            game.refresh_from_db()

    runs = [InThread(functools.partial(play, index)) for index in range(RUN_GAMES_AT_ONCE)]
    rng = random.Random(17)
    while not all(run.done for run in runs):
        waiting = list(
            Seat.objects.filter(awaiting_move=True, warn_at__isnull=False).values_list("pk", flat=True)
        )
        if waiting:  # a turn that has lasted 80% of the move time: the sweep warns
            try:
                Seat.objects.filter(pk=rng.choice(waiting)).update(
                    warn_at=timezone.now() - timedelta(seconds=1)
                )
            except Exception as error:  # one row, no other lock held: it can only be another's cycle
                failures.append(f"moving a warning forward: {error!r}")
        time.sleep(0.2)
        assert time.monotonic() - started_at < 1800, "the run did not end in 30 minutes"
    for run in runs:
        run.join()
        assert run.error is None, f"a player thread failed: {run.error!r}"
    play_seconds = time.monotonic() - started_at
    wait_until(
        lambda: (
            not Notification.objects.filter(email_pending=True).exists()
            and len(server.accepted_messages()) == len(server.arrived)
        ),
        600,
        "every email settled",
        interval=0.5,
    )
    time.sleep(3)  # one more catch-up sweep

    messages = server.accepted_messages()
    by_notification = Counter(str(m["Message-ID"]) for m in messages)
    recorded = {
        f"<notification-{pk}@durak.example>"
        for pk in Notification.objects.filter(emailed_at__isnull=False).values_list("pk", flat=True)
    }
    dropped = Notification.objects.filter(emailed_at=None, email_pending=False).count()
    worker_log = celery_env.log("worker")
    figures = {
        "moves": moves_made,
        "moves failed": len(failures),
        "moves too late": expired,
        "games": Game.objects.count(),
        "seconds playing": round(play_seconds),
        "emails at the server": len(messages),
        "emails recorded as sent": len(recorded),
        "notifications": Notification.objects.count(),
        "emails not sent, no longer due when their turn came": dropped,
        "time warnings": Notification.objects.filter(kind=Kind.TIME_LOW).count(),
        "emails sent twice": sum(1 for count in by_notification.values() if count > 1),
        "deadlocks in the worker's log": worker_log.count("deadlock detected"),
    }
    print("\nlong run:", figures)
    problems = [f"{len(failures)} moves failed, e.g. {failures[:3]}"] if failures else []
    if figures["emails sent twice"] or set(by_notification) != recorded:
        problems.append(
            f"messages by notification {sorted(by_notification.items())[:10]}..., recorded {sorted(recorded)[:10]}..."
        )
    if figures["deadlocks in the worker's log"]:
        problems.append("the worker's log has deadlocks")
    if Notification.objects.filter(email_claimed_at__isnull=False, emailed_at=None).exists():
        problems.append("an email claimed for sending was never recorded as sent")
    assert moves_made >= RUN_MOVES and len(messages) >= RUN_MOVES // 10  # the run did mail, a lot
    assert not problems, "\n".join(problems)
