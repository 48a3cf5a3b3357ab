"""Rate limits bite, say so clearly, and let go when their window has passed.

(That they bite at all is also in tests/api/test_errors.py and tests/moderation/test_access.py;
here: the message a person or a client program gets, and the reset.)"""

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from api import throttling
from tests.factories import PASSWORD, api_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> User:
    cache.clear()
    return User.objects.create_user("limited", "limited@example.com", PASSWORD)


def api_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


def test_the_api_rate_answers_429_with_when_to_retry_and_resets(
    player: User, settings: Any, monkeypatch: Any
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "3/min", "ip": "1000/min", "auth": "1000/min"},
    }
    now = [1_000_000.0]
    monkeypatch.setattr(throttling.PerUserThrottle, "timer", lambda self: now[0])
    client = api_client(player)
    for _ in range(3):
        assert client.get("/api/me/").status_code == 200
    refused = client.get("/api/me/")
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "throttled"
    assert "available in" in body["detail"] and "second" in body["detail"], body
    assert 0 < int(refused["Retry-After"]) <= 60
    now[0] += 30
    assert client.get("/api/me/").status_code == 429  # still inside the minute
    now[0] += 31
    assert client.get("/api/me/").status_code == 200  # the window has passed


def test_a_locked_out_log_in_says_why_and_lets_go_after_the_cool_off(player: User, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    url = reverse("account_login")
    client = Client()
    for _ in range(2):
        assert client.post(url, {"login": player.username, "password": "wrong"}).status_code == 200
    assert client.post(url, {"login": player.username, "password": "wrong"}).status_code == 429
    locked = client.post(url, {"login": player.username, "password": PASSWORD})
    assert locked.status_code == 429
    assert "too many" in locked.content.decode().lower(), locked.content[:500]
    assert "_auth_user_id" not in client.session
    # The cool-off (AXES_COOLOFF_MINUTES) passes: the right password works again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert client.post(url, {"login": player.username, "password": PASSWORD}).status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


def test_an_administrator_can_lift_a_lock_at_once(player: User, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    url = reverse("account_login")
    for _ in range(2):
        Client().post(url, {"login": player.username, "password": "wrong"})
    assert Client().post(url, {"login": player.username, "password": PASSWORD}).status_code == 429
    call_command("axes_reset_username", player.username)
    assert Client().post(url, {"login": player.username, "password": PASSWORD}).status_code == 302


def test_the_token_endpoint_is_throttled_and_locked_like_the_site(player: User, settings: Any) -> None:
    """A client program guessing passwords gets the same lock as the log-in form, and the
    answer the README promises: 429, the API's error body, when to retry."""
    settings.AXES_FAILURE_LIMIT = 2

    def token_login(password: str) -> Any:
        return APIClient().post(
            "/api/auth/token/", {"username": player.username, "password": password}, format="json"
        )

    assert token_login("x").status_code == 400
    # The failure that reaches the limit is refused as locked already, as on the site's form.
    answers = [token_login("x"), token_login(PASSWORD)]
    for locked in answers:
        assert locked.status_code == 429, locked.content
        assert locked.json() == {"detail": "Too many failed log-ins: try again later.", "code": "locked_out"}
        # The cool-off (AXES_COOLOFF_MINUTES, 15) from the latest failure.
        assert 14 * 60 < int(locked["Retry-After"]) <= 15 * 60
    assert (
        Client().post(reverse("account_login"), {"login": player.username, "password": PASSWORD}).status_code
        == 429
    )
    # The cool-off passes: the right password makes a token again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert "token" in token_login(PASSWORD).json()
