"""API test fixtures: token clients, generous rates, a short long-poll."""

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import UserFactory, api_token

HIGH_RATES = {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"}


@pytest.fixture(autouse=True)
def _api_settings(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    settings.API_WAIT_SECONDS = 0.3
    cache.clear()


def token_client(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


@pytest.fixture
def client_for() -> Any:
    return token_client


@pytest.fixture
def api_user(db: Any) -> Any:
    return UserFactory()


@pytest.fixture
def api_client(api_user: Any) -> APIClient:
    return token_client(api_user)
