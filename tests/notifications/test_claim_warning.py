"""The claim warning (issue 29): the player a game without a clock waits for is told, on the
table, under the bell and in one e-mail, when the other may claim the game.

The e-mail goes through a real SMTP server (aiosmtpd). The sweep is the deadline sweep's step
(``hooks.sweep``: ``notifications.services.send_claim_warnings``); the table's line comes from
``games.leaving``, which asks the engine.
"""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from accounts.models import User
from games import services, tasks
from games.models import Game
from notifications import services as notifications
from notifications.models import Kind, Notification
from tests.factories import LONGER_DEAL, backdate, started_game

from .conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)


def page(game: Game, user: User) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def warnings_of(user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=Kind.CLAIM_POSSIBLE))


def waiting_for_bob() -> tuple[Game, User, User]:
    """alice attacked and said done: the game (claims after 3 days) waits for bob alone."""
    game, (alice, bob) = started_game(deal=LONGER_DEAL, overrides={"claim_after_days": 3})
    game = services.make_move(
        user=alice, game_id=game.pk, action={"type": "attack", "cards": ["6S"]}, expected_version=game.version
    )
    game = services.make_move(
        user=alice, game_id=game.pk, action={"type": "pass"}, expected_version=game.version
    )
    assert game.claim_warn_at is not None
    return game, alice, bob


def test_the_waited_for_player_is_told_once_when_the_other_may_claim(smtp: Mailbox, settings: Any) -> None:
    settings.NOTIFY_QUIET_MINUTES = 0
    game, alice, bob = waiting_for_bob()
    backdate(game, days=2)  # a claim is possible in a day
    assert notifications.send_claim_warnings() == 0
    assert warnings_of(bob) == []
    when = game.claim_warn_at
    assert when is not None
    with translation.override("en"):
        date = formats.date_format(when, "DATETIME_FORMAT")
    assert f"If you do not move, {alice.name} may claim the game from {date}" in page(game, bob)
    assert "claim-warning" not in page(game, alice)  # alice has the claim line instead

    backdate(game, days=3.5)
    tasks.sweep_deadlines()  # the deadline sweep runs the step
    [warning] = warnings_of(bob)
    assert warning.read_at is None
    assert warning.message.startswith(f"{alice.name} may claim game {game.pk} from ")
    assert warning.message.endswith("if you do not move, it ends as if you had resigned.")
    [email] = smtp.to(bob.email, f"Game {game.pk} may be claimed")
    assert f"{alice.name} may claim game {game.pk}" in str(email.get_body(preferencelist=("plain",)))
    assert warnings_of(alice) == [] and not smtp.to(alice.email, "may be claimed")
    assert f"{alice.name} may claim the game now" in page(game, bob)

    # Exactly once: the sweeps after it write nothing, send nothing.
    assert notifications.send_claim_warnings() == 0
    tasks.sweep_deadlines()
    assert len(warnings_of(bob)) == 1 and len(smtp.to(bob.email, "may be claimed")) == 1

    # Bob takes, alice says done and leads next: a new wait, on alice now, and her own warning
    # once it is long enough.
    game = services.make_move(
        user=bob, game_id=game.pk, action={"type": "take"}, expected_version=game.version
    )
    game = services.make_move(
        user=alice, game_id=game.pk, action={"type": "pass"}, expected_version=game.version
    )
    game.refresh_from_db()
    assert game.claim_warn_at is not None and [s.user for s in game.seats.all() if s.awaiting_move] == [alice]
    backdate(game, days=3.5)
    assert notifications.send_claim_warnings() == 1
    assert len(warnings_of(alice)) == 1 and len(smtp.to(alice.email, "may be claimed")) == 1
    assert len(warnings_of(bob)) == 1


def test_in_russian_and_never_for_a_game_with_a_clock(smtp: Mailbox) -> None:
    game, alice, bob = waiting_for_bob()
    bob.language = "ru"
    bob.save(update_fields=["language"])
    backdate(game, days=3.5)
    notifications.send_claim_warnings()
    [warning] = warnings_of(bob)
    with translation.override("ru"):
        text = warning.message
    assert text.startswith(f"{alice.name} может забрать игру {game.pk} с ")  # noqa: RUF001
    assert text.endswith("если вы не сделаете ход, она закончится так, как если бы вы сдались.")
    [email] = smtp.to(bob.email, f"Игру {game.pk} можно забрать")
    assert str(email["Subject"]).strip() == f"Игру {game.pk} можно забрать: она ждёт вашего хода"
    # A game with a clock ends a silence with a timeout: no claim, no warning.
    timed, _users = started_game(deal=LONGER_DEAL, move_time=timedelta(days=1))
    assert timed.claim_warn_at is None
