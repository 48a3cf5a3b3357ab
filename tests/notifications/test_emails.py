"""Notification emails delivered to a real SMTP server on localhost: recipients, subject,
the link to the game, multipart bodies, and never two "your move" emails per visit."""

from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.exceptions import NotAllowed
from games.models import Game, Seat
from notifications import services as notification_services
from notifications.models import Kind, Notification, Preferences
from tests.factories import LONGER_DEAL, GameFactory, UserFactory, started_game

from .conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)


def parts(message: EmailMessage) -> tuple[str, str]:
    assert message.get_content_type() == "multipart/alternative"
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    return text.get_content(), html.get_content()


def assert_links_to(message: EmailMessage, game: Game) -> None:
    link = f"https://durak.example/games/{game.pk}/"
    text, html = parts(message)
    assert link in text
    assert f'href="{link}"' in html


def visit(user: Any, game: Game) -> None:
    client = Client()
    client.force_login(user)
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200


def step(game: Game, users: list[Any]) -> None:
    """One move: the first legal action of the first player the engine waits for."""
    game.refresh_from_db()
    engine = game.engine()
    player = engine.waiting_for()[0]
    services.make_move(
        user=users[player],
        game_id=game.pk,
        action=engine.legal_json(player)[0],
        expected_version=game.version,
    )


def test_starting_a_game_emails_both_players_and_the_one_to_move(smtp: Mailbox) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    for user in users:
        [started] = smtp.to(user.email, f"Game {game.pk} has started")
        assert_links_to(started, game)
        assert started["To"] == user.email
    [your_move] = smtp.to(users[0].email, "Your move")
    assert your_move["Subject"] == f"Your move in game {game.pk}"
    assert_links_to(your_move, game)
    assert not smtp.to(users[1].email, "Your move")
    assert Notification.objects.get(user=users[0], kind=Kind.YOUR_MOVE).emailed_at is not None


def test_no_second_your_move_email_for_a_game_until_the_player_has_visited_it(
    smtp: Mailbox, settings: Any
) -> None:
    settings.NOTIFY_QUIET_MINUTES = 0  # a visit keeps no e-mail quiet after it (test_coalesce.py)
    game, users = started_game(deal=LONGER_DEAL)
    first = users[0]
    assert len(smtp.to(first.email, "Your move")) == 1

    def play_until_first_is_waited_for_again() -> None:
        for _ in range(20):
            seat = Seat.objects.get(game=game, user=first)
            was_waiting = seat.awaiting_move
            step(game, users)
            seat.refresh_from_db()
            if seat.awaiting_move and not was_waiting:
                return
        pytest.fail("the first player was never waited for again")

    play_until_first_is_waited_for_again()
    assert len(smtp.to(first.email, "Your move")) == 1  # not visited since the first email
    visit(first, game)
    play_until_first_is_waited_for_again()
    emails = smtp.to(first.email, "Your move")
    assert len(emails) == 2  # visited: the next turn is emailed again
    assert_links_to(emails[1], game)
    play_until_first_is_waited_for_again()
    assert len(smtp.to(first.email, "Your move")) == 2


def test_preferences_turn_each_kind_off(smtp: Mailbox) -> None:
    game = GameFactory(deal=LONGER_DEAL)
    second = UserFactory()
    Preferences.objects.create(user=game.creator, email_your_move=False, email_game_started=False)
    Preferences.objects.create(user=second, web_game_started=False)
    services.game_join(user=second, game_id=game.pk)
    assert not smtp.to(game.creator.email)
    assert Notification.objects.filter(user=game.creator, kind=Kind.YOUR_MOVE, read_at=None).exists()
    assert smtp.to(second.email, "has started")
    # Email only: kept as read, so the bell does not count it.
    assert Notification.objects.get(user=second, kind=Kind.GAME_STARTED).read_at is not None


def test_the_finished_game_email_tells_each_player_their_result(smtp: Mailbox) -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(minutes=5))
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(game=game, position=0).update(deadline=past)
    Game.objects.filter(pk=game.pk).update(deadline=past)
    assert services.sweep_expired() == 1
    [fool] = smtp.to(users[0].email, "is over")
    assert "you are the fool (you ran out of time)" in parts(fool)[0]
    [other] = smtp.to(users[1].email, "is over")
    text = parts(other)[0]
    assert f"you won, {users[0].username} ran out of time and is the fool" in text
    assert_links_to(other, game)


