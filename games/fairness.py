"""Fair dealing that anyone can check.

When the cards are dealt, the site publishes ``sha256`` of a canonical string naming
everything that decides the deal (the seed, the rules, the number of players, the dealer
and whether the engine's rule for a series' later games applies). The seed stays secret
until the game is over; then it is shown, and anyone can recompute the hash, shuffle with
``durak.Game.new`` and replay the public move log to the stored end.

Pure functions of plain values (the standard library only), so the exported JSON can be checked
without the site (see ``examples/replay_export.py``). In games, beneath everything: the services
fix the hash when they deal, the replays app (above games) shows and checks it.
"""

import hashlib
import json
from collections.abc import Mapping
from typing import Any

#: Bumped if the canonical string ever changes; old games keep theirs.
COMMITMENT_VERSION = 1


def deal_canonical(
    *,
    rules: Mapping[str, Any],
    players: int,
    seed: int,
    dealer: int,
    first_game: bool,
    deal: Mapping[str, Any] | None = None,
) -> str:
    """The canonical string the published hash is taken of.

    >>> deal_canonical(rules={"deck_size": 36}, players=2, seed=7, dealer=1, first_game=True)
    'durak-deal:1:{"dealer":1,"first_game":true,"players":2,"rules":{"deck_size":36},"seed":7}'
    """
    payload: dict[str, Any] = {"rules": dict(rules), "players": players}
    if deal is not None:
        payload["deal"] = dict(deal)  # a stacked deal (tests, puzzles): the deal itself is the secret
    else:
        payload.update(seed=seed, dealer=dealer, first_game=first_game)
    body = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return f"durak-deal:{COMMITMENT_VERSION}:{body}"


def deal_hash(**fields: Any) -> str:
    """``sha256`` (hex) of ``deal_canonical(**fields)``.

    >>> deal_hash(rules={"deck_size": 36}, players=2, seed=7, dealer=1, first_game=True)[:16]
    'f8e09c0ea99b6404'
    """
    return hashlib.sha256(deal_canonical(**fields).encode("ascii")).hexdigest()
