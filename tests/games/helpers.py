"""Reading the game page's HTML the way a browser without JavaScript would."""

import html
import json
import re
from typing import Any

import durak
from durak import SUIT_NAMES
from games.models import Game, Move
from games.presentation import card_name

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


def hidden_cards(engine: durak.Game, viewer: int | None, game: Game | None = None) -> set[str]:
    """Cards ``viewer`` must not see: other hands and the stock, but the face-up trump; with the
    stored ``game``, also but the cards everyone has seen face up since the deal (played to the
    table, then taken or kept: the history names them)."""
    hidden = {card for player, hand in enumerate(engine.hands) if player != viewer for card in hand}
    stock = list(engine.stock)
    hidden |= set(stock[:-1])
    if game is not None:
        hidden -= seen_face_up(engine, game)
    return hidden


def seen_face_up(engine: durak.Game, game: Game) -> set[str]:
    """Every card shown to all since the deal: each card of the move log, the trump turned up at
    the deal (it goes to a hand after a trump swap) and the one face up now."""
    seen = {card for card in (engine.trump_card, *engine.stock[-1:]) if card is not None}
    for action, events in Move.objects.filter(game=game).values_list("action", "events"):
        for public in (action, *(events or [])):  # events: a swap's took/gave, the last draw's face_up
            seen.update(public.get("cards", []))
            seen.update(
                public[name] for name in ("card", "target", "took", "gave", "face_up") if name in public
            )
    return seen


def assert_no_hidden_cards(
    page: str, engine: durak.Game, viewer: int | None, game: Game | None = None
) -> None:
    """No card ``viewer`` may not see is on ``page``; pass the stored ``game`` when the page
    shows its history (which names every card played, also those taken into a hand since)."""
    for card in hidden_cards(engine, viewer, game):
        for trace in card_traces(card):
            at = page.find(trace)
            assert at < 0, f"hidden card {card} leaks as {trace!r}: ...{page[max(0, at - 300) : at + 80]}..."
