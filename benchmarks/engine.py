"""Engine speed, today's engine against an older one: measured alternately, in one run, same seeds.

    python -m benchmarks.engine                          # today's working tree alone
    python -m benchmarks.engine --baseline 9395d95       # against the durak/ of a git revision
    python -m benchmarks.engine --baseline REV --current REV2 --rounds 5 --seconds 1.0
    python -m benchmarks.engine --baseline REV --instructions   # counted, not timed (valgrind)
    python -m benchmarks.engine --baseline REV --compiled       # today's, compiled by mypyc

The working tree's ``durak/`` is copied when the run starts (an edit made during the run does not
reach it), and ``--baseline`` extracts that revision's (``git archive REV durak``), each into a
folder of its own; ``--compiled`` compiles the current one with mypyc (``dev.py engine``'s
build) and measures that. Every measurement runs in a fresh process whose ``sys.path`` holds one of the
two engines, so they never share a process, and the baseline and the current engine take turns
(who goes first alternates) so that a machine whose load changes during the run weighs on both
alike. Times are CPU seconds of the measuring process (``time.process_time``). A measurement
repeats a fixed piece of work, the same seeds on both sides, for ``--seconds`` (at least three
times) and keeps its fastest repetition, the one other processes disturbed least. Each round
measures every metric once per engine; the table shows the medians over the rounds and the median
of the per-round ratios current/baseline, with their range:

- ``both players``: 30 random two-player ``classic`` games, asking both players' legal actions
  each step and applying one of them at random (the loop of the peer comparison's ``ours.py``);
  games per second and µs per step.
- ``round trip``: ``Game.from_dict(d).to_dict()`` of 8 mid-game states (``classic``, two players,
  20 random steps in; ``d`` as JSON gives it back), µs each.
- ``search``: ``SearchBot`` playouts per CPU second over 8 views, each decision given 16 playouts
  (``SearchBot(seconds=None, playouts=16)``, which every revision has, so both engines do the same
  searches; rounded up, as the bot does, to a whole number of playouts for each candidate).
- ``waiting``: 30 random games for each preset and table size, asking only a player the game waits
  for (``waiting_for()`` + ``legal_actions(player)`` + ``apply``); games per second.

Defaults take a few minutes. On a machine whose speed wanders (a shared virtual machine, say),
``--instructions`` gives figures that repeat exactly: it runs each metric's work under valgrind
(``--tool=cachegrind --cache-sim=no``), once per engine, and reports the instructions a game (a
round trip, a playout) takes, warm-up excluded; fewer instructions is not exactly less time (the
instructions differ in cost), but it moves with it and does not depend on the load. Run by hand;
not a timed test.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from durak import Game, Rules

PROJECT = Path(__file__).resolve().parent.parent

#: Presets and table sizes of the ``waiting`` metric.
WAITING = [("classic", 2), ("classic", 4), ("perevodnoy", 2), ("perevodnoy", 4)]
#: Random games a repetition (seeds 0 to GAMES - 1).
GAMES = 30
#: Mid-game states: this many deals, this many random steps in; each round-tripped TRIPS times a
#: repetition.
STATES, STEPS_IN, TRIPS = 8, 20, 20
#: Search views: deals, steps in for each, and playouts a decision.
SEARCH_DEALS, SEARCH_STEPS_IN, PLAYOUTS = 2, (2, 12, 24, 40), 16


# --- measurements, run in a worker process that sees one engine ------------------------------------


def random_game(rules: Rules, players: int, seed: int) -> tuple[Game, int]:
    """Play one game to the end with random legal actions of a player the game waits for; return
    it and the number of actions."""
    from durak import Game

    rng = random.Random(seed)
    game = Game.new(rules, players, seed)
    steps = 0
    while not game.over:
        player = rng.choice(game.waiting_for())
        game.apply(rng.choice(game.legal_actions(player)))
        steps += 1
    return game, steps


def both_players_game(rules: Rules, seed: int) -> int:
    """Play one two-player game to the end, choosing among both players' legal actions each step;
    return the number of actions."""
    from durak import Game

    rng = random.Random(seed)
    game = Game.new(rules, 2, seed)
    steps = 0
    while not game.over:
        options = [a for p in (0, 1) for a in game.legal_actions(p)]
        game.apply(rng.choice(options))
        steps += 1
    return steps


def fastest(work: Callable[[], dict[str, int]], seconds: float) -> tuple[float, dict[str, int]]:
    """Repeat ``work``, the same each time, for ``seconds`` of CPU time and at least three times;
    return the CPU seconds of its fastest repetition and what it counted. On a busy machine the
    fastest repetition is the one the other processes disturbed least."""
    best = math.inf
    repetitions = 0
    start = time.process_time()
    while repetitions < 3 or time.process_time() - start < seconds:
        before = time.process_time()
        counts = work()
        best = min(best, time.process_time() - before)
        repetitions += 1
    return best, counts


#: A metric's fixed piece of work, the same every time it runs: it returns what it counted.
Work = Callable[[], dict[str, int]]


def both_work() -> Work:
    from durak import Rules

    rules = Rules.preset("classic")

    def work() -> dict[str, int]:
        return {"games": GAMES, "steps": sum(both_players_game(rules, seed) for seed in range(GAMES))}

    return work


def waiting_work(preset: str, players: int) -> Work:
    from durak import Rules

    rules = Rules.preset(preset)

    def work() -> dict[str, int]:
        return {"games": GAMES, "steps": sum(random_game(rules, players, seed)[1] for seed in range(GAMES))}

    return work


def as_json(action: Any) -> dict[str, Any]:
    """An action as JSON: an engine's ``legal_actions`` gives :class:`durak.Move` values today and
    gave dicts before (a baseline may be either)."""
    return action if isinstance(action, dict) else action.to_json()


def played_in(seed: int, steps: int) -> tuple[Game, list[dict[str, Any]]] | None:
    """A two-player ``classic`` game ``steps`` random actions in (of either player), with its
    public log, or None if it ends sooner. The choice does not depend on the order in which an
    engine lists its actions, so every revision reaches the same state."""
    from durak import Game, Rules

    rng = random.Random(seed)
    game = Game.new(Rules.preset("classic"), 2, seed)
    log: list[dict[str, Any]] = []
    for _ in range(steps):
        if game.over:
            return None
        options = sorted(
            (as_json(a) for p in (0, 1) for a in game.legal_actions(p)),
            key=lambda a: json.dumps(a, sort_keys=True),
        )
        action = rng.choice(options)
        game.apply(action)
        log.append({"action": action, "events": list(game.events)})
    return None if game.over else (game, log)


def round_trip_work() -> Work:
    from durak import Game

    states: list[dict[str, Any]] = []
    seed = 0
    while len(states) < STATES:
        played = played_in(seed, STEPS_IN)
        seed += 1
        if played is not None:
            states.append(json.loads(json.dumps(played[0].to_dict())))  # as stored: plain JSON

    def work() -> dict[str, int]:
        for _ in range(TRIPS):
            for state in states:
                Game.from_dict(state).to_dict()
        return {"trips": TRIPS * len(states)}

    return work


def search_views() -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Views with a choice to make (and their public logs) at several stages of a few deals."""
    views = []
    for seed in range(SEARCH_DEALS):
        for steps in SEARCH_STEPS_IN:
            played = played_in(seed, steps)
            if played is None:
                continue
            game, log = played
            for player in game.waiting_for():
                view = game.view(player)
                if len(view["actions"]) > 1:
                    views.append((view, log))
                    break
    return views


