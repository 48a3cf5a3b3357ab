"""Who is calling, from the shared cache (``accounts.auth_cache``): a kept user or token saves the
request its queries, and every change that matters counts from the next request on.

The test process's own cache stands for the shared one (one process sees every change), with
``AUTH_CACHE_SECONDS`` on and sessions ``cached_db``, as production runs with ``CACHE_URL``.
"""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts import auth_cache, tokens
from accounts.models import ApiToken, User
from moderation import services as moderation_services
from tests.factories import PASSWORD, UserFactory, api_token

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def kept(settings: Any) -> Iterator[None]:
    settings.AUTH_CACHE_SECONDS = 30
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    cache.clear()
    yield
    cache.clear()


def token_client(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    return client


def me(client: APIClient | Client) -> int:
    return int(client.get("/api/me/").status_code)


def auth_reads(client: APIClient | Client) -> list[str]:
    """The statements ``GET /api/me/`` sends that read the caller's token, user or session."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/me/").status_code == 200
    tables = ('"accounts_apitoken"', '"accounts_user"', '"django_session"', '"moderation_sanction"')
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith("SELECT") and any(f"FROM {table}" in query["sql"] for table in tables)
    ]


def test_a_kept_token_and_user_cost_no_query() -> None:
    client = token_client(api_token(UserFactory()))
    assert auth_reads(client)  # the first call reads them
    assert auth_reads(client) == []


def test_a_kept_session_and_user_cost_no_query() -> None:
    client = Client()
    client.force_login(UserFactory())
    assert auth_reads(client)
    assert auth_reads(client) == []


def test_nothing_is_kept_without_a_shared_cache(settings: Any) -> None:
    settings.AUTH_CACHE_SECONDS = 0
    user = UserFactory()
    client = token_client(api_token(user))
    me(client)
    assert auth_reads(client)  # read again: nothing kept
    assert auth_cache.cached_user(user.pk) is None


def test_a_revoked_token_is_refused_at_once() -> None:
    user = UserFactory()
    secret = api_token(user)
    client = token_client(secret)
    assert me(client) == 200 and me(client) == 200  # kept from here
    token = ApiToken.objects.get(user=user)
    assert tokens.token_revoke(user=user, token_id=token.pk)
    assert me(client) == 401


def test_a_deactivated_user_is_refused_at_once_by_token_and_by_session() -> None:
    user = UserFactory()
    api = token_client(api_token(user))
    page = Client()
    page.force_login(user)
    assert me(api) == 200 and me(page) == 200
    user.is_active = False
    user.save()
    assert me(api) == 401
    assert me(page) in (401, 403)


def test_a_new_password_ends_the_other_sessions_and_the_tokens_at_once() -> None:
    user = UserFactory()
    api = token_client(api_token(user))
    elsewhere = Client()
    elsewhere.force_login(user)
    assert me(api) == 200 and me(elsewhere) == 200
    user = User.objects.get(pk=user.pk)
    user.set_password(PASSWORD + "-new")
    user.save()
    assert me(api) == 401  # a new password revokes the tokens
    assert me(elsewhere) in (401, 403)  # the session's hash no longer matches the kept user's


def test_a_suspension_ends_the_kept_token_and_session() -> None:
    moderator = UserFactory()
    moderation_services.moderator_grant(user=moderator, actor=None, reason="auth cache test")
    moderator.refresh_from_db()
    user = UserFactory()
    api = token_client(api_token(user))
    page = Client()
    page.force_login(user)
    assert me(api) == 200 and me(page) == 200
    moderation_services.user_suspend(
        moderator=moderator, user=user, duration=timedelta(days=1), reason="test"
    )
    assert me(api) == 401
    assert me(page) in (401, 403)


def test_a_kept_user_is_the_row_alone(django_user_model: Any) -> None:
    user = UserFactory()
    user.has_perm("games.view_game")  # fills the instance's permission caches
    auth_cache.remember_user(user)
    kept = auth_cache.cached_user(user.pk)
    assert kept is not None and kept.pk == user.pk and kept.password == user.password
    assert not {"_perm_cache", "_user_perm_cache", "_group_perm_cache"} & set(vars(kept))


def test_a_renamed_user_is_read_again() -> None:
    user = UserFactory()
    client = token_client(api_token(user))
    me(client)
    user.username = "renamed-player"
    user.save()
    assert client.get("/api/me/").json()["username"] == "renamed-player"
