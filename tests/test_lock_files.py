"""The lock files (``python3 dev.py lock``) hold every requirement of pyproject.toml, pinned with
hashes, and the site's lock agrees with the development lock on every version."""

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dev = load_dev()


def pins(lock: Path) -> dict[str, str]:
    found = (dev._PINNED.match(line) for line in lock.read_text().splitlines())
    return {dev.canonical(m.group(1)): m.group(2) for m in found if m}


def test_each_lock_holds_every_requirement_of_pyproject() -> None:
    assert dev.stale_lock(dev.LOCK, ()) == []
    assert dev.stale_lock(dev.DEV_LOCK, ("test", "lint")) == []


def test_the_sites_lock_has_the_development_locks_versions() -> None:
    site, development = pins(dev.LOCK), pins(dev.DEV_LOCK)
    assert site and {name: development.get(name) for name in site} == site


def test_every_pin_has_hashes() -> None:
    for lock in (dev.LOCK, dev.DEV_LOCK):
        entries = re.split(r"\n(?=[A-Za-z0-9])", lock.read_text())
        pinned = [entry for entry in entries if "==" in entry.split("\n")[0]]
        assert pinned and all("--hash=sha256:" in entry for entry in pinned), lock.name


def test_a_lock_without_a_requirement_is_stale(tmp_path: Path) -> None:
    lock = tmp_path / "requirements.txt"
    lock.write_text("django==5.2.20 \\\n    --hash=sha256:00\n")
    assert "celery" in dev.stale_lock(lock, ())
