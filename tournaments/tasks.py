"""Celery tasks: thin, they take ids and call the services.

``sweep_tournaments`` runs on beat; ``advance_tournament`` is queued by name after the commit of
a tournament game's end (``tournaments.services.game_finished``).
"""

from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(ignore_result=True)
def sweep_tournaments() -> None:
    """Every ``TOURNAMENT_SWEEP_SECONDS``: start, open the next round of, or finish every
    tournament that is due, and tell registration news (``services.sweep``)."""
    services.sweep()


@shared_task(bind=True, ignore_result=True, max_retries=3, default_retry_delay=1)
def advance_tournament(self, tournament_id: int) -> None:  # type: ignore[no-untyped-def]
    """A game of the tournament has ended: its next step, if due (waits for another process
    doing the same, then finds nothing to do)."""
    try:
        services.advance(tournament_id=tournament_id)
    except OperationalError as error:
        raise self.retry(exc=error) from error
