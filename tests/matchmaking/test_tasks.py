"""The play-now sweep on Celery beat: it is scheduled, and it seats computer players once a
wait is over; each wait also queues a sweep for the moment it ends."""

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from durak_site.celery import app
from games.models import Game, Seat
from matchmaking import services, tasks
from matchmaking.models import QueueEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_beat_runs_the_sweep_every_few_seconds() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-play-now"]
    assert entry["task"] == "matchmaking.tasks.sweep_queue"
    assert entry["task"] in app.tasks
    assert entry["schedule"] == float(settings.MATCHMAKING_SWEEP_SECONDS) <= 10


def test_the_services_queue_the_sweep_by_its_name() -> None:
    """``services`` queues the task by name (the task calls the services): the name is the task's."""
    assert app.tasks[services.SWEEP_QUEUE] is tasks.sweep_queue._get_current_object()


def test_the_task_fills_with_computers_once_the_wait_is_over() -> None:
    alice = UserFactory()
    entry = services.queue_join(
        user=alice, preset="perevodnoy", num_players=2, time_control="30s", fill_after=timedelta(minutes=1)
    )
    tasks.sweep_queue.delay()
    assert not Game.objects.exists()  # the minute has not passed
    QueueEntry.objects.filter(pk=entry.pk).update(fill_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_queue.delay()
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.preset == "perevodnoy"
    assert game.move_time == timedelta(seconds=30)
    assert Seat.objects.filter(game=game, user__is_bot=True, user__bot_level="rules").count() == 1
    assert QueueEntry.objects.get(pk=entry.pk).game_id == game.pk


@pytest.mark.django_db(transaction=True)
def test_a_wait_queues_a_sweep_for_when_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    queued: list[dict[str, Any]] = []
    monkeypatch.setattr(tasks.sweep_queue, "apply_async", lambda *args, **kwargs: queued.append(kwargs))
    entry = services.queue_join(
        user=UserFactory(),
        preset="classic",
        num_players=2,
        time_control="2m",
        fill_after=timedelta(seconds=30),
    )
    assert queued == [{"eta": entry.fill_at}]
    services.queue_join(
        user=UserFactory(), preset="classic", num_players=3, time_control="2m", fill_after=None
    )
    assert len(queued) == 1  # people only: nothing to fill
