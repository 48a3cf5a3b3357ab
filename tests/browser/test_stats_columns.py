"""The profile's and the leaderboard's columns line up with their headings (issue 19), and a
provisional rating is marked so on both pages, in a real browser."""

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games import services
from stats.models import Mode, Rating
from tests.factories import GameFactory, UserFactory, started_game
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script, time_out

pytestmark = pytest.mark.django_db(transaction=True)

#: For every table of the page, every column: (heading, first cell, which edge, the two x
#: positions), measured on their text (a Range over the contents), not on the boxes.
COLUMNS = """() => {
  const edges = (element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const box = range.getBoundingClientRect();
    return { left: box.left, right: box.right };
  };
  const out = [];
  document.querySelectorAll("table.stats-table").forEach((table, t) => {
    const heads = table.querySelectorAll("thead th");
    table.querySelectorAll("tbody tr").forEach((row) => {
      row.querySelectorAll("th, td").forEach((cell, i) => {
        const head = heads[i];
        if (!head || !head.textContent.trim() || !cell.textContent.trim()) return;
        const align = getComputedStyle(cell).textAlign;
        const side = align === "right" || align === "end" ? "right" : "left";
        out.push({ table: t, column: head.textContent.trim(), cell: cell.textContent.trim(),
          side, head: edges(head)[side], at: edges(cell)[side],
          headAlign: getComputedStyle(head).textAlign });
      });
    });
  });
  return out;
}"""


def assert_columns_line_up(page: Page) -> None:
    columns = page.evaluate(COLUMNS)
    assert columns, "no table columns measured"
    off = [c for c in columns if abs(c["head"] - c["at"]) > 2]
    assert off == [], "columns off their headings:\n" + "\n".join(
        f"table {c['table']} {c['column']!r}: heading {c['side']} edge at {c['head']:.0f}, "
        f"cell {c['cell']!r} at {c['at']:.0f} (heading aligned {c['headAlign']})"
        for c in off
    )


def test_profile_and_leaderboard_columns_line_up_and_provisional_is_marked(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    game, (masha, petya) = started_game(move_time=timedelta(minutes=5))
    masha.display_name, petya.display_name = "Masha", "Petya"
    masha.save(update_fields=["display_name"])
    petya.save(update_fields=["display_name"])
    time_out(game)
    draw = GameFactory(creator=masha, deal=DRAW_DEAL)
    services.game_join(user=petya, game_id=draw.pk)
    play_script(draw, [masha, petya], DRAW_MOVES)
    veteran = UserFactory(display_name="Vera")
    Rating.objects.create(
        user=veteran, mode=Mode.THROW_IN, players=0, mu=30.32, sigma=6.4, ordinal=11.12, games=12
    )

    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(f"{live_server.url}/players/{masha.username}/")
    expect(page.locator(".profile h1")).to_contain_text("Masha")
    expect(page.locator(".provisional-tag")).to_have_text("provisional")
    assert_columns_line_up(page)
    page.screenshot(path=str(artifacts / "profile-columns.png"), full_page=True)

    page.goto(f"{live_server.url}/leaderboard/")
    boards = page.locator("table.leaderboard")
    expect(boards).to_have_count(2)
    expect(boards.first.locator("tbody tr")).to_have_count(1)
    expect(boards.first).to_contain_text("Vera")
    expect(boards.first.locator(".provisional-tag")).to_have_count(0)
    provisional = page.locator("table.provisional-board")
    expect(provisional.locator("tbody tr")).to_have_count(2)
    expect(provisional.locator(".provisional-tag")).to_have_count(2)
    # Whole numbers while provisional: "-1.8 ± 24.2" no more.
    for text in provisional.locator(".rating-value").all_inner_texts():
        number, _, rest = text.partition("±")
        assert "." not in number and "." not in rest.replace("provisional", ""), text
    assert_columns_line_up(page)
    page.screenshot(path=str(artifacts / "leaderboard-columns.png"), full_page=True)
