"""Number formats for the stats pages."""

from django import template
from django.utils.translation import get_language, pgettext

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    return "\u2013" if value is None else f"{value * 100:.0f}%"


@register.filter
def decimal(value: float | None) -> str:
    return "\u2013" if value is None else f"{value:.1f}"


@register.filter
def rating_number(value: float | None, provisional: bool = False) -> str:
    """A rating for reading: one decimal, a true minus sign; a whole number while provisional
    (its last digits mean nothing yet).

    >>> rating_number(-1.84, True), rating_number(11.06), rating_number(None)
    ('\u22122', '11.1', '\u2013')
    """
    if value is None:
        return "\u2013"
    text = f"{value:.0f}" if provisional else f"{value:.1f}"
    if text.lstrip("-").strip("0.") == "":
        text = text.lstrip("-")  # no "-0"
    return text.replace("-", "\u2212")


@register.filter
def ordinal_place(place: int) -> str:
    """1st, 2nd, 3rd, 4th in English; 1-м, 2-м in Russian ("вышел 2-м")."""
    if (get_language() or "en").startswith("en"):
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
        return f"{place}{suffix}"
    return pgettext("place out, e.g. out 2nd", "%(place)s.") % {"place": place}
