"""``python3 dev.py serve``'s process manager: honcho, with a stop each process expects.

honcho stops the ``Procfile``'s processes with a SIGTERM to each one's whole process group. The
Celery worker's pool processes are in its group: they were killed under it while it was stopping
them ("Process 'ForkPoolWorker-1' ... exited with 'signal 15 (SIGTERM)'", logged as an ``ERROR``),
and the worker, waiting for them, was killed 5 s later. Here the first SIGTERM goes to each
process alone (the ``Procfile``'s lines ``exec`` their command, so the process honcho started is
the program itself, not a shell): the worker finishes its tasks and then its pool, uvicorn's
reloader stops its server, beat saves its schedule. Each may take a few seconds on a busy
machine (the worker's pool and its interpreter's own exit take most), so honcho waits up to
:data:`STOP_SECONDS` for them, not its 5 s; only what still runs then is killed, group and all.

    python -m durak_site.procfile start -f Procfile -p 8000   # honcho's own arguments
"""

from __future__ import annotations

import contextlib
import os
import signal

from honcho import command, manager
from honcho.compat import ProcessManager

#: How long a stop waits for the processes to end before it kills them (honcho's ``KILL_WAIT``).
STOP_SECONDS = 30


class ProcessFirst(ProcessManager):  # type: ignore[misc]
    """honcho's process manager, except that its SIGTERM goes to the process, not its group."""

    def terminate(self, pid: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)


def main() -> None:
    if os.name == "posix":  # elsewhere honcho ends a process alone already
        manager.ProcessManager = ProcessFirst
    manager.KILL_WAIT = STOP_SECONDS
    command.main()


if __name__ == "__main__":
    main()
