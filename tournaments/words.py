"""A tournament's settings and scores in words, in the active language: what its page and list say.

>>> from fractions import Fraction
>>> from django.utils import translation
>>> with translation.override("en"):
...     [points_words(Fraction(n, d)) for n, d in ((3, 1), (3, 2), (2, 3), (0, 1))]
['3', '1.5', '0.67', '0']
>>> with translation.override("ru"):
...     points_words(Fraction(3, 2))
'1,5'
"""

from __future__ import annotations

from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from durak_site.engine_text import preset_name
from games import limits, terms

from .models import Tournament


def points_words(points: Fraction) -> str:
    """Points as a number in the reader's language: whole, else to two decimals at most ("1.5",
    «1,5», "0.67": a table's shared draw scores thirds)."""
    if points.denominator == 1:
        return str(points.numerator)
    text = formats.number_format(round(float(points), 2), decimal_pos=2)
    separator = formats.get_format("DECIMAL_SEPARATOR")
    return text.rstrip("0").rstrip(separator) if separator in text else text


def format_words(tournament: Tournament) -> str:
    """ "Swiss, 5 rounds", "round robin", "table rounds of 4, 3 rounds"."""
    rounds = ngettext("%(count)s round", "%(count)s rounds", tournament.rounds) % {"count": tournament.rounds}
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        if tournament.status == Tournament.Status.REGISTRATION:
            return _("round robin: every pair plays once")
        return _("round robin, %(rounds)s") % {"rounds": rounds}
    if tournament.format == Tournament.Format.TABLES:
        return _("table rounds of %(size)s, %(rounds)s") % {"size": tournament.table_size, "rounds": rounds}
    return _("Swiss, %(rounds)s") % {"rounds": rounds}


def clock_words(tournament: Tournament) -> str:
    """ "live: 30 s a move, rounds of 15 minutes", "correspondence: 1 day a move"."""
    move = terms.move_time_words(tournament.move_time)
    if tournament.round_time is not None:
        seconds = int(tournament.round_time.total_seconds())
        if seconds % 60:
            length = _("%(count)s s") % {"count": seconds}
        else:
            minutes = seconds // 60
            length = ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
        return _("live: %(move)s, rounds of %(length)s") % {"move": move, "length": length}
    return _("correspondence: %(move)s") % {"move": move}


def who_may_register(tournament: Tournament) -> list[str]:
    """The limits on who may register, a sentence each (none: anyone)."""
    lines = []
    rating = limits.rating_range_words(tournament.rating_min, tournament.rating_max)
    if rating:
        lines.append(_("rating %(range)s") % {"range": rating})
    if tournament.min_reliability is not None:
        lines.append(_("reliability at least %(minimum)s%%") % {"minimum": tournament.min_reliability})
    return lines


def settings_lines(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's settings as (label, words), in the order its page lists them."""
    lines = [
        (_("Format"), format_words(tournament)),
        (_("Rules"), preset_name(tournament.preset)),
        (_("Time control"), clock_words(tournament)),
    ]
    if tournament.format == Tournament.Format.TABLES:
        lines.append((_("Scoring"), str(tournament.get_scoring_display())))
    lines.append((_("Players"), _("at most %(count)s") % {"count": tournament.max_players}))
    lines.append((_("Who may register"), ", ".join(who_may_register(tournament)) or _("anyone")))
    lines.append((_("Rated"), _("yes") if tournament.rated else _("no")))
    return lines
