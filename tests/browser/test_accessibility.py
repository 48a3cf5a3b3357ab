"""Every page on a phone and on a desktop: no sideways scrolling, no serious or critical axe-core
violation, and the game page in Russian without an English string of the site's catalogues.

axe-core is the copy bundled with ``axe-playwright-python``; Playwright injects it into the page
through the DevTools protocol, so the site's Content-Security-Policy does not have to allow it.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polib
import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page

import durak
from accounts.models import User
from games import services
from games.models import Game
from series.models import SeriesGame
from series.services import start_next_game
from tests.factories import GameFactory, UserFactory, play_moves

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
AXE = Axe()


@dataclass
class Site:
    alice: User
    bob: User
    running: Game
    finished: Game
    open_game: Game
    series_id: int

    def pages(self) -> dict[str, str]:
        """Every page a player or a visitor reaches, by a name for the failure message."""
        pages = {
            "lobby": "/",
            "game": f"/games/{self.running.pk}/",
            "open game": f"/games/{self.open_game.pk}/",
            "finished game": f"/games/{self.finished.pk}/",
            "replay": f"/games/{self.finished.pk}/replay/",
            "chat log": f"/games/{self.running.pk}/chat/",
            "profile": f"/players/{self.alice.username}/",
            "leaderboard": "/leaderboard/",
            "notifications": "/notifications/",
            "settings": "/notifications/settings/",
            "series": f"/series/{self.series_id}/",
            "report": f"/reports/new/?game={self.running.pk}",
            "rules": "/rules/",
            **{f"rules: {name}": f"/rules/{name}/" for name in durak.PRESETS},
        }
        return pages


@pytest.fixture
def site() -> Site:
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    running = GameFactory(creator=alice)
    services.game_join(user=bob, game_id=running.pk)
    running = play_moves(running, [alice, bob], 3)
    finished = GameFactory(creator=alice)
    services.game_join(user=bob, game_id=finished.pk)
    finished = play_moves(finished, [alice, bob], 400)
    assert finished.status == Game.Status.FINISHED
    series_game = play_moves(
        start_next_game(user=alice, game_id=finished.pk, games_agreed=3), [alice, bob], 400
    )
    open_game = GameFactory(creator=bob, num_players=3)
    return Site(
        alice=alice,
        bob=bob,
        running=running,
        finished=finished,
        open_game=open_game,
        series_id=SeriesGame.objects.get(game=series_game).series_id,
    )


def signed_in(
    browser: Browser, live_server: Any, user: User, viewport: dict[str, int], locale: str
) -> BrowserContext:
    client = Client()
    client.force_login(user, backend="moderation.backends.ModelBackend")
    context = browser.new_context(viewport=viewport, locale=locale, has_touch=viewport is PHONE)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def serious_violations(page: Page) -> list[str]:
    results = AXE.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + ", ".join(str(node["target"]) for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


@pytest.fixture(params=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return PHONE if request.param == "phone" else DESKTOP


def test_no_page_scrolls_sideways_or_fails_axe(
    browser: Browser, live_server: Any, site: Site, viewport: dict[str, int], artifacts: Path
) -> None:
    problems: list[str] = []
    anonymous = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)
    visitor_pages = {
        "lobby (visitor)": "/",
        "log in": "/accounts/login/",
        "sign up": "/accounts/signup/",
        "password reset": "/accounts/password/reset/",
        "rules (visitor)": "/rules/",
    }
    member = signed_in(browser, live_server, site.alice, viewport, "en-GB")
    for context, pages in ((anonymous, visitor_pages), (member, site.pages())):
        page = context.new_page()
        for name, path in pages.items():
            response = page.goto(live_server.url + path)
            assert response is not None and response.ok, (
                f"{name}: {path} answered {response and response.status}"
            )
            page.wait_for_load_state("networkidle")
            overflow = horizontal_overflow(page)
            if overflow > 0:
                page.screenshot(
                    path=str(artifacts / f"overflow-{viewport['width']}-{name}.png"), full_page=True
                )
                problems.append(f"{name} ({path}) is {overflow}px wider than {viewport['width']}px")
            problems += [f"{name} ({path}): {violation}" for violation in serious_violations(page)]
    assert not problems, "\n".join(problems)


def english_catalogue() -> set[str]:
    """Every msgid of the site's English catalogues (the project's and each app's)."""
    msgids: set[str] = set()
    for path in [ROOT / "locale/en/LC_MESSAGES/django.po", *ROOT.glob("*/locale/en/LC_MESSAGES/django.po")]:
        for entry in polib.pofile(str(path)):
            msgids.update(filter(None, (entry.msgid, entry.msgid_plural)))
    return msgids


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|<[^>]+>")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_fragments(msgid: str) -> Iterator[re.Pattern[str]]:
    """What of ``msgid`` would show on a page if it were left untranslated: its literal parts
    with at least one word of two letters, matched as whole words."""
    for part in PLACEHOLDER.split(msgid):
        part = part.strip(" .,:;!?()«»\"'—-·…")
        if LATIN_WORD.search(part):
            yield re.compile(r"(?<![A-Za-z])" + re.escape(part) + r"(?![A-Za-z])")


