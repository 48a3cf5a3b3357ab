"""Two requests moving in the same game at the same moment: the row lock makes one wait,
and the version check refuses the second."""

import threading
from typing import Any

import pytest
from django.db import connection

from games import services
from games.exceptions import StaleVersion
from games.models import Game, Move
from tests.factories import LONGER_DEAL, started_game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_action", [True, False])
def test_two_moves_on_one_version_apply_exactly_one(same_action: bool) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    version = game.version
    actions = [{"type": "attack", "cards": ["6S"]}]
    actions.append(actions[0] if same_action else {"type": "attack", "cards": ["7D"]})
    barrier = threading.Barrier(2)
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def move(action: dict[str, Any]) -> None:
        try:
            barrier.wait(timeout=10)
            services.make_move(user=users[0], game_id=game.pk, action=action, expected_version=version)
            outcomes.append("applied")
        except StaleVersion:
            outcomes.append("stale")
        except BaseException as error:  # surfaced in the main thread below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=move, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    assert sorted(outcomes) == ["applied", "stale"]
    game = Game.objects.get(pk=game.pk)
    assert game.version == version + 1
    moves = list(Move.objects.filter(game=game))
    assert len(moves) == 1
    assert moves[0].seq == 1
    assert moves[0].action["cards"] in (["6S"], ["7D"])
