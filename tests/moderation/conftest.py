from typing import Any

import pytest
from django.test import Client

from moderation import services
from tests.factories import UserFactory


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def moderator(db: Any) -> Any:
    user = UserFactory(username="mod")
    services.moderator_grant(user=user, actor=None, reason="test moderator")
    user.refresh_from_db()
    return user


@pytest.fixture
def mod_client(moderator: Any) -> Client:
    return client_for(moderator)
