"""Every computer at a table has a name a person can tell apart, the same on every page: three
rule-of-thumb computers in a two-against-two game are Masha, Petya and Dasha «(по правилам)»
on the table, in the history, the results, My games, the profiles, the replay and the head to
head; a computer that is the fool is named so in the bell and the e-mail. Never "Computer (rule
of thumb)" three times, never the account's user name."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games import selectors, services, words
from games.models import Game, Move, Seat
from tests.factories import LONGER_DEAL, UserFactory, started_game
from tests.stats.helpers import time_out

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = {
    "en": ["Masha (rule of thumb)", "Petya (rule of thumb)", "Dasha (rule of thumb)"],
    "ru": ["Маша (по правилам)", "Петя (по правилам)", "Даша (по правилам)"],
}


def text(response: object) -> str:
    page = response.content.decode()  # type: ignore[attr-defined]
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


def reader(user: User, language: str) -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    return client


@pytest.mark.parametrize("language", ["en", "ru"])
def test_three_computers_at_one_table_have_three_names_on_every_page(language: str) -> None:
    host = UserFactory(username="host", language=language)
    game = services.game_against_computer(
        creator=host, level="rules", preset="classic", num_players=4, overrides={"teams": "partners"}
    )
    computers = list(game.seats.filter(user__is_bot=True).select_related("user").order_by("position"))
    names = NAMES[language]
    with translation.override(language):
        named = {seat.position: words.seat_name(seat.user) for seat in computers}
    assert sorted(named.values()) == sorted(names)
    client = reader(host, language)

    def shows_every_name(page: str, where: str) -> None:
        for name in names:
            assert name in page, (where, name)
        assert "computer-rules" not in page and "Computer (" not in page and "Компьютер (" not in page, where

    table = text(client.get(reverse("games:detail", args=[game.pk])))
    shows_every_name(table, "the table")
    # The history names each computer that moved by its own name (the page shows the latest
    # moves: ``selectors.HISTORY_PAGE``; "Earlier moves" the rest, in the same words).
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    with translation.override(language):
        history = words.history(moves, me=0, names=named)
    shown = moves[-selectors.HISTORY_PAGE :]
    for move, entry in zip(moves, reversed(history.entries), strict=True):
        if move.position in named:
            assert named[move.position] in entry.move
            if move in shown:
                assert entry.move in table
    services.game_resign(game_id=game.pk, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    finished = text(client.get(reverse("games:detail", args=[game.pk])))
    shows_every_name(finished, "the results")
    for name in named.values():  # each computer's own result beside its name
        assert re.search(re.escape(name) + r" ?: \w", finished)
    shows_every_name(text(client.get(reverse("games:lobby"))), "My games")
    shows_every_name(text(client.get(reverse("stats:profile", args=["host"]))), "the profile")
    shows_every_name(text(client.get(reverse("replays:replay", args=[game.pk]))), "the replay")
    for seat in computers:
        name = named[seat.position]
        profile = text(client.get(reverse("stats:profile", args=[seat.user.username])))
        assert name in profile and "@computer" not in profile and "computer-rules" not in profile
        versus = text(client.get(reverse("stats:profile", args=["host"]), {"vs": seat.user.username}))
        assert name in versus


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_computer_fool_is_named_in_the_bell_and_the_email(language: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    waited = Seat.objects.get(game=game, awaiting_move=True)
    User.objects.filter(pk=waited.user_id).update(is_bot=True, bot_level="rules", username="computer-rules-2")
    human = next(user for user in users if user.pk != waited.user_id)
    User.objects.filter(pk=human.pk).update(language=language)
    time_out(game)  # the computer ran out of time: it is the fool
    petya = NAMES[language][1]
    said = {
        "en": f"Game {game.pk} is over: you won, {petya} ran out of time and is the fool.",
        "ru": f"Игра {game.pk} окончена: вы победили, {petya} — дурак (время вышло).",
    }[language]
    bell = text(reader(human, language).get(reverse("notifications:list")))
    assert said in bell and "computer-rules" not in bell
    bodies = [str(message.body) for message in mail.outbox if message.to == [human.email]]
    assert any(said in body for body in bodies), bodies
    assert not any("computer-rules" in body for body in bodies)
