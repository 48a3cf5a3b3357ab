#!/usr/bin/env python3
"""The project's two commands. Needs nothing but Python 3.11+ (standard library only).

    python3 dev.py serve   # the whole site: web server, Celery worker and beat
    python3 dev.py test    # the whole test suite, against PostgreSQL (--fast: the quick tier)
    python3 dev.py lint    # what CI checks besides the tests: imports, import contracts, ruff, mypy
    python3 dev.py lock    # the lock files again, from pyproject.toml's ranges
    python3 dev.py tool    # a locked tool: python3 dev.py tool pre-commit install
    python3 dev.py engine  # the compiled engine (mypyc) in build/engine: DURAK_ENGINE_BUILD=build/engine

If the running Python lacks a package of the lock file at its version, a virtual
environment is made in .venv and the lock installed into it, then the project
(once; again when the lock or pyproject.toml changes).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYPROJECT = ROOT / "pyproject.toml"


#: The lock files, made by ``python3 dev.py lock`` from pyproject.toml's ranges: every package
#: pinned with its hashes, for every platform and Python 3.11+ (``uv pip compile --universal``).
#: ``requirements.txt`` is what production installs, ``requirements-dev.txt`` adds the ``test``
#: and ``lint`` extras (the same versions: it constrains the other).
LOCK = ROOT / "requirements.txt"
DEV_LOCK = ROOT / "requirements-dev.txt"
_PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]*?))?\s*\\?$")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def marker_holds(marker: str | None) -> bool:
    """Whether a lock line's environment marker holds for this Python. The marker is evaluated
    by pip's own ``packaging`` when this Python has pip; without pip it cannot install anyway,
    and every line counts (so that the check fails and .venv is made)."""
    if not marker:
        return True
    try:
        from pip._vendor.packaging.markers import Marker
    except ImportError:
        return True
    return bool(Marker(marker).evaluate())


def locked(lock: Path) -> dict[str, str]:
    """The lock's pins that apply here: distribution name to version."""
    pins = {}
    for line in lock.read_text().splitlines():
        found = _PINNED.match(line)
        if found and marker_holds(found.group(3)):
            pins[canonical(found.group(1))] = found.group(2)
    return pins


def requirement_names(extras: tuple[str, ...]) -> list[str]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    names = [re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", r).group(1) for r in requirements]  # type: ignore[union-attr]
    return [canonical(name) for name in names if name != project["name"]]


def stale_lock(lock: Path, extras: tuple[str, ...]) -> list[str]:
    """pyproject.toml's requirements that the lock lacks: it was not made again after a change."""
    pins = {canonical(m.group(1)) for m in map(_PINNED.match, lock.read_text().splitlines()) if m}
    return [name for name in requirement_names(extras) if name not in pins]


def differing_here(lock: Path) -> list[str]:
    """The lock's pins this Python does not have, at that version."""
    differing = []
    for name, version in locked(lock).items():
        try:
            if importlib.metadata.version(name) != version:
                differing.append(f"{name}=={version}")
        except importlib.metadata.PackageNotFoundError:
            differing.append(f"{name}=={version}")
    return differing


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def python_with_dependencies(extras: tuple[str, ...]) -> str:
    """This Python if it has every package of the lock at its version (as CI's does, installed
    from it by ``.ci/run``), else the project's .venv, made and installed from the lock as needed:
    ``requirements.txt`` for the site alone, ``requirements-dev.txt`` with an extra."""
    lock = DEV_LOCK if extras else LOCK
    stale = stale_lock(lock, extras)
    if stale:
        print(
            f"{lock.name} lacks {', '.join(stale)} of pyproject.toml: run `python3 dev.py lock`.", flush=True
        )
        raise SystemExit(2)
    differing = differing_here(lock)
    if not differing:
        return sys.executable
    # The stamp records which lock was installed, so `test` and `lint` do not reinstall in turn.
    stamp = VENV / ".installed"
    try:
        installed = json.loads(stamp.read_text())
    except (OSError, ValueError):
        installed = {}
    if not isinstance(installed, dict):
        installed = {}
    if not venv_python().exists():
        print(
            f"Missing {', '.join(differing[:5])}{' ...' if len(differing) > 5 else ''}: "
            f"creating a virtual environment in {VENV} ...",
            flush=True,
        )
        venv.EnvBuilder(with_pip=True).create(VENV)
    locks = installed.get("locks", {})
    satisfied = locks.get(DEV_LOCK.name) == digest(DEV_LOCK) or locks.get(lock.name) == digest(lock)
    if not satisfied:
        print(f"Installing the locked dependencies ({lock.name}) into {VENV} ...", flush=True)
        pip = [str(venv_python()), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "--require-hashes", "-r", str(lock)], cwd=ROOT, check=True)
        installed = {"locks": {lock.name: digest(lock)}}
        stamp.write_text(json.dumps(installed))
    if installed.get("pyproject") != digest(PYPROJECT):
        # The project itself, editable, without its dependencies: those came from the lock.
        subprocess.run(
            [str(venv_python()), "-m", "pip", "install", "--quiet", "--no-deps", "-e", "."],
            cwd=ROOT,
            check=True,
        )
        installed["pyproject"] = digest(PYPROJECT)
        stamp.write_text(json.dumps(installed))
    return str(venv_python())


