"""After a trump swap the replay shows the card put under the stock, not the one taken."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from replays import selectors
from tests.factories import play_moves, started_game

pytestmark = pytest.mark.django_db

#: Clubs are trumps, the J♣ lies face up; player 0 holds the 6♣ and may swap it for the jack.
SWAP_DEAL = {
    "hands": [["6C", "7S", "8S"], ["9D", "10D", "QS"]],
    "stock": ["AH", "JC"],
    "first_attacker": 0,
}


def swapped_and_finished() -> Game:
    game, users = started_game(deal=SWAP_DEAL)
    from games import services

    services.make_move(
        user=users[0],
        game_id=game.pk,
        action={"type": "swap_trump", "player": 0},
        expected_version=game.version,
    )
    game = play_moves(game, users, 100)
    assert game.status == Game.Status.FINISHED
    return game


def test_the_replay_shows_the_six_put_under_the_stock_after_a_swap() -> None:
    game = selectors.finished_game(game_id=swapped_and_finished().pk)
    moves = selectors.game_moves(game=game)
    before = selectors.replay_frame(game=game, moves=moves, step=0)
    assert before.trump_card == "JC"
    after = selectors.replay_frame(game=game, moves=moves, step=1)
    assert after.trump_card == "6C"
    swapper = after.hands[0][1]
    assert "JC" in swapper and "6C" not in swapper


def test_the_replay_page_after_a_swap_shows_the_six_face_up() -> None:
    game = swapped_and_finished()
    page = Client().get(reverse("replays:replay", args=[game.pk]) + "?step=1")
    assert page.status_code == 200, page.content[:300]
    text = page.content.decode()
    face_up = text.split("face up", 1)[1].split("</p>", 1)[0]
    assert "6♣" in face_up and "J♣" not in face_up


def test_the_move_list_tells_the_swap_in_the_tables_words() -> None:
    game = swapped_and_finished()
    page = Client().get(reverse("replays:replay", args=[game.pk])).content.decode()
    swapper = game.seats.get(position=0).user.name
    assert f"{swapper} swaps the trump card. Face up now: 6♣; J♣ goes into the hand." in page
    assert "The game is over:" in page
