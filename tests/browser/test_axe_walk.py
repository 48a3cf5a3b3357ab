"""axe-core over the pages of the newcomer's walk (tests/browser/test_newcomer_walk.py), in English
and Russian, at 360 and 1280 px: the test fails on any violation, whatever its impact (issue 29).

The pages and their states are built through the services rather than clicked to: the sign-up,
log-in and confirm-e-mail pages, the lobby (an open game listed, the create form, "My games"),
an open game before and after taking a seat, the table as the attacker with a card picked, as the
defender with a card picked and its target armed, with the confirm bar asking, with chat lines;
the finished game with a rematch offered, the series' next game, and "Play now" waiting.

axe-core is the copy bundled in the ``axe-playwright-python`` wheel (the ``test`` extra): nothing
is fetched while the test runs.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from accounts.models import User
from chat.services import chat_post
from games import services
from games.models import Game
from matchmaking.services import queue_join
from series.services import rematch_offer
from tests.browser.table_states import log_in
from tests.factories import UserFactory, play_moves

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Axe()
WIDTHS = {360: {"width": 360, "height": 740}, 1280: {"width": 1280, "height": 800}}
# The walk's deal: the host leads 6S; a short game (tests/browser/test_newcomer_walk.py).
DEAL: dict[str, Any] = {
    "hands": [["6S", "7S", "AH"], ["8S", "9C", "10D", "JC", "QD", "KC", "6C"]],
    "stock": ["8D", "9H"],
    "first_attacker": 0,
}


#: axe-core's defaults (WCAG 2.0-2.2 A and AA, best practices), with two rules it leaves off
#: turned on: label in name (WCAG 2.5.3, experimental in axe) and the size of touch targets.
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}, "target-size": {"enabled": True}},
}


def violations(page: Page) -> list[str]:
    """Every axe-core violation on the page, at any impact."""
    results = AXE.run(page, options=OPTIONS)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(str(node["target"]) for node in violation["nodes"][:4])
        for violation in results.response["violations"]
    ]


def visitor_pages() -> dict[str, str]:
    newcomer = UserFactory(username="newcomer")
    address = EmailAddress.objects.create(user=newcomer, email=newcomer.email, primary=True, verified=False)
    key = EmailConfirmationHMAC(address).key
    return {
        "sign up": "/accounts/signup/",
        "log in": "/accounts/login/",
        "confirm the e-mail": f"/accounts/confirm-email/{key}/",
    }


def picked(code: str, target: bool = False) -> Callable[[Page], None]:
    """Pick ``code`` in the hand; with ``target``, press its first target too (the confirm bar asks)."""

    def act(page: Page) -> None:
        page.locator(f'#table .hand [data-pick="{code}"]').click()
        if target:
            page.locator("#table .card-action.armed").first.click()
            page.locator("#table .confirm-bar").wait_for(state="visible")

    return act


def _two_player(creator: User, joiner: User, *, clock: bool = True) -> Game:
    game = services.game_create(
        creator=creator,
        preset="classic",
        num_players=2,
        deal=DEAL,
        move_time=timedelta(days=1) if clock else None,
    )
    services.game_join(user=joiner, game_id=game.pk)
    game.refresh_from_db()
    return game


def member_pages(guest: User) -> list[tuple[str, str, Callable[[Page], None] | None]]:
    """The walk's pages for ``guest``, each with what to do on it before axe runs."""
    host = UserFactory(username="host")
    listed = services.game_create(creator=host, preset="classic", num_players=2, move_time=timedelta(days=1))
    own = services.game_create(creator=guest, preset="classic", num_players=3, move_time=timedelta(days=1))
    waiting = _two_player(host, guest)  # the host leads; the chat has lines
    for text in ("hello", "good luck"):
        chat_post(user=host, game=waiting, text=text)
    leading = _two_player(guest, host)  # the guest leads
    defending = _two_player(host, guest)
    services.make_move(
        user=host,
        game_id=defending.pk,
        action={"type": "attack", "cards": ["6S"]},
        expected_version=defending.version,
    )
    finished = play_moves(_two_player(guest, host, clock=False), [guest, host], 100)
    assert finished.status == Game.Status.FINISHED
    rematch_offer(user=host, game_id=finished.pk, games_agreed=3)
    return [
        ("lobby", "/", None),
        ("an open game to join", f"/games/{listed.pk}/", None),
        ("one's own open game", f"/games/{own.pk}/", None),
        ("the table, the other leads", f"/games/{waiting.pk}/", None),
        ("the table, leading, a card picked", f"/games/{leading.pk}/", picked("6S")),
        ("the table, attacked, a card picked", f"/games/{defending.pk}/", picked("8S")),
        ("the table, the confirm bar asks", f"/games/{defending.pk}/", picked("8S", target=True)),
        ("the finished game, a rematch offered", f"/games/{finished.pk}/", None),
        ("play now, waiting", "/", lambda page: None),
    ]


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_newcomers_pages_have_no_axe_violation(
    browser: Browser, live_server: Any, language: str, width: int, artifacts: Path
) -> None:
    context = browser.new_context(viewport=WIDTHS[width], locale="en-GB" if language == "en" else "ru-RU")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    problems: list[str] = []

    def check(name: str, path: str, act: Callable[[Page], None] | None) -> None:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == language, name
        if act is not None:
            act(page)
        found = violations(page)
        if found:
            page.screenshot(
                path=str(artifacts / f"axe-{language}-{width}-{name.replace(' ', '-')}.png"), full_page=True
            )
        problems.extend(f"{name} ({path}): {violation}" for violation in found)

    # axe runs and finds what it should: a name that does not start with the label it shows.
    page.goto(live_server.url + "/accounts/login/")
    page.evaluate(
        "document.querySelector('main').insertAdjacentHTML('beforeend', '<button aria-label=\\'Close\\'>Open</button>')"
    )
    assert any(found.startswith("label-content-name-mismatch") for found in violations(page))

    for name, path in visitor_pages().items():
        check(name, path, None)
    guest = UserFactory(username="guest")
    pages = member_pages(guest)
    log_in(page, live_server, guest, language)
    for name, path, act in pages[:-1]:
        check(name, path, act)
    queue_join(user=guest, preset="classic", num_players=2, time_control="1d")
    check(*pages[-1][:2], None)
    expect_waiting = page.locator("#play-now.waiting")
    assert expect_waiting.count() == 1, "the lobby does not show the guest waiting in the queue"
    context.close()
    assert not problems, f"{len(problems)} axe-core violations:\n" + "\n".join(problems)
