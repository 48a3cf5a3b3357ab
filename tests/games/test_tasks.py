import logging

import pytest

from games import tasks
from tests.factories import LONGER_DEAL, started_game

pytestmark = pytest.mark.django_db


def test_game_changed_reports_who_is_waited_for_and_no_card(caplog: pytest.LogCaptureFixture) -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    with caplog.at_level(logging.INFO, logger="games.tasks"):
        tasks.game_changed.delay(game.pk, game.version)
    assert f"game {game.pk} at version {game.version} waits for seats [0]" in caplog.text
    assert "6S" not in caplog.text
