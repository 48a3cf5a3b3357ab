"""Each reader gets notifications in their own language: under the bell in the page's language,
by email in the recipient's (whoever's move caused it, in whatever language)."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from notifications.models import Kind, Notification
from tests.factories import LONGER_DEAL, GameFactory, UserFactory, started_game

from .conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)


def text_part(message: Any) -> str:
    return str(message.get_body(preferencelist=("plain",)).get_content())


def test_the_bell_list_speaks_the_readers_language() -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(hours=2))
    client = Client()
    client.force_login(users[0])
    russian = client.get(reverse("notifications:list"), headers={"accept-language": "ru"}).content.decode()
    english = client.get(reverse("notifications:list"), headers={"accept-language": "en"}).content.decode()
    assert f"Игра {game.pk} началась: карты розданы." in russian
    assert f"Ваш ход в игре {game.pk}. Сходить нужно до" in russian
    assert "Your move" not in russian
    assert f"Your move in game {game.pk}. You have until" in english
    stored = Notification.objects.get(user=users[0], kind=Kind.YOUR_MOVE)
    assert stored.params["game"] == game.pk and stored.text.startswith("Your move")  # the admin's English


def test_emails_go_out_in_each_recipients_language(smtp: Mailbox) -> None:
    creator = UserFactory(language="ru")
    game = GameFactory(creator=creator, deal=LONGER_DEAL)
    guest = UserFactory(language="en")
    with translation.override("en"):  # the guest's request, in English, deals the cards
        services.game_join(user=guest, game_id=game.pk)
    [started_ru] = smtp.to(creator.email, f"Игра {game.pk} началась")
    body = text_part(started_ru)
    assert f"Здравствуйте, {creator.username}!" in body and "Открыть игру:" in body
    assert "Hello" not in body
    [your_move] = smtp.to(creator.email, "Ваш ход")
    assert your_move["Subject"] == f"Ваш ход в игре {game.pk}"
    [started_en] = smtp.to(guest.email, f"Game {game.pk} has started")
    assert "Hello" in text_part(started_en) and "Здравствуйте" not in text_part(started_en)
