"""A game's terms in words, for whoever may join it: its time control and its rules in one line.

The lobby's open games and an open game's own page show them, so nobody learns the clock only
once it runs. The rules come from the engine (its preset's one-line summary, its option names);
nothing here decides a rule.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils.translation import gettext, ngettext

import durak
from durak_site import engine_text


def move_time_words(move_time: timedelta | None) -> str:
    """The time for a move in words, in the active language, in its largest whole unit.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     [move_time_words(t) for t in (None, timedelta(seconds=30), timedelta(days=1))]
    ['no clock', '30 s a move', '1 day a move']
    """
    if move_time is None:
        return gettext("no clock")
    seconds = int(move_time.total_seconds())
    if seconds and seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(count)d day a move", "%(count)d days a move", days) % {"count": days}
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(count)d hour a move", "%(count)d hours a move", hours) % {"count": hours}
    if seconds and seconds % 60 == 0:
        return gettext("%(count)d min a move") % {"count": seconds // 60}
    return gettext("%(count)d s a move") % {"count": seconds}


def time_control_words(game: Any) -> str:
    """A game's time control: the time a move, and whether its clocks rest at weekends."""
    words = move_time_words(game.move_time)
    if game.move_time is not None and game.pause_weekends:
        words = gettext("%(time)s, clocks paused at weekends") % {"time": words}
    return words


def rules_summary(game: Any) -> str:
    """The game's rules in one line: the engine's summary of its preset, then each option the
    creator changed (``classic`` with a 52-card deck: "Podkidnoy, the Full rules: … · Deck: 52")."""
    parts = [engine_text.preset_summary(game.preset)] if game.preset in durak.PRESETS else []
    parts += [
        gettext("%(option)s: %(value)s")
        % {"option": engine_text.option_name(name), "value": engine_text.option_value(name, value)}
        for name, value in (game.rule_overrides or {}).items()
    ]
    return " · ".join(parts)
