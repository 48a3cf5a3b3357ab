"""Computer players on the site (issue 11): accounts, seating, what a bot is given, its moves
through Celery (eager here, a real worker in test_bots_worker.py), no clock, leaderboard."""

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import bots, services
from games.exceptions import NotAllowed
from games.models import Game, Move
from notifications.models import Notification
from stats import selectors as stats_selectors
from stats.models import PairStats, Rating
from tests.factories import LONGER_DEAL, GameFactory, UserFactory
from tests.games.helpers import hidden_cards

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


class SpyBot:
    """The real bot of a level, recording exactly what it was called with and the hidden cards
    of that moment (read from the stored state, which only the test may read)."""

    calls: list[dict[str, Any]] = []

    def __init__(self, level: str) -> None:
        self.inner = real_make_bot(level)
        self.name = self.inner.name

    def choose(self, *args: Any, **kwargs: Any) -> Any:
        view = args[0]
        game = Game.objects.get(seats__position=view["player"], seats__user__is_bot=True, status="active")
        engine = game.engine()
        SpyBot.calls.append(
            {
                "args": args,
                "kwargs": kwargs,
                "view_expected": engine.view(view["player"]),
                "log_expected": [{"action": m.action, "events": m.events} for m in game.moves.all()],
                "hidden": hidden_cards(engine, view["player"]),
            }
        )
        return self.inner.choose(*args, **kwargs)


real_make_bot = bots.make_bot


