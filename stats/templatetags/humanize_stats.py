"""Number formats for the stats pages."""

from django import template

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    return "\u2013" if value is None else f"{value * 100:.0f}%"


@register.filter
def decimal(value: float | None) -> str:
    return "\u2013" if value is None else f"{value:.1f}"


@register.filter
def ordinal_place(place: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{place}{suffix}"
