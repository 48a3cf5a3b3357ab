"""Chat asks ``chat.restrictions`` who may not post, and moderation answers (its mutes): chat
never imports moderation, which sits above it."""

from collections.abc import Iterator
from typing import Any

import pytest

from chat import restrictions
from chat.exceptions import ChatRefused
from chat.models import ChatMessage
from chat.services import chat_post
from moderation.selectors import why_muted
from tests.chat.test_chat import client_for, log, post
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def shy() -> Iterator[Any]:
    """A restriction of the test's own: the user with the id in ``shy.user_id`` may not post."""

    class Shy:
        user_id: Any = None

        def __call__(self, user_id: Any) -> str | None:
            return "You are too shy to post." if user_id == self.user_id else None

    restriction = Shy()
    restrictions.register(restriction)
    yield restriction
    restrictions._restrictions.remove(restriction)


def test_moderation_registers_its_mutes_when_the_site_starts() -> None:
    assert why_muted in restrictions._restrictions


def test_a_registered_restriction_refuses_the_post_and_the_log_says_why(shy: Any) -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    shy.user_id = alice.pk
    with pytest.raises(ChatRefused, match="too shy"):
        chat_post(user=alice, game=game, text="hello")
    response = post(client_for(alice), game, "hello")
    assert response.status_code == 403 and "You are too shy to post." in response.content.decode()
    assert "You are too shy to post." in log(client_for(alice), game).content.decode()
    assert not ChatMessage.objects.exists()
    # Only whom it names.
    assert chat_post(user=bob, game=game, text="hi").text == "hi"
    assert "too shy" not in log(client_for(bob), game).content.decode()


def test_registering_twice_asks_once(shy: Any) -> None:
    count = len(restrictions._restrictions)
    restrictions.register(shy)
    assert len(restrictions._restrictions) == count
