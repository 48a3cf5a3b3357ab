"""Engine speed: random full games per second of CPU time, and the mean cost of a step.

Run by hand, on one core: ``python -m benchmarks.engine [--seconds 5]``. Not a timed test.
"""

from __future__ import annotations

import argparse
import random
import time

from durak import Game, Rules


def random_game(rules: Rules, players: int, seed: int) -> tuple[Game, int]:
    """Play one game to the end with random legal actions; return it and the number of actions."""
    rng = random.Random(seed)
    game = Game.new(rules, players, seed)
    steps = 0
    while not game.over:
        player = rng.choice(game.waiting_for())
        game.apply(rng.choice(game.legal_actions(player)))
        steps += 1
    return game, steps


def games_per_second(preset: str, players: int, seconds: float) -> tuple[float, float]:
    rules = Rules.preset(preset)
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        _, n = random_game(rules, players, seed=games)
        games += 1
        steps += n
    return games / elapsed, elapsed / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'preset':<12}{'players':>8}{'games/s':>12}{'µs per step':>14}")
    for preset, players in [("classic", 2), ("classic", 4), ("perevodnoy", 2), ("perevodnoy", 4)]:
        rate, per_step = games_per_second(preset, players, args.seconds)
        print(f"{preset:<12}{players:>8}{rate:>12.0f}{per_step * 1e6:>14.1f}")
    print("a step is waiting_for() + legal_actions(player) + apply(action)")


if __name__ == "__main__":
    main()
