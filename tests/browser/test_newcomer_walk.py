"""The newcomer's walk (issue 19): two people new to the site, clicking only, one on a phone in
Russian and the other on a desktop in English (then the other way round).

They sign up on the real sign-up form and confirm their address from the e-mail the site sends
(as production asks), the host opens a game with a clock and the guest sees that clock in the
open-games row and on the open game's page before it runs, then takes a seat. They play the game
to the end by taps and clicks, reading the history on the table; one of them chats past the
flood limit and the page stays whole. After the game one offers a rematch as a series, it shows
on the other's page without a reload, the other accepts, and both pages link to the next game.
Last, the guest asks to "Play now" and a third person asking for the same lands in the same game.

The deal is stacked by the test alone (the live server runs in this process:
``services.game_create`` is wrapped to pass ``DEAL``), so every game here is short and the same.
The walk with the guest on the phone saves the README's screenshots to ``docs/screenshots/``; the
other saves its own to ``test-artifacts/browser/walk-ru-host/``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.cache import cache
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import User
from games import services
from games.models import Game, Seat
from series.models import RematchOffer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-felt-and-trumps-42"
TIMEOUT_MS = 30_000  # a loaded two-core machine: wait long, never assert that something was quick
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Classic podkidnoy, two players, the 9H face up under a stock of two (the other cards are out).
# Bout 1: the host leads 6S; the guest, with 7 cards, takes it; the host is done and draws the
#   stock (8D, then the face-up 9H).
# Bout 2: the host leads 7S, the guest beats it with 8S; the host could throw in 8D but is done.
# Bout 3: the guest leads 9C, the host beats it with the trump 9H (nobody has a 9 to throw).
# Bout 4: the host leads 8D, the guest beats it with 10D.
# Bout 5: the guest leads JC, the host beats it with AH, the last card: out. The guest is the fool.
DEAL: dict[str, Any] = {
    "hands": [["6S", "7S", "AH"], ["8S", "9C", "10D", "JC", "QD", "KC", "6C"]],
    "stock": ["8D", "9H"],
    "first_attacker": 0,
}

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE_WIDTH = 360
PHONE = {
    "viewport": {"width": PHONE_WIDTH, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

#: What the pages say, in each language (literal, so that a missing translation shows).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "locale": "en-GB",
        "zone": "Europe/London",
        "username": "Username",
        "email": "Email",
        "password": "Password",
        "password again": "Password (again)",
        "sign up": "Sign Up",
        "confirm": "Confirm",
        "confirmed": "You have confirmed {email}.",
        "login": "User name or e-mail",
        "sign in": "Sign In",
        "new game": "New game",
        "open games": "Open games",
        "rules": "Rules",
        "players": "Players",
        "time control": "Time control",
        "open the game": "Open the game",
        "waiting": "Waiting for players: 1 of 2 seats taken.",
        "one day": "1 day a move",
        "take a seat": "Take a seat",
        "you have until": "You have until",
        "has until": "{name} has until",
        "attack 6S": "Attack with 6♠",
        "attack 7S": "Attack with 7♠",
        "attack 8D": "Attack with 8♦",
        "attack 9C": "Attack with 9♣",
        "beat 7S": "Beat 7♠ with 8♠",
        "beat 9C": "Beat 9♣ with 9♥",
        "attack JC": "Attack with J♣",
        "beat JC": "Beat J♣ with A♥",
        "beat 8D": "Beat 8♦ with 10♦",
        "take": "Take the cards",
        "done": "Done",
        "done (take)": "Done",
        "history": "History",
        "guest takes": "{guest} takes the cards.",
        "you take": "You take the cards.",
        "you attack 6S": "You attack with 6♠.",
        "host attacks 6S": "{host} attacks with 6♠.",
        "to guest's hand": "6♠ goes to the hand of {guest}.",
        "to your hand": "6♠ goes to your hand.",
        "bito": "Bito: 7♠ 8♠ go to the discard.",
        "you are the fool": "The game is over: you are the fool.",
        "guest is the fool": "The game is over: you won, {guest} is the fool.",
        "message": "Message",
        "send": "Send",
        "slow down": "Slow down: at most 5 messages in 600 seconds.",
        "series": "Series",
        "offer a rematch": "Offer a rematch",
        "offers a rematch": "{name} offers a rematch",
        "series of 3": "a series of 3 games, this one the first.",
        "accept the rematch": "Accept the rematch",
        "next game": "Next game: #{number}",
        "play now": "Play now",
        "computer players": "Computer players",
        "looking for players": "Looking for players: ",
    },
    "ru": {
        "locale": "ru-RU",
        "zone": "Europe/Moscow",
        "username": "Имя пользователя",
        "email": "Адрес электронной почты",
        "password": "Пароль",
        "password again": "Пароль (ещё раз)",
        "sign up": "Зарегистрируйтесь",
        "confirm": "Подтвердить",
        "confirmed": "Адрес {email} подтверждён.",
        "login": "Имя пользователя или e-mail",
        "sign in": "Войти",
        "new game": "Новая игра",
        "open games": "Открытые игры",
        "rules": "Правила",
        "players": "Игроков",
        "time control": "Контроль времени",
        "open the game": "Создать игру",
        "waiting": "Ждём игроков: занято мест — 1 из 2.",
        "one day": "1 день на ход",
        "take a seat": "Сесть за стол",
        "you have until": "Ваш ход до",
        "has until": "{name} ходит до",
        "attack 6S": "Ходить: 6♠",
        "attack 7S": "Ходить: 7♠",
        "attack 8D": "Ходить: 8♦",
        "attack 9C": "Ходить: 9♣",
        "beat 7S": "Побить 7♠ картой 8♠",
        "beat 9C": "Побить 9♣ картой 9♥",
        "attack JC": "Ходить: J♣",
        "beat JC": "Побить J♣ картой A♥",
        "beat 8D": "Побить 8♦ картой 10♦",
        "take": "Беру",
        "done": "Бито",
        "done (take)": "Пас",
        "history": "История",
        "guest takes": "{guest} берёт карты.",
        "you take": "Вы берёте карты.",
        "you attack 6S": "Вы ходите: 6♠.",
        "host attacks 6S": "{host} ходит: 6♠.",
        "to guest's hand": "6♠ — в руку: {guest}.",
        "to your hand": "6♠ — к вам в руку.",
        "bito": "Бито: 7♠ 8♠ уходят в отбой.",
        "you are the fool": "Игра окончена: вы — дурак.",
        "guest is the fool": "Игра окончена: вы победили, {guest} — дурак.",
        "message": "Сообщение",
        "send": "Отправить",
        "slow down": "Не так быстро: не больше 5 сообщений за 600 секунд.",  # noqa: RUF001
        "series": "Серия",
        "offer a rematch": "Предложить реванш",
        "offers a rematch": "{name} предлагает реванш",
        "series of 3": "серия из 3 игр, эта — первая.",
        "accept the rematch": "Принять реванш",
        "next game": "Следующая игра: №{number}",
        "play now": "Играть сейчас",
        "computer players": "Компьютерные игроки",
        "looking for players": "Ищем игроков: ",
    },
}


@dataclass(frozen=True)
class Newcomer:
    """Who sits where: a name, a screen and a language."""

    name: str
    phone: bool
    language: str


class Person:
    """One newcomer at one browser: a phone (taps) or a desktop (clicks), in one language."""

    def __init__(self, browser: Browser, who: Newcomer, base_url: str) -> None:
        words = WORDS[who.language]
        self.context = browser.new_context(
            **(PHONE if who.phone else DESKTOP), locale=words["locale"], timezone_id=words["zone"]
        )
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.name = who.name
        self.phone = who.phone
        self.language = who.language
        self.words = words
        self.base_url = base_url

    def say(self, key: str, **names: object) -> str:
        return self.words[key].format(**names)

    def tap(self, target: Locator) -> None:
        """A finger on a phone, the mouse on a desktop."""
        if self.phone:
            target.tap()
        else:
            target.click()

    def label(self, key: str) -> re.Pattern[str]:
        """A field's label, with or without the colon Django's forms add."""
        return re.compile(rf"^\s*{re.escape(self.say(key))}:?\s*$")

    def field(self, scope: Locator | Page, key: str) -> Locator:
        return scope.get_by_label(self.label(key))

    def button(self, key: str, scope: Locator | Page | None = None, **names: object) -> Locator:
        return (scope or self.page).get_by_role("button", name=self.say(key, **names), exact=True)

    @property
    def table(self) -> Locator:
        return self.page.locator("#table")

    # The site

    def sign_up_and_confirm(self) -> None:
        """The sign-up form, then the link in the confirmation e-mail, then its Confirm button."""
        page = self.page
        page.goto(f"{self.base_url}/accounts/signup/")
        form = page.locator("main form")
        self.field(form, "username").fill(self.name)
        self.field(form, "email").fill(f"{self.name}@example.com")
        self.field(form, "password").fill(PASSWORD)
        self.field(form, "password again").fill(PASSWORD)
        self.tap(self.button("sign up", form))
        page.wait_for_url(re.compile(r"/accounts/confirm-email/$"))
        assert page.evaluate("document.documentElement.lang") == self.language
        link = confirmation_link(f"{self.name}@example.com")
        page.goto(f"{self.base_url}{link}")
        self.tap(self.button("confirm"))
        # Confirmed in the browser that signed up: signed in at once (LOGIN_ON_EMAIL_CONFIRMATION).
        page.wait_for_url(f"{self.base_url}/")
        expect(page.locator(".messages")).to_contain_text(
            self.say("confirmed", email=f"{self.name}@example.com")
        )
        expect(page.locator(".site-header .who")).to_have_text(self.name)
        self.assert_fits()

    def log_in(self) -> None:
        page = self.page
        if not page.url.endswith("/accounts/login/"):
            page.goto(f"{self.base_url}/accounts/login/")
        form = page.locator("main form")
        self.field(form, "login").fill(self.name)
        self.field(form, "password").fill(PASSWORD)
        self.tap(self.button("sign in", form))
        page.wait_for_url(f"{self.base_url}/")
        expect(page.locator(".site-header .who")).to_have_text(self.name)
        self.assert_fits()

    def assert_fits(self) -> None:
        """On a phone nothing is wider than the screen: a wider page is zoomed out or scrolls sideways."""
        if self.phone:
            width = self.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE_WIDTH, f"{self.page.url} is {width} px wide on a {PHONE_WIDTH} px phone"

    def version(self) -> int:
        return int(self.table.get_attribute("data-version") or "-1")

    def wait_for_version(self, version: int) -> None:
        expect(self.table).to_have_attribute("data-version", str(version))

    def mark_page(self) -> None:
        """Tag the loaded document: a reload or a navigation would lose the tag."""
        self.page.evaluate("window.sameDocument = true")

    def assert_not_reloaded(self) -> None:
        assert self.page.evaluate("window.sameDocument === true"), f"{self.name}'s page was reloaded"

    def play(self, card: str, key: str) -> None:
        """Pick a card of the hand, then the one place it goes (a button named by the move)."""
        self.tap(self.table.locator(f'.hand [data-pick="{card}"]'))
        target = self.table.locator(".card-action.armed")
        expect(target).to_have_count(1)
        expect(target).to_have_text(self.say(key))
        self.tap(target)
        self.confirm(key)

    def press(self, key: str) -> None:
        """A move without a card: take, done."""
        self.tap(self.button(key, self.table.locator(".other-actions")))
        self.confirm(key)

    def confirm(self, key: str) -> None:
        """A correspondence game asks before it sends a move (the default): "Attack with 6♠?"."""
        if self.table.get_attribute("data-confirm") != "on":
            return
        bar = self.table.locator(".confirm-bar")
        expect(bar.locator(".confirm-question")).to_have_text(f"{self.say(key)}?")
        self.tap(self.button("confirm", bar))

    def history(self) -> Locator:
        """The history's entries, newest first, opened if folded (a phone folds it)."""
        history = self.page.locator("details#history")
        expect(history.locator("summary")).to_contain_text(self.say("history"))
        if history.get_attribute("open") is None:
            self.tap(history.locator("summary"))
        expect(history).to_have_attribute("open", "")
        return history.locator(".history-entry")

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))


