"""Two import-linter contract types that its own do not state (pyproject.toml's
``[tool.importlinter]`` names them in ``contract_types``; ``lint-imports`` checks them with the
rest):

- ``standard_library_only``: the engine (``durak/``) imports nothing outside the standard library,
  not even a package that import-linter was not told about.
- ``function_level_imports``: an import between project modules inside a function only postpones
  it (a cycle through one is still a cycle): each one is listed in ``allowed`` with why, and a new
  one fails with where it is.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import Any

import grimp
from importlinter import Contract, ContractCheck, fields, output

ROOT = Path(__file__).resolve().parent.parent


class _Contract(Contract):
    def options(self, name: str) -> Any:
        """A field's parsed value (import-linter sets it on the instance; its class attribute is
        the field), empty when an optional one is not given."""
        return getattr(self, name) or ()


class StandardLibraryOnlyContract(_Contract):
    """The ``source_modules`` import the standard library and themselves only (the configuration
    needs ``include_external_packages = true``, so that the graph holds the imports of others)."""

    type_name = "standard_library_only"

    source_modules = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        sources = {module.name for module in self.options("source_modules")}
        outside: list[str] = []
        for source in sorted(sources):
            for importer in sorted({source} | graph.find_descendants(source)):
                for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                    top = imported.split(".")[0]
                    if top not in sources and top not in sys.stdlib_module_names:
                        outside.append(f"{importer} imports {imported}")
        return ContractCheck(kept=not outside, warnings=[], metadata={"outside": outside})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["outside"]:
            output.print_error(line)
        output.new_line()
        output.print("Standard library only: the engine depends on no package, no app.")


class FunctionLevelImportsContract(_Contract):
    """Every import inside a function from one module of ``containers`` to another is in
    ``allowed`` (``importer -> imported``; why in a comment beside it), and every one there is
    still made. ``skip`` lists packages whose function-level imports are not checked."""

    type_name = "function_level_imports"

    containers = fields.ListField(subfield=fields.ModuleField())
    allowed = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    skip = fields.ListField(subfield=fields.ModuleField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        containers = {module.name for module in self.options("containers")}
        skipped = {module.name for module in self.options("skip")}
        allowed = {(e.importer.expression, e.imported.expression) for e in self.options("allowed")}
        found: dict[tuple[str, str], list[str]] = {}
        for module in sorted(graph.modules):
            top = module.split(".")[0]
            if top not in containers or top in skipped:
                continue
            in_functions = imports_in_functions(module)
            if not in_functions:
                continue
            for imported in sorted(graph.find_modules_directly_imported_by(module)):
                if imported.split(".")[0] not in containers or imported == module:
                    continue
                for detail in graph.get_import_details(importer=module, imported=imported):
                    function = in_functions.get(detail["line_number"])
                    if function is not None:
                        found.setdefault((module, imported), []).append(
                            f"{source_path(module).relative_to(ROOT)}:{detail['line_number']} in "
                            f"{function}(): {detail['line_contents']}"
                        )
        new = [line for pair, lines in sorted(found.items()) if pair not in allowed for line in lines]
        stale = [f"{a} -> {b}" for a, b in sorted(allowed - set(found))]
        return ContractCheck(kept=not new and not stale, warnings=[], metadata={"new": new, "stale": stale})

    def render_broken_contract(self, check: ContractCheck) -> None:
        if check.metadata["new"]:
            output.print_error("Function-level imports between project modules:")
            for line in check.metadata["new"]:
                output.print_error(f"  {line}")
            output.print(
                "Import at the top of the module. If that makes a cycle, the direction is wrong: fix "
                "it. Only an import that cannot run at the top for another reason (Django's app "
                "registry in AppConfig.ready) goes into `allowed`, with why."
            )
        if check.metadata["stale"]:
            output.print_error(f"No longer lazy: take them out of `allowed`: {check.metadata['stale']}")
        output.new_line()


def source_path(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def imports_in_functions(module: str) -> dict[int, str]:
    """The line numbers of the import statements inside a function of ``module``, with the
    function's name.

    >>> sorted(set(imports_in_functions("accounts.apps").values()))
    ['ready']
    """
    found: dict[int, str] = {}

    def walk(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom) and function is not None:
                found[child.lineno] = function
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            walk(child, inner)

    walk(ast.parse(source_path(module).read_text(encoding="utf-8")), None)
    return found
