"""No engine code branches on a preset's name: a preset is data (``durak.rules.PRESET_TABLE``), and
what it changes is an option the engine reads, so an override or a new preset plays the same.

The check reads the source (``ast``) and reports ``file:line`` for each comparison of a preset
name, as a literal or a module constant holding one, with something that holds a preset name: a
variable or attribute called ``name`` or ``preset`` (or ``preset_...``/``..._preset``), or the
first parameter of a function about presets. An option that happens to share a preset's name
(``rules.teams == "black_book"``) is an option check and is not reported. In ``durak/rules.py``,
where presets are built, no method compares ``name`` with anything at all.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from durak import PRESETS

ENGINE = Path(__file__).resolve().parent.parent / "durak"
RULES_MODULE = "rules.py"

_COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)


def _holds_preset_name(node: ast.expr, parameters: frozenset[str]) -> bool:
    """Whether ``node`` reads like a preset's name: ``name``, ``self.preset``, ``preset_name``..."""
    if isinstance(node, ast.Name):
        identifier = node.id
    elif isinstance(node, ast.Attribute):
        identifier = node.attr
    else:
        return False
    if identifier in parameters:
        return True
    return (
        identifier in ("name", "preset") or identifier.startswith("preset_") or identifier.endswith("_preset")
    )


def _string_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "..."`` (or ``NAME: Final = "..."``), so an alias of a name is still seen."""
    constants = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            for target in targets:
                if isinstance(target, ast.Name):
                    constants[target.id] = value.value
    return constants


def _names_in(node: ast.expr, constants: dict[str, str], presets: frozenset[str]) -> set[str]:
    """The preset names ``node`` states: a literal, a constant, or a tuple, list or set of them."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {found for element in node.elts for found in _names_in(element, constants, presets)}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
    elif isinstance(node, ast.Name) and node.id in constants:
        value = constants[node.id]
    else:
        return set()
    return {value} & presets


def _pattern_names(pattern: ast.pattern, constants: dict[str, str], presets: frozenset[str]) -> set[str]:
    if isinstance(pattern, ast.MatchValue):
        return _names_in(pattern.value, constants, presets)
    if isinstance(pattern, ast.MatchOr):
        return {found for option in pattern.patterns for found in _pattern_names(option, constants, presets)}
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _pattern_names(pattern.pattern, constants, presets)
    return set()


def _preset_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The parameter that carries the preset's name, in a function about presets (``Rules.preset``)."""
    if "preset" not in function.name:
        return frozenset()
    arguments = [argument.arg for argument in (*function.args.posonlyargs, *function.args.args)]
    arguments = [argument for argument in arguments if argument not in ("self", "cls")]
    return frozenset(arguments[:1])


def _comparison_pairs(node: ast.Compare) -> Iterator[tuple[ast.expr, ast.expr]]:
    left = node.left
    for operator, right in zip(node.ops, node.comparators, strict=True):
        if isinstance(operator, _COMPARISONS):
            yield left, right
        left = right


class _Checker(ast.NodeVisitor):
    def __init__(self, source: str, path: str, presets: frozenset[str], *, rules_module: bool) -> None:
        self.tree = ast.parse(source, filename=path)
        self.path = path
        self.presets = presets
        self.rules_module = rules_module
        self.constants = _string_constants(self.tree)
        self.parameters: list[frozenset[str]] = [frozenset()]
        self.in_method = [False]
        self.in_class = False
        self.problems: list[str] = []

    def run(self) -> list[str]:
        self.visit(self.tree)
        return self.problems

    def _report(self, node: ast.expr | ast.pattern, why: str) -> None:
        self.problems.append(f"{self.path}:{node.lineno}: {why}: {ast.unparse(node)}")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer, self.in_class = self.in_class, True
        self.in_method.append(False)
        self.generic_visit(node)
        self.in_method.pop()
        self.in_class = outer

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.parameters.append(self.parameters[-1] | _preset_parameters(node))
        self.in_method.append(self.in_method[-1] or self.in_class)
        outer, self.in_class = self.in_class, False
        self.generic_visit(node)
        self.in_class = outer
        self.in_method.pop()
        self.parameters.pop()

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_Compare(self, node: ast.Compare) -> None:
        for left, right in _comparison_pairs(node):
            for one, other in ((left, right), (right, left)):
                if _holds_preset_name(other, self.parameters[-1]):
                    names = _names_in(one, self.constants, self.presets)
                    if names:
                        self._report(node, f"compares with the preset name {', '.join(sorted(names))}")
                        return
            names_compared = any(isinstance(side, ast.Name) and side.id == "name" for side in (left, right))
            if self.rules_module and self.in_method[-1] and names_compared:
                self._report(node, "a Rules method checks name")
                return
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        if _holds_preset_name(node.subject, self.parameters[-1]):
            for case in node.cases:
                names = _pattern_names(case.pattern, self.constants, self.presets)
                if names:
                    self._report(case.pattern, f"matches the preset name {', '.join(sorted(names))}")
        self.generic_visit(node)


