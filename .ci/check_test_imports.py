#!/usr/bin/env python3
"""Fail if a test imports a module that a bare machine would not have.

    python3 .ci/check_test_imports.py [ROOT]

CI installs the project with its ``test`` extra (``pip install -e .[test,lint]``), so every
module the tests import must come from the standard library, the project itself, or a
distribution that the runtime dependencies or the ``test`` extra require, directly or
through their own requirements. A module that only another extra installs (``bench``,
``lint``) or that merely happens to be installed on this machine passes locally and fails
on a fresh one.

Every ``.py`` under ``tests/`` and every ``conftest.py`` is parsed with ``ast``; the
project modules they import are followed and parsed too (a test importing a benchmark
needs what the benchmark imports). Imports guarded by ``except ImportError`` are optional
and skipped. Each top-level module name is mapped to its distributions with
``importlib.metadata.packages_distributions()``, so run this with the project's
interpreter (``python3 dev.py lint`` does). Standard library only; exit status 1 and one
line per offending import.
"""

from __future__ import annotations

import ast
import importlib.metadata
import operator
import os
import platform
import re
import sys
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The extra CI installs for the tests.
TEST_EXTRA = "test"
SKIPPED_DIRS = {".venv", "venv", "node_modules", "build", "dist", "staticfiles", "test-artifacts"}


@dataclass(frozen=True)
class Import:
    """One import of a module from outside the project."""

    path: Path
    line: int
    module: str  # the top-level name: ``rest_framework`` for ``from rest_framework.test import ...``
    via: tuple[str, ...] = ()  # project modules followed from the test to here


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them.

    >>> normalize("Factory_Boy"), normalize("django.environ")
    ('factory-boy', 'django-environ')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?[^;]*(?:;(.*))?$")


def parse_requirement(text: str) -> tuple[str, frozenset[str], str]:
    """Name, extras and marker of a PEP 508 requirement string.

    >>> name, extras, marker = parse_requirement('celery[redis,sqs]>=5.4; python_version >= "3.9"')
    >>> name, sorted(extras), marker
    ('celery', ['redis', 'sqs'], 'python_version >= "3.9"')
    >>> parse_requirement("pytest<9.2,>=8")
    ('pytest', frozenset(), '')
    """
    match = REQUIREMENT.match(text)
    if match is None:
        raise ValueError(f"not a requirement: {text!r}")
    name, extras, marker = match.groups()
    return (
        name,
        frozenset(normalize(extra) for extra in (extras or "").split(",") if extra.strip()),
        (marker or "").strip(),
    )


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


MARKER_ENVIRONMENT = {
    "python_version": ".".join(platform.python_version_tuple()[:2]),
    "python_full_version": platform.python_version(),
    "implementation_name": sys.implementation.name,
    "implementation_version": ".".join(str(part) for part in sys.implementation.version[:3]),
    "platform_python_implementation": platform.python_implementation(),
    "platform_system": platform.system(),
    "platform_release": platform.release(),
    "platform_machine": platform.machine(),
    "sys_platform": sys.platform,
    "os_name": os.name,
}
VERSION_VARIABLES = {"python_version", "python_full_version", "implementation_version"}
COMPARISONS: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda left, right: str(left) in str(right),
    ast.NotIn: lambda left, right: str(left) not in str(right),
}


def marker_holds(marker: str, extras: frozenset[str]) -> bool:
    """Whether a PEP 508 environment marker holds here, with ``extras`` requested.

    >>> marker_holds('extra == "redis"', frozenset({"redis"})), marker_holds('extra == "sqs"', frozenset())
    (True, False)
    >>> marker_holds('python_version < "3.0" or (sys_platform != "nowhere" and extra == "x")', frozenset({"x"}))
    True
    """
    if not marker:
        return True
    # A marker reads as a Python expression (=== and ~= aside, which requirements do not use here).
    return bool(_evaluate(ast.parse(marker, mode="eval").body, extras))


