"""Three people play an enchanted game to the end in three real browsers.

Alice opens it in the lobby with the quick pick "all nine ranks" (her page ticks the ranks), Bob
(a phone) and Carol join from the lobby, and they play by clicking. On the way: Alice leads the
enchanted spade eight and names clubs in the suit picker; the table shows it as a club; Bob beats
it with the club king and, having beaten off a bout with a king, reverses the direction of play
(the marker turns); the spade six beats a heart seven (its "beats ♥" is on the card); Bob reads a
card's effect by tapping on his phone.

The deal is stacked as in test_two_players.py: while the test runs, the live server's
``services.game_create`` (same process) is wrapped to pass ``deal=DEAL``. Screenshots go to
``test-artifacts/browser/enchanted-*.png``.
"""

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from durak import ENCHANTED_STAGES, effect
from games import services
from games.models import Game, Seat
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT_MS = 10_000
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 360, "height": 780}

# Diamonds trump, no stock, every rank enchanted (the same deal as the page test's ENCHANTED_DEAL).
# Alice leads 8S named as clubs; Bob beats it with KC; Alice and Carol are done; Bob reverses the
# direction and leads 7H at Alice, who beats it with 6S; Carol is done; Alice leads 9C at Carol,
# who beats it with JC: Bob and Alice are out, Carol is the fool. Ten moves.
DEAL: dict[str, Any] = {
    "hands": [["8S", "6S", "9C"], ["KC", "7H"], ["AH", "10S", "JC"]],
    "stock": [],
    "trump": "D",
    "first_attacker": 0,
}


class Player:
    def __init__(self, context: BrowserContext, name: str, base_url: str, artifacts: Path) -> None:
        self.page: Page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.name = name
        self.base_url = base_url
        self.artifacts = artifacts

    @property
    def table(self) -> Any:
        return self.page.locator("#table")

    def log_in(self) -> None:
        self.page.goto(f"{self.base_url}/accounts/login/?next=/")
        self.page.fill("#id_login", self.name)
        self.page.fill("#id_password", PASSWORD)
        self.page.get_by_role("button", name="Sign In").click()
        self.page.wait_for_url(f"{self.base_url}/")

    def version(self) -> int:
        return int(self.table.get_attribute("data-version") or "-1")

    def wait_for_version(self, version: int) -> None:
        expect(self.table).to_have_attribute("data-version", str(version))

    def pick(self, card: str) -> None:
        self.page.click(f'#table [data-pick="{card}"]')

    def play(self, card: str, label: str) -> None:
        self.pick(card)
        target = self.page.locator("#table .card-action.armed", has_text=re.compile(f"^{re.escape(label)}$"))
        expect(target).to_be_visible()
        target.click()

    def screenshot(self, moment: str) -> None:
        self.page.screenshot(path=str(self.artifacts / f"enchanted-{moment}-{self.name}.png"), full_page=True)


