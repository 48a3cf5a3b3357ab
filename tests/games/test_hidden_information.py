"""No page or partial shows a card of another player's hand, the stock order or the seed."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import UserFactory, play_moves, started_game
from tests.games.helpers import assert_no_hidden_cards, card_traces, hidden_cards
from tests.leaks import shows_number

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def pages(client: Client, game: Game) -> dict[str, str]:
    detail = reverse("games:detail", args=[game.pk])
    poll = reverse("games:poll", args=[game.pk])
    responses = {
        "lobby": client.get(reverse("games:lobby")),
        "game page": client.get(detail),
        "table partial": client.get(detail, headers=HTMX),
        "poll partial": client.get(poll + "?version=-1", headers=HTMX),
        "poll without htmx": client.get(poll + "?version=-1"),
    }
    for name, response in responses.items():
        assert response.status_code == 200, name
    return {name: response.content.decode() for name, response in responses.items()}


def viewers(users: list[Any]) -> list[tuple[str, Client, int | None]]:
    anonymous = Client()
    third = Client()
    third.force_login(UserFactory())
    seated = []
    for position, user in enumerate(users):
        client = Client()
        client.force_login(user)
        seated.append((f"player {position}", client, position))
    return [("anonymous visitor", anonymous, None), ("third user", third, None), *seated]


@pytest.mark.parametrize("moves", [0, 3, 12])
def test_nobody_sees_a_hidden_card(moves: int) -> None:
    game, users = started_game(players=3, seed=2024)
    game = play_moves(game, users, moves)
    engine = game.engine()
    assert hidden_cards(engine, None)  # there is something to hide
    for who, client, position in viewers(users):
        for name, page in pages(client, game).items():
            try:
                assert_no_hidden_cards(page, engine, position, game)
            except AssertionError as error:
                raise AssertionError(f"{who}, {name}: {error}") from None
            assert not shows_number(page, game.seed), f"{who}, {name}: the seed leaks"


def test_a_player_does_see_their_own_cards() -> None:
    game, users = started_game(players=2, seed=77)
    engine = game.engine()
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    for card in engine.hands[0]:
        assert any(trace in page for trace in card_traces(card))


def test_the_check_itself_catches_a_leak() -> None:
    game, _ = started_game(players=2, seed=5)
    engine = game.engine()
    leaked = engine.hands[1][0]
    with pytest.raises(AssertionError):
        assert_no_hidden_cards(f'<span data-card="{leaked}">', engine, 0)
