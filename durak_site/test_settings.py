"""Settings for the test suite: the real settings, pointed at PostgreSQL.

Tests never fall back to SQLite: ``DATABASE_URL`` defaults to a local
PostgreSQL, and ``tests/conftest.py`` fails the run if it cannot be reached.
"""

import os
import uuid

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak")
os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "x" * 40)
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
os.environ.setdefault("BOT_MOVE_DELAY_SECONDS", "0")
os.environ.setdefault("BOT_SEARCH_SECONDS", "0.02")
# Emails and pushes are decided at once (tests/notifications/test_coalesce.py sets a window).
os.environ.setdefault("NOTIFY_COALESCE_SECONDS", "0")
# Production confirms email addresses before the first log-in; most tests sign up and play at
# once. tests/security/test_production_settings.py checks the production default and the flow.
os.environ.setdefault("ACCOUNT_EMAIL_VERIFICATION", "optional")
# Each test process (an xdist worker, or a run without xdist) keeps its Redis keys and live channel
# apart from any other on the same Redis; the processes a test starts inherit its namespace. An
# xdist worker inherits its controller's environment, so a namespace not of this worker is replaced
# (all workers once shared the controller's: one worker's site was counted among another's).
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
_INHERITED = os.environ.get("REDIS_NAMESPACE", "")
os.environ["REDIS_NAMESPACE"] = (
    _INHERITED
    if _INHERITED and (_WORKER == "main" or _INHERITED.startswith(f"test-{_WORKER}-"))
    else f"test-{_WORKER}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
)

from .settings import *  # noqa: E402, F403
from .settings import BASE_DIR  # noqa: E402

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_EAGER_PROPAGATES = True
STATIC_ROOT = BASE_DIR / "staticfiles"
# The tests' own process keeps its events to itself (never a `dev.py serve` of this checkout's
# .celery/live); the processes a test starts have their own folder if they need one.
LIVE_SOCKET_DIR = ""
