"""Reliability (``games.reliability``): the share of a player's last 50 finished rated games
with another person that they saw to the end, kept by the write path after each finished game's
commit and rebuilt from the stored games by ``manage.py rebuild_reliability``."""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from accounts.models import RELIABILITY_WINDOW, User
from games import reliability, services
from games.models import Game, Seat
from tests.factories import LONGER_DEAL, SHORT_DEAL, GameFactory, UserFactory, backdate

pytestmark = pytest.mark.django_db


def _game(
    me: User, other: User, *, me_first: bool, deal: dict[str, Any], rated: bool = True
) -> tuple[Game, dict[int, User]]:
    creator, joiner = (me, other) if me_first else (other, me)
    game = GameFactory(creator=creator, deal=deal, rated=rated)
    services.game_join(user=joiner, game_id=game.pk)
    game.refresh_from_db()
    return game, {0: creator, 1: joiner}


def _move(game: Game, user: User, action: dict[str, Any]) -> Game:
    game.refresh_from_db()
    return services.make_move(user=user, game_id=game.pk, action=action, expected_version=game.version)


def played_out(me: User, other: User, *, fool: bool = False) -> None:
    """A game that ends by its cards: ``me`` the fool or not; nobody left."""
    game, seats = _game(me, other, me_first=fool, deal=SHORT_DEAL)
    game = _move(game, seats[0], {"type": "attack", "cards": ["6S"]})
    _move(game, seats[1], {"type": "defend", "target": "6S", "card": "8S"})


def resigned(me: User, other: User, *, rated: bool = True) -> None:
    game, _seats = _game(me, other, me_first=True, deal=LONGER_DEAL, rated=rated)
    services.player_resign(user=me, game_id=game.pk)


def resigned_unrated(me: User, other: User) -> None:
    """An unrated game (an unrated tournament's) that ``me`` resigns: it never counts."""
    resigned(me, other, rated=False)


def timed_out(me: User, other: User) -> None:
    """``me`` attacks first and the game is settled on them: the engine's timeout."""
    game, _seats = _game(me, other, me_first=True, deal=LONGER_DEAL)
    services.game_settle_stalled(game_id=game.pk)


def claimed_against(me: User, other: User) -> None:
    game, seats = _game(me, other, me_first=False, deal=LONGER_DEAL)
    game = _move(game, seats[0], {"type": "attack", "cards": ["6S"]})
    game = _move(game, seats[0], {"type": "pass"})  # waits for ``me`` (seat 1) alone now
    backdate(game, days=14.01)
    services.game_claim(user=other, game_id=game.pk)


def i_claimed(me: User, other: User) -> None:
    claimed_against(other, me)


def other_resigned(me: User, other: User) -> None:
    resigned(other, me)


def figures_of(user: User) -> tuple[int, int, int | None]:
    user.refresh_from_db()
    return user.reliability_games, user.reliability_left, user.reliability


def test_a_hand_computed_figure_after_timeouts_resignations_and_claims(
    django_capture_on_commit_callbacks: Any,
) -> None:
    me, other = UserFactory(), UserFactory()
    sequence: list[Callable[[User, User], None]] = [
        timed_out,
        played_out,
        resigned,
        resigned_unrated,
        i_claimed,
        played_out,
        timed_out,
        other_resigned,
        claimed_against,
        played_out,
        played_out,
        lambda a, b: played_out(a, b, fool=True),
        played_out,
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for finish in sequence:
            finish(me, other)
    left = dict(Seat.objects.filter(user=me).exclude(left_by="").values_list("game_id", "left_by"))
    assert sorted(left.values()) == ["claim", "resign", "resign", "timeout", "timeout"]
    # 12 rated games (the unrated resignation does not count), 2 timeouts, 1 resignation,
    # 1 claim against: 8 of 12 seen to the end, 66%.
    assert figures_of(me) == (12, 4, 66)
    # The other player resigned once and had one claim against them: 10 of 12.
    assert figures_of(other) == (12, 2, 83)


def test_new_until_ten_games(django_capture_on_commit_callbacks: Any) -> None:
    me, other = UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        resigned(me, other)
        for _ in range(8):
            played_out(me, other)
    assert figures_of(me) == (9, 1, None)
    with django_capture_on_commit_callbacks(execute=True):
        played_out(me, other)
    assert figures_of(me) == (10, 1, 90)


def test_the_window_is_the_last_fifty_games(django_capture_on_commit_callbacks: Any) -> None:
    me, other = UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        resigned(me, other)  # the oldest: drops out with the 51st game
        for _ in range(RELIABILITY_WINDOW - 1):
            played_out(me, other)
    assert figures_of(me) == (50, 1, 98)
    with django_capture_on_commit_callbacks(execute=True):
        played_out(me, other)
    assert figures_of(me) == (50, 0, 100)


def test_games_against_computers_only_and_aborted_games_do_not_count(
    django_capture_on_commit_callbacks: Any,
) -> None:
    me, other = UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            game = services.game_against_computer(creator=me, level="random", preset="classic", num_players=2)
            services.player_resign(user=me, game_id=game.pk)
        game, _seats = _game(me, other, me_first=True, deal=LONGER_DEAL)
        services.game_abort(game_id=game.pk)
        played_out(me, other)
    assert figures_of(me) == (1, 0, None)
    bot = User.objects.get(is_bot=True)
    assert figures_of(bot) == (0, 0, None)
    assert reliability.figures(me.pk) == (1, 0)


def test_the_rebuild_command_gives_what_the_live_path_gave(django_capture_on_commit_callbacks: Any) -> None:
    me, other, third = UserFactory(), UserFactory(), UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        for finish in (timed_out, resigned, resigned_unrated, claimed_against, i_claimed, played_out):
            finish(me, other)
        for _ in range(6):
            played_out(other, third)
        resigned(third, me)
    live = {user.pk: figures_of(user) for user in (me, other, third)}
    # As if the games had finished before left_by and the figures were kept.
    Seat.objects.update(left_by="")
    User.objects.update(reliability_games=0, reliability_left=0)
    call_command("rebuild_reliability", batch=2)
    assert {user.pk: figures_of(user) for user in (me, other, third)} == live
    assert live[me.pk][:2] == (6, 3)


def test_one_aggregate_query_per_player(django_assert_num_queries: Any) -> None:
    me, other = UserFactory(), UserFactory()
    for _ in range(3):
        played_out(me, other)
    with django_assert_num_queries(1):
        assert reliability.figures(me.pk) == (3, 0)


@pytest.mark.django_db(transaction=True)
def test_two_games_finishing_at_once_for_one_player_both_count() -> None:
    me, a, b = UserFactory(), UserFactory(), UserFactory()
    games = []
    for other in (a, b):
        game, _seats = _game(me, other, me_first=True, deal=LONGER_DEAL)
        games.append(game)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def resign(game_id: int) -> None:
        try:
            barrier.wait(timeout=10)
            services.player_resign(user=me, game_id=game_id)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=(game.pk,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert figures_of(me)[:2] == (2, 2)
    assert figures_of(a)[:2] == (1, 0) and figures_of(b)[:2] == (1, 0)
