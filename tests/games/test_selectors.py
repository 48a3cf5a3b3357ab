import pytest

from games import selectors, services
from games.exceptions import GameNotFound
from games.models import Game
from tests.factories import LONGER_DEAL, GameFactory, UserFactory, play_moves, started_game

pytestmark = pytest.mark.django_db


def test_game_version(django_assert_num_queries) -> None:
    game = GameFactory()
    with django_assert_num_queries(1):
        assert selectors.game_version(game_id=game.pk) == 0
    assert selectors.game_version(game_id=game.pk + 1000) is None


def test_game_get_missing() -> None:
    with pytest.raises(GameNotFound):
        selectors.game_get(game_id=12345)


def test_game_view_for_a_player_and_a_spectator() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    game = selectors.game_get(game_id=game.pk)
    engine = game.engine()
    mine = selectors.game_view(game=game, user=users[0])
    assert mine.position == 0
    assert mine.view == engine.view(0)
    spectator = selectors.game_view(game=game, user=UserFactory())
    assert spectator.seat is None
    assert spectator.view == engine.view(None)
    assert spectator.view["hand"] == []


def test_game_view_before_the_deal_is_empty() -> None:
    game = selectors.game_get(game_id=GameFactory(num_players=3).pk)
    assert selectors.game_view(game=game, user=game.creator).view is None


def test_lobby_lists_only_open_games_newest_first() -> None:
    first, second = GameFactory(num_players=3), GameFactory(num_players=3)
    started_game()
    services.game_leave(user=first.creator, game_id=first.pk)
    third = GameFactory(num_players=4)
    assert list(selectors.lobby_open_games()) == [third, second]


def test_user_games_put_those_waiting_for_me_first() -> None:
    me = UserFactory()
    waiting, _ = started_game(deal=LONGER_DEAL, creator=me)  # I lead
    not_waiting, _ = started_game(deal=LONGER_DEAL)
    open_game = GameFactory(creator=me, num_players=3)
    finished, finished_users = started_game(deal=LONGER_DEAL, creator=me)
    play_moves(finished, finished_users, 100)
    cancelled = GameFactory(creator=me, num_players=3)
    services.game_leave(user=me, game_id=cancelled.pk)
    not_waiting.seats.filter(position=1).update(user=me)
    listed = list(selectors.user_games(user=me))
    assert listed[0] == waiting
    assert listed[0].my_turn
    assert listed[1:] == [not_waiting, open_game, finished]
    assert Game.objects.get(pk=finished.pk).status == Game.Status.FINISHED