def _evaluate(node: ast.expr, extras: frozenset[str]) -> object:
    if isinstance(node, ast.BoolOp):
        values = (_evaluate(value, extras) for value in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right = node.left, node.comparators[0]
        names = {side.id for side in (left, right) if isinstance(side, ast.Name)}
        if "extra" in names:
            other = right if isinstance(left, ast.Name) else left
            wanted = normalize(str(_evaluate(other, extras)))
            return (wanted in extras) == isinstance(node.ops[0], ast.Eq)
        compare = COMPARISONS[type(node.ops[0])]
        left_value, right_value = _evaluate(left, extras), _evaluate(right, extras)
        if names & VERSION_VARIABLES and not isinstance(node.ops[0], (ast.In, ast.NotIn)):
            return compare(_version(str(left_value)), _version(str(right_value)))
        return compare(left_value, right_value)
    if isinstance(node, ast.Name):
        return MARKER_ENVIRONMENT.get(node.id, "")
    if isinstance(node, ast.Constant):
        return node.value
    raise ValueError(f"unsupported marker: {ast.unparse(node)}")


def required_distributions(requirements: Iterable[str]) -> set[str]:
    """Every installed distribution that ``requirements`` pull in, transitively (normalized names)."""
    seen: set[tuple[str, frozenset[str]]] = set()
    found: set[str] = set()
    pending = [parse_requirement(text)[:2] for text in requirements]
    while pending:
        name, extras = pending.pop()
        key = (normalize(name), extras)
        if key in seen:
            continue
        seen.add(key)
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # not installed: nothing can be imported from it either
        found.add(normalize(name))
        for text in distribution.requires or []:
            child, child_extras, marker = parse_requirement(text)
            if marker_holds(marker, extras):
                pending.append((child, child_extras))
    return found


def project_requirements(root: Path, extra: str) -> tuple[str, list[str]]:
    """The project's name and its runtime requirements plus ``extra``'s, read from pyproject.toml
    (not from the installed metadata, which is as old as the last ``pip install``)."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    requirements = [
        *project.get("dependencies", []),
        *project.get("optional-dependencies", {}).get(extra, []),
    ]
    own = normalize(project["name"])
    # The project may name itself with extras ("durak-online[test]"): take those extras' requirements.
    expanded: list[str] = []
    for text in requirements:
        name, extras, _ = parse_requirement(text)
        if normalize(name) == own:
            for own_extra in extras:
                expanded += project.get("optional-dependencies", {}).get(own_extra, [])
        else:
            expanded.append(text)
    return own, expanded


def local_names(root: Path) -> set[str]:
    """Top-level modules of the project: its packages and the modules at its root."""
    names = {path.stem for path in root.glob("*.py")}
    names |= {path.parent.name for path in root.glob("*/__init__.py")}
    return names


def optional_import_nodes(tree: ast.AST) -> set[int]:
    """ids of the import statements inside a ``try`` that catches ImportError."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = {
            name.id if isinstance(name, ast.Name) else ""
            for handler in node.handlers
            for name in (
                handler.type.elts
                if isinstance(handler.type, ast.Tuple)
                else [handler.type]
                if handler.type
                else []
            )
        }
        if caught & {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}:
            for statement in node.body:
                guarded |= {
                    id(inner)
                    for inner in ast.walk(statement)
                    if isinstance(inner, ast.Import | ast.ImportFrom)
                }
    return guarded


def imported_modules(path: Path, root: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted module) for each absolute import in ``path``; relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    optional = optional_import_nodes(tree)
    package = list(path.relative_to(root).parts[:-1])
    for node in ast.walk(tree):
        if id(node) in optional:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            yield node.lineno, module
            for alias in node.names:  # ``from tests.faults import conftest``: a submodule, maybe
                yield node.lineno, f"{module}.{alias.name}"


def local_file(root: Path, module: str) -> Path | None:
    parts = module.split(".")
    for candidate in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


def test_files(root: Path) -> list[Path]:
    def kept(path: Path) -> bool:
        relative = path.relative_to(root).parts
        return not any(part in SKIPPED_DIRS or part.startswith(".") for part in relative[:-1])

    files = (
        {path for path in (root / "tests").rglob("*.py") if kept(path)}
        if (root / "tests").is_dir()
        else set()
    )
    files |= {path for path in root.rglob("conftest.py") if kept(path)}
    return sorted(files)


def outside_imports(root: Path) -> Iterator[Import]:
    """Every import of a non-project module by a test, following project modules."""
    local = local_names(root)
    queue: list[tuple[Path, tuple[str, ...]]] = [(path, ()) for path in test_files(root)]
    visited: set[Path] = set()
    while queue:
        path, via = queue.pop(0)
        if path in visited:
            continue
        visited.add(path)
        for line, module in imported_modules(path, root):
            top = module.split(".")[0]
            if not top:
                continue
            # A bare ``import helpers`` finds a module beside the file (pytest's rootdir insertion).
            base = root if top in local else path.parent if local_file(path.parent, top) else None
            if base is not None:
                parts = module.split(".")
                for length in range(1, len(parts) + 1):  # a.b.c imports a and a.b too
                    target = local_file(base, ".".join(parts[:length]))
                    if target is not None and target not in visited:
                        queue.append((target, (*via, str(path.relative_to(root)))))
            else:
                yield Import(path=path, line=line, module=top, via=via)


def problems(root: Path, extra: str = TEST_EXTRA) -> list[str]:
    """One sentence per import that the runtime dependencies and ``extra`` do not cover."""
    own, requirements = project_requirements(root, extra)
    allowed = required_distributions(requirements) | {own}
    providers = importlib.metadata.packages_distributions()
    standard = set(sys.stdlib_module_names) | {"__future__"}
    found: dict[str, str] = {}
    for item in outside_imports(root):
        if item.module in standard or item.module in found:
            continue
        relative = item.path.relative_to(root)
        where = f"{relative}:{item.line}" + (f" (reached from {item.via[0]})" if item.via else "")
        test_only = relative.parts[0] == "tests" or relative.name == "conftest.py"
        home = (
            f"the {extra!r} extra"
            if test_only
            else f"the dependencies (or, if only tests need it, the {extra!r} extra)"
        )
        distributions = providers.get(item.module, [])
        if not distributions:
            found[item.module] = (
                f"{where}: imports {item.module}, which no installed distribution provides: "
                f"add the distribution that provides it to {home} in pyproject.toml"
            )
        elif not {normalize(name) for name in distributions} & allowed:
            names = ", ".join(sorted(set(distributions)))
            found[item.module] = (
                f"{where}: imports {item.module} (from {names}), which neither the runtime dependencies "
                f"nor the {extra!r} extra install: add {names} to {home} in pyproject.toml"
            )
    return [found[module] for module in sorted(found)]


def main(argv: list[str]) -> int:
    root = Path(argv[1]).resolve() if len(argv) > 1 else Path(__file__).resolve().parent.parent
    found = problems(root)
    for sentence in found:
        print(sentence)
    if found:
        print(f"{len(found)} module(s) imported by the tests that a fresh install of .[{TEST_EXTRA}] lacks")
        return 1
    print(f"test imports: every module comes from the standard library, the project or .[{TEST_EXTRA}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
