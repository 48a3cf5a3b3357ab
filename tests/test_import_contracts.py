"""One import direction (issue 20), held by import-linter: the contracts of pyproject.toml's
``[tool.importlinter]`` (the apps' layers, no cycle, the engine on the standard library only, the
models beneath the services, tasks and views at the top of their apps, the write core beneath the
games' services, function-level imports only for a reason) are kept. ``python3 dev.py lint`` runs
``lint-imports`` too; here CI's test run holds them. Reading the graph needs no database."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

from tests.import_contracts import FunctionLevelImportsContract, StandardLibraryOnlyContract

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def test_the_import_contracts_are_kept() -> None:
    command = [
        sys.executable,
        "-c",
        "import sys, importlinter.cli as c; sys.exit(c.lint_imports(no_cache=True))",
    ]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def test_every_package_of_the_project_is_in_the_contracts() -> None:
    packages = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")
    assert sorted(CONFIG["root_packages"]) == packages
    contracts = {contract["type"]: contract for contract in CONFIG["contracts"]}
    assert sorted(contracts["acyclic_siblings"]["ancestors"]) == packages
    assert sorted(contracts["function_level_imports"]["containers"]) == packages
    layered = {app.strip() for layer in contracts["layers"]["layers"] for app in layer.split("|")}
    assert layered == set(packages)


def probe_graph(*imports: tuple[str, str, int]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported, line in imports:
        graph.add_import(
            importer=importer, imported=imported, line_number=line, line_contents=f"import {imported}"
        )
    return graph


def test_an_engine_import_outside_the_standard_library_is_seen() -> None:
    contract = StandardLibraryOnlyContract("engine", {}, {"source_modules": ["durak"]})
    graph = probe_graph(("durak.cards", "random", 1), ("durak.cards", "durak.rules", 2))
    graph.add_module("durak")
    assert contract.check(graph, verbose=False).kept
    graph.add_import(importer="durak.rules", imported="django", line_number=3, line_contents="import django")
    check = contract.check(graph, verbose=False)
    assert not check.kept and check.metadata["outside"] == ["durak.rules imports django"]


def test_a_function_level_import_is_seen_and_an_allowed_one_that_went_is_named() -> None:
    """accounts.apps imports accounts.signals in ready() (see its source)."""
    graph = grimp.build_graph("accounts", cache_dir=None)
    options = {"containers": ["accounts"], "allowed": ["accounts.apps -> accounts.signals"]}
    assert FunctionLevelImportsContract("lazy", {}, options).check(graph, verbose=False).kept
    check = FunctionLevelImportsContract("lazy", {}, {"containers": ["accounts"]}).check(graph, verbose=False)
    assert not check.kept and any(
        "accounts/apps.py" in line and "ready()" in line for line in check.metadata["new"]
    )
    stale = {
        "containers": ["accounts"],
        "allowed": ["accounts.apps -> accounts.signals", "accounts.apps -> accounts.forms"],
    }
    check = FunctionLevelImportsContract("lazy", {}, stale).check(graph, verbose=False)
    assert not check.kept and check.metadata["stale"] == ["accounts.apps -> accounts.forms"]