def search_work() -> Work:
    import durak

    # The public name since issue 33; a baseline from before it has the bot in its bots module.
    SearchBot = getattr(durak, "SearchBot", None) or importlib.import_module("durak.bots").SearchBot

    views = search_views()

    def work() -> dict[str, int]:
        playouts = 0
        for seed, (view, log) in enumerate(views):
            bot = SearchBot(seconds=None, playouts=PLAYOUTS, seed=seed)
            bot.choose(view, log)
            # Every candidate action is played out once a sampled deal until the budget is reached.
            candidates = len(view["actions"])
            run = -(-PLAYOUTS // candidates) * candidates
            counted = getattr(bot, "playouts_run", run)  # a revision before the counter: computed
            if counted != run:
                raise RuntimeError(f"the search bot ran {counted} playouts, {run} expected")
            playouts += run
        return {"playouts": playouts}

    return work


def work_of(metric: str) -> Work:
    if metric == "both":
        return both_work()
    if metric == "round_trip":
        return round_trip_work()
    if metric == "search":
        return search_work()
    kind, preset, players = metric.split(":")
    if kind != "waiting":
        raise ValueError(f"no metric {metric!r}")
    return waiting_work(preset, int(players))


def measure(metric: str, seconds: float) -> dict[str, float]:
    """The metric's figures: its work timed by :func:`fastest`."""
    elapsed, counts = fastest(work_of(metric), seconds)
    if "trips" in counts:
        return {"µs": elapsed / counts["trips"] * 1e6}
    if "playouts" in counts:
        return {"playouts/s": counts["playouts"] / elapsed}
    return {"games/s": counts["games"] / elapsed, "µs/step": elapsed / counts["steps"] * 1e6}


def count(metric: str, times: int) -> dict[str, int]:
    """Run the metric's work once to warm up (the per-trump tables, the caches), then ``times``
    more; return what the last run counted. Two runs under an instruction counter, ``times`` 0
    and 1, differ by the instructions of one piece of work."""
    work = work_of(metric)
    counts = work()
    for _ in range(times):
        counts = work()
    return counts


def worker(metric: str, seconds: float, engine: str, times: int | None) -> None:
    """Measure one metric with the engine under ``engine`` (or, with ``times``, run its work for
    an instruction count) and print the result as JSON."""
    import durak

    if not Path(durak.__file__).resolve().is_relative_to(Path(engine).resolve()):
        raise RuntimeError(f"imported {durak.__file__}, not the engine under {engine}")
    print(json.dumps(measure(metric, seconds) if times is None else count(metric, times)))


# --- the run: engines in folders of their own, measured in turn ----------------------------------

#: (metric, value, label, whether higher is better), in the order of the table.
ROWS = [
    ("both", "games/s", "both players, classic 2p: games/s", True),
    ("both", "µs/step", "both players, classic 2p: µs/step", False),
    ("round_trip", "µs", "from_dict + to_dict, mid-game: µs", False),
    ("search", "playouts/s", "search bot: playouts/s", True),
    *((f"waiting:{p}:{n}", "games/s", f"waiting for, {p} {n}p: games/s", True) for p, n in WAITING),
]


def compiled(snapshot: Path, into: Path) -> Path:
    """The engine of ``snapshot`` compiled by mypyc under ``into`` (``dev.py engine``'s build)."""
    from dev import build_engine

    failure = build_engine(into, source=snapshot / "durak")
    if failure is not None:
        raise SystemExit(f"the compiled build failed:\n{failure}")
    return into


def snapshot(revision: str | None, into: Path) -> Path:
    """Put the ``durak/`` package of ``revision`` (None: the working tree) under ``into``."""
    into.mkdir(parents=True)
    if revision is None:
        shutil.copytree(PROJECT / "durak", into / "durak", ignore=shutil.ignore_patterns("__pycache__"))
        return into
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "durak"], cwd=PROJECT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def worker_command(engine: Path, metric: str, *options: str) -> list[str]:
    # The script by its path, not ``-m``: ``-m`` would put the working directory, and with it the
    # working tree's durak/, ahead of PYTHONPATH.
    return [sys.executable, __file__, "--worker", metric, "--engine", str(engine), *options]


