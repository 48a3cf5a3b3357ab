"""A desktop's notification daemon for the browser tests, on a D-Bus session bus of their own.

Chromium on Linux shows a web notification by calling ``org.freedesktop.Notifications.Notify``
on the session bus (the Desktop Notifications Specification), and learns that the person
clicked it from the daemon's ``ActionInvoked`` signal with the "default" action: it then fires
the service worker's ``notificationclick`` as a real, trusted click, with the right to open or
focus a window. This daemon records what Chromium shows and sends that signal when a test
clicks, so a test exercises the same path as a person clicking the notification on a desktop.

The bus is a private ``dbus-daemon`` (Debian's package ``dbus-daemon``) with a configuration of
its own; the daemon speaks
D-Bus through jeepney (pure Python, the ``test`` extra).
"""

import itertools
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jeepney import DBusAddress, HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

DBUS_DAEMON = "dbus-daemon"
#: A session bus of its own (no system-wide session.conf needed): one socket, anyone may own names.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


@dataclass
class Shown:
    id: int
    summary: str
    body: str
    actions: list[str]


class NotificationDaemon:
    def __init__(self, address: str) -> None:
        self.address = address
        self._connection = open_dbus_connection(bus=address)
        reply = self._connection.send_and_get_reply(message_bus.RequestName(NAME))
        if reply.body[0] != 1:  # DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
            raise RuntimeError(f"could not own {NAME} on {address}: {reply.body}")
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.shown: dict[int, Shown] = {}
        self.closed: list[int] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                message = self._connection.receive()
            except (OSError, ValueError):  # the connection closed: the test is over
                return
            if message.header.message_type != MessageType.method_call:
                continue
            self._connection.send(self._answer(message))

    def _answer(self, message: Any) -> Any:
        member = message.header.fields.get(HeaderFields.member)
        if member == "GetCapabilities":
            return new_method_return(message, "as", (["actions", "body"],))
        if member == "GetServerInformation":
            return new_method_return(message, "ssss", ("durak-tests", "durak", "1.0", "1.2"))
        if member == "Notify":
            _app, replaces, _icon, summary, body, actions, _hints, _timeout = message.body
            with self._lock:
                notification_id = replaces or next(self._ids)
                self.shown[notification_id] = Shown(notification_id, summary, body, list(actions))
            return new_method_return(message, "u", (notification_id,))
        if member == "CloseNotification":
            with self._lock:
                self.shown.pop(message.body[0], None)
                self.closed.append(message.body[0])
            return new_method_return(message)
        return new_error(message, "org.freedesktop.DBus.Error.UnknownMethod")

    def wait_for(self, summary: str, timeout: float = 30) -> Shown:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for shown in self.shown.values():
                    if shown.summary == summary:
                        return shown
            time.sleep(0.05)
        raise AssertionError(
            f"no notification {summary!r} within {timeout} s; shown: {list(self.shown.values())}"
        )

    def click(self, shown: Shown) -> None:
        """What the desktop sends when the person clicks the notification itself."""
        assert "default" in shown.actions, f"Chromium offered no default action: {shown.actions}"
        signal = new_signal(DBusAddress(PATH, interface=NAME), "ActionInvoked", "us", (shown.id, "default"))
        self._connection.send(signal)

    def close(self) -> None:
        self._connection.close()


@contextmanager
def session_bus() -> Iterator[NotificationDaemon]:
    """A private session bus with the notification daemon on it."""
    if shutil.which(DBUS_DAEMON) is None:
        raise AssertionError(
            "The push notification browser test needs dbus-daemon (a desktop's notifications reach "
            "Chromium over D-Bus): apt-get install -y dbus-daemon"
        )
    folder = Path(tempfile.mkdtemp(prefix="durak-dbus-"))
    config = folder / "bus.conf"
    config.write_text(BUS_CONFIG.format(socket=folder / "bus"))
    bus = subprocess.Popen(
        [DBUS_DAEMON, f"--config-file={config}", "--nofork", "--nopidfile", "--print-address=1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bus.stdout is not None
        address = bus.stdout.readline().strip()
        daemon = NotificationDaemon(address)
        try:
            yield daemon
        finally:
            daemon.close()
    finally:
        bus.terminate()
        bus.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
