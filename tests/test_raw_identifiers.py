"""No raw identifier reaches a reader: not ``none`` (an option's code value), not a computer
account's user name (``computer-rules-2``), not ``=`` (``teams = partners``), not a Python repr
(``None``, ``'abc'``, ``<User: …>``, an unfilled ``%(name)s`` or ``{card}``), in any page, form help,
error, title or e-mail.

The pages of the newcomer's walk (``tests/browser/test_newcomer_walk.py``: sign up, log in, the
lobby and its create form, an open game, a game played to the end with its history and results,
the chat, a rematch offer and its series, Play now, the replay, the profile, the bell, the
settings, the rules and the tutorial) and a table of three computers, each in English and in
Russian, through Django's test client; then every form's errors (the create form's options, the
settings, sign-up, log-in, vacations, an invitation, the chat) and the e-mails sent meanwhile.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat import services as chat_services
from games import services
from games.models import Game
from matchmaking import services as matchmaking
from series import services as series
from tests.factories import UserFactory
from tests.stats.helpers import play_script

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("en", "ru")

#: The newcomer's walk's deal (two players, the guest ends the fool) and its moves.
DEAL: dict[str, Any] = {
    "hands": [["6S", "7S", "AH"], ["8S", "9C", "10D", "JC", "QD", "KC", "6C"]],
    "stock": ["8D", "9H"],
    "first_attacker": 0,
}
MOVES: list[dict[str, Any]] = [
    {"type": "attack", "player": 0, "cards": ["6S"]},
    {"type": "take", "player": 1},
    {"type": "pass", "player": 0},
    {"type": "attack", "player": 0, "cards": ["7S"]},
    {"type": "defend", "player": 1, "target": "7S", "card": "8S"},
    {"type": "pass", "player": 0},
    {"type": "attack", "player": 1, "cards": ["9C"]},
    {"type": "defend", "player": 0, "target": "9C", "card": "9H"},
    {"type": "attack", "player": 0, "cards": ["8D"]},
    {"type": "defend", "player": 1, "target": "8D", "card": "10D"},
    {"type": "attack", "player": 1, "cards": ["JC"]},
    {"type": "defend", "player": 0, "target": "JC", "card": "AH"},
]

#: What must never show, by name.
RAW: dict[str, re.Pattern[str]] = {
    "a computer account's user name": re.compile(r"computer-(?:random|rules|search)"),
    "an equals sign": re.compile(r"\S\s?=\s?\S"),
    # "None ticked: as the preset says" is English; a value stands alone ("Limit: None").
    "a Python value": re.compile(r"(?<![\w-])(?:None|True|False)(?![\w-])(?!:? +[a-zа-я])|<\w+: |\{'|\[\]"),  # noqa: RUF001
    "an unfilled placeholder": re.compile(r"%\(\w+\)[sd]|\{\w+\}"),
    # A string's repr ('Mars/Olympus', 'no_limit'), not an English quotation ('take').
    "a quoted repr": re.compile(r"(?<![\w\u2019])'[^'\s]*[/_\d][^'\s]*'(?![\w\u2019])"),
}
#: ``none`` on a Russian page (in English it is a word: "Most attack cards: none").
NONE = re.compile(r"(?<![\w-])none(?![\w-])", flags=re.IGNORECASE)


def visible(page: str) -> str:
    """What a reader meets on a page: its text, its title, and the words of its attributes
    (tooltips, accessible names, placeholders, image texts); no scripts or styles, nor the
    replay's fair-dealing data (``<code>``: the seed, hashes and canonical string, to be copied
    and checked as they are)."""
    page = re.sub(r"<(script|style|template|code)\b.*?</\1>", " ", page, flags=re.S | re.I)
    said = re.findall(r'(?<![\w-])(?:title|aria-label|placeholder|alt)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(re.sub(r"\s+", " ", " ".join([text, *said])))


def found_in(text: str, language: str) -> list[str]:
    found = [
        f"{what}: …{text[max(0, m.start() - 40) : m.end() + 40]}…"
        for what, pattern in RAW.items()
        for m in pattern.finditer(text)
    ]
    if language == "ru":
        found += [f"none: …{text[max(0, m.start() - 40) : m.end() + 40]}…" for m in NONE.finditer(text)]
    return found


def client(user: User | None, language: str) -> Client:
    reader = Client(headers={"Accept-Language": language})
    reader.cookies["django_language"] = language
    if user is not None:
        user.language = language
        user.save(update_fields=["language"])
        reader.force_login(user)
    return reader


class Walk:
    """The newcomer's walk's people and games, made through the services."""

    def __init__(self) -> None:
        self.host = UserFactory(username="host")
        self.guest = UserFactory(username="guest")
        self.third = UserFactory(username="third")
        played = services.game_create(
            creator=self.host, preset="classic", num_players=2, deal=DEAL, move_time=timedelta(days=1)
        )
        services.game_join(user=self.guest, game_id=played.pk)
        chat_services.chat_post(user=self.guest, game=played, text="good luck")
        self.played = play_script(played, [self.host, self.guest], MOVES)
        assert self.played.status == Game.Status.FINISHED
        series.rematch_offer(user=self.host, game_id=self.played.pk, games_agreed=3)
        self.open = services.game_create(
            creator=self.guest, preset="perevodnoy", num_players=3, overrides={"max_attack": None}
        )
        self.computers = services.game_against_computer(
            creator=self.host, level="rules", preset="classic", num_players=4, overrides={"teams": "partners"}
        )
        matchmaking.queue_join(user=self.third, preset="classic", num_players=2, time_control="1d")

    def pages(self) -> Iterator[tuple[str, User | None]]:
        host, guest = self.host, self.guest
        for user in (host, guest):
            yield reverse("games:lobby"), user
            yield reverse("games:detail", args=[self.played.pk]), user
            yield reverse("games:detail", args=[self.open.pk]), user
            yield reverse("replays:replay", args=[self.played.pk]), user
            yield reverse("stats:profile", args=[user.username]), user
            yield reverse("notifications:list"), user
            yield reverse("notifications:settings"), user
            yield reverse("chat:log", args=[self.played.pk]), user
            yield reverse("matchmaking:play"), user
        yield reverse("games:detail", args=[self.computers.pk]), host
        for seat in self.computers.seats.select_related("user"):
            yield reverse("stats:profile", args=[seat.user.username]), host
            yield f"{reverse('moderation:report')}?user={seat.user_id}&game={self.computers.pk}", host
        yield reverse("games:detail", args=[self.played.pk]), self.third  # a spectator
        yield reverse("matchmaking:play"), self.third
        yield reverse("stats:leaderboard"), host
        # The guest accepts the rematch: the series and its next game.
        offer = series.rematch_accept(user=guest, game_id=self.played.pk)
        assert offer.next_game_id is not None
        yield reverse("series:detail", args=[self.played.series_entry.series_id]), host
        yield reverse("games:detail", args=[offer.next_game_id]), guest
        yield reverse("accounts:api_tokens"), host
        for anonymous in ("account_login", "account_signup", "account_reset_password"):
            yield reverse(anonymous), None
        yield reverse("guide:index"), None
        yield reverse("guide:tutorial"), None
        for preset in ("classic", "perevodnoy", "black_book", "tabletop", "durak24"):
            yield reverse("guide:preset", args=[preset]), None
        yield reverse("games:lobby"), None


#: Forms sent wrong, each with what it is sent: their errors are read like the pages.
BAD_FORMS: list[tuple[str, dict[str, str]]] = [
    ("games:create", {"preset": "classic", "num_players": "9"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_opening_limit": "-3"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_opening_limit": "abc"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_max_attack": "0"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_hand_size": "99"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_deck_size": "24", "opt_hand_size": "12"}),
    ("games:create", {"preset": "classic", "num_players": "5", "opt_teams": "partners"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_claim_after_days": "0"}),
    ("games:create", {"preset": "classic", "num_players": "2", "opt_enchanted": "6", "opt_deck_size": "52"}),
    ("games:create", {"preset": "nonsense", "num_players": "2"}),
    ("games:create", {"preset": "classic", "num_players": "2", "against": "computer"}),
    ("notifications:settings", {"language": "xx", "time_zone": "Mars/Olympus", "confirm_moves": "?"}),
    ("games:vacation", {"starts_on": "2000-01-01", "days": "-1"}),
    ("games:lobby_open", {"rules": "nonsense", "players": "abc"}),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_of_the_walk_shows_a_raw_identifier(language: str) -> None:
    walk = Walk()
    problems: list[str] = []
    read = 0
    for url, user in walk.pages():
        response = client(user, language).get(url)
        assert response.status_code == 200, (url, response.status_code)
        problems += [
            f"{url}: {problem}" for problem in found_in(visible(response.content.decode()), language)
        ]
        read += 1
    assert read >= 30
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_form_error_shows_a_raw_identifier(language: str) -> None:
    player = UserFactory()
    problems: list[str] = []
    for name, data in BAD_FORMS:
        reader = client(player, language)
        response = (
            reader.post(reverse(name), data)
            if name != "games:lobby_open"
            else reader.get(reverse(name), data)
        )
        assert response.status_code in (200, 302, 400), (name, data, response.status_code)
        page = visible(response.content.decode())
        problems += [f"{name} {data}: {problem}" for problem in found_in(page, language)]
    anonymous = client(None, language)
    signup = anonymous.post(
        reverse("account_signup"),
        {"username": "x y", "email": "nope", "password1": "1", "password2": "2", "time_zone": "Mars/Olympus"},
    )
    login = anonymous.post(reverse("account_login"), {"login": "nobody", "password": "wrong"})
    for response in (signup, login):
        problems += found_in(visible(response.content.decode()), language)
    game = services.game_create(creator=player, preset="classic", num_players=2)
    invite = reader.post(reverse("games:invite", args=[game.pk]), {"username": "nobody-here"}, follow=True)
    problems += found_in(visible(invite.content.decode()), language)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_email_shows_a_raw_identifier(language: str) -> None:
    host, guest = UserFactory(language=language), UserFactory(language=language)
    game = services.game_create(
        creator=host, preset="classic", num_players=2, deal=DEAL, move_time=timedelta(days=1)
    )
    services.game_join(user=guest, game_id=game.pk)
    play_script(game, [host, guest], MOVES)
    computers = services.game_against_computer(creator=host, level="search", preset="classic", num_players=2)
    services.game_resign(game_id=computers.pk, user=host)
    assert len(mail.outbox) >= 4
    problems = []
    for message in mail.outbox:
        bodies = [str(message.subject), str(message.body)]
        bodies += [
            visible(str(content))
            for content, kind in getattr(message, "alternatives", [])
            if kind == "text/html"
        ]
        problems += [
            f"{message.subject}: {problem}" for body in bodies for problem in found_in(body, language)
        ]
    assert problems == [], "\n".join(problems)


def test_the_scan_finds_each_kind_of_raw_identifier() -> None:
    for text in (
        "Masha (computer-rules-2) attacks",
        "Teams = partners",
        "Opening limit: None",
        "Hand %(count)s",
        "not {card}",
        "'Mars/Olympus' is not a time zone",
    ):
        assert found_in(text, "en"), text
    assert found_in("Ограничение: none", "ru")
    assert not found_in("None yet. Nobody is the fool; none of them. Says 'take'.", "en")
    assert not found_in("Ничья: дурака нет.", "ru")
