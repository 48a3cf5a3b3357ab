"""The site's ASGI application with every move held at one point, for the drill that kills the
web process in the middle of a move (test_killed_web_process.py). Nothing of it is in the site's
own code: the drill serves this module instead of ``durak_site.asgi``.

``HELD_MOVE_STAGE`` says where the hold is: ``"before_commit"`` (the write core has written every
row of the move, nothing is committed) or ``"after_commit"`` (committed, no answer sent yet). The
file ``HELD_MOVE_MARKER`` appears when a move is held there; it then sleeps, for the drill to kill
the process.
"""

import os
import time
from functools import wraps
from pathlib import Path
from typing import Any

from django.db import transaction

from durak_site.asgi import application  # sets Django up first
from games import write

__all__ = ["application"]

STAGE = os.environ["HELD_MOVE_STAGE"]
MARKER = Path(os.environ["HELD_MOVE_MARKER"])
HOLD_SECONDS = 30


def _hold() -> None:
    MARKER.touch()
    time.sleep(HOLD_SECONDS)


def _held(record: Any) -> Any:
    @wraps(record)
    def held_record(*args: Any, **kwargs: Any) -> None:
        record(*args, **kwargs)  # every row of the move written, inside its transaction
        if STAGE == "after_commit":
            transaction.on_commit(_hold)
        else:
            _hold()

    return held_record


assert STAGE in ("before_commit", "after_commit"), STAGE
write.record = _held(write.record)  # type: ignore[method-assign]
