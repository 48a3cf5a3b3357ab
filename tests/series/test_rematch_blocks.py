"""A rematch is not offered nor started between players a block keeps apart (issue 30): from
the next game on, while a running game goes on."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Block
from games import services as games
from games.exceptions import NotAllowed
from games.models import Game
from series import selectors, services
from tests.factories import started_game

from .helpers import finished_game

pytestmark = pytest.mark.django_db


def test_no_rematch_is_offered_between_blocked_players() -> None:
    game, (alice, bob) = finished_game()
    Block.objects.create(blocker=bob, blocked=alice)
    for user in (alice, bob):
        state = selectors.rematch_state(game=game, viewer=user)
        assert not state.can_offer
        with pytest.raises(NotAllowed, match="A rematch is not possible with these players"):
            services.rematch_offer(user=user, game_id=game.pk)
    assert Game.objects.count() == 1


def test_an_offer_made_before_the_block_cannot_be_accepted_after_it() -> None:
    game, (alice, bob) = finished_game()
    services.rematch_offer(user=alice, game_id=game.pk)
    Block.objects.create(blocker=alice, blocked=bob)
    assert not selectors.rematch_state(game=game, viewer=bob).can_answer
    with pytest.raises(NotAllowed):
        services.rematch_accept(user=bob, game_id=game.pk)
    assert Game.objects.count() == 1


def test_the_rematch_page_offers_no_button_and_names_no_block() -> None:
    game, (alice, bob) = finished_game()
    Block.objects.create(blocker=alice, blocked=bob)
    client = Client()
    client.force_login(bob)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "block" not in page.lower().split("<main", 1)[-1]
    response = client.post(reverse("series:rematch_offer", args=[game.pk]), follow=True)
    assert "A rematch is not possible with these players." in response.content.decode()


def test_a_running_game_goes_on_after_a_block() -> None:
    game, (alice, bob) = started_game(players=2)
    Block.objects.create(blocker=alice, blocked=bob)
    games.player_resign(user=bob, game_id=game.pk)  # still their game to play or leave
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
