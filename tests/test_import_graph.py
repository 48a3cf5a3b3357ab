"""One import direction (issue 20): the project's modules import each other without a cycle.

The graph is grimp's, of every package of the project (each top-level folder with an
``__init__.py``, the tests aside), with every import in it: the module-level ones, those inside a
function (which only postpone an import: a cycle through one is still a cycle) and those under
``TYPE_CHECKING`` (a type that points up is a dependency that points up). On top of "no cycle":

- ``durak/`` (the rules engine) imports the standard library only: no Django, no project app.
- Layers that hold: a models module reaches no services, selectors, views, tasks, forms, admin,
  urls or API module, of any app; the games' write core sits below the services that use it.
- A function-level import between project modules is there for a reason stated in
  ``ALLOWED_LAZY_IMPORTS``, never to dodge a cycle (the cycle check sees through it anyway). A new
  one fails with where it is and what to do.

Reading the graph needs no database and no Django: these tests build it once from the source.
"""

from __future__ import annotations

import ast
import sys
from collections import deque
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Top-level folders that are packages but not the project's code under test.
NOT_PROJECT = {"tests"}

PACKAGES = sorted(
    path.parent.name
    for path in ROOT.glob("*/__init__.py")
    if path.parent.name not in NOT_PROJECT and not path.parent.name.startswith(".")
)

#: Packages of command-line scripts: they set Django up (``django.setup()``) and only then import
#: the apps, so their imports inside functions are not checked (their cycles are).
SCRIPTS = {"benchmarks"}

#: Function-level imports between project modules that stay, each with why, by
#: ``(importer, imported)``. A lazy import that only dodges a cycle does not belong here: the cycle
#: is fixed instead (a shared function moved down, a task queued by name, a registry).
SIGNALS = "AppConfig.ready: the app's receivers connect once the app registry is ready"
MODELS = "AppConfig.ready: it imports models, which are not loaded before ready()"
TASKS = "AppConfig.ready: every process knows the tasks that the modules beneath queue by name"
HOOKS = MODELS + " (the services it registers in games.hooks)"
MIGRATION = "a data migration loads what it runs when it runs"

ALLOWED_LAZY_IMPORTS: dict[tuple[str, str], str] = {
    ("accounts.apps", "accounts.signals"): SIGNALS,
    ("games.apps", "games.tasks"): TASKS,
    ("games.migrations.0005_move_events", "durak"): MIGRATION,
    ("games.migrations.0005_move_events", "games.services"): MIGRATION,
    ("matchmaking.apps", "matchmaking.tasks"): TASKS,
    ("moderation.apps", "moderation.roles"): MODELS,
    ("moderation.apps", "moderation.selectors"): MODELS + " (the mute check it gives chat.restrictions)",
    ("moderation.apps", "moderation.signals"): SIGNALS,
    ("notifications.apps", "accounts.relations"): MODELS + " (its friend signals, connected there)",
    ("notifications.apps", "notifications.services"): HOOKS,
    ("notifications.apps", "notifications.tasks"): TASKS,
    ("notifications.apps", "notifications.tournament_news"): MODELS + " (the tournament signals' receivers)",
    ("stats.apps", "stats.selectors"): HOOKS,
    ("stats.apps", "stats.services"): HOOKS,
    ("tournaments.apps", "tournaments.services"): HOOKS,
    ("tournaments.apps", "tournaments.tasks"): TASKS,
}

#: Function-level imports that others are taking out right now (exactly, as the cycles).
KNOWN_LAZY_IMPORTS: set[tuple[str, str]] = set()

#: durak_site's modules that put the apps together (the URLs, who reads which live channel, the
#: settings, the servers' entry points): the top of the site. The rest of durak_site (the live
#: stream, Celery, dates, the engine's words, the admin's base) is beneath every app.
COMPOSITION = {
    "durak_site.asgi",
    "durak_site.channels",
    "durak_site.settings",
    "durak_site.test_settings",
    "durak_site.urls",
    "durak_site.wsgi",
}

#: Cycles between apps that others are removing right now, by their apps (exactly, as for the
#: modules).
KNOWN_APP_CYCLES: list[frozenset[str]] = []

#: Cycles that others are removing right now, by their modules (exactly: a cycle that is gone, or
#: that changed, fails too, so that this list only shrinks).
KNOWN_CYCLES: list[frozenset[str]] = []


@cache
def graph() -> grimp.ImportGraph:
    # cache_dir=None: nothing written into the work tree.
    return grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)


