"""At most ``BOT_GAMES_PER_USER`` open and running games with computer players per creator
(issue 28): every way of making one (against the computer, a lobby game that computers may
fill, play now with computers, a rematch against them) is refused one more, with the reason in
the reader's language, a 409 (``too_many_bot_games`` in the API). A game that ends, or is
cancelled, makes room. The parallel case, twenty requests at once through the real server, is
``tests/faults/test_races.py``."""

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from games.exceptions import TooManyBotGames
from games.models import Game
from matchmaking import services as queue
from matchmaking.models import QueueEntry
from series import services as series
from tests.factories import GameFactory, UserFactory, api_token

pytestmark = pytest.mark.django_db

LIMIT = 2
AT_THE_LIMIT = "as one player may have at once (2)"


@pytest.fixture(autouse=True)
def _limit(settings: Any) -> None:
    settings.BOT_GAMES_PER_USER = LIMIT


def against_computer(user: User) -> Game:
    return services.game_against_computer(creator=user, level="random", preset="classic", num_players=2)


def test_one_more_game_against_the_computer_is_refused_until_one_ends() -> None:
    user = UserFactory()
    first, _second = against_computer(user), against_computer(user)
    assert services.bot_games_going(user_id=user.pk) == LIMIT
    with pytest.raises(TooManyBotGames, match="finish, resign or cancel one") as refused:
        against_computer(user)
    assert refused.value.status_code == 409
    assert Game.objects.filter(creator=user).count() == LIMIT
    services.player_resign(user=user, game_id=first.pk)  # over: it counts no more
    third = against_computer(user)
    services.game_abort(game_id=third.pk)  # cancelled: neither
    against_computer(user)
    assert services.bot_games_going(user_id=user.pk) == LIMIT


def test_an_open_game_computers_may_fill_counts_and_a_people_only_game_does_not() -> None:
    user = UserFactory()
    GameFactory(creator=user, num_players=3, bot_level="rules")
    GameFactory(creator=user, num_players=3)
    assert services.bot_games_going(user_id=user.pk) == 1
    against_computer(user)
    with pytest.raises(TooManyBotGames):
        GameFactory(creator=user, num_players=3, bot_level="rules")
    GameFactory(creator=user, num_players=3)  # people only: no limit
    other = UserFactory()
    against_computer(other)  # each creator counts their own


def test_play_now_with_computers_is_refused_at_the_limit_and_people_only_is_not() -> None:
    user = UserFactory()
    choice: dict[str, Any] = {"preset": "classic", "num_players": 2, "time_control": "2m"}
    first = queue.queue_join(user=user, fill_after=timedelta(0), **choice)
    assert first.game is not None and services.bot_games_going(user_id=user.pk) == 1
    against_computer(user)
    with pytest.raises(TooManyBotGames):
        queue.queue_join(user=user, fill_after=timedelta(0), **choice)
    entry = QueueEntry.objects.get(user=user)  # the refused join changed nothing
    assert entry.status == QueueEntry.Status.MATCHED and entry.game_id == first.game_id
    waiting = queue.queue_join(user=user, fill_after=None, **choice)
    assert waiting.status == QueueEntry.Status.WAITING


def test_a_wait_that_ends_at_the_limit_seats_no_computers_and_says_people_only() -> None:
    """The join was allowed; a game with computers opened while the player waited took the
    last place: the sweep makes no game, and the entry waits for people."""
    user = UserFactory()
    choice: dict[str, Any] = {"preset": "classic", "num_players": 2, "time_control": "2m"}
    entry = queue.queue_join(user=user, fill_after=timedelta(minutes=1), **choice)
    against_computer(user)
    against_computer(user)
    QueueEntry.objects.filter(pk=entry.pk).update(fill_at=timezone.now() - timedelta(seconds=1))
    assert queue.queue_sweep() == []
    entry.refresh_from_db()
    assert entry.status == QueueEntry.Status.WAITING
    assert entry.fill_after is None and entry.fill_at is None


def test_a_due_player_at_the_limit_is_seated_in_another_players_game_with_computers() -> None:
    capped, free = UserFactory(), UserFactory()
    choice: dict[str, Any] = {"preset": "classic", "num_players": 3, "time_control": "2m"}
    capped_entry = queue.queue_join(user=capped, fill_after=timedelta(minutes=1), **choice)
    queue.queue_join(user=free, fill_after=timedelta(minutes=1), **choice)
    against_computer(capped)
    against_computer(capped)
    QueueEntry.objects.update(fill_at=timezone.now() - timedelta(seconds=1))
    (game,) = queue.queue_sweep()
    assert game.creator == free  # the game with computers is the one who may have another
    assert sorted(game.seats.values_list("user_id", flat=True))[:2] == sorted([capped.pk, free.pk])
    capped_entry.refresh_from_db()
    assert capped_entry.game_id == game.pk
    assert services.bot_games_going(user_id=capped.pk) == LIMIT


def test_a_rematch_against_the_computer_is_refused_at_the_limit() -> None:
    user = UserFactory()
    finished = against_computer(user)
    services.player_resign(user=user, game_id=finished.pk)
    against_computer(user)
    against_computer(user)
    with pytest.raises(TooManyBotGames, match="finish, resign or cancel one"):
        series.rematch_offer(user=user, game_id=finished.pk)
    assert not finished.rematch_offers.exists()
    assert services.bot_games_going(user_id=user.pk) == LIMIT


def test_the_lobby_answers_409_with_the_reason_in_english_and_russian() -> None:
    user = UserFactory()
    against_computer(user)
    against_computer(user)
    form = {"preset": "classic", "num_players": "2", "bot_level": "random", "against": "computer"}
    client = Client()
    client.force_login(user)
    answer = client.post(reverse("games:create"), form)
    assert answer.status_code == 409 and AT_THE_LIMIT in answer.content.decode()
    User.objects.filter(pk=user.pk).update(language="ru")
    reader = Client()
    reader.force_login(user)
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    answer = reader.post(reverse("games:create"), form)
    assert answer.status_code == 409
    assert "сколько можно иметь одновременно (2)" in answer.content.decode()
    assert Game.objects.filter(creator=user).count() == LIMIT


def test_play_now_answers_409_on_the_page_and_too_many_bot_games_in_the_api() -> None:
    user = UserFactory()
    against_computer(user)
    against_computer(user)
    client = Client()
    client.force_login(user)
    page = client.post(
        reverse("matchmaking:play"),
        {"preset": "classic", "num_players": "2", "time_control": "2m", "fill_after": "30"},
    )
    assert page.status_code == 409 and AT_THE_LIMIT in page.content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    answer = api.post(
        "/api/queue/",
        {"preset": "classic", "players": 2, "time_control": "2m", "fill_after_seconds": 0},
        format="json",
    )
    assert answer.status_code == 409 and answer.json()["code"] == "too_many_bot_games"
    assert AT_THE_LIMIT in answer.json()["detail"]
    assert not QueueEntry.objects.filter(user=user).exists()
