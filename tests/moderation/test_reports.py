"""Reporting a chat message, a player or a game puts it in the moderation queue."""

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import ChatMessage
from moderation.models import Report
from tests.factories import LONGER_DEAL, started_game
from tests.moderation.conftest import client_for

pytestmark = pytest.mark.django_db

URL = reverse("moderation:report")


def test_report_a_chat_message() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    message = ChatMessage.objects.create(game=game, author=users[0], channel="players", text="you cheat")
    bob = client_for(users[1])
    chat_log = bob.get(reverse("chat:log", args=[game.pk]), headers={"HX-Request": "true"}).content.decode()
    assert f"{URL}?message={message.pk}" in chat_log
    form = bob.get(URL + f"?message={message.pk}")
    assert form.status_code == 200 and "you cheat" in form.content.decode()

    response = bob.post(URL, {"message": message.pk, "reason": "abuse", "details": "rude"})
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[game.pk])
    report = Report.objects.get()
    assert (
        report.reporter,
        report.reported_user,
        report.game,
        report.message,
        report.reason,
        report.details,
    ) == (
        users[1],
        users[0],
        game,
        message,
        "abuse",
        "rude",
    )
    assert report.status == "open"
    assert "moderators" in bob.get(response["Location"]).content.decode()


def test_report_a_player_and_a_game_from_the_game_page() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    bob = client_for(users[1])
    page = bob.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f"{URL}?user={users[0].pk}&amp;game={game.pk}" in page
    assert f"{URL}?game={game.pk}" in page
    assert bob.post(URL, {"user": users[0].pk, "game": game.pk, "reason": "stalling"}).status_code == 302
    assert bob.post(URL, {"game": game.pk, "reason": "cheating"}).status_code == 302
    assert list(Report.objects.order_by("id").values_list("reported_user", "game", "reason")) == [
        (users[0].pk, game.pk, "stalling"),
        (None, game.pk, "cheating"),
    ]


def test_a_report_needs_a_reason_and_not_oneself() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    alice = client_for(users[0])
    assert alice.post(URL, {"game": game.pk, "reason": ""}).status_code == 400
    assert alice.post(URL, {"user": users[0].pk, "reason": "abuse"}).status_code == 400
    assert alice.get(URL).status_code == 404
    assert alice.get(URL + "?message=999999").status_code == 404
    assert not Report.objects.exists()


def test_anonymous_visitors_cannot_report() -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    response = Client().post(URL, {"game": game.pk, "reason": "abuse"})
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert not Report.objects.exists()
