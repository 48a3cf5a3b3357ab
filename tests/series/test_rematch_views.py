"""The rematch on a finished game's page: the offer form, the others' answer, the live panel's
poll, the link to the next game, and refusals that change nothing."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.models import Game
from notifications.models import Notification
from series.models import RematchOffer
from series.selectors import rematch_state
from tests.factories import UserFactory

from .helpers import finished_game

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, game: Game) -> str:
    answer = client.get(f"/games/{game.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_offer_answer_and_the_link_to_the_next_game() -> None:
    game, (alice, bob) = finished_game()
    a, b = logged_in(alice), logged_in(bob)
    first = page(a, game)
    assert "Offer a rematch" in first and 'name="games_agreed"' in first
    assert '<option value="3" selected>' in first
    assert f'data-live-channel="game-{game.pk}-rematch"' in first
    assert a.post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": "3"}).status_code == 302

    seen = page(b, game)
    assert f"{alice.username} offers a rematch" in seen
    assert "a series of 3 games, this one the first" in seen
    assert "Accept the rematch" in seen and "Decline" in seen
    assert "The offer expires on" in seen
    assert "Withdraw the offer" in page(a, game)
    spectator = page(Client(), game)
    assert f"{alice.username} offers a rematch" in spectator and "Accept the rematch" not in spectator

    answer = b.post(f"/games/{game.pk}/rematch/accept/", headers=HTMX)
    assert answer.status_code == 200
    following = RematchOffer.objects.get().next_game
    assert following is not None
    html = answer.content.decode()
    assert html.lstrip().startswith("<section") and f"Next game: #{following.pk}" in html
    for client in (a, b):
        assert f'href="/games/{following.pk}/"' in page(client, game)


def test_the_panel_answers_204_until_the_offer_changes() -> None:
    game, (alice, bob) = finished_game()
    b = logged_in(bob)
    token = rematch_state(game=game, viewer=bob).token
    url = f"/games/{game.pk}/rematch/"
    assert b.get(url, {"state": token}, headers=HTMX).status_code == 204
    logged_in(alice).post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": "5"})
    answer = b.get(url, {"state": token}, headers=HTMX)
    assert answer.status_code == 200 and f"{alice.username} offers a rematch" in answer.content.decode()
    assert b.get(url, {"state": rematch_state(game=game, viewer=bob).token}).status_code == 204


def test_a_decline_is_shown_to_everyone() -> None:
    game, (alice, bob) = finished_game()
    logged_in(alice).post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": "1"})
    answer = logged_in(bob).post(f"/games/{game.pk}/rematch/decline/", headers=HTMX)
    assert answer.status_code == 200
    for client in (logged_in(alice), logged_in(bob), Client()):
        assert f"{bob.username} declined the rematch." in page(client, game)
    assert "Offer a rematch" in page(logged_in(alice), game)  # another may be offered
    assert Game.objects.count() == 1


@pytest.mark.parametrize("value", ["abc", "-3", "0", "501", "²"])
def test_a_bad_series_length_is_a_clear_400_and_changes_nothing(value: str) -> None:
    game, (alice, _bob) = finished_game()
    a = logged_in(alice)
    answer = a.post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": value}, headers=HTMX)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'role="alert"' in html and ("whole number" in html or "from 1 to 500" in html)
    assert not RematchOffer.objects.exists()
    redirected = a.post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": value}, follow=True)
    assert "whole number" in redirected.content.decode() or "from 1 to 500" in redirected.content.decode()
    assert not RematchOffer.objects.exists()


def test_a_stranger_may_neither_offer_nor_answer() -> None:
    game, (alice, _bob) = finished_game()
    stranger = logged_in(UserFactory())
    assert stranger.post(f"/games/{game.pk}/rematch/offer/", headers=HTMX).status_code == 403
    logged_in(alice).post(f"/games/{game.pk}/rematch/offer/")
    assert stranger.post(f"/games/{game.pk}/rematch/accept/", headers=HTMX).status_code == 403
    assert stranger.post(f"/games/{game.pk}/rematch/decline/", headers=HTMX).status_code == 403
    assert RematchOffer.objects.get().status == RematchOffer.Status.OPEN
    assert "Offer a rematch" not in page(stranger, game)


def test_the_offer_in_russian_names_nobody_by_gender() -> None:
    game, (alice, bob) = finished_game()
    User.objects.filter(pk=bob.pk).update(language="ru")
    bob.refresh_from_db()
    logged_in(alice).post(f"/games/{game.pk}/rematch/offer/", {"games_agreed": "3"})
    russian = logged_in(bob)
    russian.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    seen = page(russian, game)
    assert f"{alice.username} предлагает реванш" in seen and "серия из 3 игр, эта — первая" in seen
    assert "Принять реванш" in seen and "Предложение действует до" in seen
    russian.post(f"/games/{game.pk}/rematch/decline/")
    assert f"{bob.username}: отказ от реванша." in page(russian, game)
    notification = Notification.objects.get(user=bob, params__rematch=3)
    with translation.override("ru"):
        assert notification.message == (
            f"{alice.username} предлагает реванш после игры {game.pk}. Предложена серия из 3 игр."
        )