def play_human_moves(
    game: Game, human: User, django_capture_on_commit_callbacks: Any, limit: int = 400
) -> Game:
    """The human plays the first legal action whenever it is their turn; the bots' tasks run
    eagerly from the commit callbacks."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        engine = game.engine()
        actions = engine.legal_json(0)
        assert actions, "the game waits for a bot that did not move"
        with django_capture_on_commit_callbacks(execute=True):
            services.make_move(user=human, game_id=game.pk, action=actions[0], expected_version=game.version)
    raise AssertionError("the game did not end")


# Accounts


def test_bot_accounts_are_made_once_per_level_and_seat_number_and_cannot_log_in(client: Client) -> None:
    first = bots.bot_account(level="rules")
    assert bots.bot_account(level="rules") == first
    second = bots.bot_account(level="rules", number=2)
    other = bots.bot_account(level="search")
    assert len({first.pk, second.pk, other.pk}) == 3
    assert first.is_bot and first.bot_level == "rules" and not first.is_active
    assert not first.has_usable_password() and first.email == ""
    response = client.post(reverse("account_login"), {"login": first.username, "password": ""})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    # Even a session forced onto a bot is not honoured (an inactive user is no one).
    client.force_login(first)
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_a_person_with_the_bot_name_keeps_it_and_the_bot_gets_another() -> None:
    person = UserFactory(username="computer-random")
    bot = bots.bot_account(level="random")
    assert bot.pk != person.pk and bot.is_bot and not User.objects.get(pk=person.pk).is_bot
    assert bots.bot_account(level="random") == bot


# Seating


def test_a_game_against_the_computer_seats_the_human_first_and_starts_at_once(user: User) -> None:
    game = services.game_against_computer(creator=user, level="rules", preset="classic", num_players=3)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    seats = list(game.seats.select_related("user"))
    assert [(s.position, s.user.is_bot) for s in seats] == [(0, False), (1, True), (2, True)]
    assert {s.user.bot_level for s in seats[1:]} == {"rules"}
    assert Notification.objects.filter(user__is_bot=True).count() == 0  # bots read none
    assert Notification.objects.filter(user=user).exists()


def test_only_the_creator_fills_an_open_game_that_allows_bots(user: User) -> None:
    people_only = GameFactory(creator=user, num_players=3)
    with pytest.raises(NotAllowed):
        services.game_fill_with_bots(user=user, game_id=people_only.pk)
    game = GameFactory(creator=user, num_players=3, bot_level="random", private=True)
    friend = UserFactory()
    services.game_join(user=friend, game_id=game.pk, token=game.invite_token)
    with pytest.raises(NotAllowed):
        services.game_fill_with_bots(user=friend, game_id=game.pk)
    services.game_fill_with_bots(user=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert [s.user.is_bot for s in game.seats.select_related("user")] == [False, False, True]


# Moves


def test_a_bot_is_given_its_view_and_the_public_log_and_nothing_else(
    user: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    SpyBot.calls = []
    monkeypatch.setattr(bots, "make_bot", SpyBot)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_against_computer(creator=user, level="search", preset="classic", num_players=3)
    game = play_human_moves(game, user, django_capture_on_commit_callbacks)
    assert game.status == Game.Status.FINISHED
    assert len(SpyBot.calls) > 10
    bot_moves = Move.objects.filter(game=game, position__in=[1, 2]).count()
    assert bot_moves == len(SpyBot.calls)
    for call in SpyBot.calls:
        assert call["kwargs"] == {}
        view, log = call["args"]  # exactly two arguments
        assert isinstance(view, dict) and view == call["view_expected"]
        assert log == call["log_expected"]
        raw = json.dumps(view)
        leaked = [card for card in call["hidden"] if f'"{card}"' in raw]
        assert leaked == [], f"the bot's view names hidden cards {leaked}"
        assert "stock" not in view and "hands" not in view and "seed" not in view


def test_a_task_for_an_old_version_does_nothing(user: User) -> None:
    game = services.game_against_computer(
        creator=user, level="random", preset="classic", num_players=2, deal=LONGER_DEAL
    )
    game.refresh_from_db()
    engine = game.engine()
    assert engine.waiting_for() == [0]  # LONGER_DEAL: seat 0 attacks first
    services.make_move(
        user=user, game_id=game.pk, action=engine.legal_json(0)[0], expected_version=game.version
    )
    game.refresh_from_db()
    moves = Move.objects.filter(game=game).count()
    assert not bots.bot_play(game_id=game.pk, version=game.version - 1)
    assert Move.objects.filter(game=game).count() == moves
    assert bots.bot_play(game_id=game.pk, version=game.version)
    assert Move.objects.filter(game=game).count() == moves + 1
    assert not bots.bot_play(game_id=game.pk, version=game.version)  # the same message twice


def test_a_bot_has_no_clock_and_a_lost_move_is_requeued_by_the_sweep(user: User) -> None:
    game = services.game_against_computer(
        creator=user,
        level="rules",
        preset="classic",
        num_players=2,
        deal=LONGER_DEAL,
        move_time=timedelta(seconds=30),
    )
    game.refresh_from_db()
    assert game.seats.get(position=0).deadline is not None  # the human's clock runs
    engine = game.engine()
    # The human moves; the bot's task is never run (the commit callbacks are not executed: lost).
    services.make_move(
        user=user, game_id=game.pk, action=engine.legal_json(0)[0], expected_version=game.version
    )
    game.refresh_from_db()
    bot_seat, human = game.seats.get(position=1), game.seats.get(position=0)
    assert bot_seat.awaiting_move and bot_seat.deadline is None
    # The human may still throw in or say done: only the human's clock runs.
    assert human.awaiting_move and game.deadline == human.deadline
    assert services.sweep_expired() == 0
    assert bots.requeue_stalled() == 0  # not stalled yet
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert bots.requeue_stalled() == 1  # eager: the bot moves now
    assert Move.objects.filter(game=game, position=1).count() == 1


# Pages, API, leaderboard


def test_play_against_the_computer_from_the_lobby(user: User) -> None:
    client = client_for(user)
    page = client.get("/").content.decode()
    assert 'name="against" value="computer"' in page and 'name="bot_level"' in page
    response = client.post(
        reverse("games:create"), {"preset": "classic", "num_players": "2", "against": "computer"}
    )
    assert response.status_code == 400 and "Choose how strong" in response.content.decode()
    response = client.post(
        reverse("games:create"),
        {"preset": "classic", "num_players": "2", "bot_level": "random", "against": "computer"},
    )
    game = Game.objects.get(creator=user)
    assert response.status_code == 302 and game.status == Game.Status.ACTIVE
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    # The table and its sentences name the computer player by its name and level, not its account.
    assert "Vanya (beginner)" in page and "computer-random (computer)" not in page


def test_an_open_game_with_bots_allowed_offers_the_creator_the_fill_button(user: User) -> None:
    client = client_for(user)
    client.post(reverse("games:create"), {"preset": "classic", "num_players": "3", "bot_level": "rules"})
    game = Game.objects.get(creator=user)
    assert game.status == Game.Status.OPEN and game.bot_level == "rules"
    url = reverse("games:fill_with_bots", args=[game.pk])
    assert url in client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert url not in client_for(UserFactory()).get(reverse("games:detail", args=[game.pk])).content.decode()
    client.post(url)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    lobby = client.get("/").content.decode()
    assert lobby.count('class="bot-badge"') == 2
    seats = client.get(reverse("api:game", args=[game.pk])).json()["seats"]
    assert [seat["bot"] for seat in seats] == [False, True, True]


def test_bots_are_kept_off_the_leaderboard_and_the_farming_list(user: User) -> None:
    bot = bots.bot_account(level="random")
    for who, ordinal in ((user, 10.0), (bot, 30.0)):
        Rating.objects.create(user=who, mode="throw_in", players=0, games=50, mu=40, sigma=1, ordinal=ordinal)
    assert [r.user for r in stats_selectors.leaderboard(mode="throw_in")] == [user]
    assert "computer-random" not in client_for(user).get("/leaderboard/?mode=throw_in").content.decode()
    low, high = sorted([user, bot], key=lambda u: u.pk)
    PairStats.objects.create(
        low=low,
        high=high,
        games=200,
        low_fools=200 if low == user else 0,
        high_fools=200 if high == user else 0,
    )
    assert stats_selectors.farming_suspects() == []


def test_bot_seats_are_marked_in_the_api(user: User) -> None:
    game = services.game_against_computer(creator=user, level="rules", preset="classic", num_players=2)
    client = client_for(user)
    seats = client.get(reverse("api:game", args=[game.pk])).json()["seats"]
    assert [(s["username"], s["bot"]) for s in seats] == [(user.username, False), ("computer-rules", True)]
