"""The public consequences of each action, and rebuilding a game from a view."""

import random

from durak import Game, Rules


def test_a_beaten_off_bout_reports_its_cards_the_draws_and_the_face_up_trump() -> None:
    game = Game.from_deal(
        Rules.preset("classic"), [["6S", "7H"], ["8S", "AD"]], ["10C", "9H"], first_attacker=0
    )
    game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    assert game.events == []
    game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
    assert game.events == [
        {"type": "bout_end", "attacker": 0, "defender": 1, "result": "beaten", "cards": ["6S", "8S"]},
        {"type": "drew", "player": 0, "count": 2, "face_up": "9H"},
    ]


def test_a_taken_bout_says_which_cards_the_defender_picked_up() -> None:
    game = Game.from_deal(
        Rules.preset("classic"), [["6S", "7H"], ["8D", "AD"]], ["10C", "JC", "9H"], first_attacker=0
    )
    game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    game.apply({"type": "take", "player": 1})
    assert game.events[0] == {
        "type": "bout_end",
        "attacker": 0,
        "defender": 1,
        "result": "taken",
        "cards": ["6S"],
    }
    assert game.events[1] == {"type": "drew", "player": 0, "count": 3, "face_up": "9H"}


def test_going_out_and_the_end_of_the_game_are_reported() -> None:
    game = Game.from_deal(Rules.preset("classic"), [["6S"], ["8S", "AD"]], [], first_attacker=0, trump="H")
    game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    assert game.events == [{"type": "out", "player": 0}]
    game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
    assert game.events[-1] == {"type": "game_over", "reason": "cards", "player": 1}


def test_a_trump_swap_and_an_automatic_move_are_reported() -> None:
    game = Game.from_deal(
        Rules.preset("classic", on_timeout="auto"),
        [["6H", "7S"], ["8S", "AD"]],
        ["10C", "KH"],
        first_attacker=0,
    )
    game.apply({"type": "swap_trump", "player": 0})
    assert game.events == [{"type": "swap", "player": 0, "took": "KH", "gave": "6H"}]
    game.apply({"type": "timeout", "player": 0})
    assert game.events == [{"type": "automatic", "action": {"type": "attack", "player": 0, "cards": ["7S"]}}]


def test_a_view_and_the_true_hidden_cards_rebuild_the_same_game() -> None:
    for preset, overrides, players in [
        ("perevodnoy", {}, 3),
        ("black_book", {"enchanted": ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]}, 4),
        ("black_book", {"teams": "black_book"}, 4),
    ]:
        game = Game.new(Rules.preset(preset, **overrides), players, seed=11)
        rng = random.Random(11)
        while not game.over:
            for seat in range(players):
                rebuilt = Game.from_view(game.view(seat), game.hands, game.stock)
                assert [rebuilt.legal_json(p) for p in range(players)] == [
                    game.legal_json(p) for p in range(players)
                ]
                assert rebuilt.view(seat) == game.view(seat)
            player = rng.choice(game.waiting_for())
            game.apply(rng.choice(game.legal_json(player)))
