"""E-mails in the order things happened (issue 29): «Ваш ход в игре 20» arrived before «Игра 20
началась». One change (the game's start) writes both; their tasks are due at the same moment and
a worker runs them in any order. Whichever runs first, the mail server gets the start first.

Delivered to a real SMTP server on localhost (aiosmtpd); the tasks are run by hand, in the
order that went wrong.
"""

import pytest
from django.utils import timezone

from notifications import queue
from notifications import services as notifications
from notifications.models import Kind, Notification
from tests.factories import LONGER_DEAL, started_game

from .conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The e-mail tasks the services queue, held back (the test runs them)."""
    tasks: list[int] = []
    monkeypatch.setattr(queue, "email_after_commit", tasks.append)
    return tasks


def subjects(smtp: Mailbox, address: str) -> list[str]:
    return [str(message["Subject"]).strip() for message in smtp.to(address)]


def test_the_start_goes_before_the_first_your_move_whichever_task_runs_first(
    smtp: Mailbox, held: list[int]
) -> None:
    game, (first, _second) = started_game(deal=LONGER_DEAL)
    started = Notification.objects.get(user=first, kind=Kind.GAME_STARTED)
    your_move = Notification.objects.get(user=first, kind=Kind.YOUR_MOVE)
    assert {started.pk, your_move.pk} <= set(held)
    assert started.created_at <= your_move.created_at  # written, and dated, in that order

    assert notifications.email_notification(notification_id=your_move.pk)  # its task runs first
    assert subjects(smtp, first.email) == [f"Game {game.pk} has started", f"Your move in game {game.pk}"]
    # The start's own task then finds it sent: nothing twice.
    assert not notifications.email_notification(notification_id=started.pk)
    assert len(smtp.to(first.email)) == 2


def test_in_russian_too_and_an_email_being_sent_makes_the_later_one_wait(
    smtp: Mailbox, held: list[int]
) -> None:
    game, (first, _second) = started_game(deal=LONGER_DEAL)
    first.language = "ru"
    first.save(update_fields=["language"])
    started = Notification.objects.get(user=first, kind=Kind.GAME_STARTED)
    your_move = Notification.objects.get(user=first, kind=Kind.YOUR_MOVE)
    Notification.objects.filter(pk=started.pk).update(email_claimed_at=timezone.now())  # at the server
    with pytest.raises(notifications.EarlierEmailBeingSent):
        notifications.email_notification(notification_id=your_move.pk)
    assert smtp.to(first.email) == []
    Notification.objects.filter(pk=started.pk).update(email_claimed_at=None)
    notifications.email_notification(notification_id=your_move.pk)
    assert subjects(smtp, first.email) == [f"Игра {game.pk} началась", f"Ваш ход в игре {game.pk}"]


def test_run_in_the_callers_process_a_later_email_waits_for_the_sweep_not_a_retry(
    smtp: Mailbox, held: list[int]
) -> None:
    """Without a worker (``CELERY_TASK_ALWAYS_EAGER``) the task runs inside the request that
    queued it: a retry would raise there (a 500). It leaves the e-mail pending instead, and the
    catch-up sweep sends it once the earlier one is out."""
    from datetime import timedelta

    from django.test import override_settings

    from notifications.tasks import send_notification_email

    game, (first, _second) = started_game(deal=LONGER_DEAL)
    started = Notification.objects.get(user=first, kind=Kind.GAME_STARTED)
    your_move = Notification.objects.get(user=first, kind=Kind.YOUR_MOVE)
    Notification.objects.filter(pk=started.pk).update(email_claimed_at=timezone.now())  # at the server
    send_notification_email.apply(args=(your_move.pk,))  # eager, as the tests' settings have it
    your_move.refresh_from_db()
    assert your_move.email_pending and your_move.emailed_at is None and smtp.to(first.email) == []
    # The earlier one's sender finished; later, the sweep finds this one still due.
    Notification.objects.filter(pk=started.pk).update(
        email_claimed_at=None, email_pending=False, emailed_at=timezone.now()
    )
    Notification.objects.filter(pk=your_move.pk).update(created_at=timezone.now() - timedelta(minutes=30))
    with override_settings(NOTIFICATION_EMAIL_GRACE_SECONDS=0):
        assert notifications.send_pending_emails() >= 1  # this one, and the other player's
    assert subjects(smtp, first.email) == [f"Your move in game {game.pk}"]
