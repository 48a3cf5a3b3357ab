"""kombu's ``filesystem://`` transport, made safe for a worker that polls often.

kombu's channel creates a message file under its final name and only then writes it, and a
consumer moves and reads any file it lists: a worker polling while another process publishes
can read a file that is still empty, fail to decode it (``json.decoder.JSONDecodeError`` in
``kombu/transport/filesystem.py``) and stop consuming. Here a message is written under a name
the consumer skips (its ``_get`` takes only names ending ``.<queue>.msg``) and renamed into
place once complete; a rename within one folder is atomic. Everything else is kombu's.

The settings make it the transport of ``filesystem://`` URLs (``use_for_filesystem_urls``), not
Celery's ``broker_transport``, which would also apply after a switch to another broker URL.
"""

import os
import uuid
from time import monotonic
from typing import Any

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


class Transport(filesystem.Transport):
    Channel = Channel


def use_for_filesystem_urls() -> None:
    """Make ``filesystem://`` mean this transport in this process."""
    TRANSPORT_ALIASES["filesystem"] = f"{__name__}:Transport"