def run(python: str, *args: str, env: dict[str, str]) -> None:
    subprocess.run([python, *args], cwd=ROOT, env=env, check=True)


def serve(args: list[str]) -> int:
    python = python_with_dependencies(())
    env = dict(os.environ)
    env.setdefault("DEBUG", "true")
    env["PYTHON"] = python
    port = env.setdefault("PORT", "8000")
    host = env.setdefault("HOST", "127.0.0.1")
    database = env.get("DATABASE_URL", "SQLite (db.sqlite3)")
    broker = env.get("CELERY_BROKER_URL", "filesystem:// (.celery/)")
    run(python, "-m", "durak_site.catalogues", env=env)
    run(python, "manage.py", "migrate", "--noinput", env=env)
    run(python, "manage.py", "create_demo_admin", env=env)
    print(
        f"\n  durak online: http://{host}:{port}/   (admin: http://{host}:{port}/admin/, user admin / admin)\n"
        f"  database: {database}\n  broker:   {broker}\n"
        "  web, Celery worker and beat are starting; Ctrl-C stops them all.\n",
        flush=True,
    )
    env["PATH"] = str(Path(python).parent) + os.pathsep + env.get("PATH", "")
    # honcho, stopping each process as it expects (durak_site/procfile.py).
    honcho = [python, "-m", "durak_site.procfile", "-f", str(ROOT / "Procfile"), "start", "-p", port, *args]
    manager = subprocess.Popen(honcho, cwd=ROOT, env=env)
    while True:
        try:
            manager.wait()
        except KeyboardInterrupt:
            continue  # Ctrl-C reached honcho too: it is stopping the processes; wait until it has
        return 0 if manager.returncode in (0, 130, 143) else manager.returncode


#: ``python3 dev.py test --fast``: the tests without a browser, a started process, a fault drill or
#: a slow sweep (the tiers of tests/conftest.py). It keeps the test databases for the next run
#: (``--reuse-db``: migrations still apply; ``--create-db`` makes them afresh). CI runs them all.
FAST = ["-m", "not browser and not worker and not drill and not slow", "--reuse-db"]


def test(args: list[str]) -> int:
    """The tests (pytest's arguments pass through); ``--fast`` leaves out the slow tiers."""
    if "--fast" in args:
        args = [*FAST, *(arg for arg in args if arg != "--fast")]
    python = python_with_dependencies(("test",))
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/durak")
    # Three workers on two cores: a third of the suite waits on browsers, Celery subprocesses and
    # the database, so a third process fills the idle CPU; "worksteal" keeps the end even.
    workers = env.get("PYTEST_WORKERS", "3")
    xdist = ["-n", workers, "--dist", "worksteal"] if workers not in ("", "0", "1") else []
    run(python, "-m", "durak_site.catalogues", env=env)
    print(f"Running the tests against {env['DATABASE_URL']} ...", flush=True)
    return subprocess.run([python, "-m", "pytest", *xdist, *args], cwd=ROOT, env=env).returncode


