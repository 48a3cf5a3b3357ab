"""The web server's access log without the polls that went well.

An open game page asks for news every ``GAME_POLL_SECONDS`` (the table and the chat), every
page of a logged-in player counts their turns (``/games/turns/``) and keeps a live stream open
(``/live/``, opened again after each break), and an API client's long poll comes back at least
every ``API_WAIT_SECONDS``: one line each would drown everything else (``dev.py serve``'s
sign-up link among them). A poll that failed (400 and up) is still logged, and so is every other
request. ``durak_site.asgi`` installs the filter on uvicorn's access log (``uvicorn.access``,
which under gunicorn writes to gunicorn's ``--access-logfile``).
"""

from __future__ import annotations

import logging
import re

#: The table poll, the chat log, the turn counter, the live stream and the API's long poll (with
#: or without a query).
POLL_PATHS = re.compile(r"^/(?:games/\d+/(?:poll|chat)|games/turns|live|api/games/\d+/wait)/(?:\?|$)")


class QuietPolls(logging.Filter):
    """Drops uvicorn's access line of a successful poll.

    >>> poll = logging.makeLogRecord({"args": ("1.2.3.4:5", "GET", "/games/7/poll/?version=3", "1.1", 204)})
    >>> move = logging.makeLogRecord({"args": ("1.2.3.4:5", "POST", "/games/7/move/", "1.1", 302)})
    >>> turns = logging.makeLogRecord({"args": ("1.2.3.4:5", "GET", "/games/turns/?current=7", "1.1", 200)})
    >>> failed = logging.makeLogRecord({"args": ("1.2.3.4:5", "GET", "/api/games/7/wait/?version=x", "1.1", 400)})
    >>> [QuietPolls().filter(record) for record in (poll, move, turns, failed)]
    [False, True, False, True]
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not isinstance(args, tuple) or len(args) != 5:
            return True
        _client, method, path, _http_version, status = args
        successful = isinstance(status, int) and status < 400
        return not (successful and method in ("GET", "HEAD") and POLL_PATHS.match(str(path)))


def quiet_polls(logger: str = "uvicorn.access") -> None:
    """Install :class:`QuietPolls` on ``logger`` (once)."""
    target = logging.getLogger(logger)
    if not any(isinstance(existing, QuietPolls) for existing in target.filters):
        target.addFilter(QuietPolls())
