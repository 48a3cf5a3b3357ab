"""The live events' fan-out without Redis: a folder of Unix datagram sockets, one per web process.

``python3 dev.py serve`` runs on a machine with nothing but Python: the Celery broker is a folder
(kombu's ``filesystem://``), and so is this. Each web process that holds live streams binds one
datagram socket in ``LIVE_SOCKET_DIR`` (by default ``live/`` beside the broker's folders, only
when ``LIVE_REDIS_URL`` is not set), named by its process id; whoever sends an event (a web
process, the Celery worker, beat, a management command) writes one datagram to every socket in
the folder. The message is the one :mod:`durak_site.live` publishes on Redis, and the receiving
process hands it to :func:`durak_site.live.deliver` as its Redis subscription would: a computer's
move or a timeout reaches an open page at once, without the 2-second poll.

- **No server, no broker.** A datagram is delivered whole or not at all, by the kernel, to a
  process that reads it on its event loop (``loop.add_reader``): no thread, no connection kept.
- **A full inbox waits, briefly.** Linux queues only ``net.unix.max_dgram_qlen`` datagrams (10
  by default) per socket; a sender that finds one full waits up to :data:`SEND_TIMEOUT_SECONDS`
  for the web process to read, then drops that event (logged; the page catches up on its next
  stream-open or change).
- **A dead process's socket is swept by its senders.** A process that was killed leaves its file;
  a datagram to it is refused (``ECONNREFUSED``: nobody holds that name), and the sender removes
  it. A process that stops normally removes its own.
- **Only the site's user may write.** A socket file takes the process's umask like any file; to
  write to it needs write permission on it.
- **Where it cannot work** (no ``AF_UNIX`` on this system, a path longer than the ~107 bytes a
  socket's name may have) the web process refuses its streams (503) and logs why, so the pages
  poll every ``GAME_POLL_SECONDS``, as they did before there was this fan-out.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

logger = logging.getLogger(__name__)

#: How a socket's file name ends (the rest is its process id).
SUFFIX = ".sock"
#: How long a sender waits for a full inbox before it drops the event.
SEND_TIMEOUT_SECONDS = 0.25
#: The most a receiving process reads in one go before the event loop runs something else.
READ_BATCH = 256
#: More than any message of :mod:`durak_site.live` (a revocation naming many streams included).
MAX_MESSAGE_BYTES = 65_536


def folder() -> Path | None:
    """Where the sockets are, or None: this fan-out is off (Redis carries the events, or nothing
    does)."""
    if settings.LIVE_REDIS_URL or not settings.LIVE_SOCKET_DIR or not hasattr(socket, "AF_UNIX"):
        return None
    return Path(settings.LIVE_SOCKET_DIR)


class _Sender:
    """The process's one unbound datagram socket for writing to the others' (made on first use)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._pid = 0

    def _get(self) -> socket.socket:
        with self._lock:
            if self._socket is None or self._pid != os.getpid():  # a forked child makes its own
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.settimeout(SEND_TIMEOUT_SECONDS)
                self._pid = os.getpid()
            return self._socket

    def send(self, message: bytes, *, skip: str = "") -> int:
        """Write ``message`` to every socket in the folder but ``skip``; how many took it."""
        where = folder()
        if where is None:
            return 0
        try:
            entries = [entry.path for entry in os.scandir(where) if entry.name.endswith(SUFFIX)]
        except FileNotFoundError:
            return 0  # no web process has bound one yet
        sender = self._get()
        taken = 0
        for path in entries:
            if path == skip:
                continue
            try:
                sender.sendto(message, path)
                taken += 1
            except ConnectionRefusedError:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)  # its process is gone
            except FileNotFoundError:
                pass  # it stopped meanwhile
            except TimeoutError:
                logger.warning("live event dropped: the web process of %s reads too slowly", path)
            except OSError as error:
                logger.warning("live event not sent to %s: %s", path, error)
        return taken


_sender = _Sender()


class Inbox:
    """This web process's socket in the folder, read on its event loop."""

    def __init__(self) -> None:
        self._socket: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.path = ""

    def open(self, deliver: Callable[[bytes], None]) -> bool:
        """Bind the process's socket (once per event loop) and hand every message it receives to
        ``deliver``; whether it listens. Called on the event loop."""
        loop = asyncio.get_running_loop()
        if self._socket is not None and self._loop is loop:
            return True
        self.close()
        where = folder()
        if where is None:
            return False
        path = str(where / f"{os.getpid()}{SUFFIX}")
        receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            where.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)  # a killed process of the same id left it
            receiver.bind(path)
            receiver.setblocking(False)
        except OSError as error:
            receiver.close()
            logger.warning(
                "live stream: cannot listen on %s (%s); pages poll instead (set LIVE_SOCKET_DIR to a shorter path)",
                path,
                error,
            )
            return False
        self._socket, self._loop, self.path = receiver, loop, path
        loop.add_reader(receiver.fileno(), self._read, receiver, deliver)
        logger.info("live stream: listening on %s", path)
        return True

    def _read(self, receiver: socket.socket, deliver: Callable[[bytes], None]) -> None:
        for _ in range(READ_BATCH):
            try:
                message = receiver.recv(MAX_MESSAGE_BYTES)
            except (BlockingIOError, InterruptedError):
                return  # read them all
            except OSError as error:
                logger.warning("live stream: reading %s failed: %s", self.path, error)
                return
            deliver(message)

    def close(self) -> None:
        """Stop listening and remove the socket's file (at exit, or for another event loop)."""
        receiver, self._socket = self._socket, None
        if receiver is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(Exception):
                self._loop.remove_reader(receiver.fileno())
        receiver.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        self.path = ""


inbox = Inbox()
atexit.register(inbox.close)


def publish(message: str) -> int:
    """Send one of :mod:`durak_site.live`'s messages to every other process's socket; how many
    took it. Never raises for a socket that is gone or full (logged)."""
    return _sender.send(message.encode(), skip=inbox.path)