#: Where each part's translatable strings live: the project catalogue (``locale/``: the shared
#: templates, the rules engine's messages and the settings) and one catalogue per Django app.
MESSAGE_PARTS = (
    "accounts",
    "api",
    "chat",
    "games",
    "guide",
    "moderation",
    "notifications",
    "replays",
    "series",
    "stats",
)


def messages(args: list[str]) -> int:
    """Extract the translatable strings into the Russian and English catalogues (needs GNU
    gettext's xgettext): ``python3 dev.py messages [project|<app> ...]``, all parts by default."""
    python = python_with_dependencies(("test",))
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="durak_site.settings", DEBUG="true", PYTHONPATH=str(ROOT))
    parts = args or ["project", *MESSAGE_PARTS]
    # -P: makemessages runs inside an app folder, whose selectors.py would shadow the standard library's.
    command = [
        python,
        "-P",
        "-m",
        "django",
        "makemessages",
        "-l",
        "ru",
        "-l",
        "en",
        "-e",
        "html,txt,py",
        "--add-location",
        "file",
        "--no-obsolete",
    ]
    for part in parts:
        if part == "project":
            ignores = [
                f"--ignore={name}/*"
                for name in (*MESSAGE_PARTS, "tests", "benchmarks", "examples", ".venv", "staticfiles")
            ]
            subprocess.run([*command, *ignores], cwd=ROOT, env=env, check=True)
        elif part in MESSAGE_PARTS:
            (ROOT / part / "locale").mkdir(exist_ok=True)
            subprocess.run([*command, "--ignore=migrations/*"], cwd=ROOT / part, env=env, check=True)
        else:
            print(f"unknown part {part!r}: use project or one of {', '.join(MESSAGE_PARTS)}")
            return 2
    return 0


def lint(args: list[str]) -> int:
    """What CI checks besides the tests (``bash .ci/run`` runs it before them): every module
    the tests import comes with the ``test`` extra, the import contracts (``lint-imports``, the
    ``[tool.importlinter]`` of pyproject.toml), ``ruff check``, ``ruff format --check`` and ``mypy``
    (the files and options of pyproject.toml). All run; the status is the first failure's."""
    python = python_with_dependencies(("test", "lint"))
    steps = [
        ("test imports", [python, str(ROOT / ".ci" / "check_test_imports.py")]),
        ("import contracts", [python, "-c", "import sys, importlinter.cli as c; sys.exit(c.lint_imports())"]),
        ("ruff check", [python, "-m", "ruff", "check", "."]),
        ("ruff format", [python, "-m", "ruff", "format", "--check", "."]),
        ("mypy", [python, "-m", "mypy"]),
    ]
    failed = []
    for name, command in steps:
        print(f"== {name}", flush=True)
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            failed.append(name)
    if failed:
        print(f"lint failed: {', '.join(failed)}", flush=True)
        return 1
    return 0


def lock(args: list[str]) -> int:
    """Make the lock files again from pyproject.toml's ranges (with uv, from the ``lint``
    extra): after a change to the requirements, or to take newer releases. Arguments go to
    ``uv pip compile``: ``python3 dev.py lock --upgrade`` takes the newest release of everything,
    ``--upgrade-package django`` of one package; without them every pin that still fits stays."""
    if subprocess.run([sys.executable, "-m", "uv", "--version"], capture_output=True).returncode == 0:
        python = sys.executable  # uv is here: a lock that pyproject.toml has outgrown can still be made
    else:
        python = python_with_dependencies(("test", "lint"))
    compile_ = [python, "-m", "uv", "pip", "compile", "--quiet", "pyproject.toml", "--universal"]
    compile_ += [
        "--python-version",
        "3.11",
        "--generate-hashes",
        "--custom-compile-command",
        "python3 dev.py lock",
    ]
    steps = [
        [*compile_, "--extra", "test", "--extra", "lint", "-o", DEV_LOCK.name, *args],
        # The site alone, at the same versions.
        [*compile_, "-c", DEV_LOCK.name, "-o", LOCK.name, *args],
    ]
    for step in steps:
        print(f"== {step[step.index('-o') + 1]}", flush=True)
        if subprocess.run(step, cwd=ROOT).returncode != 0:
            return 1
    return 0


