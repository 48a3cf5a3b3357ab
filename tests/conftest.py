"""Shared fixtures. The suite runs against a real PostgreSQL and fails, never
skips, when none is reachable."""

from collections.abc import Iterator
from pathlib import Path
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


#: The tiers (pyproject.toml's markers), given by where a test lives and the fixtures it uses, so that
#: no test has to remember its marker. ``python3 dev.py test --fast`` leaves out all four.
TESTS = Path(__file__).resolve().parent
#: A real browser (Playwright's fixtures, or a folder of browser tests).
BROWSER_FIXTURES = {"page", "browser", "context", "new_context", "browser_context_args"}
BROWSER_FOLDERS = {"browser"}
#: A real server, Celery worker or beat as a subprocess (or a module using a real site: the embedded
#: one of dev.py serve, or the production-like one of the fault drills).
WORKER_FIXTURES = {"celery_env", "site", "start_site", "serve", "server", "served"}
WORKER_HELPERS = {"tests.embedded_processes", "tests.faults.conftest"}  # their Site classes
#: The fault drills: a process killed, a database or Redis taken away.
DRILL_FOLDERS = {"faults"}
#: Modules whose tests take long with no process of their own: whole games played through the API
#: or the pages, sweeps of every URL or admin, fuzzing, query counts at scale, hypothesis
#: playouts of the engine. Each test of them takes seconds (a module joins this list when its
#: tests take over a few seconds on two cores; ``--durations`` shows them).
SLOW_MODULES = {
    "api/test_full_games.py",
    "api/test_move_events.py",
    "api/test_schema.py",
    "api/test_team_games.py",
    "engine/test_bots.py",
    "engine/test_properties.py",
    "games/test_history_window.py",
    "games/test_join_limits.py",
    "games/test_move_queries.py",
    "games/test_query_counts_scale.py",
    "games/test_reliability.py",
    "games/test_request_budgets.py",
    "games/test_teams_and_enchanted_pages.py",
    "security/test_access.py",
    "security/test_admin_lookups.py",
    "security/test_fuzz.py",
    "stats/test_page_queries.py",
    "test_deploy_check.py",
}


def tiers(item: pytest.Item) -> set[str]:
    """The tier markers ``item`` gets."""
    try:
        relative = Path(item.path).resolve().relative_to(TESTS)
    except ValueError:
        return set()  # a doctest of a package: fast
    folders = set(relative.parts[:-1])
    fixtures = set(getattr(item, "fixturenames", ()))
    for mark in item.iter_markers("parametrize"):  # a parametrized argument (a `site` that is a
        names = mark.args[0]  # host name) is no fixture, unless it is parametrized indirectly
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        indirect = mark.kwargs.get("indirect", False)
        if indirect is not True:
            fixtures -= set(names) - set(indirect or ())
    module = getattr(item, "module", None)
    helpers = {getattr(value, "__module__", None) for value in vars(module).values()} if module else set()
    found = set()
    if folders & BROWSER_FOLDERS or fixtures & BROWSER_FIXTURES:
        found.add("browser")
    if folders & DRILL_FOLDERS:
        found.add("drill")
    if fixtures & WORKER_FIXTURES or helpers & WORKER_HELPERS:
        found.add("worker")
    if relative.as_posix() in SLOW_MODULES:
        found.add("slow")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for tier in sorted(tiers(item)):
            if not item.get_closest_marker(tier):
                item.add_marker(getattr(pytest.mark, tier))


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
