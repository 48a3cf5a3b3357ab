"""Bot strength: seat-rotated, same-deal duplicate matches between two bots.

Each deal is played twice with the seats swapped, so the luck of the cards cancels out. Prints each
pairing's fool rate (how often the first bot was the fool), with a 95% Wilson interval.

    python -m benchmarks.bots --pair rules:random --deals 500
    python -m benchmarks.bots --pair search:rules --deals 500 --seconds 0.2 --jobs 2
    python -m benchmarks.bots --pair search:rules --deals 250 --first-deal 250 --seconds 0.2

``--first-deal`` plays deals from that seed on: two runs, of deals 0-249 and 250-499, add up to
one of 500 deals.

Run by hand; not a timed test. ``--jobs N`` plays the deals in N processes (a deal's two games in
one job); the tally is the same as with one, since every bot is seeded by its deal. The search
bot's budget is CPU seconds of its own process per decision (``time.process_time``), so a busy
machine slows a match down without weakening the bot, though with a time budget the number of
playouts, and so a decision, can still differ from run to run; ``--playouts`` fixes it instead.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from collections.abc import Iterator
from typing import Any

from durak import Game, RandomBot, RuleBot, Rules, SearchBot


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


def play_deal(
    rules: Rules, deal: int, first: str, second: str, seconds: float, playouts: int | None
) -> tuple[int, int, float]:
    """Both games of one deal, seats swapped: how often ``first`` was the fool, the draws, and the
    CPU seconds they took."""
    start = time.process_time()
    fools = draws = 0
    for seats in ((0, 1), (1, 0)):
        bots = [None, None]
        bots[seats[0]] = make_bot(first, deal, seconds, playouts)
        bots[seats[1]] = make_bot(second, deal + 1, seconds, playouts)
        game = play(rules, seed=deal, bots=bots)
        fools += game.loser == seats[0]
        draws += game.over and game.loser is None
    return fools, draws, time.process_time() - start


def play_deals(
    rules: Rules,
    deals: range,
    first: str,
    second: str,
    seconds: float,
    playouts: int | None,
    jobs: int,
) -> Iterator[tuple[int, int, float]]:
    """Each deal's result, in the order of the deals."""
    tasks = [(rules, deal, first, second, seconds, playouts) for deal in deals]
    if jobs == 1:
        yield from (play_deal(*task) for task in tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(play_task, tasks)


def play_task(task: tuple[Rules, int, str, str, float, int | None]) -> tuple[int, int, float]:
    return play_deal(*task)


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
    parser.add_argument("--first-deal", type=int, default=0, help="deal seed to start from, to split a run")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seconds", type=float, default=1.0, help="search bot: CPU s a decision")
    parser.add_argument("--playouts", type=int, default=None, help="search bot: playouts instead")
    parser.add_argument("--progress", action="store_true", help="print the tally after each deal")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play the deals in")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    print(
        f"{'pairing':<18}{'games':>7}{'fool':>7}{'draws':>7}{'fool rate':>11}{'95% interval':>18}"
        f"{'CPU s':>9}{'CPU s a game':>14}{'wall s':>8}"
    )
    for pair in args.pair or ["rules:random"]:
        first, second = pair.split(":")
        fools = draws = games = 0
        cpu = 0.0
        start = time.perf_counter()
        deals = range(args.first_deal, args.first_deal + args.deals)
        results = play_deals(rules, deals, first, second, args.seconds, args.playouts, args.jobs)
        for deal_fools, deal_draws, deal_cpu in results:
            games += 2
            fools += deal_fools
            draws += deal_draws
            cpu += deal_cpu
            if args.progress:
                print(f"  {pair}: {games} games, {fools} fools", flush=True)
        low, high = wilson(fools, games)
        rate = fools / games
        print(
            f"{pair:<18}{games:>7}{fools:>7}{draws:>7}{rate:>10.1%}   [{low:.1%}, {high:.1%}]"
            f"{cpu:>9.0f}{cpu / games:>14.3f}{time.perf_counter() - start:>8.0f}"
        )


if __name__ == "__main__":
    main()
