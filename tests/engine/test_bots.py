"""Computer players: only legal actions, only what their seat may see."""

import random
from typing import Any

import pytest

from durak import PRESETS, Game, Rules, deck
from durak.bots import Knowledge, RandomBot, RuleBot, SearchBot, duel_loser, opponent_cards, rule_choice

CONFIGS = [(preset, {}, n) for preset in PRESETS for n in (2, 3, 4)] + [
    ("black_book", {"enchanted": ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]}, 3),
    ("black_book", {"teams": "black_book"}, 4),
    ("classic", {"teams": "partners"}, 6),
    ("tabletop", {"deck_size": 52}, 5),
]


@pytest.mark.parametrize(("preset", "overrides", "players"), CONFIGS)
def test_bots_choose_only_legal_actions_from_a_view(
    preset: str, overrides: dict[str, Any], players: int
) -> None:
    bots = [RandomBot(1), RuleBot(), SearchBot(seconds=None, playouts=12, seed=2)]
    for seed in range(6):
        game = Game.new(Rules.preset(preset, **overrides), players, seed)
        log: list[dict[str, Any]] = []
        rng = random.Random(seed)
        while not game.over:
            player = rng.choice(game.waiting_for())
            bot = bots[(seed + player) % len(bots)]
            view = game.view(player)
            action = bot.choose(view, log)
            assert action in game.legal_json(player)
            game.apply(action)
            log.append({"action": action, "events": list(game.events)})


def test_the_search_bot_never_sees_hidden_cards() -> None:
    # The bot gets a view: give it one whose hidden cards differ from the real game's, and it
    # still plays only what that view allows; it cannot reach the Game.
    game = Game.new(Rules.preset("perevodnoy"), 2, seed=4)
    view = game.view(game.attacker)
    assert not set(view) & {"hands", "stock"}
    action = SearchBot(seconds=None, playouts=30, seed=1).choose(view, [])
    assert action in view["actions"]


def test_knowledge_remembers_cards_picked_up_and_forgets_them_when_played() -> None:
    game = Game.from_deal(
        Rules.preset("classic"), [["6S", "7H"], ["8D", "AD"]], ["10C", "JC", "9H"], first_attacker=0
    )
    log = []
    for action in (
        {"type": "attack", "player": 0, "cards": ["6S"]},
        {"type": "take", "player": 1},
    ):
        game.apply(action)
        log.append({"action": action, "events": list(game.events)})
    knowledge = Knowledge.from_log(2, log)
    assert knowledge.known[1] == {"6S"}
    assert knowledge.known[0] == {"9H"}  # the face-up trump, drawn last by player 0
    game.apply({"type": "attack", "player": 0, "cards": ["9H"]})
    log.append({"action": {"type": "attack", "player": 0, "cards": ["9H"]}, "events": []})
    assert Knowledge.from_log(2, log).known[0] == set()


def test_the_rule_bot_is_rarely_the_fool_against_random() -> None:
    fools = 0
    for seed in range(40):
        for seat in (0, 1):
            bots: list[Any] = [RandomBot(seed), RandomBot(seed)]
            bots[seat] = RuleBot()
            game = Game.new(Rules.preset("classic"), 2, seed)
            while not game.over:
                player = game.waiting_for()[0]
                game.apply(bots[player].choose(game.view(player), []))
            fools += game.loser == seat
    assert fools <= 12  # under 15% of 80 games


def test_the_rule_bot_attacks_with_a_card_a_last_card_cannot_beat() -> None:
    game = Game.from_deal(Rules.preset("classic"), [["QH", "AS"], ["AH"]], [], first_attacker=0)
    view = game.view(0)
    # The stock is gone: the opponent's one card is every card not seen, AH, which beats QH.
    view["discarded"] = [card for card in deck(36) if card not in {"QH", "AS", "AH"}]
    assert opponent_cards(view) == {"AH"}
    assert rule_choice(view["actions"], "D", 0, 0, opponent_cards(view))["cards"] == ["AS"]
    assert rule_choice(view["actions"], "D", 0, 0)["cards"] == ["QH"]


def test_the_rule_bot_takes_at_once_when_one_attack_card_cannot_be_beaten() -> None:
    game = Game.from_deal(
        Rules.preset("classic"),
        [["7S", "7D", "6C"], ["8S", "9S", "AC"]],
        ["10C", "JC", "9H"],
        first_attacker=0,
    )
    game.apply({"type": "attack", "player": 0, "cards": ["7S", "7D"]})
    assert RuleBot().choose(game.view(1)) == {"type": "take", "player": 1}


def test_deals_differing_only_in_hidden_cards_get_the_same_search_decision() -> None:
    # Player 0 sees the same thing in both deals: the opponent's cards and the stock order differ.
    mine = ["6S", "7S", "9H", "JD", "QC", "AS"]
    face_up = "8D"
    rest = [card for card in deck(36) if card not in mine and card != face_up]
    other = random.Random(3).sample(rest, len(rest))
    decisions = []
    for unseen in (rest, other):
        game = Game.from_deal(
            Rules.preset("classic"), [mine, unseen[:6]], [*unseen[6:], face_up], first_attacker=0
        )
        log: list[dict[str, Any]] = []
        for action in ({"type": "attack", "player": 0, "cards": ["6S"]}, {"type": "take", "player": 1}):
            game.apply(action)
            log.append({"action": action, "events": list(game.events)})
        view = game.view(0)
        bot = SearchBot(seconds=None, playouts=120, seed=7)
        decisions.append((view, bot.choose(view, log)))
    assert decisions[0] == decisions[1]


