"""Time to pair a tournament round, run by hand (not a test):

    python -m benchmarks.tournament_pairing
    python -m benchmarks.tournament_pairing --swiss-players 512 --swiss-rounds 9 --table-players 200

Plays a Swiss of ``--swiss-players`` with random results and reports the CPU time to pair
each round (the issue's figure is the ninth round, after eight), then a table-round
tournament of ``--table-players`` at tables of four. Times are ``time.process_time``.
"""

import argparse
import random
import time
from collections import Counter
from fractions import Fraction

from tournaments.pairing import Entrant, Pairing, swiss_round, table_round


def swiss(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    ratings = {p: rng.randrange(1000, 2400) for p in range(players)}
    points: Counter[int] = Counter()
    history: list[Pairing[int]] = []
    for number in range(1, rounds + 1):
        entrants = [Entrant(p, Fraction(points[p], 2), ratings[p]) for p in range(players)]
        start = time.process_time()
        result = swiss_round(entrants, history)
        took = time.process_time() - start
        print(f"swiss {players} players, round {number}: {took * 1000:7.1f} ms, {result.repeats} repeats")
        for game in result.games:
            if game.second is None:
                points[game.first] += 2
                continue
            outcome = rng.choice([2, 1, 0])
            points[game.first] += outcome
            points[game.second] += 2 - outcome
        history.extend(result.games)


def tables(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    points: Counter[int] = Counter()
    history: list[list[int]] = []
    for number in range(1, rounds + 1):
        entrants = [Entrant(p, Fraction(points[p])) for p in range(players)]
        start = time.process_time()
        seated = table_round(entrants, history, table_size=4)
        took = time.process_time() - start
        met = {frozenset((a, b)) for t in history for a in t for b in t if a != b}
        repeats = sum(1 for t in seated for a in t for b in t if a < b and frozenset((a, b)) in met)
        print(f"tables {players} players, round {number}: {took * 1000:7.1f} ms, {repeats} repeated pairs")
        for table in seated:
            order = list(table)
            rng.shuffle(order)
            for player in order[:-1]:
                points[player] += 1
        history.extend(seated)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--swiss-players", type=int, default=512)
    parser.add_argument("--swiss-rounds", type=int, default=9)
    parser.add_argument("--table-players", type=int, default=200)
    parser.add_argument("--table-rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    swiss(arguments.swiss_players, arguments.swiss_rounds, arguments.seed)
    tables(arguments.table_players, arguments.table_rounds, arguments.seed)


if __name__ == "__main__":
    main()
