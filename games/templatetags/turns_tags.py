"""The "next game waiting for you" of a page: ``{{ turns|next_game:current }}``."""

from typing import Any

from django import template

register = template.Library()


@register.filter
def next_game(turns: Any, current: int | None = None) -> int | None:
    """The id of the game to play next (``selectors.TurnsWaiting.next_game``) other than
    ``current``, the game on the screen; None for a visitor or when no other game waits."""
    if turns is None:
        return None
    result: int | None = turns.next_game(excluding=current)
    return result
