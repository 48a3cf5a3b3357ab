"""Celery tasks: thin, they take ids, load rows and call services."""

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def game_changed(game_id: int, version: int) -> None:
    """Runs after every committed change of a game.

    The hook for turn notifications and deadlines (issue 4); for now it only
    records which seats the game waits for (never any card).
    """
    from .models import Seat

    waiting = list(
        Seat.objects.filter(game_id=game_id, awaiting_move=True).values_list("position", flat=True)
    )
    logger.info("game %s at version %s waits for seats %s", game_id, version, waiting)
