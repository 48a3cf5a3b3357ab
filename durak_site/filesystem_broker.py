"""kombu's ``filesystem://`` transport, made safe for a worker that polls often.

kombu's channel creates a message file under its final name and only then writes it, and a
consumer moves and reads any file it lists: a worker polling while another process publishes
can read a file that is still empty, fail to decode it (``json.decoder.JSONDecodeError`` in
``kombu/transport/filesystem.py``) and stop consuming. Here a message is written under a name
the consumer skips (its ``_get`` takes only names ending ``.<queue>.msg``) and renamed into
place once complete; a rename within one folder is atomic. Everything else is kombu's.

A worker asked to stop (Ctrl-C on ``dev.py serve``, a SIGTERM) stops draining at once: Celery's
loop for a transport like this one drains 2 s at a time and, once told to stop, drains 2 s more
before it closes, so a stop took 4 s before the worker even began to finish its pool.

The settings make it the transport of ``filesystem://`` URLs (``use_for_filesystem_urls``), not
Celery's ``broker_transport``, which would also apply after a switch to another broker URL.
"""

import os
import uuid
from queue import Empty
from time import monotonic, sleep
from typing import Any

from celery.worker import state as worker_state
from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: Any, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Put a message onto ``queue``: written aside, then renamed into the queue folder."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}.partial"
        try:
            with open(partial, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))  # type: ignore[no-untyped-call]
            os.replace(partial, final)
        except OSError as error:
            raise ChannelError(f"Cannot add file {final!r} to directory") from error


def _stopping() -> bool:
    """Whether this process is a Celery worker that was told to stop (warm or cold). The flags
    hold the exit code, 0 for a warm stop: set is "not None or False" (``state.maybe_shutdown``)."""
    return any(
        flag is not None and flag is not False
        for flag in (worker_state.should_stop, worker_state.should_terminate)
    )


class Transport(filesystem.Transport):
    Channel = Channel

    def drain_events(self, connection: Any, timeout: Any = None, **kwargs: Any) -> None:
        """kombu's: wait up to ``timeout`` for a message, looking every ``polling_interval``;
        except that a worker told to stop waits no more (``socket.timeout``, as when nothing came)."""
        cycle: Any = self.cycle  # kombu's FairCycle, untyped
        started = monotonic()
        interval = self.polling_interval
        if timeout and interval and interval > timeout:
            interval = timeout
        while True:
            if _stopping():
                raise TimeoutError()
            try:
                cycle.get(self._deliver, timeout=timeout)
            except Empty:
                if timeout is not None and monotonic() - started >= timeout:
                    raise TimeoutError() from None
                if interval is not None:
                    sleep(interval)
            else:
                return


def use_for_filesystem_urls() -> None:
    """Make ``filesystem://`` mean this transport in this process."""
    TRANSPORT_ALIASES["filesystem"] = f"{__name__}:Transport"
