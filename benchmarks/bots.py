"""Bot strength: seat-rotated, same-deal duplicate matches between two bots.

Each deal is played twice with the seats swapped, so the luck of the cards cancels out. Prints each
pairing's fool rate (how often the first bot was the fool), with a 95% Wilson interval.

    python -m benchmarks.bots --pair rules:random --deals 500
    python -m benchmarks.bots --pair search:rules --deals 200 --seconds 1.0

Run by hand; not a timed test. The search bot's budget is CPU seconds per decision.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from durak import Game, Rules
from durak.bots import RandomBot, RuleBot, SearchBot


def make_bot(name: str, seed: int, seconds: float, playouts: int | None) -> Any:
    if name == "random":
        return RandomBot(seed)
    if name == "rules":
        return RuleBot()
    if playouts is not None:
        return SearchBot(seconds=None, playouts=playouts, seed=seed)
    return SearchBot(seconds=seconds, seed=seed)


def play(rules: Rules, seed: int, bots: list[Any]) -> Game:
    """One game, seat i played by bots[i], each seeing only its view and the public log."""
    game = Game.new(rules, len(bots), seed)
    log: list[dict[str, Any]] = []
    for _ in range(5000):
        if game.over:
            break
        player = game.waiting_for()[0]
        action = bots[player].choose(game.view(player), log)
        game.apply(action)
        log.append({"action": action, "events": list(game.events)})
    return game


def wilson(fools: int, games: int) -> tuple[float, float]:
    if not games:
        return (0.0, 1.0)
    z = 1.96
    p = fools / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--pair", action="append", help="first:second, e.g. rules:random")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seconds", type=float, default=1.0, help="search bot: CPU s a decision")
    parser.add_argument("--playouts", type=int, default=None, help="search bot: playouts instead")
    parser.add_argument("--progress", action="store_true", help="print the tally after each deal")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    print(f"{'pairing':<18}{'games':>7}{'fool':>7}{'draws':>7}{'fool rate':>11}{'95% interval':>18}")
    for pair in args.pair or ["rules:random"]:
        first, second = pair.split(":")
        fools = draws = games = 0
        start = time.process_time()
        for deal in range(args.deals):
            for seats in ((0, 1), (1, 0)):  # the same deal, seats swapped
                bots = [None, None]
                bots[seats[0]] = make_bot(first, deal, args.seconds, args.playouts)
                bots[seats[1]] = make_bot(second, deal + 1, args.seconds, args.playouts)
                game = play(rules, seed=deal, bots=bots)
                games += 1
                fools += game.loser == seats[0]
                draws += game.over and game.loser is None
            if args.progress:
                print(f"  {pair}: {games} games, {fools} fools", flush=True)
        low, high = wilson(fools, games)
        rate = fools / games
        print(
            f"{pair:<18}{games:>7}{fools:>7}{draws:>7}{rate:>10.1%}"
            f"   [{low:.1%}, {high:.1%}]   {time.process_time() - start:.0f} s CPU"
        )


if __name__ == "__main__":
    main()
