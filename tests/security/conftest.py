"""The browser fixtures of tests/browser (Debian's chromium, never `playwright install`) for the
CSP browser test."""

from tests.browser.conftest import artifacts, browser_type_launch_args

__all__ = ["artifacts", "browser_type_launch_args"]
