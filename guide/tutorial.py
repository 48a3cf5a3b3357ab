"""A first game against scripted moves, on the real engine.

The deal is fixed (``Game.from_deal``); the player's moves so far travel in the URL as short
tokens, so the tutorial keeps no state on the server: every page replays the deal, the player's
moves and the opponent's answers. Each of the player's moves must be one of the engine's
``legal_actions`` for the player, and ``Game.apply`` plays it; the guide decides nothing.

The opponent plays the moves of its script while they are legal (they are, as long as the player
follows the suggestions) and otherwise the engine's rule-of-thumb choice (``durak.bots.rule_choice``),
so every run of the same moves gives the same game.

>>> tutorial = Tutorial.replay("a-6S,t-6C")
>>> tutorial.moves, tutorial.game.table
(['a-6S', 't-6C'], [['6S', '8S'], ['6C', '7C']])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import durak
from durak import rule_choice

YOU = 0
OPPONENT = 1
RULES = durak.Rules.preset("classic")
#: Hearts are trumps (the 9♥ lies face up under the stock). You attack first.
HANDS = [["6S", "6C", "10D", "KS", "7H", "AD"], ["8S", "JC", "9D", "QD", "8H", "7C"]]
STOCK = ["JS", "9H"]

#: The moves the tutorial suggests, in order: a whole game won by the player. A bout waits for the
#: attacker's "done" (pass) while a card of a rank on the table might still be out of sight.
MAIN_LINE = ["a-6S", "t-6C", "pass", "d-9D-10D", "a-JS", "pass", "d-JC-7H", "a-KS", "a-AD", "a-9H"]
#: The opponent's answers along the main line.
OPPONENT_SCRIPT = ["d-6S-8S", "d-6C-7C", "a-9D", "pass", "d-JS-8H", "a-JC", "take", "take", "take"]

#: The longest list of moves a URL may carry (a two-player game of 12 cards needs far fewer).
MAX_MOVES = 60


class BadMove(ValueError):
    """A move that is not a token, or not one of the engine's legal actions now."""


def new_game() -> durak.Game:
    return durak.Game.from_deal(RULES, HANDS, STOCK, dealer=OPPONENT, first_attacker=YOU)


def token_of(action: dict[str, Any]) -> str:
    """The short form of an action in the URL: ``a-6S``, ``a-6S.6C``, ``t-6C``, ``d-9D-10D``, ``x-6D``,
    ``take``, ``pass``, ``swap``."""
    kind = action["type"]
    if kind == "attack":
        return "a-" + ".".join(action["cards"])
    if kind == "throw":
        return f"t-{action['card']}"
    if kind == "defend":
        return f"d-{action['target']}-{action['card']}"
    if kind == "transfer":
        return f"x-{action['card']}"
    if kind == "swap_trump":
        return "swap"
    return str(kind)


def action_of(token: str, player: int) -> dict[str, Any]:
    """The action a token stands for; :class:`BadMove` for anything that is not a token."""
    kind, _, rest = token.partition("-")
    parts = rest.split("-") if rest else []
    if kind == "a" and len(parts) == 1:
        return {"type": "attack", "player": player, "cards": parts[0].split(".")}
    if kind == "t" and len(parts) == 1:
        return {"type": "throw", "player": player, "card": parts[0]}
    if kind == "d" and len(parts) == 2:
        return {"type": "defend", "player": player, "target": parts[0], "card": parts[1]}
    if kind == "x" and len(parts) == 1:
        return {"type": "transfer", "player": player, "card": parts[0]}
    if token in ("take", "pass"):
        return {"type": token, "player": player}
    if token == "swap":
        return {"type": "swap_trump", "player": player}
    raise BadMove(token)


def _unbeaten(game: durak.Game) -> bool:
    return any(defence is None for _, defence in game.table)


def opponent_to_move(game: durak.Game) -> bool:
    """Whether the opponent acts now: the engine waits for it and not for you, or it must answer an
    unbeaten card (you could still throw in, but a defender does not wait for that)."""
    if game.over:
        return False
    waiting = game.waiting_for()
    if OPPONENT not in waiting:
        return False
    return YOU not in waiting or (game.defender == OPPONENT and _unbeaten(game))


@dataclass
class Step:
    """One move of the game, as played: who, the action, and the public events it led to."""

    player: int
    action: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass
class Tutorial:
    game: durak.Game
    #: The player's moves that were played, as tokens.
    moves: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    #: How many of the opponent's scripted moves it has played.
    scripted: int = 0
    #: The player's move that was refused, if any, and the engine's reason.
    refused: str | None = None
    reason: durak.IllegalAction | None = None

    @classmethod
    def replay(cls, moves: str) -> Tutorial:
        """The game after the player's ``moves`` (tokens joined by commas). Replay stops at the first
        move that is not legal, which is kept in ``refused``."""
        tutorial = cls(game=new_game())
        tutorial._opponent_moves()
        tokens = [token for token in moves.split(",") if token][:MAX_MOVES]
        for token in tokens:
            try:
                tutorial.play(token)
            except BadMove as error:
                tutorial.refused = token
                tutorial.reason = (
                    error.__cause__ if isinstance(error.__cause__, durak.IllegalAction) else None
                )
                break
        return tutorial

    def play(self, token: str) -> None:
        """Play one of your moves, then the opponent's answers until the game waits for you."""
        if self.game.over or YOU not in self.game.waiting_for():
            raise BadMove(token)
        action = action_of(token, YOU)
        if action not in self.game.legal_json(YOU):
            try:  # the engine says why
                self.game.copy().apply(action)
            except durak.IllegalAction as error:
                raise BadMove(token) from error
            raise BadMove(token)
        self._apply(YOU, action)
        self.moves.append(token)
        self._opponent_moves()

    def _apply(self, player: int, action: dict[str, Any]) -> None:
        self.game.apply(action)
        self.steps.append(Step(player=player, action=action, events=list(self.game.events)))

    def _opponent_moves(self) -> None:
        while opponent_to_move(self.game):
            actions = self.game.legal_json(OPPONENT)
            scripted = None
            if self.scripted < len(OPPONENT_SCRIPT):
                candidate = action_of(OPPONENT_SCRIPT[self.scripted], OPPONENT)
                scripted = candidate if candidate in actions else None
            if scripted is not None:
                self.scripted += 1
                action = scripted
            else:
                view = self.game.view(OPPONENT)
                action = dict(rule_choice(actions, view["trump"], view["stock_size"], len(view["table"])))
            self._apply(OPPONENT, action)

    @property
    def on_main_line(self) -> bool:
        return self.moves == MAIN_LINE[: len(self.moves)]

    @property
    def suggested(self) -> str | None:
        """The main line's next move, while the player follows it."""
        if not self.on_main_line or len(self.moves) >= len(MAIN_LINE):
            return None
        token = MAIN_LINE[len(self.moves)]
        return token if action_of(token, YOU) in self.legal_actions() else None

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.game.over or YOU not in self.game.waiting_for():
            return []
        return self.game.legal_json(YOU)
