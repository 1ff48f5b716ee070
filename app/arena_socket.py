"""WebSocket ``/ws/arenas/{id}[?key=]``: an arena's standings, live.

On connect the server sends ``{"type": "standings", "arena": …}`` (what ``GET
/api/arenas/{id}`` answers, as this viewer sees it), then again whenever the arena's hub
channel says it changed, at most every ``STANDINGS_EVERY_S``; and to a player it pairs,
``{"type": "paired", "game_id": …}`` at once. The client may send ``ping`` (answered
``pong``); anything else is ignored, and a flood closes the socket like a game's.

A player's open arena socket holds a presence lease (``arena_lease``), so the pairing's
push notice goes only to a player whose arena page is closed. Closes: 4404 no such arena,
4403 a private arena without its key, 1013 the hub or the database unavailable (come
back shortly), 1012 the process is draining, 1008 too many sockets or messages.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

import anyio
from fastapi import APIRouter, WebSocket
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.arenas import channel
from app.drain import CLOSE_RESTART, Drain
from app.errors import AppError
from app.fanout import Watch
from app.hub import HubUnavailable
from app.metrics import RATE_LIMITED
from app.models import Arena
from app.presence import arena_lease
from app.services import Services
from app.sockets import (
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    PONG_TEXT,
    admitted,
    heard,
    refuse_in_outage,
    until_one_ends,
)
from app.wire import ArenaPaired, ArenaPairedFrame
from engines.core.errors import AppCode

router = APIRouter()
log = logging.getLogger("app.arena_socket")

STANDINGS_EVERY_S = 0.5
CLOSE_FORBIDDEN = 4403


class ArenaConnection:
    def __init__(self, ws: WebSocket, svc: Services, arena: Arena) -> None:
        self.ws = ws
        self.svc = svc
        self.arena = arena
        self.arena_id = arena.id
        self.player_id: str | None = ws.scope.get("state", {}).get("player_id")
        self.holder = secrets.token_urlsafe(8)
        self.send_lock = asyncio.Lock()
        self.stale = asyncio.Event()  # the standings changed since they were last sent
        budgets = ws.app.state.message_budgets
        self.bucket = budgets.join(self.player_id)
        self.flood = budgets.flood_watch()

    async def send_text(self, text: str) -> None:
        async with self.send_lock:
            await self.ws.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        """(The drain closes sockets through this.)"""
        async with self.send_lock:
            await self.ws.close(code, reason)

    async def send_standings(self) -> None:
        """An ``ArenaStandingsFrame``, put together from the standings encoded once for
        every socket of this process (``Arenas.answer_json``)."""
        with anyio.CancelScope(shield=True):  # a query is never cancelled mid-flight
            self.arena = await self.svc.arenas.standings.row(self.arena)
            arena = await self.svc.arenas.standings.answer_json(self.arena, self.player_id)
        await self.send_text(f'{{"type":"standings","arena":{arena}}}')

    async def standings(self) -> None:
        """Send the standings whenever they changed, at most every STANDINGS_EVERY_S."""
        while True:
            await self.stale.wait()
            self.stale.clear()
            started = time.monotonic()
            await self.send_standings()
            await asyncio.sleep(max(0.0, STANDINGS_EVERY_S - (time.monotonic() - started)))

    async def forward(self, queue: Watch) -> None:
        while True:
            message = await queue.get()
            if message is None:  # the hub dropped us: the client reconnects
                await self.ws.close(CLOSE_RESTART)
                return
            # news from any process: standings this process computed before it are stale
            self.svc.arenas.standings.news(self.arena_id, message)
            if isinstance(message, ArenaPaired) and self.player_id in message.players:
                frame = ArenaPairedFrame(game_id=message.game_id)
                await self.send_text(frame.model_dump_json())
            self.stale.set()

    async def read(self) -> None:
        while True:
            frame = await heard(self.ws, self.close)
            if frame["type"] == "websocket.disconnect":
                return
            if not self.bucket.take():
                if self.flood.refused():
                    await self.ws.close(CLOSE_POLICY, "too many messages")
                    return
                RATE_LIMITED.labels("ws_messages").inc()
                continue
            if '"ping"' in (frame.get("text") or ""):
                await self.send_text(PONG_TEXT)

    async def hold_lease(self, holding: bool) -> None:
        """Presence is advisory: if its store fails, the arena goes on regardless."""
        if self.player_id is None:
            return
        lease = [(arena_lease(self.arena_id, self.player_id), 0, self.holder)]
        now = self.svc.clock.now_ms()
        try:
            if holding:
                await self.svc.presence.join(lease, now)
            else:
                await self.svc.presence.leave(lease, now)
        except (RedisError, OSError) as exc:
            log.warning("arena presence lease failed: %s", exc)


@router.websocket("/ws/arenas/{arena_id}")
async def arena_socket(ws: WebSocket, arena_id: str, key: str | None = None) -> None:
    svc: Services = ws.app.state.services
    try:
        arena = await svc.arenas.visible(arena_id, key, ws.scope.get("state", {}).get("player_id"))
    except AppError as error:
        private = error.code == AppCode.ARENA_PRIVATE
        await ws.close(CLOSE_FORBIDDEN if private else CLOSE_NOT_FOUND, error.code)
        return
    except (SQLAlchemyError, OSError) as error:
        await refuse_in_outage(ws, error)
        return
    connection = ArenaConnection(ws, svc, arena)
    async with admitted(ws, svc, connection.holder) as serving:
        if serving:
            await serve(ws, svc, connection)


async def serve(ws: WebSocket, svc: Services, connection: ArenaConnection) -> None:
    drain: Drain = ws.app.state.drain
    if drain.started:
        await ws.close(CLOSE_RESTART, "server restarting")
        return
    drain.sockets.add(connection)
    await connection.hold_lease(True)
    try:
        async with svc.hub.watch(channel(connection.arena_id)) as queue:
            await follow(ws, connection, queue)
    except HubUnavailable as exc:  # raised on entering only: nothing was sent yet
        log.warning("socket for arena %s refused: %s", connection.arena_id, exc)
        await ws.close(CLOSE_TRY_AGAIN, "live updates unavailable; reconnect shortly")
    finally:
        drain.sockets.discard(connection)
        with anyio.CancelScope(shield=True):
            await connection.hold_lease(False)


async def follow(ws: WebSocket, connection: ArenaConnection, queue: Watch) -> None:
    """Send the standings, then read the client, forward the hub and send the standings
    again when they change, until either side ends."""
    await until_one_ends(
        ws,
        connection.send_standings,
        connection.read,
        lambda: connection.forward(queue),
        connection.standings,
    )
