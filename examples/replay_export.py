"""Replay a game exported from the site (``/games/<id>/export.json``) with the engine alone.

    python3 examples/replay_export.py durak-game-12.json

Checks, without the site or its database: the revealed seed gives the hash published when the
cards were dealt; shuffling with it gives the exported deal; every move is legal; the game ends
as exported. Exits 1 on the first thing that does not match. Needs only ``durak`` (standard
library) on the path.
"""

import hashlib
import json
import sys
from typing import Any

import durak


def canonical(export: dict[str, Any]) -> str:
    """The string whose sha256 the site published at the deal (games/fairness.py)."""
    payload: dict[str, Any] = {"rules": export["rules"], "players": export["players"]}
    if export.get("stacked_deal") is not None:
        payload["deal"] = export["stacked_deal"]
    else:
        payload.update(seed=export["seed"], dealer=export["dealer"], first_game=export["first_game"])
    return "durak-deal:1:" + json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def replay(export: dict[str, Any]) -> list[str]:
    """What does not match (empty: everything does)."""
    problems = []
    if hashlib.sha256(canonical(export).encode("ascii")).hexdigest() != export["seed_hash"]:
        problems.append("the seed does not give the published hash")
    rules = durak.Rules.from_dict(export["rules"])
    stacked = export.get("stacked_deal")
    if stacked is not None:
        game = durak.Game.from_deal(
            rules,
            stacked["hands"],
            stacked["stock"],
            dealer=stacked.get("dealer", 0),
            first_attacker=stacked.get("first_attacker"),
            trump=stacked.get("trump"),
        )
    else:
        game = durak.Game.new(
            rules, export["players"], export["seed"], dealer=export["dealer"], first_game=export["first_game"]
        )
    if [list(hand) for hand in game.hands] != export["deal"]["hands"] or list(game.stock) != export["deal"][
        "stock"
    ]:
        problems.append("the seed does not give the exported deal")
    for number, action in enumerate(export["moves"], start=1):
        try:
            game.apply(action)
        except durak.IllegalAction as error:
            return [*problems, f"move {number} is illegal: {error}"]
    result = export["result"]
    if [list(game.finished), game.loser, game.losing_team] != [
        result["finished"],
        result["loser"],
        result["losing_team"],
    ]:
        problems.append("the replay does not end as exported")
    return problems


def main(path: str) -> int:
    with open(path, encoding="utf-8") as file:
        export = json.load(file)
    problems = replay(export)
    if problems:
        print("MISMATCH: " + "; ".join(problems))
        return 1
    names = export["names"]
    loser = export["result"]["loser"]
    outcome = (
        "a draw"
        if loser is None and export["result"]["losing_team"] is None
        else (
            f"{names[loser]} is the fool"
            if loser is not None
            else f"team {export['result']['losing_team']} lost"
        )
    )
    print(
        f"game {export['game']}: {len(export['moves'])} moves replayed, the deal matches its hash; {outcome}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