def run_worker(engine: Path, metric: str, seconds: float) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(engine)}
    command = worker_command(engine, metric, "--seconds", str(seconds))
    done = subprocess.run(command, env=env, cwd=engine, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{metric} with {engine} failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout)
    return result


#: Counts the instructions a process runs (user space, every thread), without simulating caches.
VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def count_instructions(engine: Path, metric: str) -> dict[str, float]:
    """The instructions the metric's work takes with the engine under ``engine``, per game (per
    round trip, per playout): the difference between a run that warms up only and one that then
    does the work once more. The count does not depend on the machine's load; string hashing is
    fixed (``PYTHONHASHSEED=0``) so that set orders, and with them the count, repeat too."""
    env = {**os.environ, "PYTHONPATH": str(engine), "PYTHONHASHSEED": "0"}
    runs = []
    for times in (0, 1):
        command = [*VALGRIND, *worker_command(engine, metric, "--count", str(times))]
        done = subprocess.run(command, env=env, cwd=engine, capture_output=True, text=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode or found is None:
            raise RuntimeError(f"{metric} with {engine} failed under valgrind:\n{done.stderr}")
        runs.append((int(found[1].replace(",", "")), json.loads(done.stdout)))
    (warm_only, _), (with_work, counts) = runs
    unit = next(unit for unit in ("games", "trips", "playouts") if unit in counts)
    return {"instructions": (with_work - warm_only) / counts[unit]}


def describe(revision: str | None) -> str:
    if revision is None:
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "durak"], cwd=PROJECT, capture_output=True, text=True
        ).stdout.strip()
        head = describe("HEAD")
        return f"working tree ({head}{', with uncommitted changes to durak/' if dirty else ''})"
    return subprocess.run(
        ["git", "log", "-1", "--format=%h %s", revision],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", help="git revision whose durak/ to compare with")
    parser.add_argument("--current", help="git revision to measure instead of the working tree")
    parser.add_argument("--rounds", type=int, default=5, help="measurements of each metric per engine")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a measurement")
    parser.add_argument("--verbose", action="store_true", help="print each measurement")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions (valgrind) instead of timing: one count per engine and metric",
    )
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="measure the current engine compiled by mypyc (dev.py engine) instead of as Python",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--engine", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.seconds, args.engine, args.count)
        return
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt-get install valgrind)")

    metrics = list(dict.fromkeys(metric for metric, *_ in ROWS))
    with tempfile.TemporaryDirectory(prefix="durak-bench-") as tmp:
        engines = {"current": snapshot(args.current, Path(tmp) / "current")}
        if args.compiled:
            engines["current"] = compiled(engines["current"], Path(tmp) / "compiled")
        print(f"current:  {describe(args.current)}{' compiled by mypyc' if args.compiled else ''}")
        if args.baseline:
            engines["baseline"] = snapshot(args.baseline, Path(tmp) / "baseline")
            print(f"baseline: {describe(args.baseline)}")
        results: dict[tuple[str, str], list[dict[str, float]]] = {}
        if args.instructions:
            print(f"instructions counted by valgrind, Python {sys.version.split()[0]}", flush=True)
            for metric in metrics:
                for name, engine in engines.items():
                    results[name, metric] = [count_instructions(engine, metric)]
            print_instructions(results, args.baseline is not None)
            return
        print(
            f"{args.rounds} rounds, {args.seconds} CPU s a measurement, Python {sys.version.split()[0]}, "
            f"load average {os.getloadavg()[0]:.1f} at the start",
            flush=True,
        )
        for round_ in range(args.rounds):
            for index, metric in enumerate(metrics):
                # Who goes first alternates from metric to metric and, for each metric, from round
                # to round.
                names = list(engines)
                if (round_ + index) % 2:
                    names.reverse()
                for name in names:
                    result = run_worker(engines[name], metric, args.seconds)
                    results.setdefault((name, metric), []).append(result)
                    if args.verbose:
                        print(f"  round {round_ + 1} {name:<8} {metric:<22} {result}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print_table(results, args.baseline is not None)


#: The unit of each metric's instruction count.
UNITS = {"both": "a game", "round_trip": "a round trip", "search": "a playout"}


def print_instructions(results: dict[tuple[str, str], list[dict[str, float]]], compared: bool) -> None:
    metrics = list(dict.fromkeys(metric for metric, *_ in ROWS))
    labels = {metric: label.rsplit(":", 1)[0] for metric, _, label, _ in ROWS}
    print(
        f"{'instructions':<48}{'baseline' if compared else '':>13}{'current':>13}{'speed-up' if compared else '':>10}"
    )
    for metric in metrics:
        label = f"{labels[metric]}, {UNITS.get(metric, 'a game')}"
        current = results["current", metric][0]["instructions"]
        if not compared:
            print(f"{label:<48}{'':>13}{current:>13,.0f}")
            continue
        base = results["baseline", metric][0]["instructions"]
        print(f"{label:<48}{base:>13,.0f}{current:>13,.0f}{base / current:>9.2f}x")
    print("speed-up: baseline instructions / current instructions")


def print_table(results: dict[tuple[str, str], list[dict[str, float]]], compared: bool) -> None:
    if not compared:
        print(f"{'metric':<40}{'median':>12}{'min':>12}{'max':>12}")
        for metric, value, label, _ in ROWS:
            values = [r[value] for r in results["current", metric]]
            print(f"{label:<40}{statistics.median(values):>12.1f}{min(values):>12.1f}{max(values):>12.1f}")
        return
    print(f"{'metric':<40}{'baseline':>11}{'current':>11}{'ratio':>8}{'ratio range':>15}{'speed-up':>10}")
    for metric, value, label, higher_is_better in ROWS:
        base = [r[value] for r in results["baseline", metric]]
        current = [r[value] for r in results["current", metric]]
        ratios = [c / b for b, c in zip(base, current, strict=True)]
        ratio = statistics.median(ratios)
        speed_up = ratio if higher_is_better else 1 / ratio
        print(
            f"{label:<40}{statistics.median(base):>11.1f}{statistics.median(current):>11.1f}"
            f"{ratio:>8.3f}{f'{min(ratios):.3f}-{max(ratios):.3f}':>15}{speed_up:>9.2f}x"
        )
    print("ratio: current/baseline, the median of the rounds' ratios; speed-up: how many times faster today")


if __name__ == "__main__":
    main()
