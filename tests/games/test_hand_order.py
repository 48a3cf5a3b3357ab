"""The player's hand in the order they chose on the settings page (``User.hand_order``), laid out
by the server: grouped by suit or by rank, trumps at the end or at the start."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import started_game

pytestmark = pytest.mark.django_db

# Spades trump (the last card of the stock is face up): the first player holds two trumps.
DEAL = {
    "hands": [["AH", "6S", "7H", "10S", "6D", "9C"], ["8S", "9D", "7S", "10C", "JH", "QD"]],
    "stock": ["KC", "KH", "KD", "AS"],
    "first_attacker": 0,
}


def hand_on_the_page(user: User, game_id: int) -> list[str]:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("games:detail", args=[game_id])).content.decode()
    return re.findall(r'data-pick="([^"]+)"', page)


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("suit_trumps_last", ["7H", "AH", "6D", "9C", "6S", "10S"]),  # the engine's own order
        ("suit_trumps_first", ["6S", "10S", "7H", "AH", "6D", "9C"]),
        ("rank_trumps_last", ["6D", "7H", "9C", "AH", "6S", "10S"]),
        ("rank_trumps_first", ["6S", "10S", "6D", "7H", "9C", "AH"]),
    ],
)
def test_the_hand_is_laid_out_in_the_players_order(order: str, expected: list[str]) -> None:
    game, users = started_game(deal=DEAL)
    users[0].hand_order = order
    users[0].save(update_fields=["hand_order"])
    assert hand_on_the_page(users[0], game.pk) == expected


def test_the_settings_page_saves_the_order_and_a_form_without_it_keeps_it() -> None:
    game, users = started_game(deal=DEAL)
    user = users[0]
    client = Client()
    client.force_login(user)
    page = client.get("/notifications/settings/").content.decode()
    assert 'name="hand_order"' in page and "By rank, trumps first" in page
    data = {"display_name": "", "language": "en", "time_zone": "UTC", "confirm_moves": "correspondence"}
    assert (
        client.post("/notifications/settings/", {**data, "hand_order": "rank_trumps_first"}).status_code
        == 302
    )
    user.refresh_from_db()
    assert user.hand_order == "rank_trumps_first"
    assert hand_on_the_page(user, game.pk) == ["6S", "10S", "6D", "7H", "9C", "AH"]
    assert client.post("/notifications/settings/", data).status_code == 302  # no hand_order posted
    user.refresh_from_db()
    assert user.hand_order == "rank_trumps_first"
    # An order that is not one of the choices is refused.
    assert client.post("/notifications/settings/", {**data, "hand_order": "random"}).status_code == 200
    user.refresh_from_db()
    assert user.hand_order == "rank_trumps_first"


def test_the_settings_page_in_russian_names_the_orders() -> None:
    _game, users = started_game(deal=DEAL)
    user = users[0]
    user.language = "ru"
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    page = client.get("/notifications/settings/", headers={"Accept-Language": "ru"}).content.decode()
    assert "Порядок карт в руке" in page and "По старшинству, козыри в начале" in page
