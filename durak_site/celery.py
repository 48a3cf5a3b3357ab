"""The Celery app: configured from Django settings (``CELERY_*``), tasks found in each app."""

import logging
import os
from collections.abc import Callable

from celery import Celery
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnavailable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


def publish_on_commit(publish: Callable[[], object], what: str) -> None:
    """After the current transaction commits, call ``publish`` (a task's ``delay`` or
    ``apply_async``). A broker that cannot be reached is logged, not raised: the change is
    committed already and the request must still succeed; beat's sweeps catch up on what was
    not queued (``games.tasks.sweep_deadlines``, ``notifications.tasks.send_pending_emails``).
    Any other error still propagates."""

    def run() -> None:
        try:
            publish()
        except BrokerUnavailable as error:
            logger.warning("broker unavailable, %s not queued (a sweep will catch up): %s", what, error)

    transaction.on_commit(run)
