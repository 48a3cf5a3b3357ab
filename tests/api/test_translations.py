"""API error bodies in the caller's language (Accept-Language); ``code`` never changes."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import token_client
from tests.factories import SHORT_DEAL, started_game

pytestmark = pytest.mark.django_db


def test_not_found_in_russian_and_english() -> None:
    russian = APIClient().get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE="ru")
    assert russian.status_code == 404
    assert russian.json() == {"detail": "По этому адресу ничего нет.", "code": "not_found"}
    english = APIClient().get("/api/no-such-thing/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json() == {"detail": "There is nothing at this address.", "code": "not_found"}


def test_an_invalid_request_in_russian_keeps_its_codes(api_client: APIClient) -> None:
    game, users = started_game(deal=SHORT_DEAL)
    client = token_client(users[0])
    body: dict[str, Any] = {"action": {"type": "fly"}, "expected_version": game.version}
    response = client.post(f"/api/games/{game.pk}/actions/", body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "invalid" and data["detail"] == "Запрос неверен."
    assert "Неизвестный тип действия 'fly'" in str(data["errors"])
    english = client.post(f"/api/games/{game.pk}/actions/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "The request is not valid." and english.json()["code"] == "invalid"


def test_drf_s_own_messages_are_translated_too() -> None:
    response = APIClient().get("/api/games/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 401
    data = response.json()
    assert data["code"] == "not_authenticated"
    assert "Учетные данные не были предоставлены" in data["detail"]


def test_a_token_caller_without_accept_language_gets_their_settings_language() -> None:
    game, users = started_game(deal=SHORT_DEAL)
    users[0].language = "ru"
    users[0].save(update_fields=["language"])
    client = token_client(users[0])
    body: dict[str, Any] = {"action": {"type": "fly"}, "expected_version": game.version}
    response = client.post(f"/api/games/{game.pk}/actions/", body, format="json")
    assert response.json()["detail"] == "Запрос неверен." and response.json()["code"] == "invalid"
    fresh = token_client(users[0])  # no language cookie from the answer above
    asked = fresh.post(f"/api/games/{game.pk}/actions/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert asked.json()["detail"] == "The request is not valid."  # the header wins
