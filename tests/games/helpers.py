"""Reading the game page's HTML the way a browser without JavaScript would."""

import html
import json
import re
from typing import Any

import durak
from games.presentation import SUIT_NAMES, card_name

_ACTION_BUTTON = re.compile(r'<button name="action" value="([^"]*)"')


def action_buttons(page: str) -> list[dict[str, Any]]:
    """The actions the page offers as buttons, as the JSON they post: the moves, not the
    "don't wait for me to throw in" toggle (``preference_buttons``)."""
    posted = [json.loads(html.unescape(value)) for value in _ACTION_BUTTON.findall(page)]
    return [action for action in posted if action.get("type") not in durak.PREFERENCE_ACTION_TYPES]


def preference_buttons(page: str) -> list[dict[str, Any]]:
    """The standing choices the page offers (``durak.PREFERENCE_ACTION_TYPES``), as they post."""
    posted = [json.loads(html.unescape(value)) for value in _ACTION_BUTTON.findall(page)]
    return [action for action in posted if action.get("type") in durak.PREFERENCE_ACTION_TYPES]


def version_on_page(page: str) -> int:
    match = re.search(r'name="expected_version" value="(\d+)"', page)
    assert match, "the page has no move form"
    return int(match.group(1))


def card_traces(card: str) -> list[str]:
    """Every way a page could spell a card."""
    rank, suit = durak.card_rank(card), durak.card_suit(card)
    return [
        f'"{card}"',
        f"'{card}'",
        f"&quot;{card}&quot;",
        f">{card}<",
        durak.pretty(card),
        f"{rank} of {SUIT_NAMES[suit]}",
        card_name(card),  # "eight of diamonds", as screen readers hear it
    ]


def hidden_cards(engine: durak.Game, viewer: int | None) -> set[str]:
    """Cards ``viewer`` must not see: other hands and the stock, but the face-up trump."""
    hidden = {card for player, hand in enumerate(engine.hands) if player != viewer for card in hand}
    stock = list(engine.stock)
    hidden |= set(stock[:-1])
    return hidden


def assert_no_hidden_cards(page: str, engine: durak.Game, viewer: int | None) -> None:
    for card in hidden_cards(engine, viewer):
        for trace in card_traces(card):
            assert trace not in page, f"hidden card {card} leaks as {trace!r}"
