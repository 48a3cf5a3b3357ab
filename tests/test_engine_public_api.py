"""The engine is used through its public API, like python-chess: the site imports ``durak`` or
names exported from ``durak/__init__.py``, never a submodule, and everything exported says what it
is. A stored game becomes an engine game in one place, ``games.models.Game.engine()``."""

from __future__ import annotations

import ast
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import durak

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "durak"
ENGINE_TESTS = ROOT / "tests" / "engine"
SUBMODULES = frozenset(module.name for module in pkgutil.iter_modules([str(ENGINE)]))
#: The one place a stored game's ``state`` becomes a ``durak.Game``. Migrations use the historical
#: models, which have no methods, so they build it themselves.
ENGINE_HELPER = ROOT / "games" / "models.py"


#: What is not the site: the engine's compiled build (``dev.py engine``'s output, git-ignored),
#: and dev.py, which builds it and stamps it with the engine's own ``durak.compiled``.
NOT_SITE = (ROOT / "build", ROOT / "dev.py")


def site_sources() -> list[Path]:
    """Every Python file of the site: all but the engine, its own tests, its build and hidden
    folders."""
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
        and not path.is_relative_to(ENGINE)
        and not path.is_relative_to(ENGINE_TESTS)
        and not any(path.is_relative_to(other) for other in NOT_SITE)
    )


def submodule_uses(source: str, path: str = "<sample>") -> list[str]:
    """Each place in ``source`` that reaches into a submodule of ``durak``, as ``path:line: code``."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        reached = ""
        if isinstance(node, ast.Import):
            reached = ", ".join(alias.name for alias in node.names if alias.name.startswith("durak."))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("durak."):
                reached = node.module
            elif node.module == "durak":
                unexported = [alias.name for alias in node.names if alias.name not in durak.__all__]
                reached = ", ".join(f"durak.{name}" for name in unexported)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "durak"
            and node.attr in SUBMODULES
        ):
            reached = f"durak.{node.attr}"
        if reached:
            problems.append(f"{path}:{getattr(node, 'lineno', 0)}: {reached}")
    return problems


def stored_state_rebuilds(source: str, path: str = "<sample>") -> list[str]:
    """Each ``...from_dict(<something>.state)`` or ``from_dict(<row>["state"])`` in ``source``."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "from_dict"
            and node.args
        ):
            continue
        argument = node.args[0]
        if isinstance(argument, ast.BoolOp):  # ``game.state or {}``
            argument = argument.values[0]
        by_attribute = isinstance(argument, ast.Attribute) and argument.attr == "state"
        by_key = (
            isinstance(argument, ast.Subscript)
            and isinstance(argument.slice, ast.Constant)
            and argument.slice.value == "state"
        )
        if by_attribute or by_key:
            problems.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return problems


def exported_objects() -> Iterator[tuple[str, object]]:
    for name in durak.__all__:
        yield name, getattr(durak, name)


def test_the_checks_see_what_they_look_for() -> None:
    sample = "\n".join(
        [
            "import durak",
            "import durak.cards",
            "from durak.enchanted import effect",
            "from durak import schema, Game, bots",
            "from durak import no_such_export",
            "durak.rules.PRESETS",
            "durak.Game.new",
        ]
    )
    assert [problem.split(": ", 1)[1] for problem in submodule_uses(sample)] == [
        "durak.cards",
        "durak.enchanted",
        "durak.schema, durak.bots",
        "durak.no_such_export",
        "durak.rules",
    ]
    rebuilds = (
        "durak.Game.from_dict(game.state)\nGame.from_dict(row['state'] or {})\nRules.from_dict(game.rules)"
    )
    assert len(stored_state_rebuilds(rebuilds)) == 2


def test_no_site_module_imports_an_engine_submodule() -> None:
    sources = site_sources()
    # Reading nothing would pass: the apps, the benchmarks and the tests must be among those read.
    for expected in ("games/write.py", "api/views.py", "benchmarks/bots.py", "tests/conftest.py"):
        assert ROOT / expected in sources, expected
    assert not any(path.is_relative_to(ENGINE) for path in sources)
    problems = [
        problem
        for path in sources
        for problem in submodule_uses(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert not problems, "use `import durak` and names exported by durak/__init__.py:\n" + "\n".join(problems)


def test_a_stored_game_becomes_an_engine_game_in_one_helper() -> None:
    problems = [
        problem
        for path in site_sources()
        if path != ENGINE_HELPER and "migrations" not in path.parts
        for problem in stored_state_rebuilds(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert not problems, "use games.models.Game.engine():\n" + "\n".join(problems)
    assert stored_state_rebuilds(ENGINE_HELPER.read_text()), "the helper itself was not found"


def test_the_public_api_is_exported_and_documented() -> None:
    assert len(set(durak.__all__)) == len(durak.__all__)
    module_doc = durak.__doc__ or ""
    undocumented = []
    for name, value in exported_objects():
        assert f"``{name}``" in module_doc, f"the module docstring does not list {name}"
        if inspect.isclass(value) or inspect.isfunction(value):
            doc = value.__dict__.get("__doc__") if inspect.isclass(value) else value.__doc__
            # A dataclass without a docstring gets its signature as one.
            if not doc or not doc.strip() or doc.startswith(f"{value.__name__}("):
                undocumented.append(name)
    assert not undocumented, f"exported without a docstring: {undocumented}"


def test_every_public_name_of_the_package_is_in_all() -> None:
    public = {name for name in vars(durak) if not name.startswith("_")} - SUBMODULES
    assert public == set(durak.__all__)
