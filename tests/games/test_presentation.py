import durak
from games.presentation import action_button, build_table
from games.words import action_label


def test_action_labels_and_posted_values() -> None:
    button = action_button({"type": "defend", "player": 1, "target": "6S", "card": "10S"})
    assert button.label == "Beat 6♠ with 10♠"
    assert button.value == '{"card": "10S", "target": "6S", "type": "defend"}'
    assert button.cards == ("10S",)
    assert action_label({"type": "attack", "player": 0, "cards": ["7H", "7D"]}) == "Attack with 7♥ 7♦"
    assert action_label({"type": "take", "player": 0}) == "Take the cards"
    assert action_label({"type": "timeout", "player": 0}) == "Timeout"


def test_table_sentences() -> None:
    view = {
        "hand": ["8S"],
        "hand_sizes": [2, 1, 3],
        "table": [["6S", None]],
        "attacker": 0,
        "defender": 1,
        "taking": False,
        "finished": [],
        "over": False,
        "loser": None,
        "waiting_for": [1, 2],
        "actions": [
            {"type": "defend", "player": 1, "target": "6S", "card": "8S"},
            {"type": "take", "player": 1},
        ],
    }
    table = build_table(view, {0: "anna", 1: "ben", 2: "carla"}, me=1)
    assert table.status_line == "Your move. (carla may act too.)"
    assert table.role_line == "anna attacks you."
    assert table.situation_line == "6♠ attacks you: beat it or take."
    assert [p.name for p in table.opponents] == ["carla", "anna"]
    assert [b.label for b in table.pairs[0].defend_buttons] == ["Beat 6♠ with 8♠"]
    assert [b.label for b in table.other_buttons] == ["Take the cards"]
    assert table.playable == {"8S"}
    spectator = build_table({**view, "hand": [], "actions": []}, {0: "anna", 1: "ben", 2: "carla"}, None)
    assert spectator.status_line == "Waiting for ben and carla."


def test_the_fool_is_the_engines() -> None:
    """The result line says whom the engine's outcome names (``durak.Game.outcome``)."""
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"), [["6S"], ["8S"], ["9H", "10H"]], [], trump="C", first_attacker=0
    )
    game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
    names = {0: "anna", 1: "ben", 2: "carla"}
    assert build_table(game.view(0), names, 0).status_line == "The game is over: you won, carla is the fool."
    assert build_table(game.view(2), names, 2).status_line == "The game is over: you are the fool."
    assert build_table(game.view(None), names, None).status_line == "The game is over: carla is the fool."
    assert build_table(game.view(0), names, 0).situation_line == ""


def test_a_resignation_loses_for_the_whole_team_on_every_table() -> None:
    game = durak.Game.new(durak.Rules(teams="partners"), players=4, seed=5)
    game.apply({"type": "resign", "player": 3})
    names = {0: "anna", 1: "boris", 2: "clara", 3: "dima"}
    partner = build_table(game.view(1), names, 1)
    assert partner.status_line == "The game is over: your team lost (dima resigned)."
    assert partner.my_team == 1 and [p.team for p in partner.players] == [0, 1, 0, 1]
    assert partner.team_results == [("team A", "anna and clara", False), ("team B", "boris and dima", True)]
    assert (
        build_table(game.view(0), names, 0).status_line == "The game is over: your team won (dima resigned)."
    )
    assert (
        build_table(game.view(3), names, 3).status_line == "The game is over: your team lost (you resigned)."
    )
    watcher = build_table(game.view(None), names, None)
    assert watcher.team_line == "Team A: anna and clara; Team B: boris and dima."
    assert watcher.my_team is None and not any(p.partner for p in watcher.players)
