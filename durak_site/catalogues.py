"""Compile the translation catalogues (``*.po`` -> ``*.mo``) in pure Python.

Django reads compiled ``.mo`` files; GNU gettext's ``msgfmt`` is not on every machine, so the
two commands compile with polib instead (``python -m durak_site.catalogues``). Only catalogues
whose ``.po`` is newer than their ``.mo`` are compiled again. The ``.mo`` files are build output
and are not committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".venv", "node_modules", ".git", "staticfiles"}


def catalogues(root: Path = ROOT) -> list[Path]:
    return sorted(
        po
        for po in root.glob("**/locale/*/LC_MESSAGES/*.po")
        if not SKIP.intersection(po.relative_to(root).parts)
    )


def compile_all(root: Path = ROOT, *, force: bool = False) -> list[Path]:
    """Compile every stale catalogue under ``root``; returns the ``.mo`` files written."""
    written = []
    for po in catalogues(root):
        mo = po.with_suffix(".mo")
        if force or not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            polib.pofile(str(po)).save_as_mofile(str(mo))
            written.append(mo)
    return written


def main(argv: list[str]) -> int:
    written = compile_all(force="--force" in argv)
    if written:
        print(f"Compiled {len(written)} translation catalogue(s).", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
