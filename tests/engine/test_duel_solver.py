"""The exact endgame search of the search bot: it agrees with the engine, and finds wins."""

import random
from typing import Any

from durak import Game, Rules, deck
from durak.bots import DuelSolver, OutOfBudget, RuleBot, SearchBot

RULES = Rules.preset("classic")


def engine_value(game: Game, seat: int, memo: dict[str, bool]) -> bool:
    """Whether ``seat`` escapes being the fool with best play, by trying every legal action of
    the engine itself (the player asked first, as the benchmark asks, moves)."""
    if game.over:
        return game.loser != seat
    key = repr(sorted(game.to_dict().items()))
    if key not in memo:
        player = game.waiting_for()[0]
        values = []
        for action in game.legal_json(player):
            trial = game.copy()
            trial.apply(action)
            values.append(engine_value(trial, seat, memo))
        memo[key] = any(values) if player == seat else all(values)
    return memo[key]


def test_the_solver_agrees_with_trying_every_action_of_the_engine() -> None:
    rng = random.Random(5)
    for _ in range(25):
        cards = deck(36)
        rng.shuffle(cards)
        sizes = rng.randint(1, 3), rng.randint(2, 3)
        stock = cards[sum(sizes) : sum(sizes) + rng.choice([0, 0, 1, 2])]
        hands = [cards[: sizes[0]], cards[sizes[0] : sum(sizes)]]
        game = Game.from_deal(
            RULES, hands, stock, first_attacker=rng.randint(0, 1), trump=None if stock else "S"
        )
        for _ in range(rng.randint(0, 3)):  # into a bout, sometimes
            if not game.over:
                game.apply(rng.choice(game.legal_json(game.waiting_for()[0])))
        if game.over:
            continue
        state = game.to_dict()
        solver = DuelSolver(36, state["trump"], 6, 6, stock=stock)
        for seat in (0, 1):
            assert solver.value(state, seat) == engine_value(game.copy(), seat, {}), state


def test_the_search_bot_finds_the_endgame_win_the_rules_miss() -> None:
    # Spades are trumps and the stock is gone. Leading the ten of clubs, the rules bot's lowest
    # card, loses against best defence; leading a king (or both) wins against every defence.
    game = Game.from_deal(RULES, [["KH", "KD", "10C"], ["8C", "QS", "AH"]], [], first_attacker=0, trump="S")
    view = game.view(0)
    rules_choice = RuleBot().choose(view)
    assert rules_choice["cards"] == ["10C"]
    for action in view["actions"]:
        trial = game.copy()
        trial.apply(action)
        assert engine_value(trial, 0, {}) == (action["cards"] != ["10C"])
    bot = SearchBot(seconds=None, playouts=200, seed=1)
    assert bot.choose(view)["cards"] != ["10C"]
    assert SearchBot(seconds=0.1, seed=1).choose(view)["cards"] != ["10C"]


def test_the_solver_gives_up_when_its_budget_runs_out() -> None:
    cards = deck(36)
    random.Random(2).shuffle(cards)
    game = Game.from_deal(RULES, [cards[:12], cards[12:24]], [], first_attacker=0, trump="H")
    solver = DuelSolver(36, "H", 6, 6, nodes=2000)
    try:
        solver.value(game.to_dict(), 0)
    except OutOfBudget:
        assert solver.nodes <= 2000 + 1024
    else:
        raise AssertionError("twelve cards each should take more than 2000 positions")


def test_the_same_seed_and_budget_give_the_same_choice() -> None:
    game = Game.new(RULES, 2, seed=11)
    log: list[dict[str, Any]] = []
    bots = [RuleBot(), RuleBot()]
    while game.stock_size > 2 and not game.over:
        player = game.waiting_for()[0]
        action = bots[player].choose(game.view(player), log)
        game.apply(action)
        log.append({"action": action, "events": list(game.events)})
    player = game.waiting_for()[0]
    view = game.view(player)
    choices = [
        SearchBot(seconds=None, playouts=60, seed=4, exact_stock=4).choose(view, log) for _ in range(2)
    ]
    assert choices[0] == choices[1]
    assert choices[0] in view["actions"]


def test_playouts_stop_for_actions_that_clearly_lose_more() -> None:
    from durak.bots import _survivors

    best = [0.0, 1.0] * 10
    close = [1.0, 0.0] * 10  # as often lost as the best: kept
    worse = [1.0] * 20  # lost on every deal the best won: dropped
    assert _survivors([best, close, worse], [0, 1, 2]) == [0, 1]
