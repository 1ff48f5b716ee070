"""A drain: what a process does between its SIGTERM and its exit (``app/__main__.py``
starts it; README "Operating it").

From its first moment ``/readyz`` answers 503, so load balancers stop sending new
requests, and every open socket is closed with 1012 (service restart): browsers
reconnect at once, to another process. A socket that comes meanwhile is refused before
its handshake, with 503 (``app/sockets.py``): a proxy that routes by game passes it on
to the next process. A move in flight still ends as usual: it is acknowledged only once
committed, and a client whose socket closed before its acknowledgement finds the move in
the state it gets on reconnecting.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from app.health import Readiness

CLOSE_RESTART = 1012


class Closable(Protocol):
    async def close(self, code: int, reason: str) -> None: ...


class Drain:
    def __init__(self, readiness: Readiness) -> None:
        self.readiness = readiness
        self.sockets: set[Closable] = set()
        self.closing: set[asyncio.Task[None]] = set()

    @property
    def started(self) -> bool:
        return self.readiness.draining

    def begin(self) -> None:
        """Turn unready and close every socket (their tasks end as clients answer)."""
        self.readiness.begin_drain()
        for socket in list(self.sockets):
            self.close_later(socket)

    def close_later(self, socket: Closable) -> None:
        task = asyncio.get_running_loop().create_task(self._close(socket))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    @staticmethod
    async def _close(socket: Closable) -> None:
        with contextlib.suppress(Exception):  # already closed by its client
            await socket.close(CLOSE_RESTART, "server restarting")
