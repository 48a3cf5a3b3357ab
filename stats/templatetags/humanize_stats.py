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
