"""Browser tests: Playwright (sync API) driving Debian's chromium against pytest-django's live server.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``.
"""

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import request_finished, request_started

# Playwright's sync API keeps an asyncio loop running in the test thread for the
# rest of the worker's session, so Django would refuse every ORM call after it
# (SynchronousOnlyOperation), in this test and in any test that runs after it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"The browser tests need Debian's chromium at {CHROMIUM}: apt-get install -y chromium "
            "(bash .ci/run installs it). Do not run `playwright install`.",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


class _Answering:
    """The requests the live server (threads of this process) is answering now, live streams
    aside (they hold no database connection): Django's request signals, counted per thread."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()
        self.local = threading.local()

    def started(self, sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
        counted = not str((environ or {}).get("PATH_INFO", "")).startswith("/live/")
        self.local.counted = counted
        if counted:
            with self.changed:
                self.count += 1

    def finished(self, sender: Any, **kwargs: Any) -> None:
        if getattr(self.local, "counted", False):
            self.local.counted = False
            with self.changed:
                self.count -= 1
                self.changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.count > 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True


ANSWERING = _Answering()
request_started.connect(ANSWERING.started, dispatch_uid="tests.browser.answering.started")
request_finished.connect(ANSWERING.finished, dispatch_uid="tests.browser.answering.finished")


@pytest.fixture(autouse=True)
def _close_leftover_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser context a test left open: an open page keeps its live stream and
    polls going against the session's live server long after its test, answered 404 once the
    test's rows are gone, and loads the machine for the tests after it.

    Then wait for the requests the live server is still answering: the test's database is
    emptied next (``TRUNCATE``), and a poll reading its tables in a transaction at that moment
    deadlocked with it on a loaded machine, so the next test found the last one's rows. This
    fixture asks for pytest-django's database fixture first, so it is torn down before it."""
    if "live_server" in request.fixturenames:
        request.getfixturevalue("transactional_db")
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if browser is not None:
        for context in list(browser.contexts):
            context.close()
        ANSWERING.wait_idle(timeout=60)


@pytest.fixture
def artifacts() -> Path:
    """Where a browser test saves its screenshots (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
