"""What every live socket (a game's, ``app/ws.py``; an arena's, ``app/arena_socket.py``)
shares: its admission on its player's and its address's socket slots, its refusal while
the database is lost or the process drains, and its run (parts together until one ends).

Closes: 1008 too many sockets, 1013 the database unavailable (come back shortly), 4408
silent too long (``heard``); while the process drains, a game's socket is refused with 503
before its handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

import anyio
from anyio import ClosedResourceError
from fastapi import WebSocket, WebSocketDisconnect
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Message
from uvicorn.protocols.utils import ClientDisconnected

from app.errors import AppError, error_response
from app.metrics import RATE_LIMITED
from app.outage import is_outage
from app.services import Services
from app.wire import PongFrame
from engines.core.errors import AppCode

log = logging.getLogger("app.ws")  # the sockets' log, the name it had in app/ws.py

CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013
CLOSE_NOT_FOUND = 4404
CLOSE_SILENT = 4408

# The server sends no pings of its own: every client pings (core/socket.js and
# arena/live.js every 25 s; a background tab the browser throttles, about once a minute),
# and a client gone without a close frame (a phone that lost its network) shows by its
# silence. So an idle socket costs its client's pings and nothing on a timer.
SILENT_S = 90.0
PONG_TEXT = PongFrame().model_dump_json()  # the answer to every ping, encoded once

Part = Callable[[], Awaitable[None]]

RESTARTING = AppError(
    AppCode.SERVER_RESTARTING, "the server is restarting; reconnect", headers={"Retry-After": "1"}
)


@contextlib.asynccontextmanager
async def admitted(ws: WebSocket, svc: Services, holder: str) -> AsyncIterator[bool]:
    """Accept the socket on a slot of its player's and its address's (``holder`` holds
    them): yields True to serve it, False when it is gone already or over its limits
    (closed 1008); the slots are given back at the end."""
    player_id: str | None = ws.scope.get("state", {}).get("player_id")
    address = ws.client.host if ws.client else "unknown"
    # Without Redis, the limiter counts in this process (it never fails open).
    taken = await svc.admission.open_socket(player_id, address, holder)
    try:
        try:
            await ws.accept()
        except ClientDisconnected:  # gone before it was accepted: a disconnect is normal
            yield False
            return
        if not taken:
            RATE_LIMITED.labels("sockets").inc()
            with contextlib.suppress(ClientDisconnected):
                await ws.close(CLOSE_POLICY, "too many sockets")
            yield False
            return
        try:
            yield True
        finally:
            ws.app.state.message_budgets.leave(player_id)
    finally:
        if taken:
            with anyio.CancelScope(shield=True):
                try:
                    await svc.admission.close_socket(player_id, address, holder)
                except (RedisError, OSError) as exc:
                    log.warning("socket slot release failed (its lease runs out): %s", exc)


async def heard(ws: WebSocket, close: Callable[[int, str], Awaitable[None]]) -> Message:
    """The client's next frame; when it has sent nothing for ``SILENT_S``, the socket is
    closed ``CLOSE_SILENT`` through ``close`` (the connection's, under its send lock) and
    this is the disconnect, as if the client had gone."""
    try:
        async with asyncio.timeout(SILENT_S):
            return await ws.receive()
    except TimeoutError:
        await close(CLOSE_SILENT, "silent too long")
        return {"type": "websocket.disconnect", "code": CLOSE_SILENT}


async def refuse_while_draining(ws: WebSocket) -> None:
    """A socket that comes while this process drains is refused before its handshake: 503
    with Retry-After, which a proxy takes as "try the next process" (deploy/nginx.conf
    sends all of one game's sockets to one process, and on to the next one on a 503), and
    a browser as a failed connection to retry (uvicorn's WebSocket protocols all take
    ASGI's denial responses)."""
    await ws.send_denial_response(error_response(RESTARTING))


async def refuse_in_outage(ws: WebSocket, error: SQLAlchemyError | OSError) -> None:
    """A socket whose first read (its game, its arena) met a lost database is accepted
    and closed 1013, the outage logged once; any other database error is raised."""
    if not is_outage(error):
        raise error
    ws.app.state.services.outages.unavailable(error)
    await ws.accept()
    await ws.close(CLOSE_TRY_AGAIN, "database unavailable")


async def until_one_ends(ws: WebSocket, opening: Part, *parts: Part) -> None:
    """Send the opening (the state, the standings), then run ``parts`` together (reading
    the client, forwarding the hub…) until one ends: anyio's task group cancels the
    others cleanly. A client gone away, possibly mid-send (RuntimeError, or uvicorn's
    ClientDisconnected, an OSError that is no database outage), ends it quietly; the task
    group delivers these wrapped in an ExceptionGroup, hence except*. A lost database
    closes the socket 1013: the client comes back shortly."""
    try:
        await opening()
        async with anyio.create_task_group() as group:

            async def until_done(part: Part) -> None:
                await part()
                group.cancel_scope.cancel()

            for part in parts:
                group.start_soon(until_done, part)
    except* (WebSocketDisconnect, ClosedResourceError, RuntimeError, ClientDisconnected):
        pass
    except* (SQLAlchemyError, OSError) as group:
        if not all(is_outage(error) for error in group.exceptions):
            raise
        ws.app.state.services.outages.unavailable(group.exceptions[0])
        with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
            await ws.close(CLOSE_TRY_AGAIN, "database unavailable")
