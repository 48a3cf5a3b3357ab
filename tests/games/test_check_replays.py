import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Move
from tests.factories import LONGER_DEAL, GameFactory, play_moves, started_game

pytestmark = pytest.mark.django_db


def test_replays_of_shuffled_and_stacked_games_match(capsys: pytest.CaptureFixture[str]) -> None:
    shuffled, users = started_game(players=3, seed=31337)
    play_moves(shuffled, users, 25)
    stacked, users = started_game(deal=LONGER_DEAL)
    play_moves(stacked, users, 100)
    GameFactory(num_players=3)  # not started: nothing to replay
    call_command("check_replays")
    assert "Checked 2 game(s): 0 mismatch(es)." in capsys.readouterr().out


def test_a_tampered_state_is_reported_without_cards(capsys: pytest.CaptureFixture[str]) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    play_moves(game, users, 3)
    game.refresh_from_db()
    state = dict(game.state)
    state["hands"] = [list(reversed(hand)) for hand in state["hands"]][::-1]
    Game.objects.filter(pk=game.pk).update(state=state)
    with pytest.raises(CommandError, match="1 mismatch"):
        call_command("check_replays")
    report = capsys.readouterr().err
    assert f"game {game.pk}: replayed state differs in hands" in report
    assert "6S" not in report and "AH" not in report


def test_a_tampered_log_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    play_moves(game, users, 2)
    Move.objects.filter(game=game, seq=2).update(action={"type": "take", "player": 0})
    with pytest.raises(CommandError):
        call_command("check_replays", game.pk)
    assert f"game {game.pk}: move 2 is illegal on replay" in capsys.readouterr().err