#: The engine modules the compiled build compiles: those every move runs through, and the
#: computer players' search. The others (the action declarations read at run time, views,
#: storage) are copied as they are.
COMPILED = ("cards", "bout", "state", "legality", "game", "seating", "enchanted", "bots")
ENGINE_BUILD = ROOT / "build" / "engine"


def engine(args: list[str]) -> int:
    """Build the compiled engine into a folder (``build/engine`` unless one is given): a copy of
    ``durak/`` whose modules of :data:`COMPILED` are C extensions made by mypyc from the same
    source, which Python imports in preference to the ``.py`` beside them. The site takes it with
    ``DURAK_ENGINE_BUILD=build/engine`` (``durak.compiled``), a program run from elsewhere with the
    folder first on its path (``PYTHONPATH=build/engine``; docs/engine.md). Needs mypy (the ``test``
    and ``lint`` extras), a C compiler and Python's headers. The development tree is never
    compiled in place: an edit there takes effect at once, and a stale build stays in its folder."""
    out = Path(args[0]).resolve() if args else ENGINE_BUILD
    try:
        import mypyc  # noqa: F401

        python = sys.executable
    except ImportError:
        python = python_with_dependencies(("test", "lint"))
    print(f"== mypyc {' '.join(COMPILED)} -> {out}", flush=True)
    failure = build_engine(out, python=python)
    if failure is not None:
        print(failure)
        return 1
    print(
        f"compiled engine in {out}: take it with DURAK_ENGINE_BUILD={out}"
        f" (a program run outside the project: PYTHONPATH={out})",
        flush=True,
    )
    return 0


def build_engine(out: Path, source: Path = ROOT / "durak", python: str = sys.executable) -> str | None:
    """Compile the engine package at ``source`` into ``out`` (emptied first) as ``out/durak``;
    None when done, else the compiler's output. ``benchmarks.engine --compiled`` builds with it."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    shutil.copytree(source, out / "durak", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    # A config of its own: mypy would otherwise find pyproject.toml above a folder inside the
    # project, and its Django plugin, which the engine does not need.
    (out / "mypyc.ini").write_text("[mypy]\n")
    command = [
        python,
        "-m",
        "mypyc",
        "--config-file",
        "mypyc.ini",
        *(f"durak/{name}.py" for name in COMPILED),
    ]
    done = subprocess.run(command, cwd=out, capture_output=True, text=True)
    # The stamp durak.compiled checks before it takes the build (DURAK_ENGINE_BUILD).
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from durak.compiled import STAMP, source_digest

    (out / "durak" / STAMP).write_text(source_digest(source) + "\n")
    for leftover in ("build", ".mypy_cache"):  # mypyc's C sources and objects, mypy's cache
        shutil.rmtree(out / leftover, ignore_errors=True)
    (out / "mypyc.ini").unlink()
    if done.returncode != 0:
        return f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return None


def tool(args: list[str]) -> int:
    """Run one of the locked tools (a console script of the lock: ruff, mypy, lint-imports,
    pre-commit) with the Python that has them: ``python3 dev.py tool ruff format .``. The hooks of
    .pre-commit-config.yaml call it, so they check with the versions CI checks with."""
    if not args:
        print("usage: python3 dev.py tool <ruff|mypy|lint-imports|pre-commit|...> [arguments]")
        return 2
    python = python_with_dependencies(("test", "lint"))
    script = Path(python).parent / args[0]
    return subprocess.run([str(script), *args[1:]], cwd=ROOT).returncode


def main() -> int:
    commands = {
        "serve": serve,
        "test": test,
        "lint": lint,
        "messages": messages,
        "lock": lock,
        "tool": tool,
        "engine": engine,
    }
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__.strip())
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
