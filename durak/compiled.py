"""The compiled build of the engine, taken when it was built from this very source.

``python3 dev.py engine`` compiles the engine's hot modules with mypyc into a folder of its own
(``build/engine``), never in place. A program that sets ``DURAK_ENGINE_BUILD`` to that folder
(the site's web server and Celery worker, say) imports the compiled modules in place of these
``.py`` files, through the package's search path, but only while the build's stamp,
:func:`source_digest` of the source it was compiled from, is the digest of the source here: a
build left behind by an edit is not taken (a warning says so) and the engine stays Python.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from collections.abc import MutableSequence
from pathlib import Path
from typing import Final

#: The variable naming the folder of a compiled build (the folder that holds ``durak/``).
ENV: Final = "DURAK_ENGINE_BUILD"
#: The file of a build's ``durak/`` that holds the digest of the source it was compiled from.
STAMP: Final = "SOURCE_DIGEST"


def source_digest(package: Path) -> str:
    """The sha256 of the engine's source files in ``package`` (every ``*.py``, by name)."""
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def use_build(package_path: MutableSequence[str], environ: dict[str, str] | None = None) -> Path | None:
    """Put the build named by :data:`ENV` before the package's own folder on ``package_path``
    (the package's ``__path__``) if it was compiled from this source; the build's ``durak/``, or
    None when none is named or it is not taken."""
    folder = (os.environ if environ is None else environ).get(ENV)
    if not folder:
        return None
    build = Path(folder).resolve()
    stamp = build / "durak" / STAMP
    here = Path(__file__).resolve().parent
    if not stamp.is_file():
        warnings.warn(f"{ENV}={folder}: no compiled engine there (python3 dev.py engine)", stacklevel=2)
        return None
    if stamp.read_text().strip() != source_digest(here):
        warnings.warn(
            f"{ENV}={folder}: built from another source than {here}; the engine stays Python "
            "(build it again: python3 dev.py engine)",
            stacklevel=2,
        )
        return None
    # The build's folder holds mypyc's shared library, a module of its own beside durak/.
    if str(build) not in sys.path:
        sys.path.insert(0, str(build))
    package_path.insert(0, str(build / "durak"))
    return build / "durak"
