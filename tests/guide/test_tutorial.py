"""The first-game tutorial: it advances only with the engine's legal actions, and its opponent
follows its script along the suggested line."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

import durak
from guide.tutorial import MAIN_LINE, OPPONENT, OPPONENT_SCRIPT, YOU, Tutorial, new_game, token_of


def page(moves: str = "", language: str = "en") -> tuple[int, str]:
    response = Client().get(
        reverse("guide:tutorial"), {"moves": moves}, headers={"accept-language": language}
    )
    return response.status_code, response.content.decode()


def buttons(page_html: str) -> list[tuple[str, str]]:
    """(the moves the button sends, its label) for every action button on the page."""
    forms = re.findall(
        r'<input type="hidden" name="moves" value="([^"]*)">\s*<button type="submit"[^>]*>(.*?)</button>',
        page_html,
        re.DOTALL,
    )
    return [(html.unescape(value), re.sub(r"<[^>]+>", "", label).strip()) for value, label in forms]


def test_the_first_page_offers_exactly_the_engines_legal_actions_for_the_player() -> None:
    status, first = page()
    assert status == 200
    legal = new_game().legal_json(YOU)
    assert sorted(moves for moves, _ in buttons(first)) == sorted(token_of(action) for action in legal)
    assert 'class="suggested ' in first


def test_following_the_suggestions_plays_the_script_to_a_win() -> None:
    moves: list[str] = []
    for expected in MAIN_LINE:
        status, shown = page(",".join(moves))
        assert status == 200
        suggested = re.search(r'value="([^"]*)">\s*<button type="submit" class="suggested[ "]', shown)
        assert suggested, f"no suggestion after {moves}"
        assert html.unescape(suggested.group(1)) == ",".join([*moves, expected])
        moves.append(expected)
    status, end = page(",".join(moves))
    assert status == 200
    assert "they are the durak" in end
    assert buttons(end) == []
    tutorial = Tutorial.replay(",".join(MAIN_LINE))
    assert tutorial.game.over and tutorial.game.loser == OPPONENT
    assert [token_of(s.action) for s in tutorial.steps if s.player == OPPONENT] == OPPONENT_SCRIPT


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ("a-7C", "you do not hold 7C"),  # the opponent's card
        ("a-6S,t-10D", "10D cannot be thrown in"),  # no ten on the table
        ("a-6S,d-6S-7S", "only the defender"),
        ("take", "only the defender"),
        ("timeout", None),  # a system action is no token of a move
        ("a-6S,t-6C,pass,d-9D-AS", None),  # a card of the discard
        ("a-6S.6S", None),  # one card twice
        ("a-", None),
        ("ход", None),
    ],
)
def test_a_move_the_engine_refuses_does_not_advance(moves: str, reason: str | None) -> None:
    legal_part = moves.rsplit(",", 1)[0] if "," in moves else ""
    status, refused = page(moves)
    assert status == 400
    assert "That move was not played" in refused
    if reason:
        assert reason.replace("7C", "7♣").replace("10D", "10♦") in html.unescape(refused)
    # The game shown is the one before the refused move, with the same buttons.
    _, before = page(legal_part)
    assert buttons(refused) == buttons(before)
    assert Tutorial.replay(moves).moves == [token for token in legal_part.split(",") if token]


def test_any_legal_line_reaches_the_end_and_every_page_is_consistent_with_the_engine() -> None:
    """Always pick the last legal action (often a take): the game still ends, and every page lists
    exactly the engine's actions."""
    moves: list[str] = []
    for _ in range(60):
        tutorial = Tutorial.replay(",".join(moves))
        legal = tutorial.legal_actions()
        if tutorial.game.over:
            break
        assert legal, "the tutorial waits for nobody"
        assert legal == tutorial.game.legal_json(YOU)
        moves.append(token_of(legal[-1]))
    assert Tutorial.replay(",".join(moves)).game.over


def test_the_tutorial_never_shows_the_opponents_cards() -> None:
    _, first = page()
    for card in new_game().hands[OPPONENT]:
        assert durak.pretty(card) not in html.unescape(first), card


def test_the_tutorial_speaks_russian() -> None:
    status, russian = page("a-6S", "ru")
    assert status == 200
    text = html.unescape(russian)
    assert "Ваш ход" in text and "козырь" in text.lower()
    assert "Your opponent" not in text
