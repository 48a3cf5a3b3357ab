"""Shared fixtures. The suite runs against a real PostgreSQL and fails, never
skips, when none is reachable."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.utils import translation
from playwright.sync_api import expect

from tests.factories import UserFactory

# Playwright's expect() gives up after 5 s by default, too soon on a loaded machine; a longer
# wait only makes a browser test that fails fail later.
expect.set_options(timeout=30_000)

POSTGRES_HELP = """
The tests need a running PostgreSQL; none answered at {where}.
Start one, for example:
  - Debian/Ubuntu:  apt-get install -y postgresql && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start
                    (local connections must be allowed for user postgres: `trust` in pg_hba.conf, or a password in DATABASE_URL)
  - Docker:         docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16
or point DATABASE_URL at one (postgres://USER:PASSWORD@HOST:PORT/NAME). `bash .ci/run` does all of this.
Error: {error}
"""


def pytest_sessionstart(session: pytest.Session) -> None:
    database = settings.DATABASES["default"]
    where = f"{database.get('HOST') or 'localhost'}:{database.get('PORT') or 5432}"
    if database["ENGINE"] != "django.db.backends.postgresql":
        pytest.exit(
            POSTGRES_HELP.format(where=where, error=f"DATABASE_URL is not PostgreSQL ({database['ENGINE']})"),
            returncode=3,
        )
    import psycopg

    try:
        psycopg.connect(
            host=database.get("HOST") or None,
            port=database.get("PORT") or None,
            user=database.get("USER") or None,
            password=database.get("PASSWORD") or None,
            dbname="postgres",
            connect_timeout=5,
        ).close()
    except psycopg.Error as error:
        pytest.exit(POSTGRES_HELP.format(where=where, error=error), returncode=3)


@pytest.fixture
def user(db: Any) -> Any:
    return UserFactory()


@pytest.fixture
def users(db: Any) -> list[Any]:
    return UserFactory.create_batch(4)


@pytest.fixture(autouse=True)
def _empty_caches() -> None:
    """Every test starts with empty caches: the rate limits kept there (allauth sends one
    confirmation mail per address in 3 minutes and silently skips the next, the chat's flood
    window, the throttles) would otherwise carry over from an earlier test in the same worker."""
    for cache in caches.all():
        cache.clear()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test starts in the default language: Django's LocaleMiddleware leaves a request's
    language active in its thread, so a Russian request would change the words of later tests."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()
