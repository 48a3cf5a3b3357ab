"""The engine's named parts: one seating per team mode, one enchantment per rank, a fresh bout after
each bout, and nothing outside the seating asking the team mode by name."""

from __future__ import annotations

import ast
from pathlib import Path

import durak
from durak.bout import Bout
from durak.enchanted import EFFECTS, ENCHANTABLE_RANKS, ENCHANTMENTS, Enchantment, Spells
from durak.seating import SEATINGS, BlackBookTeams, NoTeams, Partners, Seats
from durak.state import Position
from durak.storage import rules_json, rules_of

ENGINE = Path(durak.__file__).parent


def test_every_team_mode_has_its_seating() -> None:
    modes = {durak.Rules.preset("classic", teams=mode).teams for mode in ("none", "partners", "black_book")}
    assert set(SEATINGS) == modes
    assert type(SEATINGS["none"]) is NoTeams and type(SEATINGS["partners"]) is Partners
    assert isinstance(SEATINGS["black_book"], BlackBookTeams)
    assert [SEATINGS["partners"].team_of(p) for p in range(6)] == [0, 1, 0, 1, 0, 1]
    assert SEATINGS["none"].team_of(3) is None and SEATINGS["none"].opponents(0, 2)


def test_every_enchantable_rank_has_one_enchantment_with_its_text() -> None:
    assert tuple(ENCHANTMENTS) == ENCHANTABLE_RANKS == tuple(EFFECTS)
    flags = ("names_suit", "thrown_in_freely", "blocks_transfer", "closes_bout", "lets_reverse")
    methods = ("power", "beaten")

    # Each rank changes at least one of the game's questions (a flag it raises or a beating rule
    # it overrides), and only the six to ace do.
    def changes(enchantment: Enchantment) -> bool:
        raised = any(getattr(enchantment, flag) for flag in flags)
        overridden = any(getattr(type(enchantment), m) is not getattr(Enchantment, m) for m in methods)
        return raised or overridden

    assert all(changes(e) for e in ENCHANTMENTS.values())
    assert all(type(e).rank == rank for rank, e in ENCHANTMENTS.items())
    assert Spells(()).active is False and Spells(("Q",)).closes_bout("QH")
    assert not Spells(("K",)).closes_bout("QH")


def test_a_bout_ends_with_a_fresh_bout() -> None:
    game = durak.Game.from_deal(
        durak.Rules.preset("classic"), [["6S", "7H", "9C"], ["8S", "AD", "JC"]], ["10C", "6D", "9H"]
    )
    game.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    game.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
    game.apply({"type": "pass", "player": 0})
    assert game.last_bout == {"attacker": 0, "defender": 1, "result": "beaten"}
    assert game.bout == Bout()
    assert (game.table, game.passed, game.named, game.limit, game.taking) == ([], set(), {}, None, False)


def test_no_engine_module_but_the_seating_and_the_rules_names_a_team_mode_or_a_preset() -> None:
    named = {"partners", "black_book", "classic", "perevodnoy", "tabletop", "durak24"}
    for path in sorted(ENGINE.glob("*.py")):
        if path.name in ("seating.py", "rules.py", "bots.py"):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and id(node) not in docstrings:
                assert node.value not in named, f"{path.name}:{node.lineno} names {node.value!r}"
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
                assert node.left.attr != "teams", f"{path.name}:{node.lineno} compares the team mode"


def test_the_remembered_rules_are_the_rules_read_and_written() -> None:
    rules = durak.Rules.preset("black_book", enchanted=["6", "Q"])
    data = rules.to_dict(stored=True)
    assert rules_of(data) == rules and rules_of(dict(data)) is rules_of(data)
    written = rules_json(rules, stored=True)
    written["enchanted"].append("K")
    assert rules_json(rules, stored=True) == data and rules_json(rules) == rules.to_dict()
    # An option of the wrong type is refused, never mistaken for an equal value read before.
    for wrong in ({**data, "hand_size": 6.0}, {**data, "transfer": 1}):
        try:
            rules_of(wrong)
        except durak.RulesError:
            continue
        raise AssertionError(f"accepted {wrong}")


def test_a_copy_has_every_field_and_owns_what_moves_change_in_place() -> None:
    game = durak.Game.new(durak.Rules.preset("perevodnoy"), 3, seed=4)
    game.apply(game.legal_json(game.attacker)[0])
    copy = game.copy()
    memo = {"adding", "unseen", "legal", "events"}
    # A position's fields: its slots and those of Seats; compiled (mypyc keeps no __slots__), the
    # fields the build lists.
    fields = getattr(Position, "__mypyc_attrs__", None) or (*Seats.__slots__, *Position.__slots__)
    for name in fields:
        assert hasattr(copy, name), name  # copy() writes every field out
        if name not in memo:
            assert getattr(copy, name) == getattr(game, name), name
    for name in ("hands", "stock", "discard", "bout", "auto_pass", "finished", "timeouts", "discarded_ranks"):
        assert getattr(copy, name) is not getattr(game, name), name
    assert all(mine is not theirs for mine, theirs in zip(copy.hands, game.hands, strict=True))
    action = copy.legal_json(copy.defender)[0]
    copy.apply(action)
    assert game.legal_json(game.defender)[0] == action  # the original is as it was
