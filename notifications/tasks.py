"""Celery tasks: thin, they take ids and call ``notifications.services``."""

import smtplib

from celery import shared_task
from django.db import OperationalError

from . import push, services


@shared_task(bind=True, ignore_result=True, max_retries=5, default_retry_delay=30)
def send_notification_email(self, notification_id: int) -> None:  # type: ignore[no-untyped-def]
    """Send one notification's email if it is still due. Retrying is always safe: an error of
    the mail server means it took nothing (the claim was given back), and an email claimed
    or sent already is never sent again (``services.email_notification``)."""
    try:
        services.email_notification(notification_id=notification_id)
    except (smtplib.SMTPException, OSError, OperationalError) as error:
        raise self.retry(exc=error) from error


@shared_task(bind=True, ignore_result=True, max_retries=5, default_retry_delay=30)
def send_push(self, notification_id: int, subscription_id: int, written_at: str | None = None) -> None:  # type: ignore[no-untyped-def]
    """Push one notification to one browser if it is still due (``push.deliver``), retried
    while the push service cannot take it (no answer, 429, 5xx) or the database is away."""
    try:
        push.deliver(notification_id=notification_id, subscription_id=subscription_id, written_at=written_at)
    except (push.PushServiceUnavailable, OperationalError) as error:
        raise self.retry(exc=error) from error


@shared_task(ignore_result=True)
def send_digests() -> None:
    services.send_digests()


@shared_task(ignore_result=True)
def send_pending_emails() -> None:
    """Beat's catch-up for notification emails whose task was never queued (broker down)."""
    services.send_pending_emails()
