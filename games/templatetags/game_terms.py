"""A game's terms for joiners (``games.terms``): ``{{ game|time_control }}``, ``{{ game|rules_summary }}``;
a seated player's name as every page says it: ``{{ seat.user|seat_name }}`` (``games.words``)."""

from typing import Any

from django import template

from games import terms, words

register = template.Library()


@register.filter
def time_control(game: Any) -> str:
    """The time a move in words: "30 s a move", "1 day a move", "no clock"."""
    return terms.time_control_words(game)


@register.filter
def rules_summary(game: Any) -> str:
    """The preset's one-line summary and the options changed."""
    return terms.rules_summary(game)


@register.filter
def seat_name(user: Any) -> str:
    """A person's name; a computer player's level ("Computer (beginner)"), never its account."""
    return words.seat_name(user)
