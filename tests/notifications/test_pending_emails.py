"""The catch-up sweep for notification emails whose task was never queued (the broker was
down when the change committed): ``notifications.services.send_pending_emails``.

In a non-transactional test no ``on_commit`` callback runs, so no email task is ever queued:
exactly what a broker outage leaves behind.
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import services
from notifications.models import Kind, Notification
from notifications.services import send_pending_emails
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


def age(notifications: list[Notification], by: timedelta) -> None:
    Notification.objects.filter(pk__in=[n.pk for n in notifications]).update(created_at=timezone.now() - by)


def test_pending_emails_are_sent_once_dropped_when_no_longer_due_and_given_up_after_a_day() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    written = list(Notification.objects.filter(game=game))
    assert written and all(n.email_pending and n.emailed_at is None for n in written)
    age(written, timedelta(minutes=2))
    # Player 0 moves before the sweep (attacks, and says he has nothing to add): their "your
    # move" email is no longer due.
    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    services.make_move(user=users[0], game_id=game.pk, action={"type": "pass"}, expected_version=game.version)
    defender_turn = Notification.objects.get(game=game, user=users[1], kind=Kind.YOUR_MOVE)
    assert defender_turn.email_pending  # written just now: inside the grace period, left alone

    assert send_pending_emails() == 2  # the two "game started"
    assert sorted(message.to[0] for message in mail.outbox) == sorted(user.email for user in users)
    started = Notification.objects.filter(game=game, kind=Kind.GAME_STARTED)
    assert all(n.emailed_at is not None and not n.email_pending for n in started)
    attacker_turn = Notification.objects.get(game=game, user=users[0], kind=Kind.YOUR_MOVE)
    assert attacker_turn.emailed_at is None and not attacker_turn.email_pending

    assert send_pending_emails() == 0  # sent once
    age([defender_turn], timedelta(days=2))
    assert send_pending_emails() == 0  # too old to be worth sending
    defender_turn.refresh_from_db()
    assert defender_turn.emailed_at is None and not defender_turn.email_pending
    assert len(mail.outbox) == 2
