"""Celery tasks: thin, they take ids and call ``notifications.services`` and ``.push``.

The top of the app: nothing in it imports this module. The services queue these tasks by the
names ``notifications.queue`` states (``SEND_EMAIL``, ``SEND_PUSH``), which they are registered
under here.
"""

import logging
import smtplib

from celery import shared_task
from django.db import OperationalError

from . import push, queue, services

logger = logging.getLogger(__name__)


@shared_task(bind=True, name=queue.SEND_EMAIL, ignore_result=True, max_retries=5, default_retry_delay=30)
def send_notification_email(self, notification_id: int) -> None:  # type: ignore[no-untyped-def]
    """Send one notification's email if it is still due. Retrying is always safe: an error of
    the mail server means it took nothing (the claim was given back), and an email claimed
    or sent already is never sent again (``services.email_notification``)."""
    try:
        services.email_notification(notification_id=notification_id)
    except services.EarlierEmailBeingSent as error:
        # Another task is sending this player's e-mail written before: this one goes after it.
        if self.request.is_eager:
            # Run in the caller's process (no worker: the tests, CELERY_TASK_ALWAYS_EAGER), where
            # a retry would raise into the request that queued it: the e-mail stays pending and
            # the catch-up sweep (``services.send_pending_emails``) sends it after that one.
            logger.info("e-mail of notification %s left to the sweep: %s", notification_id, error)
            return
        raise self.retry(exc=error, countdown=2) from error
    except (smtplib.SMTPException, OSError, OperationalError) as error:
        raise self.retry(exc=error) from error


@shared_task(bind=True, name=queue.SEND_PUSH, ignore_result=True, max_retries=5, default_retry_delay=30)
def send_push(  # type: ignore[no-untyped-def]
    self, notification_id: int, subscription_id: int | None = None, written_at: str | None = None
) -> None:
    """Push one notification, if it is still due, to each browser its user has subscribed when
    this runs (``push.deliver_to_browsers``), or to one (``subscription_id``). A browser whose
    push service cannot take it now (no answer, 429, 5xx) gets a task of its own, retried; the
    whole task is retried while the database is away."""
    try:
        if subscription_id is not None:
            push.deliver(
                notification_id=notification_id, subscription_id=subscription_id, written_at=written_at
            )
            return
        later = push.deliver_to_browsers(notification_id=notification_id, written_at=written_at)
    except (push.PushServiceUnavailable, OperationalError) as error:
        raise self.retry(exc=error) from error
    for browser in later:
        send_push.apply_async((notification_id, browser, written_at), countdown=self.default_retry_delay)


@shared_task(ignore_result=True)
def send_digests() -> None:
    services.send_digests()


@shared_task(ignore_result=True)
def send_pending_emails() -> None:
    """Beat's catch-up for notification emails whose task was never queued (broker down)."""
    services.send_pending_emails()
