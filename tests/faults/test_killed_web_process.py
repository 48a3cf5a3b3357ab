"""Drill: the web process is killed (SIGKILL, as when a machine dies) in the middle of a move.

The move is held, from the test's side (``held_move``: the site's application with the write
core's ``games.write.record`` wrapped), either with every row written but not committed, or
committed with no answer sent yet, and gunicorn is killed there. The
database then holds none of the move or all of it, never a part, and a fresh process
carries the game on.
"""

import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.factories import LONGER_DEAL, started_game

from .conftest import Site
from .snapshots import assert_consistent, game_snapshot


@pytest.mark.parametrize("stage", ["before_commit", "after_commit"])
def test_a_move_killed_midway_is_all_there_or_not_at_all(site: Site, tmp_path: Path, stage: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = game_snapshot(game.pk)
    marker = tmp_path / "held"
    site.start("tests.faults.held_move:application", HELD_MOVE_STAGE=stage, HELD_MOVE_MARKER=str(marker))
    attacker = site.page_client(users[0], game.pk)

    answers: list[object] = []

    def post_move() -> None:
        try:
            answers.append(
                attacker.post(
                    f"/games/{game.pk}/move/",
                    data={
                        "expected_version": str(before["version"]),
                        "action": '{"type": "attack", "cards": ["6S"]}',
                    },
                )
            )
        except httpx.HTTPError as error:
            answers.append(error)

    poster = threading.Thread(target=post_move)
    poster.start()
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert time.monotonic() < deadline, f"the move never reached the hold:\n{site.log()[-2000:]}"
        time.sleep(0.02)
    site.kill()
    poster.join(timeout=60)
    assert len(answers) == 1 and isinstance(answers[0], httpx.HTTPError), "the killed process answered"

    after = game_snapshot(game.pk)
    if stage == "before_commit":
        assert after == before  # none of it: no Move row, same version, seats, clocks, notifications
    else:
        assert after["version"] == before["version"] + 1  # all of it
        assert [move[2] for move in after["moves"]] == [{"type": "attack", "cards": ["6S"], "player": 0}]
        assert after["seats"] != before["seats"]  # the defender is waited for now
        assert after["state"] != before["state"]
    assert_consistent(game.pk)

    # A fresh process, without the hold, carries the game on from what was stored.
    site.start()
    defender = site.api_client(users[1])
    if stage == "before_commit":
        replay = site.page_client(users[0], game.pk).post(
            f"/games/{game.pk}/move/",
            data={
                "expected_version": str(before["version"]),
                "action": '{"type": "attack", "cards": ["6S"]}',
            },
        )
        assert replay.status_code == 302, replay.text[:500]
    response = defender.post(
        f"/api/games/{game.pk}/actions/",
        json={
            "expected_version": before["version"] + 1,
            "action": {"type": "defend", "card": "8S", "target": "6S"},
        },
    )
    assert response.status_code == 200, response.text[:500]
    final = game_snapshot(game.pk)
    assert final["version"] == before["version"] + 2
    assert len(final["moves"]) == 2
    assert_consistent(game.pk)
