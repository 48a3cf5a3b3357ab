"""What each player may see (boardgame.io's playerView): :func:`view_of`, and the shapes of the view and
of the events.

Never a card of another hand or of the stock, except the face-up trump card under the stock.
The keys are :mod:`durak.schema`'s ``VIEW``, in its order. :class:`View` and :data:`Event`
state the same shapes for the type checker; ``Game.view()`` and ``Game.events`` keep their
``dict[str, Any]`` annotations, which the site and the bots are written against (a TypedDict is
no ``dict[str, Any]`` to mypy), and the engine's tests hold both to these declarations.
"""

# No postponed annotations here: a TypedDict reads NotRequired from its annotations as it is made.
from typing import Any, Literal, NotRequired, TypedDict

from durak.actions import Action
from durak.cards import sort_hand
from durak.legality import legal_json, waiting_for
from durak.state import Position
from durak.storage import rules_json


class LastBout(TypedDict):
    attacker: int
    defender: int
    result: Literal["beaten", "taken"]


class End(TypedDict):
    reason: str
    player: int | None
    team: NotRequired[int | None]


class BoutEnd(TypedDict):
    type: Literal["bout_end"]
    attacker: int
    defender: int
    result: Literal["beaten", "taken"]
    cards: list[str]


class Drew(TypedDict):
    type: Literal["drew"]
    player: int
    count: int
    face_up: NotRequired[str]


class Out(TypedDict):
    type: Literal["out"]
    player: int


class Swap(TypedDict):
    type: Literal["swap"]
    player: int
    took: str
    gave: str


class Automatic(TypedDict):
    type: Literal["automatic"]
    action: Action


class GameOver(TypedDict):
    type: Literal["game_over"]
    reason: str
    player: int | None
    team: NotRequired[int | None]


#: One entry of ``Game.events`` (:data:`durak.schema.EVENTS`).
Event = BoutEnd | Drew | Out | Swap | Automatic | GameOver


class View(TypedDict):
    """``Game.view(player)``: see :data:`durak.schema.VIEW` for the meaning of each key."""

    player: int | None
    players: int
    dealer: int
    hand: list[str]
    hand_sizes: list[int]
    table: list[list[str | None]]
    named_suits: dict[str, str]
    trump: str | None
    trump_card: str | None
    stock_size: int
    discard_size: int
    discarded: list[str]
    attacker: int | None
    defender: int | None
    direction: int
    taking: bool
    passed: list[int]
    limit: int | None
    finished: list[int]
    over: bool
    loser: int | None
    teams: list[list[int]] | None
    losing_team: int | None
    waiting_for: list[int]
    actions: list[Action]
    last_bout: LastBout | None
    end: End | None
    enchanted: list[str]
    rules: dict[str, Any]
    bouts: int
    defended: bool
    slot: int | None
    transfer_blocked: bool
    closed: bool
    king_defended: bool
    may_reverse: int | None
    timeouts: list[int]
    auto_pass: list[int]
    format: int


def view_of(position: Position, player: int | None) -> dict[str, Any]:
    """What ``player`` may see (``None``: a spectator), as :meth:`durak.Game.view`."""
    if player is not None and not 0 <= player < position.players:
        raise ValueError(f"no player {player!r} in this game")
    bout = position.bout
    stock = position.stock
    return {
        "player": player,
        "players": position.players,
        "dealer": position.dealer,
        "hand": sort_hand(position.hands[player], position.trump) if player is not None else [],
        "hand_sizes": [len(hand) for hand in position.hands],
        "table": [list(pair) for pair in bout.table],
        "named_suits": dict(bout.named),
        "trump": position.trump,
        "trump_card": stock[-1] if stock else None,
        "stock_size": len(stock),
        "discard_size": len(position.discard),
        "discarded": list(position.discard),
        "attacker": position.attacker,
        "defender": position.defender,
        "direction": position.direction,
        "taking": bout.taking,
        "passed": sorted(bout.passed),
        "limit": bout.limit,
        "finished": list(position.finished),
        "over": position.over,
        "loser": position.loser,
        "teams": position.teams,
        "losing_team": position.losing_team,
        "waiting_for": waiting_for(position),
        "actions": legal_json(position, player) if player is not None else [],
        "last_bout": dict(position.last_bout) if position.last_bout else None,
        "end": dict(position.end) if position.end else None,
        "enchanted": list(position.rules.enchanted),
        "rules": rules_json(position.rules),
        # The rest of the public state, so that a player's program can rebuild the game from
        # this view and a guess of the hidden cards (Game.from_view).
        "bouts": position.bouts,
        "defended": position.defended,
        "slot": position.slot,
        "transfer_blocked": bout.transfer_blocked,
        "closed": bout.closed,
        "king_defended": bout.king_defended,
        "may_reverse": position.may_reverse,
        "timeouts": list(position.timeouts),
        "auto_pass": sorted(position.auto_pass),
        "format": position.state_format,
    }
