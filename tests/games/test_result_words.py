# ruff: noqa: RUF001  (Russian text)
"""One result, one set of words (``games.words``, asked from the engine's ``Outcome``): the table,
its results, the history, My games, the profile, the replay, the bell and the e-mail say the same
thing to each player, in English and in Russian: for the winner and the fool of a game, for a
draw and for both teams of a team game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from tests.factories import LONGER_DEAL, started_game
from tests.stats.helpers import DRAW_DEAL, DRAW_MOVES, play_script, time_out

pytestmark = pytest.mark.django_db(transaction=True)

#: What each reader is told, by language: the sentence (table, history, bell, e-mail) and the
#: word beside a seat (the table's results, My games, the profile, the replay).
WORDS = {
    "en": {
        "fool": ("you are the fool (you ran out of time)", "the fool"),
        "winner": ("you won, {fool} ran out of time and is the fool", "won"),
        "draw": ("a draw, nobody is the fool", "draw"),
        "team lost": ("your team lost ({quitter} resigned)", "team lost"),
        "team lost, quit": ("your team lost (you resigned)", "team lost"),
        "team won": ("your team won ({quitter} resigned)", "team won"),
        "game over": "The game is over: {result}.",
        "bell": "Game {game} is over: {result}.",
        "spectator": "The game is over: {fool} ran out of time and is the fool.",
    },
    "ru": {
        "fool": ("вы — дурак (у вас вышло время)", "дурак"),
        "winner": ("вы победили, {fool} — дурак (время вышло)", "победа"),
        "draw": ("ничья, дурака нет", "ничья"),
        "team lost": ("ваша команда проиграла ({quitter} сдаётся)", "команда проиграла"),
        "team lost, quit": ("ваша команда проиграла (вы сдались)", "команда проиграла"),
        "team won": ("ваша команда победила ({quitter} сдаётся)", "команда победила"),
        "game over": "Игра окончена: {result}.",
        "bell": "Игра {game} окончена: {result}.",
        "spectator": "Игра окончена: {fool} — дурак (время вышло).",
    },
}


@dataclass
class Reader:
    user: User
    kind: str  # a key of WORDS[language]


def text(html: str) -> str:
    """A page's words as a person reads them: no tags, entities decoded, spaces collapsed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def get(user: User, url: str, language: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200, url
    return text(response.content.decode())


def in_language(users: list[User], language: str) -> None:
    for user in users:
        user.language = language
        user.save(update_fields=["language"])


def check(game: Game, readers: list[Reader], language: str, **names: str) -> None:
    said = WORDS[language]
    for reader in readers:
        sentence, word = (part.format(**names) for part in said[reader.kind])
        over = said["game over"].format(result=sentence)
        table = get(reader.user, reverse("games:detail", args=[game.pk]), language)
        # The table's result line, and the history's last entry, in the same words.
        assert table.count(over) >= 2, (reader.kind, over, table)
        assert f"{reader.user.name}: {word}" in table  # the table's results
        lobby = get(reader.user, reverse("games:lobby"), language)
        assert f"{reader.user.name} ({word})" in lobby  # My games
        profile = get(reader.user, reverse("stats:profile", args=[reader.user.username]), language)
        assert re.search(rf"#{game.pk} \S+ [^#]*?{re.escape(word)}", profile), profile  # recent games
        replay = get(reader.user, reverse("replays:replay", args=[game.pk]), language)
        if word in (said["fool"][1], said["team lost"][1]):
            assert f"{reader.user.name} {word}" in replay  # the hand's heading
        bell = get(reader.user, reverse("notifications:list"), language)
        assert said["bell"].format(game=game.pk, result=sentence) in bell
        bodies = [str(m.body) for m in mail.outbox if m.to == [reader.user.email]]
        assert any(said["bell"].format(game=game.pk, result=sentence) in body for body in bodies), bodies


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_winner_and_the_fool_read_one_result_everywhere(language: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    in_language(users, language)
    time_out(game)  # the first player ran out of time: the fool
    fool, winner = users
    check(game, [Reader(fool, "fool"), Reader(winner, "winner")], language, fool=fool.name)
    # A replay's reader is a spectator: the fool is named.
    replay = get(winner, reverse("replays:replay", args=[game.pk]), language)
    assert WORDS[language]["spectator"].format(fool=fool.name) in replay


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_draw_reads_as_a_draw_everywhere(language: str) -> None:
    game, users = started_game(deal=DRAW_DEAL)
    in_language(users, language)
    play_script(game, users, DRAW_MOVES)
    check(game, [Reader(user, "draw") for user in users], language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_team_reads_its_own_result_everywhere(language: str) -> None:
    game, users = started_game(players=4, deal=None, overrides={"teams": "partners"})
    in_language(users, language)
    quitter = users[3]
    services.game_resign(game_id=game.pk, user=quitter)  # team B (seats 1 and 3) loses
    readers = [
        Reader(users[0], "team won"),
        Reader(users[1], "team lost"),
        Reader(users[2], "team won"),
        Reader(quitter, "team lost, quit"),
    ]
    check(game, readers, language, quitter=quitter.name)
