"""The rematch's live channel: readable by whoever may see the game, and told of each change
once the change commits (names and answers only, never a card)."""

from typing import Any

import pytest

from durak_site import live
from durak_site.channels import readable_channels
from games.models import Game
from series import services
from tests.factories import UserFactory

from .helpers import finished_game

pytestmark = pytest.mark.django_db


def test_the_channel_is_read_by_those_who_may_see_the_game() -> None:
    public, (alice, _bob) = finished_game()
    private, (carol, _dave) = finished_game()
    Game.objects.filter(pk=private.pk).update(private=True)
    channels = [live.rematch_channel(public.pk), live.rematch_channel(private.pk)]
    stranger = UserFactory()
    assert readable_channels(channels=channels, user=stranger, shared_game_ids=()) == {channels[0]}
    assert readable_channels(channels=channels, user=carol, shared_game_ids=()) == set(channels)
    assert readable_channels(channels=channels, user=stranger, shared_game_ids={private.pk}) == set(channels)
    assert (
        readable_channels(channels=["game-1-rematchx", "game-0-rematch"], user=alice, shared_game_ids=())
        == set()
    )


def test_each_answer_sends_one_event_after_the_commit(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    game, (alice, bob) = finished_game()
    sent: list[tuple[str, str, dict[str, Any]]] = []
    monkeypatch.setattr(live, "send", lambda channel, kind, data: sent.append((channel, kind, dict(data))))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.rematch_offer(user=alice, game_id=game.pk)
    assert not [event for event in sent if event[1] == "rematch"]  # nothing before the commit
    for callback in callbacks:
        callback()
    with django_capture_on_commit_callbacks(execute=True):
        services.rematch_accept(user=bob, game_id=game.pk)
    rematch_events = [event for event in sent if event[1] == "rematch"]
    assert rematch_events == [(f"game-{game.pk}-rematch", "rematch", {"game": game.pk})] * 2
