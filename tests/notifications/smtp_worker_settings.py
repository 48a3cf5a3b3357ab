"""Settings for a Celery worker (and beat) that deliver e-mail to a test's SMTP server.

``durak_site.test_settings`` keeps every e-mail in memory; a worker subprocess started by a
test that counts messages at a real SMTP server (``tests/notifications/test_no_deadlock.py``)
takes these instead: the same settings, mail over SMTP to ``127.0.0.1:$TEST_SMTP_PORT``.
"""

import os

from durak_site.test_settings import *  # noqa: F403

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = "127.0.0.1"
EMAIL_PORT = int(os.environ.get("TEST_SMTP_PORT", "25"))  # set by the test that starts the worker
EMAIL_USE_TLS = False
EMAIL_USE_SSL = False
EMAIL_HOST_USER = ""
EMAIL_HOST_PASSWORD = ""
SITE_URL = "https://durak.example"
