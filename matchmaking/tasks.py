"""Celery tasks: thin callers of ``matchmaking.services``."""

from celery import shared_task
from django.db import OperationalError

from .services import queue_sweep


@shared_task(bind=True, ignore_result=True, max_retries=3, default_retry_delay=1)
def sweep_queue(self) -> None:  # type: ignore[no-untyped-def]
    """Run by beat every ``MATCHMAKING_SWEEP_SECONDS``, and at each entry's computer fill: pair
    every bucket of the play-now queue (``services.queue_sweep``)."""
    try:
        queue_sweep()
    except OperationalError as error:
        raise self.retry(exc=error) from error
