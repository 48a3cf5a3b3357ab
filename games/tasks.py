"""Celery tasks: thin, they take ids, load rows and call services.

The top of the app: this module imports the services, and nothing in the app imports it. The
modules beneath queue these tasks by name (``games.write.queue_bot_move``,
``games.timeouts.queue_timeout``); ``games.apps`` imports this module so that the web process
knows them too (an eager test run, a mocked ``apply_async``).
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from . import bots, hooks, services, timeouts

logger = logging.getLogger(__name__)


@shared_task(bind=True, ignore_result=True, max_retries=3, default_retry_delay=1)
def apply_timeout(self, game_id: int, version: int) -> None:  # type: ignore[no-untyped-def]
    """ETA task queued for a game's next deadline. Does nothing if the game moved on
    (another version) or the deadline has not really passed: the sweep has the last word."""
    try:
        services.game_timeout(game_id=game_id, expected_version=version)
    except OperationalError as error:
        raise self.retry(exc=error) from error


@shared_task(bind=True, ignore_result=True, max_retries=3, default_retry_delay=1)
def bot_move(self, game_id: int, version: int) -> None:  # type: ignore[no-untyped-def]
    """A computer player's move in a game still at ``version`` (``games.bots.bot_play``); a task
    for an old version does nothing."""
    try:
        bots.bot_play(game_id=game_id, version=version)
    except OperationalError as error:
        raise self.retry(exc=error) from error


#: A sweep that finds this many games or more overdue queues a helper for each such share.
SWEEP_HELPER_SHARE = 20


@shared_task(ignore_result=True)
def sweep_deadlines() -> None:
    """Run by beat every ``TIMEOUT_SWEEP_SECONDS``: re-arm the deadlines due before the next
    sweep, apply every overdue timeout (fanned out to up to ``TIMEOUT_SWEEP_HELPERS`` helper
    tasks when many are due at once), run the steps the apps above registered (``hooks.sweep``:
    notifications' time warnings), and re-queue computer players' lost moves
    (``games.bots.requeue_stalled``)."""
    # One second more than the interval: beat's ticks are not exact.
    armed = 0
    if settings.TIMEOUT_SWEEP_REARM:
        armed = timeouts.arm_upcoming(within=timedelta(seconds=settings.TIMEOUT_SWEEP_SECONDS + 1))
    helpers = min(settings.TIMEOUT_SWEEP_HELPERS, services.count_expired() // SWEEP_HELPER_SHARE)
    for _ in range(helpers):
        sweep_timeouts.apply_async(expires=settings.TIMEOUT_SWEEP_SECONDS)
    applied = services.sweep_expired()
    warned = sum(step() for step in hooks.sweep)
    bots.requeue_stalled()
    if applied or warned:
        logger.info(
            "sweep: %s timeout(s) applied (%s helper(s)), %s deadline(s) re-armed, %s warning(s) written",
            applied,
            helpers,
            armed,
            warned,
        )


@shared_task(ignore_result=True)
def sweep_timeouts() -> None:
    """A helper of a busy sweep: the same claim loop, side by side with it (each game is
    claimed by one of them: ``select_for_update(skip_locked=True)``)."""
    services.sweep_expired()
