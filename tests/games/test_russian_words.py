"""Russian that reads right for anyone (issue 29): neutral forms where a verb would need a
gender («alice отбивается», not «alice должен отбить»), a name only where its case does not
matter («Ваш заход, отбивается ваш соперник», not «Ваш заход под ваш соперник»), «вы» in lower
case mid-sentence («Последний ход: вы берёте карты.»), no «вышел из игры» or «не проиграл» on a
profile, no trailing comma after the last player, and the history's word for a pass the one the
button said («Бито» when every card was beaten)."""

from __future__ import annotations

import re
from html import unescape
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import words
from games.presentation import build_table
from games.presentation.situation import situation_line
from tests.factories import LONGER_DEAL, UserFactory, started_game
from tests.stats.helpers import time_out

NAMES = {0: "alice", 1: "bob"}


def name(position: int | None) -> str:
    return words.seat_word(position, me=0, names=NAMES)


def test_the_defenders_line_has_no_gender() -> None:
    view: dict[str, Any] = {"attacker": 0, "defender": 1, "table": [["7S", None]], "waiting_for": [1]}
    with translation.override("ru"):
        line = situation_line(view, None, lambda p: words.player_name(p, NAMES))
    assert line == "bob отбивается от 7♠ или берёт."
    assert "должен" not in line and "должна" not in line


def test_a_lead_names_the_defender_in_the_nominative() -> None:
    view: dict[str, Any] = {"attacker": 0, "defender": 1, "table": [], "waiting_for": [0]}
    opponent = {1: "ваш соперник"}
    with translation.override("ru"):
        line = situation_line(view, 0, lambda p: words.seat_word(p, me=0, names=opponent))
    assert line == "Ваш заход, отбивается ваш соперник: одна карта или несколько одного достоинства."


def test_the_last_move_says_vy_in_lower_case_after_its_colon() -> None:
    view: dict[str, Any] = {
        "player": 1,
        "hand": ["6S", "7S"],
        "hand_sizes": [3, 2],
        "table": [],
        "attacker": 0,
        "defender": 1,
        "waiting_for": [0],
        "actions": [],
        "stock_size": 0,
    }
    with translation.override("ru"):
        mine = build_table(view, NAMES, 1, last_action={"type": "take", "player": 1}, last_position=1)
        theirs = build_table(view, NAMES, 1, last_action={"type": "take", "player": 0}, last_position=0)
    assert mine.last_move_line == "Вы берёте карты."  # a sentence of its own, for the live region
    assert mine.last_move_clause == "вы берёте карты."
    assert theirs.last_move_clause == "alice берёт карты."


def move(seq: int, action: dict[str, Any], events: list[dict[str, Any]] | None = None) -> SimpleNamespace:
    return SimpleNamespace(
        seq=seq, position=action["player"], action=action, events=events or [], created_at=None
    )


def test_the_history_says_what_the_pass_button_said() -> None:
    moves = [
        move(1, {"type": "attack", "player": 0, "cards": ["6S"]}),
        move(2, {"type": "defend", "player": 1, "target": "6S", "card": "7S"}),
        move(
            3,
            {"type": "pass", "player": 0},
            [{"type": "bout_end", "result": "beaten", "cards": ["6S", "7S"]}],
        ),
        move(4, {"type": "attack", "player": 1, "cards": ["8S"]}),
        move(5, {"type": "take", "player": 0}),
        move(6, {"type": "pass", "player": 1}, [{"type": "bout_end", "result": "taken", "cards": ["8S"]}]),
    ]
    with translation.override("ru"):
        told = [entry.move for entry in words.history(moves, me=None, names=NAMES)]
        button = words.pass_label({"table": [["6S", "7S"]]})
    assert button == "Бито"
    assert told[3] == "alice: бито."  # every card was beaten: the button said «Бито»
    assert told[0] == "bob: пас."  # the defender was taking: «Пас»
    with translation.override("en"):
        assert words.history(moves, me=0, names=NAMES).entries[3].move == "You: done."


@pytest.mark.django_db
def test_a_russian_profile_lists_the_other_players_without_a_trailing_comma_or_gender() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    time_out(game)  # the first player is the fool
    last = users[1]
    client = Client(headers={"Accept-Language": "ru"})
    client.force_login(UserFactory())
    page = unescape(client.get(reverse("stats:profile", args=[last.username])).content.decode())
    cells = re.findall(r'data-label="игроки"><span>(.*?)</span></td>', page, flags=re.S)
    players = re.sub(r"<[^>]+>", "", cells[0]).strip()
    assert players == f"{users[0].name} (дурак)"
    assert not players.endswith(",")
    for gendered in ("вышел из игры", "не проиграл", "вышла"):
        assert gendered not in page