def test_three_players_play_an_enchanted_game_to_the_end(
    browser: Browser, live_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, artifacts: Path
) -> None:
    settings.GAME_POLL_SECONDS = 0.3
    monkeypatch.setattr(services, "game_create", functools.partial(services.game_create, deal=DEAL))
    for name in ("alice", "bob", "carol"):
        UserFactory(username=name)
    contexts = [
        browser.new_context(viewport=DESKTOP),
        browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True),
        browser.new_context(viewport=DESKTOP),
    ]
    try:
        alice, bob, carol = players = [
            Player(context, name, live_server.url, artifacts)
            for context, name in zip(contexts, ("alice", "bob", "carol"), strict=True)
        ]
        for player in players:
            player.log_in()

        def move(mover: Player, act: Any) -> None:
            """``mover`` acts; every page shows the next version (HTMX swap and polling)."""
            before = mover.version()
            act()
            for player in players:
                player.wait_for_version(before + 1)
            expect(mover.table.locator(".error")).to_have_count(0)

        # Alice opens the game: the quick pick ticks every enchanted rank.
        page = alice.page
        page.select_option("#id_preset", "classic")
        page.fill("#id_num_players", "3")
        page.select_option("#id_enchanted_stage", "all")
        for rank in ENCHANTED_STAGES["all"]:
            expect(page.locator(f'input[name="opt_enchanted"][value="{rank}"]')).to_be_checked()
        page.locator(".game-kind").screenshot(path=str(artifacts / "enchanted-0-create-form-alice.png"))
        page.get_by_role("button", name="Open the game").click()
        expect(alice.table).to_contain_text("Waiting for players: 1 of 3 seats taken.")
        game = Game.objects.get()
        assert game.rules["enchanted"] == list(ENCHANTED_STAGES["all"])

        for joiner in (bob, carol):
            joiner.page.goto(f"{live_server.url}/")
            joiner.page.locator(".open-games tr", has_text="alice").get_by_role("button", name="Join").click()
            expect(joiner.page.locator(".messages")).to_contain_text("You took a seat.")
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        for player in players:
            player.wait_for_version(game.version)

        # Enchanted cards look different and say what they do.
        six = alice.table.locator('.hand [data-card="6S"]')
        expect(six).to_have_class(re.compile(r"\benchanted\b"))
        expect(six).to_have_attribute("title", f"6♠ (enchanted), beats ♥: {effect('6S')}")
        expect(six.locator(".card-note")).to_have_text("beats ♥")
        expect(carol.table.locator('.hand [data-card="AH"] .card-note')).to_have_text("beats ♠A")
        expect(alice.table.locator(".direction")).to_have_text("↻ Play runs clockwise.")
        alice.screenshot("1-start")
        bob.screenshot("1-start")
        carol.screenshot("1-start")

        # Alice leads the spade eight: the picker offers every suit but trumps; she names clubs.
        alice.pick("8S")
        picker = alice.table.locator(".suit-picker.armed")
        expect(picker).to_contain_text("Attack with 8♠, naming")
        expect(picker.locator("button.suit-choice")).to_have_count(3)
        expect(alice.table.locator(".spell-hint")).to_have_text(re.compile(re.escape(effect("8S"))))
        alice.screenshot("2-suit-picker")
        move(alice, lambda: picker.get_by_role("button", name="Attack with 8♠ as ♣").click())
        for player in players:
            expect(player.table.locator('.pair .attack[data-card="8S"] .card-note')).to_have_text("as ♣")

        # Bob beats the "club" eight with the club king; Alice and Carol say they are done (an
        # enchanted nine could come from anyone); the bout is beaten off.
        move(bob, lambda: bob.play("KC", "Beat 8♠ with K♣"))
        expect(alice.table.locator(".other-actions button.pass")).to_have_text("Done")
        move(alice, lambda: alice.page.click("#table .other-actions button.pass"))
        move(carol, lambda: carol.page.click("#table .other-actions button.pass"))

        # Bob beat off a bout with a king: he reverses the direction of play.
        bob.screenshot("3-may-reverse")
        move(bob, lambda: bob.page.get_by_role("button", name="Reverse the direction of play").click())
        for player in players:
            expect(player.table.locator(".direction.reversed")).to_contain_text(
                "↺ Play runs counter-clockwise"
            )
        expect(bob.table.locator(".situation")).to_contain_text("You lead the next attack on alice.")

        # On his phone Bob taps to read what the cards in sight do.
        bob.page.locator("#table .spells summary").click()
        expect(bob.table.locator(".spells")).to_contain_text(f"7♥: {effect('7H')}")
        bob.screenshot("4-tap-to-read")

        move(bob, lambda: bob.play("7H", "Attack with 7♥"))
        alice.screenshot("5-six-beats-hearts")
        move(alice, lambda: alice.play("6S", "Beat 7♥ with 6♠"))
        move(carol, lambda: carol.page.click("#table .other-actions button.pass"))
        expect(alice.table.locator(".situation")).to_contain_text("You lead the next attack on carol.")
        move(alice, lambda: alice.play("9C", "Attack with 9♣"))
        move(carol, lambda: carol.play("JC", "Beat 9♣ with J♣"))

        expect(carol.table.locator(".status")).to_contain_text("The game is over: you are the fool.")
        for player in (alice, bob):
            expect(player.table.locator(".status")).to_contain_text(
                "The game is over: you won, carol is the fool."
            )
        for player in players:
            results = player.table.locator(".results")
            expect(results).to_contain_text("carol: the fool")
            expect(player.table.locator("button[name=action]")).to_have_count(0)
        alice.screenshot("6-end")
        bob.screenshot("6-end")

        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert game.moves.count() == 10
        assert {s.user.username: s.result for s in game.seats.select_related("user")} == {
            "alice": Seat.Result.OUT,
            "bob": Seat.Result.OUT,
            "carol": Seat.Result.FOOL,
        }

        # The rules page explains every effect.
        bob.page.goto(f"{live_server.url}/rules/#enchanted")
        expect(bob.page.locator("#enchanted-K")).to_contain_text(effect("KS"))
        bob.screenshot("7-rules")
    finally:
        for context in contexts:
            context.close()


def test_a_team_game_shows_teams_partners_and_the_team_result(
    browser: Browser, live_server: Any, artifacts: Path
) -> None:
    """A partners game (played through the services) seen by two of its players: team labels and
    colours, "your partner", and at the end which team lost."""
    from tests.factories import play_moves, started_game

    game, users = started_game(players=4, overrides={"teams": "partners"}, seed=31)
    pages = []
    for user, viewport in ((users[0], DESKTOP), (users[1], PHONE)):
        context = browser.new_context(viewport=viewport)
        player = Player(context, user.username, live_server.url, artifacts)
        player.log_in()
        player.page.goto(f"{live_server.url}/games/{game.pk}/")
        pages.append(player)
    try:
        first, second = pages
        partner, opponent = users[2].username, users[1].username
        expect(first.table.locator(".team-line")).to_have_text(f"You play in team A with {partner}.")
        expect(first.table.locator(".opponent.partner .team-tag")).to_have_text("your partner · team A")
        expect(first.table.locator(".opponent.team-1")).to_have_count(2)
        expect(first.table.locator(".opponent.team-1").first).to_contain_text(opponent)
        expect(second.table.locator(".team-line")).to_have_text(
            f"You play in team B with {users[3].username}."
        )
        first.page.screenshot(path=str(artifacts / "team-1-start-desktop.png"), full_page=True)
        second.page.screenshot(path=str(artifacts / "team-1-start-phone.png"), full_page=True)

        game = play_moves(game, users, 1000)
        assert game.status == Game.Status.FINISHED
        assert game.state is not None
        losing = game.state["losing_team"]
        assert losing in (0, 1)
        for player in pages:
            player.page.reload()
            expect(player.table.locator(".team-results .lost")).to_contain_text(f"Team {'AB'[losing]} (")
        first.page.screenshot(path=str(artifacts / "team-2-end-desktop.png"), full_page=True)
        second.page.screenshot(path=str(artifacts / "team-2-end-phone.png"), full_page=True)
    finally:
        for player in pages:
            player.page.context.close()