def preset_branches(
    source: str, path: str = "<sample>", presets: Iterable[str] = PRESETS, *, rules_module: bool = False
) -> list[str]:
    """Each place in ``source`` that branches on a preset's name, as ``path:line: why: code``."""
    return _Checker(source, path, frozenset(presets), rules_module=rules_module).run()


def engine_sources() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_engine_never_branches_on_a_preset_name() -> None:
    sources = engine_sources()
    # Reading nothing would pass: the files the rules live in must be among those read.
    assert ENGINE / RULES_MODULE in sources and ENGINE / "__init__.py" in sources
    assert len(PRESETS) >= 5
    problems = [
        problem
        for path in sources
        for problem in preset_branches(
            path.read_text(),
            str(path.relative_to(ENGINE.parent)),
            rules_module=path == ENGINE / RULES_MODULE,
        )
    ]
    assert not problems, "branches on a preset name:\n" + "\n".join(problems)


BRANCHING = {
    "the old tabletop hand size": """
        class Rules:
            @classmethod
            def preset(cls, name, **overrides):
                if name == "tabletop" and overrides.get("deck_size") == 52 and "hand_size" not in overrides:
                    options["hand_size"] = 7
        """,
    "name on the right": 'if "durak24" != self.name:\n    pass',
    "membership in a tuple of names": 'if preset in ("classic", "perevodnoy"):\n    pass',
    "an attribute preset": 'if game.rules_preset == "black_book":\n    pass',
    "a chained comparison": 'ok = 0 < count and name == "classic"',
    "the preset parameter by another name": """
        def find_preset(chosen):
            return 7 if chosen == "tabletop" else 6
        """,
    "a module constant": """
        TABLETOP = "tabletop"

        def hand(name):
            return 7 if name == TABLETOP else 6
        """,
    "a match statement": """
        match preset:
            case "classic" | "durak24":
                pass
        """,
}


@pytest.mark.parametrize("sample", BRANCHING.values(), ids=BRANCHING.keys())
def test_the_checker_finds_a_preset_name_branch(sample: str) -> None:
    problems = preset_branches(textwrap.dedent(sample), "durak/sample.py")
    assert len(problems) == 1
    assert problems[0].startswith("durak/sample.py:")


def test_the_checker_reports_the_line() -> None:
    sample = 'x = 1\n\nif name == "tabletop":\n    pass\n'
    assert preset_branches(sample, "durak/sample.py") == [
        "durak/sample.py:3: compares with the preset name tabletop: name == 'tabletop'"
    ]


def test_a_rules_method_never_checks_name() -> None:
    sample = """
        class Rules:
            def hand_size_for(self, name, deck):
                return 7 if name == DEALT_SEVEN else 6
        """
    problems = preset_branches(textwrap.dedent(sample), "durak/rules.py", rules_module=True)
    assert problems == ["durak/rules.py:4: a Rules method checks name: name == DEALT_SEVEN"]
    assert preset_branches(textwrap.dedent(sample), "durak/game.py") == []


NOT_BRANCHING = {
    "an option that shares a preset's name": 'if rules.teams == "black_book":\n    pass',
    "an option's name": 'if spec.name == "enchanted":\n    pass',
    "a preset looked up": "summary = PRESETS[name]",
    "a name checked against the table": "known = name in PRESETS",
    "a preset name not compared": 'rules = Rules.preset("tabletop", deck_size=52)',
    "a preset name as data": 'PRESETS = {"classic": "Podkidnoy"}',
    "a function about something else": """
        def team_of(mode):
            return mode == "black_book"
        """,
    "a module function in rules.py": """
        def _option(name):
            return name == "hand_size"
        """,
}


@pytest.mark.parametrize("sample", NOT_BRANCHING.values(), ids=NOT_BRANCHING.keys())
def test_the_checker_passes_option_checks_and_lookups(sample: str) -> None:
    assert preset_branches(textwrap.dedent(sample), "durak/rules.py", rules_module=True) == []