def source_path(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def imports_in_functions(module: str) -> dict[int, str]:
    """The line numbers of the import statements inside a function of ``module``, with the
    function's name."""
    found: dict[int, str] = {}

    def walk(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom) and function is not None:
                found[child.lineno] = function
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            walk(child, inner)

    walk(ast.parse(source_path(module).read_text(encoding="utf-8")), None)
    return found


def imported_by(modules: grimp.ImportGraph, module: str) -> list[str]:
    return sorted(modules.find_modules_directly_imported_by(module) - {module})


def strongly_connected(modules: grimp.ImportGraph) -> list[list[str]]:
    """The components of ``modules`` of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(modules.modules):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(imported_by(modules, start)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(imported_by(modules, successor))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return components


def cycle_through(modules: grimp.ImportGraph, component: list[str]) -> list[str]:
    """One shortest cycle within ``component``, from and back to its first module."""
    start = component[0]
    members = set(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for successor in imported_by(modules, node):
            if successor not in members or successor in came_from:
                continue
            came_from[successor] = node
            if successor == start:
                chain = [start]
                while chain[-1] != start or len(chain) == 1:
                    chain.append(came_from[chain[-1]])
                return chain[::-1]
            queue.append(successor)
    raise AssertionError(f"no cycle in {component}")


def describe(modules: grimp.ImportGraph, chain: list[str]) -> str:
    """The chain, one import a line, with where each import is."""
    lines = [chain[0]]
    for importer, imported in pairwise(chain):
        details = modules.get_import_details(importer=importer, imported=imported)
        where = "; ".join(f"{importer}:{d['line_number']} {d['line_contents']}" for d in details[:2])
        lines.append(f"  -> {imported}    ({where})")
    return "\n".join(lines)


def test_every_package_is_in_the_graph() -> None:
    assert {"durak", "durak_site", "games", "accounts", "chat", "moderation", "matchmaking"} <= set(PACKAGES)
    assert all(any(m.startswith(f"{p}.") for m in graph().modules) for p in PACKAGES)


def test_no_import_cycle_between_modules() -> None:
    components = strongly_connected(graph())
    new = [c for c in components if frozenset(c) not in KNOWN_CYCLES]
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in {frozenset(c) for c in components}]
    message = "\n\n".join(
        f"Import cycle among {', '.join(c)}; for example:\n{describe(graph(), cycle_through(graph(), c))}"
        for c in new
    )
    assert not new, (
        f"{message}\n\nLower modules never import higher ones (issue 20): move the shared code down, "
        "queue a task by name, or let the higher module register with the lower one."
    )
    assert not gone, f"These known cycles are gone or changed: take them out of KNOWN_CYCLES: {gone}"


def app_of(module: str) -> str:
    """The package a module belongs to, durak_site's composing modules counted apart (``site``)."""
    return "site" if module in COMPOSITION else module.split(".")[0]


def app_graph() -> grimp.ImportGraph:
    """The apps' graph: an app imports another when one of its modules imports one of the other's."""
    modules = graph()
    apps = grimp.ImportGraph()
    for importer in sorted(modules.modules):
        apps.add_module(app_of(importer))
        for imported in imported_by(modules, importer):
            if app_of(importer) != app_of(imported):
                apps.add_import(importer=app_of(importer), imported=app_of(imported))
    return apps


def test_no_import_cycle_between_apps() -> None:
    modules, apps = graph(), app_graph()
    components = strongly_connected(apps)

    def edges(importer: str, imported: str) -> str:
        found = [
            f"{m} -> {n}"
            for m in sorted(modules.modules)
            if app_of(m) == importer
            for n in imported_by(modules, m)
            if app_of(n) == imported
        ]
        return ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")

    def chain(component: list[str]) -> str:
        cycle = cycle_through(apps, component)
        return "\n".join(f"  {a} -> {b}    ({edges(a, b)})" for a, b in pairwise(cycle))

    new = [c for c in components if frozenset(c) not in KNOWN_APP_CYCLES]
    assert not new, "\n\n".join(
        f"The apps {', '.join(c)} import each other in a circle; for example:\n{chain(c)}" for c in new
    )
    gone = [sorted(c) for c in KNOWN_APP_CYCLES if c not in {frozenset(c) for c in components}]
    assert not gone, f"These known cycles are gone or changed: take them out of KNOWN_APP_CYCLES: {gone}"


def test_durak_site_beneath_the_apps_imports_none() -> None:
    modules = graph()
    for module in sorted(m for m in modules.modules if app_of(m) == "durak_site"):
        apps = [m for m in imported_by(modules, module) if app_of(m) not in {"durak", "durak_site"}]
        assert not apps, f"{module} imports {apps}: only durak_site's composing modules ({COMPOSITION}) may"


def lazy_imports() -> dict[tuple[str, str], list[str]]:
    """Function-level imports between project modules: ``(importer, imported)`` -> where."""
    modules = graph()
    found: dict[tuple[str, str], list[str]] = {}
    for module in sorted(m for m in modules.modules if m.split(".")[0] not in SCRIPTS):
        in_functions = imports_in_functions(module)
        if not in_functions:
            continue
        for imported in imported_by(modules, module):
            for detail in modules.get_import_details(importer=module, imported=imported):
                function = in_functions.get(detail["line_number"])
                if function is not None:
                    found.setdefault((module, imported), []).append(
                        f"{source_path(module).relative_to(ROOT)}:{detail['line_number']} in {function}(): "
                        f"{detail['line_contents']}"
                    )
    return found


def test_function_level_imports_are_the_allowed_ones() -> None:
    found = lazy_imports()
    allowed = set(ALLOWED_LAZY_IMPORTS) | KNOWN_LAZY_IMPORTS
    new = {pair: where for pair, where in found.items() if pair not in allowed}
    assert not new, (
        "Function-level imports between project modules:\n"
        + "\n".join(f"  {line}" for where in new.values() for line in where)
        + "\nImport at the top of the module. If that makes a cycle, the direction is wrong: fix it "
        "(issue 20). Only an import that cannot run at the top for another reason (Django's app "
        "registry in AppConfig.ready) goes into ALLOWED_LAZY_IMPORTS, with why."
    )
    stale = sorted(allowed - set(found))
    assert not stale, f"No longer lazy: take them out of ALLOWED_LAZY_IMPORTS or KNOWN_LAZY_IMPORTS: {stale}"


def test_the_engine_imports_the_standard_library_only() -> None:
    engine = grimp.build_graph("durak", include_external_packages=True, cache_dir=None)
    outside = {
        module: sorted(engine.find_modules_that_directly_import(module))
        for module in engine.modules
        if module.split(".")[0] not in {"durak", *sys.stdlib_module_names}
    }
    assert not outside, f"durak/ imports outside the standard library: {outside}"
    modules = graph()
    for module in sorted(m for m in modules.modules if m.split(".")[0] == "durak"):
        apps = [m for m in imported_by(modules, module) if m.split(".")[0] != "durak"]
        assert not apps, f"{module} imports {apps}: the engine depends on no app"


#: What a models module never reaches, directly or not: the layers above the models.
ABOVE_MODELS = {"services", "selectors", "views", "tasks", "forms", "admin", "urls", "api", "serializers"}


def layer(module: str) -> str:
    """The module's kind within its app: ``games.models`` -> ``models``."""
    return module.split(".")[1] if "." in module else ""


@pytest.mark.parametrize("module", sorted(m for m in graph().modules if layer(m) == "models"))
def test_models_reach_no_layer_above_them(module: str) -> None:
    modules = graph()
    reached = sorted(m for m in modules.find_upstream_modules(module) if layer(m) in ABOVE_MODELS)
    assert not reached, "\n".join(
        f"{module} reaches {target}: "
        + " -> ".join(modules.find_shortest_chain(importer=module, imported=target) or ())
        for target in reached
    )


def in_known_cycle(module: str) -> bool:
    return any(module in cycle for cycle in KNOWN_CYCLES)


def test_a_tasks_module_is_the_top_of_its_app() -> None:
    """Tasks are thin callers of the services, which queue them by name (``app.signature(NAME)``):
    only the app's ``AppConfig`` (which registers them in every process) imports its tasks."""
    modules = graph()
    for module in sorted(m for m in modules.modules if layer(m) == "tasks"):
        importers = sorted(
            m
            for m in modules.find_modules_that_directly_import(module)
            if m != f"{app_of(module)}.apps" and app_of(m) not in SCRIPTS and not in_known_cycle(m)
        )
        assert not importers, f"{importers} import {module}: queue its tasks by name instead"


def test_views_are_reached_from_the_urls_only() -> None:
    """Nothing is built on a page's view: only the URLs import views (the API's ``api.views``
    aside: it holds the helpers of the API's views)."""
    modules = graph()
    for module in sorted(m for m in modules.modules if layer(m) == "views" and app_of(m) != "api"):
        importers = sorted(
            m
            for m in modules.find_modules_that_directly_import(module)
            if layer(m) != "urls" and not in_known_cycle(m)
        )
        assert not importers, f"{importers} import {module}, a page's view"


def test_the_write_core_sits_below_the_games_services() -> None:
    modules = graph()
    core = sorted(m for m in modules.modules if m == "games.write" or m.startswith("games.write."))
    assert core, "games.write, the write core, is missing from the graph"
    above = {"games.services", "games.bots", "games.tasks", "games.views"}
    for module in core:
        reached = sorted(modules.find_upstream_modules(module) & above)
        assert not reached, f"{module} reaches {reached}, which use it"


def test_a_cycle_is_seen_and_named() -> None:
    """The checks pass because there is no cycle, not because they cannot see one."""
    probe = grimp.ImportGraph()
    for importer, imported in [
        ("app.models", "app.names"),
        ("app.names", "app.rules"),
        ("app.rules", "app.models"),
    ]:
        probe.add_import(
            importer=importer, imported=imported, line_number=3, line_contents=f"import {imported}"
        )
    probe.add_import(
        importer="app.views", imported="app.models", line_number=1, line_contents="import app.models"
    )
    assert strongly_connected(probe) == [["app.models", "app.names", "app.rules"]]
    chain = cycle_through(probe, ["app.models", "app.names", "app.rules"])
    assert chain == ["app.models", "app.names", "app.rules", "app.models"]
    assert "(app.rules:3 import app.models)" in describe(probe, chain)
    probe.remove_import(importer="app.rules", imported="app.models")
    assert strongly_connected(probe) == []


def test_a_function_level_import_is_seen() -> None:
    assert set(imports_in_functions("accounts.apps").values()) == {"ready"}
    assert ("accounts.apps", "accounts.signals") in lazy_imports()
