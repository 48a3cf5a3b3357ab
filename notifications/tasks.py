"""Celery tasks: thin, they take ids and call ``notifications.services``."""

import smtplib

from celery import shared_task

from . import services


@shared_task(bind=True, ignore_result=True, max_retries=5, default_retry_delay=30)
def send_notification_email(self, notification_id: int) -> None:  # type: ignore[no-untyped-def]
    try:
        services.email_notification(notification_id=notification_id)
    except (smtplib.SMTPException, OSError) as error:
        raise self.retry(exc=error) from error


@shared_task(ignore_result=True)
def send_digests() -> None:
    services.send_digests()


@shared_task(ignore_result=True)
def send_pending_emails() -> None:
    """Beat's catch-up for notification emails whose task was never queued (broker down)."""
    services.send_pending_emails()
