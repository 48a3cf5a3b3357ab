"""The site's ASGI application with each request timed, for ``benchmarks.load``.

One line per request, ``METHOD PATH STATUS MICROSECONDS BEGAN``, appended to the file named by
``BENCHMARK_ACCESS_LOG``: the time from the server handing the request to the application to
the last byte of the answer, which leaves out the time a request waited in the listen backlog,
and when that was (``time.monotonic()``, one clock for every process of the machine).
Served as ``gunicorn benchmarks.timed_asgi:application -k uvicorn_worker.UvicornWorker``, the
README's production command with this module in place of ``durak_site.asgi``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from durak_site.asgi import application as site

# Line-buffered: each request is one append, whole, however many worker processes share the file.
_log = open(os.environ["BENCHMARK_ACCESS_LOG"], "a", buffering=1)  # noqa: SIM115 (open for the process)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        await site(scope, receive, send)
        return
    began, at = time.perf_counter(), time.monotonic()
    status = 0

    async def timed_send(message: Mapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        await send(message)
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            micros = round((time.perf_counter() - began) * 1e6)
            _log.write(f"{scope['method']} {scope['path']} {status} {micros} {at:.3f}\n")

    await site(scope, receive, timed_send)
