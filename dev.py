#!/usr/bin/env python3
"""The project's two commands. Needs nothing but Python 3.11+ (standard library only).

    python3 dev.py serve   # the whole site: web server, Celery worker and beat
    python3 dev.py test    # the whole test suite, against PostgreSQL
    python3 dev.py lint    # what CI checks besides the tests: imports, ruff, mypy

If the running Python lacks the project's dependencies, a virtual environment
is made in .venv and the project installed into it (once; again when
pyproject.toml changes).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYPROJECT = ROOT / "pyproject.toml"


def requirement_names(extras: tuple[str, ...]) -> list[str]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    names = [re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", r).group(1) for r in requirements]  # type: ignore[union-attr]
    return [name for name in names if name != project["name"]]


def missing_here(extras: tuple[str, ...]) -> list[str]:
    missing = []
    for name in requirement_names(extras):
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def python_with_dependencies(extras: tuple[str, ...]) -> str:
    """This Python if it has every dependency, else the project's .venv (made as needed)."""
    missing = missing_here(extras)
    if not missing:
        return sys.executable
    # The stamp records what was installed, so `test` and `lint` do not reinstall in turn.
    stamp = VENV / ".installed"
    pyproject = hashlib.sha256(PYPROJECT.read_bytes()).hexdigest()
    try:
        installed = json.loads(stamp.read_text())
    except (OSError, ValueError):
        installed = {}
    if not venv_python().exists():
        print(f"Missing {', '.join(missing)}: creating a virtual environment in {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    had = set(installed.get("extras", [])) if isinstance(installed, dict) else set()
    if not isinstance(installed, dict) or installed.get("pyproject") != pyproject or not set(extras) <= had:
        wanted = sorted(had | set(extras))
        spec = f".[{','.join(wanted)}]" if wanted else "."
        print(f"Installing the project and its dependencies ({spec}) into {VENV} ...", flush=True)
        subprocess.run(
            [str(venv_python()), "-m", "pip", "install", "--quiet", "-e", spec], cwd=ROOT, check=True
        )
        stamp.write_text(json.dumps({"pyproject": pyproject, "extras": wanted}))
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


def test(args: list[str]) -> int:
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
    the tests import comes with the ``test`` extra, ``ruff check``, ``ruff format --check`` and
    ``mypy`` (the files and options of pyproject.toml). All run; the status is the first failure's."""
    python = python_with_dependencies(("test", "lint"))
    steps = [
        ("test imports", [python, str(ROOT / ".ci" / "check_test_imports.py")]),
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


def main() -> int:
    commands = {"serve": serve, "test": test, "lint": lint, "messages": messages}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__.strip())
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
