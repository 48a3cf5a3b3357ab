"""Failed log-ins count per account, however its name is typed: the user name or the e-mail
address, in any case, with spaces around, on the site's form or the API's token endpoint, all
go to one counter (``accounts.lockout``), so a guesser gets AXES_FAILURE_LIMIT tries at an
account from an address, not that many per spelling."""

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.lockout import axes_username
from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/auth/token/"


@pytest.fixture
def carol(settings: Any) -> User:
    settings.AXES_FAILURE_LIMIT = 5
    cache.clear()  # the token endpoint's throttle
    User.objects.create_user("dave", "dave@example.com", PASSWORD)
    return User.objects.create_user("carol", "carol@example.com", PASSWORD)


def site_login(login: str, password: str, address: str = "127.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(reverse("account_login"), {"login": login, "password": password})


def token_login(username: str, password: str) -> Any:
    return APIClient().post(
        TOKEN_URL, {"username": username, "password": password, "name": "bot"}, format="json"
    )


def test_every_spelling_of_an_account_is_one_counter(carol: User) -> None:
    for typed in ("carol", "Carol@Example.com", " CAROL ", "carol@example.com", "Carol"):
        assert axes_username(None, {"username": typed}) == "carol", typed
    assert axes_username(None, {"email": "CAROL@example.COM"}) == "carol"
    assert axes_username(None, {"username": "Nobody@Example.com "}) == "nobody@example.com"
    assert axes_username(None, {}) is None


def test_failures_over_all_spellings_lock_the_account_for_that_address(carol: User) -> None:
    failures = [
        site_login("carol", "wrong-1"),
        site_login("carol@example.com", "wrong-2"),
        token_login("Carol@Example.com", "wrong-3"),
        site_login("  CAROL  ", "wrong-4"),
    ]
    assert [response.status_code for response in failures] == [200, 200, 400, 200]
    assert site_login("Carol", "wrong-5").status_code == 429  # the fifth failure locks
    assert list(AccessAttempt.objects.values_list("username", "failures_since_start")) == [("carol", 5)]
    # Locked: the right password is refused too, by every spelling and on both doors.
    for typed in ("carol", "CAROL@EXAMPLE.COM"):
        locked = site_login(typed, PASSWORD)
        assert locked.status_code == 429, typed
        assert "too many" in locked.content.decode().lower()
    by_api = token_login("carol", PASSWORD)
    assert by_api.status_code == 429
    assert by_api.json()["code"] == "locked_out"
    # Other accounts from the same address, and the account from another address, are not locked.
    assert site_login("dave", PASSWORD).status_code == 302
    assert site_login("DAVE@example.com", "wrong").status_code == 200
    assert site_login("carol", PASSWORD, address="10.20.30.40").status_code == 302


def test_names_of_no_account_are_limited_too(carol: User) -> None:
    for typed in ("ghost@example.com", "GHOST@example.com", "Ghost@Example.com ", "ghost@EXAMPLE.com"):
        assert site_login(typed, "guess").status_code == 200
    assert site_login("ghost@example.com", "guess").status_code == 429
    assert site_login("carol", PASSWORD).status_code == 302