def test_the_fast_playout_finds_the_fool_of_a_plain_endgame() -> None:
    # Trumps are spades; the stock is gone. Player 0 attacks 6H, player 1 cannot beat it, takes,
    # and is left holding cards while player 0 plays its ace of trumps: player 1 is the fool.
    state = Game.from_deal(
        Rules.preset("classic"), [["6H", "AS"], ["7C", "8D"]], [], first_attacker=0
    ).to_dict()
    state["trump"] = "S"
    assert duel_loser(state) == 1
    assert state["hands"][1] and not state["hands"][0]


def test_the_rule_bot_keeps_its_trumps_while_the_stock_lasts() -> None:
    defend = {"type": "defend", "player": 1, "target": "9S", "card": "6H"}
    take = {"type": "take", "player": 1}
    assert rule_choice([defend, take], "H", stock_size=12, on_table=1) == take
    assert rule_choice([defend, take], "H", stock_size=3, on_table=1) == defend


@pytest.mark.parametrize(
    ("preset", "players"), [("classic", 2), ("classic", 3), ("perevodnoy", 2), ("durak24", 4)]
)
def test_reading_the_rule_bots_moves_never_rules_out_a_card_it_holds(preset: str, players: int) -> None:
    # Knowledge reads the log as if every move were the rule-of-thumb choice: for the rule bot's
    # own games, what it says a player cannot hold they never hold, and of the cards it says they
    # did not hold before drawing, no more than they drew since.
    checked = ruled_out = 0
    for seed in range(8):
        game = Game.new(Rules.preset(preset), players, seed)
        log: list[dict[str, Any]] = []
        for step in range(400):
            if game.over:
                break
            player = game.waiting_for()[0]
            action = RuleBot().choose(game.view(player), log)
            game.apply(action)
            log.append({"action": action, "events": list(game.events)})
            if step % 5:
                continue
            for seat in range(players):
                knowledge = Knowledge.from_log(players, log, game.view(seat))
                for other in range(players):
                    hidden = set(game.hands[other]) - knowledge.known[other]
                    if other == seat or not hidden:
                        continue
                    soft, hard = knowledge.limits(other, len(hidden))
                    assert not hard & hidden
                    for cards, drawn_since in soft:
                        assert len(cards & hidden) <= drawn_since
                    checked += 1
                    ruled_out += len(hard)
    assert checked > 50 and ruled_out > checked  # it does read something


def test_an_attacker_saying_done_holds_no_cheap_card_of_a_rank_on_the_table() -> None:
    game = Game.from_deal(
        Rules.preset("classic"),
        [["8S", "AS", "KD", "QH", "JH", "10H"], ["9S", "7C", "6C", "QC", "KC", "AC"]],
        ["6D", "7D", "8D", "9D", "10D", "JD"],  # diamonds are trumps
        first_attacker=0,
    )
    log = []
    for action in (
        {"type": "attack", "player": 0, "cards": ["8S"]},
        {"type": "pass", "player": 0},
        {"type": "defend", "player": 1, "target": "8S", "card": "9S"},
    ):
        game.apply(action)
        log.append({"action": action, "events": list(game.events)})
    view = game.view(1)
    _, hard = Knowledge.from_log(2, log, view).limits(0, 5)
    # Opening with 8S: no plain six or seven; "done" over 8S: no other plain eight.
    assert {"6S", "7H", "6C", "8H", "8C"} <= hard
    assert not hard & {"8D", "9H", "10H", "AS"}  # a trump eight, a higher card: nothing said
    # A deal for player 1 gives player 0 none of them while other cards are left.
    bot = SearchBot(seconds=None, playouts=1, seed=3)
    knowledge = Knowledge.from_log(2, log, view)
    for _ in range(20):
        assert not set(bot._deal(view, knowledge).hands[0]) & hard
    # Without the view nothing is read.
    assert Knowledge.from_log(2, log).absent == [[], []]


def test_what_knowledge_rules_out_follows_the_draws_after_it_was_asked() -> None:
    # limits() is worked out once per player and count; a draw or a new reading changes it.
    knowledge = Knowledge(2)
    sixes = frozenset({"6S", "6H"})
    knowledge.rule_out(1, sixes, 0)
    assert knowledge.limits(1, 5) == ([], sixes)
    knowledge.observe({"type": "take", "player": 1}, [{"type": "drew", "player": 1, "count": 1}])
    assert knowledge.limits(1, 5) == ([(sixes, 1)], frozenset())
    knowledge.rule_out(1, frozenset({"7S"}), 1)
    assert knowledge.limits(1, 5) == ([(sixes, 1)], frozenset({"7S"}))
