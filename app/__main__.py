"""``python -m app``: serve with uvicorn on HOST:PORT (default 127.0.0.1:8000).

Without SECRET, a loopback HOST gets a random secret made once in ``var/secret``; any
other HOST refuses to start (exit status 1, one line naming SECRET). Likewise without
VAPID_PRIVATE_KEY a loopback HOST makes a push key once in ``var/vapid_private_key``; any
other HOST starts with push notifications off (app/push/keys.py).

SIGTERM (as docker, systemd and Kubernetes send it) drains the process rather than
stopping it at once (README "Operating it"): ``/readyz`` answers 503 and every socket is
closed with 1012 at once; ``LINGER_S`` later the process stops listening, lets the
requests in flight finish, shuts its services down and exits with status 0, all within
``SHUTDOWN_S``. A second SIGTERM or a SIGINT during the drain ends it at once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
from types import FrameType

import uvicorn
from fastapi import FastAPI

from app.config import MissingSecret, Settings, get_settings, startup_secret
from app.drain import Drain
from app.logs import configure as configure_logging
from app.logs import logging_config
from app.push.keys import startup_vapid_key

# A proxy or load balancer that polls /readyz, or retries on a refused connection,
# has this long to send new requests elsewhere before the listener closes.
LINGER_S = 1.0
# Kept for the app's own shutdown after the requests in flight (app/main.py waits at
# most STOP_WITHIN_S for a flag sweep, then closes Redis and the database) and the exit.
SHUTDOWN_RESERVE_S = 4.0


class DrainingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, site: FastAPI) -> None:
        super().__init__(config)
        self.site = site
        self.drain_started: float | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.drain_task: asyncio.Task[None] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig != signal.SIGTERM or self.drain_started is not None or self.loop is None:
            super().handle_exit(sig, frame)
            return
        self.drain_started = time.monotonic()
        # A signal handler runs between two steps of the loop: hand the drain to it.
        self.loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        self.drain_task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        drain: Drain | None = getattr(self.site.state, "drain", None)
        if drain is not None:  # else the app is still starting: nothing to drain
            drain.begin()
        await asyncio.sleep(LINGER_S)
        self.should_exit = True


def serve(settings: Settings, host: str, port: int) -> None:
    configure_logging(settings)
    from app.asgi import app  # after the secret is settled: the app reads it on import

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        proxy_headers=True,
        server_header=False,  # names nothing an attacker could look up; 17 bytes a response
        forwarded_allow_ips=settings.trusted_proxies,
        # websockets' sans-I/O protocol: a frame is parsed as it arrives and sent at once,
        # without the legacy protocol's reader task and stream per socket (about 4 % of
        # the CPU of a move at human pace, bench/capacity.py).
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        # Game frames are small: compressing each costs more CPU than it saves bytes.
        ws_per_message_deflate=False,
        # No pings from the server: clients ping, and a silent socket is closed
        # (app/sockets.py SILENT_S), so an idle socket costs nothing on a timer.
        ws_ping_interval=None,
        log_config=logging_config(settings),
        access_log=False,  # app.access writes one line per answer, with its route and id
        timeout_graceful_shutdown=max(1, int(settings.shutdown_s - LINGER_S - SHUTDOWN_RESERVE_S)),
    )
    DrainingServer(config, app).run()


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    settings = get_settings()
    try:
        settings.secret = startup_secret(settings, host)
    except MissingSecret as error:
        sys.exit(f"error: {error}")
    settings.vapid_private_key = startup_vapid_key(settings, host)  # None: push is off
    serve(settings, host, int(os.environ.get("PORT", "8000")))


if __name__ == "__main__":
    main()
