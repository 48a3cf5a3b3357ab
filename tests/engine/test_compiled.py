"""The compiled engine (``python3 dev.py engine``: the same source compiled by mypyc, the build
the speed figures of docs/engine.md are taken with) is the same engine: built into a folder of
its own, its modules are C extensions, and every game of the golden replay
(``test_golden.py``: every preset, team mode, enchanted rank and state format, every answer the
engine gives along the game, refusals of malformed actions included) gives every answer the
same under it.

The build runs mypyc and a C compiler (about half a minute); the replay runs in a process of
its own whose path starts with the build, so ``import durak`` takes the compiled modules.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.worker]

ROOT = Path(__file__).resolve().parents[2]

#: Run in the child process: which files the engine's modules came from, and the golden games
#: whose digest differs.
REPLAY = """
import json, sys
import durak, durak.game, durak.legality, durak.state, durak.cards, durak.bots
from tests.engine._golden_record import digest
records = json.loads(open(sys.argv[1]).read())
print(json.dumps({
    "files": {
        m.__name__: m.__file__ for m in (durak.game, durak.legality, durak.state, durak.cards, durak.bots)
    },
    "actions": durak.actions.__file__,
    "differ": [i for i, r in enumerate(records) if digest(r) != (r["sha256"], r["steps"])],
    "games": len(records),
}))
"""


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("engine")
    done = subprocess.run(
        [sys.executable, str(ROOT / "dev.py"), "engine", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_compiled_build_replays_every_golden_game_with_every_answer_the_same(build: Path) -> None:
    golden = ROOT / "tests" / "engine" / "data" / "golden.json"
    done = subprocess.run(
        [sys.executable, "-c", REPLAY, str(golden)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=build,
        env={"PYTHONPATH": f"{build}:{ROOT}", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # The hot modules are the compiled ones of the build; the declarations stay Python.
    for module, file in report["files"].items():
        assert file.startswith(str(build)) and file.endswith(".so"), (module, file)
    assert report["actions"].startswith(str(build)) and report["actions"].endswith(".py")
    assert report["games"] >= 200
    assert report["differ"] == []


def test_the_build_leaves_no_compiler_output_and_the_source_tree_uncompiled(build: Path) -> None:
    assert not (build / "build").exists()
    assert sorted(path.name for path in (ROOT / "durak").glob("*.so")) == []


#: Run in the child process, with the project first on the path (as the site runs): where the
#: engine's modules came from, and the warnings importing it gave.
IMPORT = """
import json, sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import durak, durak.game, durak.legality
game = durak.Game.new(durak.Rules.preset("perevodnoy"), players=3, seed=5)
refusals = []
for fields in (("take", "1"), ("take", True), ("take", None), ("attack", game.attacker, ("ZZ",)), ("defend", 1, (), 7)):
    try:
        game.apply(durak.Move(*fields))
        refusals.append("applied")
    except Exception as error:
        refusals.append(type(error).__name__)
print(json.dumps({
    "files": [durak.game.__file__, durak.legality.__file__],
    "warnings": [str(w.message) for w in caught],
    "legal": game.legal_json(game.attacker),
    "refusals": refusals,
}))
"""


def import_durak(build: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={"DURAK_ENGINE_BUILD": str(build), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def test_the_site_takes_the_build_named_by_durak_engine_build(build: Path) -> None:
    report = import_durak(build)
    files = report["files"]
    assert isinstance(files, list)
    assert all(file.startswith(str(build)) and file.endswith(".so") for file in files), files
    assert report["warnings"] == []
    assert report["legal"]  # the compiled engine answers
    # A Move of the wrong types (Move() checks none) is refused as the Python engine refuses it,
    # not with the TypeError compiled code raises where a typed field holds another type.
    assert report["refusals"] == ["IllegalAction"] * 5


def test_a_build_of_another_source_is_not_taken_and_says_so(
    build: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A build whose stamp names another source: one left behind by an edit of the engine.
    stale = tmp_path_factory.mktemp("stale") / "engine"
    shutil.copytree(build, stale)
    (stale / "durak" / "SOURCE_DIGEST").write_text("0" * 64 + "\n")
    report = import_durak(stale)
    files = report["files"]
    assert isinstance(files, list)
    assert all(file.startswith(str(ROOT / "durak")) and file.endswith(".py") for file in files), files
    assert report["warnings"] == [
        f"DURAK_ENGINE_BUILD={stale}: built from another source than {ROOT / 'durak'}; the engine "
        "stays Python (build it again: python3 dev.py engine)"
    ]
    assert report["legal"] == import_durak(build)["legal"]
    assert report["refusals"] == ["IllegalAction"] * 5
