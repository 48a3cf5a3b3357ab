"""The engine's answers that a view leaves to the engine: how a finished game came out
(``durak.Game.outcome``) and whose team a seat is in (``durak.Game.team_of``)."""

from typing import Any

import durak


def game_of(view: dict[str, Any]) -> durak.Game | None:
    """The engine's game as ``view`` shows it, to ask it those questions; None when there is
    none to ask (a running game without teams). The cards the viewer may not see are blanks:
    neither question looks at a card, and the game never leaves this module's callers."""
    if not (view.get("over") or view.get("teams")):
        return None
    me = view.get("player")
    hands = [
        list(view["hand"]) if seat == me else [""] * size for seat, size in enumerate(view["hand_sizes"])
    ]
    return durak.Game.from_view(view, hands, [""] * view["stock_size"])