def test_time_almost_up_only_if_the_game_was_not_opened_since_the_turn_began(smtp: Mailbox) -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(hours=2))
    seat = Seat.objects.get(game=game, position=0)
    assert seat.warn_at == seat.turn_started_at + timedelta(hours=1)  # half the move time
    Seat.objects.filter(pk=seat.pk).update(warn_at=timezone.now() - timedelta(seconds=1))
    assert notification_services.send_time_warnings() == 1
    [warning] = smtp.to(users[0].email, "Half of your move time is gone")
    assert_links_to(warning, game)
    assert notification_services.send_time_warnings() == 0  # moved on to 90%: never twice
    seat.refresh_from_db()
    assert seat.warn_at == seat.turn_started_at + timedelta(hours=2) * 0.9
    Seat.objects.filter(pk=seat.pk).update(warn_at=timezone.now() - timedelta(seconds=1))
    assert notification_services.send_time_warnings() == 1
    [warning] = smtp.to(users[0].email, "Time is almost up")
    assert_links_to(warning, game)
    assert notification_services.send_time_warnings() == 0  # cleared: never twice

    other, other_users = started_game(deal=LONGER_DEAL, move_time=timedelta(hours=2))
    visit(other_users[0], other)
    Seat.objects.filter(game=other, position=0).update(warn_at=timezone.now() - timedelta(seconds=1))
    assert notification_services.send_time_warnings() == 0
    assert not smtp.to(other_users[0].email, f"Time is almost up in game {other.pk}")


def test_daily_digest_replaces_your_move_emails(smtp: Mailbox, settings: Any) -> None:
    settings.DIGEST_HOUR = 0
    creator = UserFactory()
    Preferences.objects.create(user=creator, daily_digest=True)
    games = []
    for _ in range(2):
        game = GameFactory(creator=creator, deal=LONGER_DEAL)
        services.game_join(user=UserFactory(), game_id=game.pk)
        games.append(game)
    assert not smtp.to(creator.email, "Your move")
    assert notification_services.send_digests() == 1
    [digest] = smtp.to(creator.email, "waiting for your move")
    assert digest["Subject"] == "2 games waiting for your move"
    for game in games:
        assert_links_to(digest, game)
    assert notification_services.send_digests() == 0  # once a day


def test_invitation_by_name_emails_the_invitee_who_can_then_join_the_private_game(smtp: Mailbox) -> None:
    game = GameFactory(private=True)
    invitee, stranger = UserFactory(), UserFactory()
    client = Client()
    client.force_login(game.creator)
    response = client.post(reverse("games:invite", args=[game.pk]), {"username": invitee.username.upper()})
    assert response.status_code == 302
    [invitation] = smtp.to(invitee.email, "invited")
    assert invitation["Subject"] == f"You are invited to game {game.pk}"
    assert f"{game.creator.username} invites you" in parts(invitation)[0]
    assert_links_to(invitation, game)
    with pytest.raises(NotAllowed):
        services.game_join(user=stranger, game_id=game.pk)
    services.game_join(user=invitee, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_share_link_lets_anyone_with_it_take_a_seat() -> None:
    game = GameFactory(private=True, num_players=3)
    owner = Client()
    owner.force_login(game.creator)
    page = owner.get(reverse("games:detail", args=[game.pk])).content.decode()
    link = reverse("games:join_link", args=[game.pk, game.invite_token])
    assert link in page
    guest, stranger = UserFactory(), UserFactory()
    client = Client()
    client.force_login(guest)
    response = client.get(link, follow=True)
    assert f'name="token" value="{game.invite_token}"' in response.content.decode()
    client.post(reverse("games:join", args=[game.pk]), {"token": game.invite_token})
    assert game.seats.filter(user=guest).exists()
    other = Client()
    other.force_login(stranger)
    other.post(reverse("games:join", args=[game.pk]), {"token": "wrong"})
    assert not game.seats.filter(user=stranger).exists()
    assert game.pk not in [g.pk for g in selectors.lobby_open_games()]
