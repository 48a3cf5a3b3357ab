"""Browser tests: Playwright (sync API) driving Debian's chromium against pytest-django's live server.

Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``.
"""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


@pytest.fixture(autouse=True)
def _close_leftover_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser context a test left open: an open page keeps its live stream and
    polls going against the session's live server long after its test, answered 404 once the
    test's rows are gone, and loads the machine for the tests after it."""
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    if browser is not None:
        for context in list(browser.contexts):
            context.close()


@pytest.fixture
def artifacts() -> Path:
    """Where a browser test saves its screenshots (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
