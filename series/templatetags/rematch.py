"""``{% rematch_of game as rematch %}``: a finished game's offer of a rematch as the page's
reader sees it (``series.selectors.rematch_state``), for ``games/_rematch.html``."""

from typing import Any

from django import template

from games.models import Game
from series.selectors import RematchState, rematch_state

register = template.Library()


@register.simple_tag(takes_context=True)
def rematch_of(context: template.Context, game: Game) -> RematchState:
    known: Any = context.get("rematch")
    if isinstance(known, RematchState) and known.game.pk == game.pk:
        return known
    request = context.get("request")
    return rematch_state(game=game, viewer=getattr(request, "user", None))
