"""CI's own checks: every module a test imports comes with the ``test`` extra
(``.ci/check_test_imports.py``), and pytest collects the doctests of every package."""

import importlib.util
import sys
import textwrap
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "check_test_imports", ROOT / ".ci" / "check_test_imports.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("check_test_imports", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


checker = load_checker()


def project(tmp_path: Path, files: dict[str, str], *, dependencies: list[str], test: list[str]) -> Path:
    """A fake project: a pyproject.toml with those requirements and those files."""
    extras = {"test": test, "bench": ["httpx>=0.27"]}
    (tmp_path / "pyproject.toml").write_text(
        "[project]\n"
        'name = "fake-project"\n'
        f"dependencies = {dependencies!r}\n"
        "[project.optional-dependencies]\n"
        + "".join(f"{name} = {value!r}\n" for name, value in extras.items())
    )
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def test_a_test_importing_a_module_only_another_extra_installs_is_named(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {
            "tests/__init__.py": "",
            "tests/faults/__init__.py": "",
            "tests/faults/conftest.py": "import os\n\nimport pytest\nimport httpx\n",
        },
        dependencies=[],
        test=["pytest>=8"],
    )
    [problem] = checker.problems(root)
    assert problem.startswith("tests/faults/conftest.py:4: imports httpx (from httpx)")
    assert "add httpx to the 'test' extra" in problem
    assert checker.main(["check", str(root)]) == 1


def test_a_module_no_distribution_provides_is_named(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        {"tests/test_x.py": "def test_x():\n    from surely_no_such_module.sub import thing\n"},
        dependencies=[],
        test=["pytest"],
    )
    [problem] = checker.problems(root)
    assert problem.startswith(
        "tests/test_x.py:2: imports surely_no_such_module, which no installed distribution"
    )


def test_requirements_count_transitively_with_their_extras(tmp_path: Path) -> None:
    files = {"tests/test_broker.py": "import kombu\nimport redis\nfrom django.db import connection\n"}
    # celery needs kombu; only its redis extra brings redis; Django comes through django-celery-beat.
    assert (
        checker.problems(
            project(tmp_path, files, dependencies=["celery[redis]>=5"], test=["django-celery-beat"])
        )
        == []
    )
    [problem] = checker.problems(
        project(tmp_path, files, dependencies=["celery>=5"], test=["django-celery-beat"])
    )
    assert "imports redis (from redis)" in problem


def test_project_modules_are_followed_and_the_standard_library_relative_and_optional_imports_pass(
    tmp_path: Path,
) -> None:
    root = project(
        tmp_path,
        {
            "tests/__init__.py": "",
            "tests/helpers.py": "from __future__ import annotations\nimport json, sqlite3\n",
            "tests/test_a.py": textwrap.dedent(
                """\
                from . import helpers
                from .helpers import json
                from benchmarks.load import run
                try:
                    import orjson
                except ImportError:
                    orjson = None
                """
            ),
            "benchmarks/__init__.py": "",
            "benchmarks/load.py": "import statistics\n\ndef run():\n    import httpx\n",
        },
        dependencies=[],
        test=["pytest"],
    )
    [problem] = checker.problems(root)
    assert problem.startswith("benchmarks/load.py:4 (reached from tests/test_a.py): imports httpx")
    assert "add httpx to the dependencies (or, if only tests need it, the 'test' extra)" in problem


def test_this_project_s_tests_import_only_what_the_test_extra_installs() -> None:
    assert checker.problems(ROOT) == []


@pytest.mark.parametrize(
    ("marker", "extras", "holds"),
    [
        ('extra == "redis"', {"redis"}, True),
        ('extra == "redis"', set(), False),
        ('python_version >= "3.11"', set(), True),
        ('python_version < "3.10"', set(), False),
        ('sys_platform == "win32" and extra == "x"', {"x"}, sys.platform == "win32"),
        (
            '(python_version < "3.9" or platform_python_implementation == "CPython") and extra == "x"',
            {"x"},
            True,
        ),
    ],
)
def test_markers_are_evaluated_for_this_interpreter_and_the_requested_extras(
    marker: str, extras: set[str], holds: bool
) -> None:
    assert checker.marker_holds(marker, frozenset(extras)) is holds


def test_pytest_collects_the_doctests_of_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]
    packages = {pattern.rstrip("*") for pattern in config["setuptools"]["packages"]["find"]["include"]}
    pytest_options = config["pytest"]["ini_options"]
    assert "--doctest-modules" in pytest_options["addopts"]
    assert packages <= set(pytest_options["testpaths"])


def test_the_checker_s_examples_hold() -> None:
    import doctest

    assert doctest.testmod(checker).failed == 0
