"""Pages name things as people read them, never by their raw keys: a rule set by its name
("Podkidnoy (classic throw-in)", not "classic") on profiles and replays, a computer player by
its name and level ("Vanya (beginner)", not "computer-random (computer)") wherever seats are
listed."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, Seat
from tests.factories import LONGER_DEAL, UserFactory, started_game
from tests.stats.helpers import time_out

pytestmark = pytest.mark.django_db

CLASSIC = "Podkidnoy (classic throw-in)"


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_computer_player_is_named_by_its_name_and_level_on_the_game_page_and_in_my_games() -> None:
    user = UserFactory()
    client = client_for(user)
    client.post(
        reverse("games:create"),
        {"preset": "classic", "num_players": "2", "bot_level": "random", "against": "computer"},
    )
    game = Game.objects.get(creator=user)
    bot = game.seats.get(user__is_bot=True).user
    for page in (
        client.get(reverse("games:detail", args=[game.pk])).content.decode(),
        client.get(reverse("games:lobby")).content.decode(),
    ):
        assert "Vanya (beginner)" in page
        assert f">{bot.username}" not in page and f"{bot.username} (computer)" not in page


def test_profiles_and_replays_name_the_rule_set() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    time_out(game)
    client = client_for(users[0])
    profile = client.get(reverse("stats:profile", args=[users[0].username])).content.decode()
    replay = client.get(reverse("replays:replay", args=[game.pk])).content.decode()
    for page in (profile, replay):
        assert CLASSIC in page
        assert ">classic<" not in page and "(classic," not in page
    russian = client.get(reverse("replays:replay", args=[game.pk]), headers={"accept-language": "ru"})
    assert "(classic," not in russian.content.decode()


def test_a_finished_games_notification_names_a_computer_fool_by_its_name_and_level() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited = Seat.objects.get(game=game, awaiting_move=True)
    User.objects.filter(pk=waited.user_id).update(is_bot=True, bot_level="random")
    time_out(game)  # the computer player ran out of time: it is the fool
    human = next(user for user in users if user.pk != waited.user_id)
    bell = client_for(human).get(reverse("notifications:list"), headers={"accept-language": "ru"})
    page = bell.content.decode()
    assert "Ваня (новичок)" in page
    assert waited.user.username not in page
