"""The site's ASGI application with each API wait held just after it read the game's version, for
the drill of a move committed in that instant (test_waits.py). Nothing of it is in the site's own
code: the drill serves this module instead of ``durak_site.asgi``.

The file ``HELD_WAIT_READ`` appears when a wait has read the version (the request's checks are
done, the waiting has not begun); the wait then goes on only once ``HELD_WAIT_GO`` exists.
"""

import os
import time
from pathlib import Path
from typing import Any

from durak_site.asgi import application  # sets Django up first

__all__ = ["application"]

from api import waits  # once Django is set up

READ = Path(os.environ["HELD_WAIT_READ"])
GO = Path(os.environ["HELD_WAIT_GO"])
HOLD_SECONDS = 60

_watched_version = waits.watched_version


def _held_watched_version(*args: Any, **kwargs: Any) -> int:
    version = _watched_version(*args, **kwargs)
    READ.touch()
    deadline = time.monotonic() + HOLD_SECONDS
    while not GO.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return version


waits.watched_version = _held_watched_version
