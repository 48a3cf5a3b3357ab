"""The profile, leaderboard, series and replay pages in a real browser, after a few games played
through the services; screenshots of each go to ``test-artifacts/browser/`` (README's
``docs/screenshots/`` are copies of them)."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from games import services
from series.models import SeriesGame
from series.services import start_next_game
from tests.factories import GameFactory, started_game
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, SIX_DEAL, SIX_MOVES, play_script, time_out

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Masha", "Petya", "Sasha", "Dima", "Olya", "Vanya"]


def test_profile_leaderboard_series_and_replay_pages(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    six_game, users = started_game(players=6, deal=SIX_DEAL)
    for user, name in zip(users, NAMES, strict=True):
        user.display_name = name
        user.save(update_fields=["display_name"])
    play_script(six_game, users, SIX_MOVES)
    masha, petya = users[0], users[1]
    draw = GameFactory(creator=masha, deal=DRAW_DEAL)
    services.game_join(user=petya, game_id=draw.pk)
    play_script(draw, [masha, petya], DRAW_MOVES)
    game, pair = started_game(move_time=timedelta(minutes=5), creator=masha)
    pair[1].display_name = "Kolya"
    pair[1].save(update_fields=["display_name"])
    game = time_out(game)
    for _ in range(2):
        game = time_out(start_next_game(user=masha, game_id=game.pk, games_agreed=3))
    series_id = SeriesGame.objects.get(game=game).series_id

    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(f"{live_server.url}/players/{masha.username}/?vs={pair[1].username}")
    expect(page.locator("h1")).to_contain_text("Masha")
    expect(page.locator(".stat-grid")).to_contain_text("games played")
    expect(page.locator(".h2h")).to_contain_text("played 3 games together")
    page.screenshot(path=str(artifacts / "profile.png"), full_page=True)

    page.goto(f"{live_server.url}/leaderboard/")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(7)
    page.select_option("select[name=players]", "6")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".leaderboard tbody tr")).to_have_count(6)
    expect(page.locator(".leaderboard tbody tr").first).to_contain_text("Masha")
    page.screenshot(path=str(artifacts / "leaderboard.png"), full_page=True)

    page.goto(f"{live_server.url}/series/{series_id}/")
    expect(page.locator(".winner")).to_contain_text("Winner:")
    page.screenshot(path=str(artifacts / "series.png"), full_page=True)

    page.goto(f"{live_server.url}/games/{six_game.pk}/replay/?step=6")
    expect(page.locator(".fairness .verdict")).to_contain_text("The deal matches")
    expect(page.locator(".replay-hand")).to_have_count(6)
    page.get_by_role("link", name="next ▶").click()
    expect(page.locator(".steps strong")).to_have_text("move 7 of 16")
    page.screenshot(path=str(artifacts / "replay.png"), full_page=True)
