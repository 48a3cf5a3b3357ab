"""Is the game page flat in the game's length? (A benchmark, not a test: issue 32.)

    python -m benchmarks.game_page [--at 10 150 300] [--runs 15] [--seed 4248]

Needs PostgreSQL. It uses its own database, ``durak_game_page`` (dropped and re-created;
``GAME_PAGE_DATABASE_URL`` to change it), with Celery eager (no broker needed), and the site in
this process through Django's test client.

One three-player classic game is played through ``services.make_move`` (the defender takes half
the time they may, else the first legal action: a long game with hands of a usual size, about
360 moves from seed 4248). When it has made each of ``--at`` moves, and once it is over, it
measures the game page as a player sees it (``GET /games/<id>/``), its HTMX table partial as the
poll gets it after a move, and the page as a spectator sees it: the median time of ``--runs``
requests after two warm-ups, the size of the response, of its history and the history's items,
and the queries. Target (issue 32): at the last ``--at``, the time and the size within 10 % of
the first's (before move ``HISTORY_PAGE`` the history is not full yet: its size grows to the
page's, then stays).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("GAME_PAGE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak_game_page")
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DEBUG": "true",
        "DATABASE_URL": DATABASE_URL,
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "EMAIL_URL": "dummymail://",
        "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "WARNING",
    }
)
#: How much longer or larger the page may be at the last measured move than at the first.
TARGET = 1.10
#: The share of the defender's chances to take that they take.
TAKES = 0.5


def fresh_database() -> None:
    import psycopg

    name = DATABASE_URL.rsplit("/", 1)[1]
    server = DATABASE_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def history_of(html: str) -> tuple[int, int]:
    """The size of the page's history and its number of items."""
    match = re.search(r'<details class="history".*?</details>', html, re.DOTALL)
    if not match:
        return 0, 0
    return len(match.group(0).encode()), len(re.findall(r'<li class="history-entry', match.group(0)))


def measure(get: Any, runs: int) -> dict[str, Any]:
    from django.db import connection, reset_queries

    for _ in range(2):
        get()
    times = []
    for _ in range(runs):
        reset_queries()
        started = time.perf_counter()
        response = get()
        times.append(time.perf_counter() - started)
    html = response.content.decode()
    history_bytes, items = history_of(html)
    return {
        "ms": statistics.median(times) * 1000,
        "kb": len(response.content) / 1024,
        "history_kb": history_bytes / 1024,
        "items": items,
        "queries": len(connection.queries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--at", type=int, nargs="+", default=[10, 150, 300], help="moves made when measured")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=4248)
    args = parser.parse_args()

    fresh_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User
    from games import services
    from games.models import Game

    call_command("migrate", verbosity=0)
    users = [
        User.objects.create_user(f"page-{n}", f"page-{n}@example.com", "page-password-1") for n in range(3)
    ]
    spectator = User.objects.create_user("page-watcher", "watcher@example.com", "page-password-1")
    game = services.game_create(creator=users[0], preset="classic", num_players=3, seed=args.seed)
    for user in users[1:]:
        services.game_join(user=user, game_id=game.pk)
    by_position = {seat.position: seat.user for seat in game.seats.select_related("user")}
    player, watcher = Client(), Client()
    player.force_login(by_position[0])
    watcher.force_login(spectator)
    page = f"/games/{game.pk}/"
    poll = f"/games/{game.pk}/poll/?version=0"
    choice = random.Random(args.seed)

    def get(client: Client, url: str, **headers: str) -> Any:
        def run() -> Any:
            response = client.get(url, headers=headers)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return run

    rows: list[tuple[str, str, dict[str, Any]]] = []
    targets = sorted(set(args.at))
    while True:
        game.refresh_from_db()
        over = game.status != Game.Status.ACTIVE
        if game.moves_made in targets or over:
            label = f"{game.moves_made}" + (" (over)" if over else "")
            rows.append((label, "player page", measure(get(player, page), args.runs)))
            rows.append(
                (label, "poll partial", measure(get(player, poll, **{"HX-Request": "true"}), args.runs))
            )
            rows.append((label, "spectator page", measure(get(watcher, page), args.runs)))
            print(f"  measured at move {label}", file=sys.stderr, flush=True)
        if over:
            break
        assert game.state is not None
        engine = game.engine()
        position = engine.waiting_for()[0]
        actions = engine.legal_json(position)
        takes = [action for action in actions if action["type"] == "take"]
        action = takes[0] if takes and choice.random() < TAKES else actions[0]
        services.make_move(
            user=by_position[position], game_id=game.pk, action=action, expected_version=game.version
        )

    print(f"Game page by the game's length (median of {args.runs} requests; history = its <details>)\n")
    print("| moves | request | ms | KB | history KB | history items | queries |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, request, row in rows:
        print(
            f"| {label} | {request} | {row['ms']:.1f} | {row['kb']:.1f} | {row['history_kb']:.1f} "
            f"| {row['items']} | {row['queries']} |"
        )
    measured = [str(t) for t in targets if any(label == str(t) for label, *_ in rows)]
    last = measured[-1]
    for first in measured[:-1]:
        print(f"\nMove {last} against move {first} (target: at most {TARGET:.2f}x):")
        for request in ("player page", "poll partial", "spectator page"):
            a = next(row for label, name, row in rows if label == first and name == request)
            b = next(row for label, name, row in rows if label == last and name == request)
            print(
                f"  {request}: time {b['ms'] / a['ms']:.2f}x, size {b['kb'] / a['kb']:.2f}x, "
                f"history {b['history_kb'] / a['history_kb']:.2f}x, queries {a['queries']} -> {b['queries']}"
            )


if __name__ == "__main__":
    main()
