"""Replays of finished games, the fairness check (tampered seeds and logs are caught), the JSON
export replayed by the engine alone, and nothing of this for a running game."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db.models import F
from django.test import Client

import durak
from games.models import Game, Move
from replays import selectors
from tests.factories import started_game
from tests.games.helpers import assert_no_hidden_cards
from tests.leaks import shows_number
from tests.stats.helpers import SIX_DEAL, SIX_MOVES, play_script

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def played_out(max_moves: int = 600) -> tuple[Game, list[Any]]:
    """A shuffled game (a random 62-bit seed) played to the end, first legal action each time."""
    from tests.factories import play_moves

    game, users = started_game(players=3, seed=None)
    game = play_moves(game, users, max_moves)
    assert game.status == Game.Status.FINISHED
    return game, users


def fairness(game: Game) -> selectors.Fairness:
    game = selectors.finished_game(game_id=game.pk)
    return selectors.check_fairness(game=game, moves=selectors.game_moves(game=game))


def test_a_replay_ends_in_the_stored_final_state_and_the_deal_checks_out() -> None:
    game, _ = played_out()
    report = fairness(game)
    assert report.ok and report.problem == ""
    assert report.published_hash == report.recomputed_hash == game.seed_hash
    moves = selectors.game_moves(game=game)
    engine = durak.Game.new(durak.Rules.from_dict(game.rules), 3, game.seed, dealer=game.dealer)
    for move in moves:
        engine.apply(move.action)
    assert engine.to_dict() == game.state
    last = selectors.replay_frame(game=selectors.finished_game(game_id=game.pk), moves=moves, step=len(moves))
    assert [cards for _, cards, _ in last.hands] == [
        durak.sort_hand(list(h), engine.trump) for h in engine.hands
    ]
    first = selectors.replay_frame(game=selectors.finished_game(game_id=game.pk), moves=moves, step=0)
    start = durak.Game.new(durak.Rules.from_dict(game.rules), 3, game.seed, dealer=game.dealer)
    assert [sorted(cards) for _, cards, _ in first.hands] == [sorted(h) for h in start.hands]


def test_a_tampered_seed_is_detected() -> None:
    game, _ = played_out()
    Game.objects.filter(pk=game.pk).update(seed=F("seed") + 1)
    report = fairness(game)
    assert not report.hash_matches and not report.ok
    assert "does not give the hash published" in report.problem


def test_a_tampered_move_log_is_detected() -> None:
    game, _ = played_out()
    # Change the first attack to a different legal-looking move: the replay goes elsewhere.
    first = Move.objects.get(game=game, seq=1)
    engine = durak.Game.new(durak.Rules.from_dict(game.rules), 3, game.seed, dealer=game.dealer)
    other = next(a for a in engine.legal_json(first.action["player"]) if a != first.action)
    Move.objects.filter(pk=first.pk).update(action=other)
    report = fairness(game)
    assert report.hash_matches and not report.replay_matches and not report.ok


def test_a_dropped_last_move_is_detected() -> None:
    game, _ = played_out()
    Move.objects.filter(game=game).order_by("-seq").first().delete()
    report = fairness(game)
    assert not report.replay_matches and "does not end where" in report.problem


def test_the_replay_page_shows_every_hand_and_the_verdict(client: Client) -> None:
    game, users = started_game(players=6, deal=SIX_DEAL)
    play_script(game, users, SIX_MOVES)
    page = client.get(f"/games/{game.pk}/replay/?step=0").content.decode()
    for hand in SIX_DEAL["hands"]:
        for card in hand:
            assert f'data-card="{card}"' in page
    assert "The deal matches" in page
    page = client.get(f"/games/{game.pk}/replay/?step=6").content.decode()
    assert 'aria-current="step"' in page and "move 6 of 16" in page
    tampered = {**SIX_DEAL, "hands": [SIX_DEAL["hands"][1], SIX_DEAL["hands"][0], *SIX_DEAL["hands"][2:]]}
    Game.objects.filter(pk=game.pk).update(deal=tampered)
    assert "does not check out" in client.get(f"/games/{game.pk}/replay/").content.decode()


def test_the_export_replays_with_the_engine_alone(client: Client, tmp_path: Path) -> None:
    game, _ = played_out()
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert data["seed"] == game.seed and len(data["moves"]) == game.moves.count()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    script = [sys.executable, str(ROOT / "examples" / "replay_export.py"), str(path)]
    ok = subprocess.run(script, capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "the deal matches its hash" in ok.stdout
    data["seed"] += 1
    path.write_text(json.dumps(data))
    bad = subprocess.run(script, capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert bad.returncode == 1 and "published hash" in bad.stdout


def test_a_running_game_is_never_replayed_or_exported_and_its_seed_stays_secret(client: Client) -> None:
    game, users = started_game(players=2, seed=None)
    assert len(game.seed_hash) == 64
    for url in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/export.json"):
        assert client.get(url).status_code == 404
    client.force_login(users[0])
    for url in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/export.json"):
        assert client.get(url).status_code == 404
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert game.seed_hash in page
    assert not shows_number(page, game.seed)
    assert_no_hidden_cards(page, game.engine(), 0)
