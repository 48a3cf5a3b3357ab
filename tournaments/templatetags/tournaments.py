"""Tournaments on pages: ``{{ row.points|points }}`` (``words.points_words``), a withdrawal in
words, and ``{% podium person %}``, a player's first, second and third places on their profile
(``tournaments/_podium.html``, one query)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template

from accounts.models import User
from durak_site.engine_text import preset_name

from .. import selectors, words
from ..models import Player

register = template.Library()


@register.filter
def points(value: Fraction) -> str:
    return words.points_words(value)


@register.filter
def withdrawal(value: str) -> str:
    """ "withdrew", "ran out of time twice in a row"; "" for a player still in."""
    return str(Player.Withdrawn(value).label) if value else ""


@register.inclusion_tag("tournaments/_podium.html")
def podium(person: User) -> dict[str, Any]:
    return {"places": selectors.podium_of(person)}


@register.filter
def format_words(tournament: Any) -> str:
    return words.format_words(tournament)


@register.filter
def clock_words(tournament: Any) -> str:
    return words.clock_words(tournament)


@register.filter
def preset_words(name: str) -> str:
    return preset_name(name)