def visible_words(page: Page) -> str:
    """The page's text as a person and a screen reader meet it: visible text, accessible names,
    titles, placeholders and button values."""
    return str(
        page.evaluate(
            """() => {
              const attributes = [...document.querySelectorAll('[aria-label],[title],[placeholder],[alt],input[type=submit][value]')]
                .flatMap(el => ['aria-label', 'title', 'placeholder', 'alt', 'value'].map(a => el.getAttribute(a) || ''));
              return [document.title, document.body.innerText, ...attributes].join('\\n');
            }"""
        )
    )


def test_the_russian_game_page_has_no_untranslated_english(
    browser: Browser, live_server: Any, site: Site, artifacts: Path
) -> None:
    site.alice.language = "ru"
    site.alice.save(update_fields=["language"])
    names = {site.alice.username, site.bob.username, site.alice.display_name, site.bob.display_name}
    context = signed_in(browser, live_server, site.alice, PHONE, "ru-RU")
    page = context.new_page()
    catalogue = english_catalogue()
    assert len(catalogue) > 300, "the English catalogues look empty: run python3 dev.py messages"
    for path in (f"/games/{site.running.pk}/", f"/games/{site.finished.pk}/", f"/games/{site.open_game.pk}/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == "ru"
        text = visible_words(page)
        for name in names:
            text = text.replace(name, "")
        leftovers = sorted(
            {msgid for msgid in catalogue for fragment in english_fragments(msgid) if fragment.search(text)}
        )
        page.screenshot(path=str(artifacts / f"ru-{path.strip('/').replace('/', '-')}.png"), full_page=True)
        assert not leftovers, f"{path} in Russian still shows English: {leftovers}"
        if path == f"/games/{site.running.pk}/":
            assert "озырь" in text, f"the running game's table names no trump (козырь): {text[:300]}"


# Runs in the page: what is wrong with its accessible names and references.
#
# - Every id that aria-describedby or aria-labelledby names is an element of the page.
# - An element named by aria-label or aria-labelledby has a role a name is allowed on (not a
#   bare div or span).
# - A control's name given by aria-label starts with its visible label (WCAG 2.5.3, label in
#   name): its text that shows, neither hidden nor clipped to a pixel (a visually hidden span).
#   A label of digits only (a count beside an icon) need only be in the name.
NAMES_JS = """
() => {
  const problems = [];
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  for (const el of document.querySelectorAll("[aria-describedby], [aria-labelledby]")) {
    for (const attribute of ["aria-describedby", "aria-labelledby"]) {
      for (const id of (el.getAttribute(attribute) || "").split(/\\s+/).filter(Boolean)) {
        if (!document.getElementById(id)) problems.push(`${describe(el)}: ${attribute} names #${id}, which is not on the page`);
      }
    }
  }
  for (const el of document.querySelectorAll("div[aria-label], div[aria-labelledby], span[aria-label], span[aria-labelledby]")) {
    if (!el.getAttribute("role")) problems.push(`${describe(el)}: named, but a ${el.tagName.toLowerCase()} with no role may not be`);
  }
  const letters = (text) => text.toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu, "");
  const controls = "a[aria-label], button[aria-label], summary[aria-label], input[aria-label], select[aria-label], "
    + "textarea[aria-label], [role=button][aria-label], [role=link][aria-label], [role=checkbox][aria-label], [role=tab][aria-label]";
  for (const el of document.querySelectorAll(controls)) {
    if (!el.checkVisibility()) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let label = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const box = node.parentElement.getBoundingClientRect();
      if (node.parentElement.checkVisibility({ checkVisibilityCSS: true }) && box.width > 1 && box.height > 1) label += node.textContent;
    }
    const shown = letters(label), name = letters(el.getAttribute("aria-label"));
    if (!shown) continue;
    const fits = /^\\p{N}+$/u.test(shown) ? name.includes(shown) : name.startsWith(shown);
    if (!fits) problems.push(`${describe(el)}: its name "${el.getAttribute("aria-label")}" does not start with its visible label "${label.trim()}"`);
  }
  return problems;
}
"""


@pytest.mark.parametrize("language", ["en", "ru"])
def test_names_start_with_the_visible_label_and_every_reference_is_on_the_page(
    browser: Browser, live_server: Any, site: Site, viewport: dict[str, int], language: str
) -> None:
    engine = site.running.engine()
    mover = site.running.seats.get(position=engine.waiting_for()[0]).user
    mover.language = language
    mover.save(update_fields=["language"])
    locale = "en-GB" if language == "en" else "ru-RU"
    member = signed_in(browser, live_server, mover, viewport, locale)
    member.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    pages = {**site.pages(), "tutorial": "/rules/tutorial/"}
    problems: list[str] = []
    page = member.new_page()
    for name, path in pages.items():
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        # Every page a player sees while a game waits for them shows the counter.
        assert page.locator("#turn-counter a.turns").count() == 1, f"{name}: no turn counter"
        problems += [f"{name} ({path}): {problem}" for problem in page.evaluate(NAMES_JS)]
    assert not problems, "\n".join(problems)
