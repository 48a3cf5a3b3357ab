"""Browser tests: Playwright (sync API) driving Debian's chromium against pytest-django's live server.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``.
"""

import os
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread

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
    """The requests the live server is answering now, live streams aside (they hold no database
    connection). Only the live server's: its application is wrapped (``_CountedServer``), so the
    test client's and schemathesis's calls into Django in this process, which fire the same
    request signals and do not always close their responses, are not counted."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.changed = threading.Condition()

    def enter(self, path: str) -> None:
        with self.changed:
            self.paths.append(path)

    def leave(self, path: str) -> None:
        with self.changed:
            self.paths.remove(path)
            self.changed.notify_all()

    def wait_idle(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.paths:
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(
                        f"the live server was still answering {sorted(self.paths)} "
                        f"{timeout:.0f} s after the test closed its browser contexts",
                        pytrace=False,
                    )
                self.changed.wait(left)


ANSWERING = _Answering()


class _Counted:
    """A WSGI response that tells ``ANSWERING`` when the server has closed it (wsgiref closes
    every response an application returned, whether sending it worked or not)."""

    def __init__(self, result: Iterable[bytes], path: str) -> None:
        self.result = result
        self.path: str | None = path

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.result)

    def close(self) -> None:
        try:
            close = getattr(self.result, "close", None)
            if close is not None:
                close()
        finally:
            if self.path is not None:
                ANSWERING.leave(self.path)
                self.path = None


class _CountedServer(ThreadedWSGIServer):
    """The live server's WSGI server, its application counted in ``ANSWERING``."""

    def set_app(self, application: Any) -> None:
        def counted(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
            path = str(environ.get("PATH_INFO", ""))
            if path.startswith("/live/"):
                result: Iterable[bytes] = application(environ, start_response)
                return result
            ANSWERING.enter(path)
            try:
                result = application(environ, start_response)
            except BaseException:
                ANSWERING.leave(path)
                raise
            return _Counted(result, path)

        super().set_app(counted)


# pytest-django's live server is Django's LiveServerThread, which builds its server_class.
LiveServerThread.server_class = _CountedServer


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