def confirmation_link(address: str) -> str:
    """The confirmation link's path from the last e-mail sent to ``address``."""
    sent = [message for message in mail.outbox if message.to == [address]]
    assert sent, f"no e-mail to {address}"
    match = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", sent[-1].body)
    assert match, sent[-1].body
    return match.group(1)


def move_and_watch(mover: Person, watcher: Person, act: Callable[[], None]) -> None:
    """``mover`` acts; their table is swapped in place, and ``watcher``'s page shows the new
    version without a reload."""
    before = mover.version()
    act()
    mover.wait_for_version(before + 1)
    expect(mover.table.locator(".error")).to_have_count(0)
    watcher.wait_for_version(before + 1)
    mover.assert_not_reloaded()
    watcher.assert_not_reloaded()


WALKS = [
    pytest.param(
        Newcomer("alice", True, "ru"),
        Newcomer("bob", False, "en"),
        False,
        id="host-phone-ru-guest-desktop-en",
    ),
    pytest.param(
        Newcomer("alice", False, "en"), Newcomer("bob", True, "ru"), True, id="host-desktop-en-guest-phone-ru"
    ),
]


@pytest.mark.parametrize(("host_seat", "guest_seat", "screenshots"), WALKS)
def test_two_newcomers_sign_up_play_chat_rematch_and_find_a_quick_game(
    browser: Browser,
    live_server: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    artifacts: Path,
    host_seat: Newcomer,
    guest_seat: Newcomer,
    screenshots: bool,
) -> None:
    settings.GAME_POLL_SECONDS = 0.5
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"  # as in production
    settings.CHAT_FLOOD_MESSAGES = 5
    settings.CHAT_FLOOD_SECONDS = 600  # a slow machine's six clicks all fall in one window
    monkeypatch.setattr(services, "game_create", functools.partial(services.game_create, deal=DEAL))
    cache.clear()  # allauth sends one confirmation per address in 3 minutes, counted in the cache
    shots = SCREENSHOTS if screenshots else artifacts / f"walk-{host_seat.language}-host"
    shots.mkdir(parents=True, exist_ok=True)

    host = Person(browser, host_seat, live_server.url)
    guest = Person(browser, guest_seat, live_server.url)
    phone = host if host.phone else guest

    # Sign up, each in the browser's language, and confirm the address from the e-mail.
    host.sign_up_and_confirm()
    guest.sign_up_and_confirm()
    for person in (host, guest):
        user = User.objects.get(username=person.name)
        assert user.language == person.language
        assert user.emailaddress_set.get().verified

    # The host opens a two-player classic game with a clock of a day a move.
    new_game = host.page.get_by_role("region", name=host.say("new game"))
    host.field(new_game, "rules").select_option("classic")
    host.field(new_game, "players").fill("2")
    host.field(new_game, "time control").select_option("1d")
    host.tap(host.button("open the game", new_game))
    expect(host.table.locator(".status")).to_have_text(host.say("waiting"))
    expect(host.table.locator(".game-terms .time-control")).to_have_text(host.say("one day"))
    game = Game.objects.get()
    host.assert_fits()
    host.mark_page()

    # The guest sees the clock in the open-games row and on the open game's page, before it runs.
    guest.page.goto(f"{live_server.url}/")
    open_games = guest.page.get_by_role("region", name=guest.say("open games"))
    row = open_games.locator(f'tr[data-game="{game.pk}"]')
    expect(row.locator(".time-control")).to_have_text(guest.say("one day"))
    expect(row.locator(".seats-taken")).to_contain_text(host.name)
    guest.tap(row.get_by_role("link", name=re.compile(rf"\b{game.pk}\b")))
    guest.page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    expect(guest.table.locator(".game-terms .time-control")).to_have_text(guest.say("one day"))
    expect(guest.table.locator(".clocks")).to_have_count(0)
    guest.assert_fits()
    guest.tap(guest.button("take a seat", guest.table))
    expect(guest.table.locator(".clocks .clock")).to_contain_text(guest.say("has until", name=host.name))
    guest.mark_page()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    host.wait_for_version(game.version)
    host.assert_not_reloaded()
    expect(host.table.locator(".clocks .clock.mine")).to_contain_text(host.say("you have until"))

    # Bout 1: the host leads. On the phone with 7 cards the hand is one row and "take" is on the
    # screen (issue 19's rough edge), the trump beside the stock. The guest takes, the host is done.
    move_and_watch(host, guest, lambda: host.play("6S", "attack 6S"))
    expect(guest.table.locator(".hand [data-pick]")).to_have_count(7)
    expect(guest.table.locator('.deck .trump-card[data-card="9H"]')).to_be_visible()
    if guest is phone:
        guest.page.locator("#table-status").scroll_into_view_if_needed()
        expect(guest.table.locator(".hand")).to_be_in_viewport()
        expect(guest.button("take", guest.table)).to_be_in_viewport()
        guest.assert_fits()
        guest.screenshot(shots / "phone-table-7-cards.png")
    move_and_watch(guest, host, lambda: guest.press("take"))
    move_and_watch(host, guest, lambda: host.press("done (take)"))
    expect(guest.table.locator(".hand [data-pick]")).to_have_count(8)
    expect(host.table.locator(".hand [data-pick]")).to_have_count(4)

    # Each reads the history, newest first, in their own words; a phone has it folded at first.
    expect(phone.page.locator("details#history")).not_to_have_attribute("open", re.compile(".*"))
    entries = host.history()
    expect(entries).to_have_count(3)
    expect(entries.first).to_contain_text(host.say("to guest's hand", guest=guest.name))
    expect(entries.nth(1)).to_contain_text(host.say("guest takes", guest=guest.name))
    expect(entries.last).to_contain_text(host.say("you attack 6S"))
    entries = guest.history()
    expect(entries.first).to_contain_text(guest.say("to your hand"))
    expect(entries.nth(1)).to_contain_text(guest.say("you take"))
    expect(entries.last).to_contain_text(guest.say("host attacks 6S", host=host.name))

    # Bout 2: the guest beats, the host is done: beaten off.
    move_and_watch(host, guest, lambda: host.play("7S", "attack 7S"))
    move_and_watch(guest, host, lambda: guest.play("8S", "beat 7S"))
    move_and_watch(host, guest, lambda: host.press("done"))
    expect(host.history().first).to_contain_text(host.say("bito"))

    # The host chats past the flood limit: the sixth message is refused in the chat, the page stays.
    box = host.page.locator("#chat-form").get_by_role("textbox", name=host.say("message"))
    send = host.button("send", host.page.locator("#chat-form"))
    for n in range(1, 7):
        box.fill(f"hello {n}")
        host.tap(send)
        if n < 6:
            expect(host.page.locator("#chat-log")).to_contain_text(f"hello {n}")
    expect(host.page.locator("#chat-form [role=alert]")).to_have_text(host.say("slow down"))
    expect(box).to_have_value("hello 6")
    expect(host.table).to_be_visible()
    expect(host.page.locator("#chat-log")).not_to_contain_text("hello 6")
    expect(guest.page.locator("#chat-log")).to_contain_text("hello 5")
    host.assert_not_reloaded()

    # Bouts 3 to 5: the game goes on by clicks after the flood, to its end.
    move_and_watch(guest, host, lambda: guest.play("9C", "attack 9C"))
    desktop = guest if host is phone else host
    expect(desktop.history()).to_have_count(7)
    desktop.table.screenshot(path=str(shots / "history.png"))
    move_and_watch(host, guest, lambda: host.play("9H", "beat 9C"))
    move_and_watch(host, guest, lambda: host.play("8D", "attack 8D"))
    move_and_watch(guest, host, lambda: guest.play("10D", "beat 8D"))
    move_and_watch(guest, host, lambda: guest.play("JC", "attack JC"))
    move_and_watch(host, guest, lambda: host.play("AH", "beat JC"))
    expect(guest.table.locator(".status")).to_contain_text(guest.say("you are the fool"))
    expect(host.table.locator(".status")).to_contain_text(host.say("guest is the fool", guest=guest.name))
    for person in (host, guest):
        expect(person.history()).to_have_count(12)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(user__username=guest.name).result == Seat.Result.FOOL

    # The host offers a rematch as a series of 3; the guest's page shows it without a reload.
    rematch = host.page.locator("#rematch")
    # The label wraps the select: its text runs on with the chosen option's.
    rematch.get_by_label(re.compile(rf"^\s*{re.escape(host.say('series'))}\s")).select_option("3")
    host.tap(host.button("offer a rematch", rematch))
    offer = guest.page.locator("#rematch .rematch-offer")
    expect(offer).to_contain_text(guest.say("offers a rematch", name=host.name))
    expect(offer).to_contain_text(guest.say("series of 3"))
    guest.assert_not_reloaded()
    guest.assert_fits()
    guest.page.locator("#rematch").scroll_into_view_if_needed()
    guest.screenshot(shots / "rematch-offer.png")
    guest.tap(guest.button("accept the rematch", guest.page.locator("#rematch")))
    expect(guest.page.locator("#rematch .rematch-next")).to_be_visible()
    following = Game.objects.exclude(pk=game.pk).get()
    assert RematchOffer.objects.get().status == RematchOffer.Status.ACCEPTED
    for person in (host, guest):
        link = person.page.locator("#rematch .rematch-next")
        expect(link).to_contain_text(person.say("next game", number=following.pk))
        expect(link.get_by_role("link")).to_have_attribute("href", f"/games/{following.pk}/")
        person.assert_not_reloaded()
    assert set(following.seats.values_list("user__username", flat=True)) == {host.name, guest.name}

    # The guest asks to play now; a third person asking for the same lands in the same game.
    guest.page.goto(f"{live_server.url}/")
    _ask_to_play_now(guest)
    expect(guest.page.locator("#play-now .queue-status")).to_contain_text(guest.say("looking for players"))
    expect(guest.page.locator("#play-now .queue-status")).to_contain_text(guest.say("one day"))
    guest.assert_fits()
    guest.screenshot(shots / "play-now-queue.png")
    guest.mark_page()

    carol = UserFactory(username="carol", language="en")
    carol.set_password(PASSWORD)
    carol.save()
    EmailAddress.objects.create(user=carol, email=carol.email, verified=True, primary=True)
    third = Person(browser, Newcomer("carol", False, "en"), live_server.url)
    third.log_in()
    _ask_to_play_now(third)
    third.page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=120_000)
    quick = Game.objects.exclude(pk__in=[game.pk, following.pk]).get()
    # The guest's waiting page goes to the game by itself.
    # (It asks every poll while the stream is down, at the latest every 30 s: a loaded machine
    # may miss one, so the wait is generous.)
    try:
        guest.page.wait_for_url(f"{live_server.url}/games/{quick.pk}/", timeout=120_000)
    except PlaywrightTimeoutError:
        # Say where the page stood: a poll that never came back, a block swapped away, or a
        # navigation that never finished loading are three different defects.
        guest.screenshot(artifacts / "play-now-not-redirected.png")
        waiting = guest.page.locator("#play-now")
        block = waiting.evaluate("el => el.outerHTML") if waiting.count() else "no #play-now"
        pytest.fail(f"{guest.name}'s waiting page stayed at {guest.page.url}: {block[:2000]}")
    # The one who waited first holds the first seat.
    for person, hand in ((guest, DEAL["hands"][0]), (third, DEAL["hands"][1])):
        assert person.page.url == f"{live_server.url}/games/{quick.pk}/"
        expect(person.table.locator(".hand [data-pick]")).to_have_count(len(hand))
        person.assert_fits()
    assert set(quick.seats.values_list("user__username", flat=True)) == {guest.name, "carol"}


def _ask_to_play_now(person: Person) -> None:
    """The lobby's "Play now": classic, two players, a day a move, people only."""
    block = person.page.get_by_role("region", name=person.say("play now"))
    person.field(block, "rules").select_option("classic")
    person.field(block, "players").select_option("2")
    person.field(block, "time control").select_option("1d")
    person.field(block, "computer players").select_option("never")
    person.tap(person.button("play now", block))
