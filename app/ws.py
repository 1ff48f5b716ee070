"""WebSocket ``/ws/games/{id}``: live state for players and spectators, moves with acks.

On connect the server sends ``{"type":"state", ...}`` (with ``missed`` moves when the
client passed ``?since=<version>``), then a ``{"type":"move", ...}`` per move. Clients
may send ``move`` (answered by ``ack`` or ``error``), ``sync`` (a fresh state) and
``ping``. Frames over the size limit close the socket (1009); a client that floods is
first told ``rate_limited`` and then closed (1008); bad frames get an error frame.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from anyio import ClosedResourceError
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from redis.exceptions import RedisError

from app.errors import AppError
from app.games import GameService
from app.hub import encode
from app.presence import Lease

router = APIRouter()
log = logging.getLogger("app.ws")

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_RESTART = 1012
CLOSE_NOT_FOUND = 4404


def move_frame(message: dict[str, Any], view_key: str) -> str:
    """A hub ``move`` message as the sockets of one view receive it. Every local socket
    is handed the same message object, so each view is encoded once, not per socket."""
    views = message["views"]
    key = view_key if view_key in views else "public"
    frames: dict[str, str] = message.setdefault("frames", {})
    if key not in frames:
        frames[key] = encode(
            {
                "type": "move",
                "from_version": message["from_version"],
                "version": message["version"],
                "view": views[key],
                "events": message["events"],
                "status": message["status"],
                "outcome": message["outcome"],
                "server_ms": message["server_ms"],
            }
        )
    return frames[key]


class TokenBucket:
    """Allows ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


class Connection:
    def __init__(self, ws: WebSocket, service: GameService, game_id: str) -> None:
        self.ws = ws
        self.service = service
        self.game_id = game_id
        self.player_id: str | None = ws.scope.get("state", {}).get("player_id")
        self.version = -1
        self.view_key = "public"
        settings = ws.app.state.settings
        self.max_frame = settings.ws_max_frame_bytes
        self.bucket = TokenBucket(settings.ws_messages_per_second, settings.ws_burst)
        self.send_lock = asyncio.Lock()
        self.conn_id = secrets.token_urlsafe(8)
        self.seats: list[int] = []
        self.seat_count = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(encode(message))

    async def send_text(self, text: str) -> None:
        async with self.send_lock:
            await self.ws.send_text(text)

    async def send_state(self, since: int | None) -> None:
        """Send the full state. A socket whose player holds a seat it did not hold before
        (on connect, or after taking the seat through ``/join``) then takes its leases."""
        state = await self.service.load(self.game_id, self.player_id)
        seats = state["seats"]
        newly_seated = bool(seats) and not self.seats
        self.seats = seats
        self.seat_count = len(state["players"])  # one entry per seat
        self.view_key = str(seats[0]) if seats else "public"
        if since is not None and 0 <= since < state["version"]:
            state["missed"] = await self.service.moves_since(self.game_id, since)
        self.version = state["version"]
        await self.send({"type": "state", **state})
        if newly_seated:
            await self.arrive()

    async def forward(self, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        while True:
            message = await queue.get()
            if message is None:  # the hub dropped us: let the client reconnect and resume
                await self.ws.close(CLOSE_RESTART)
                return
            if message["type"] != "move":
                await self.send(message)
                continue
            if message["version"] <= self.version:
                continue  # already in the state we sent
            if message["from_version"] > self.version:
                await self.send_state(self.version)  # we missed some: resend with them
                continue
            self.version = message["version"]
            await self.send_text(move_frame(message, self.view_key))

    def leases(self) -> list[Lease]:
        return [(self.game_id, seat, self.conn_id) for seat in self.seats]

    async def arrive(self) -> None:
        """Take this socket's leases on its seats and tell the other watchers.

        Presence is advisory: if its store fails, the game goes on regardless.
        """
        try:
            await self.service.presence.join(self.leases(), self.service.clock.now_ms())
        except (RedisError, OSError) as exc:
            log.warning("presence lease for game %s failed: %s", self.game_id, exc)
        await self.announce_presence()

    async def depart(self) -> None:
        try:
            await self.service.presence.leave(self.leases(), self.service.clock.now_ms())
        except (RedisError, OSError) as exc:
            log.warning("presence release for game %s failed: %s", self.game_id, exc)
        await self.announce_presence()

    async def announce_presence(self) -> None:
        if not self.seats:
            return
        try:
            presence = await self.service.presence_of(self.game_id, self.seat_count)
        except (RedisError, OSError) as exc:
            log.warning("presence of game %s unknown: %s", self.game_id, exc)
            return
        await self.service.hub.publish(self.game_id, {"type": "presence", "presence": presence})

    async def read(self) -> None:
        while True:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            data = frame.get("text") if frame.get("text") is not None else frame.get("bytes") or b""
            if len(data) > self.max_frame:
                await self.ws.close(CLOSE_TOO_BIG, "frame too large")
                return
            if not self.bucket.take():
                if self.bucket.refused > 3 * self.bucket.burst:
                    await self.ws.close(CLOSE_POLICY, "too many messages")
                    return
                await self.send(
                    {"type": "error", "error": {"code": "rate_limited", "message": "slow down"}}
                )
                continue
            await self.handle(data)

    async def handle(self, data: str | bytes) -> None:
        try:
            message = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            await self.error(None, "bad_json", "a message is one JSON object")
            return
        if not isinstance(message, dict):
            await self.error(None, "bad_message", "a message is one JSON object")
            return
        kind = message.get("type")
        request_id = message.get("id") if isinstance(message.get("id"), str | int) else None
        if kind == "ping":
            await self.send({"type": "pong"})
        elif kind == "sync":
            since = message.get("version")
            await self.send_state(
                since if isinstance(since, int) and not isinstance(since, bool) else None
            )
        elif kind == "move":
            await self.move(message, request_id)
        else:
            await self.error(request_id, "unknown_type", "known types: move, sync, ping")

    async def move(self, message: dict[str, Any], request_id: str | int | None) -> None:
        version, move = message.get("version"), message.get("move")
        if not isinstance(version, int) or isinstance(version, bool) or not isinstance(move, dict):
            await self.error(
                request_id, "bad_message", "a move needs an integer version and a move object"
            )
            return
        try:
            game, _, _ = await self.service.play(self.game_id, self.player_id, version, move)
        except AppError as error:
            await self.send(
                {"type": "error", "id": request_id, "status": error.status, **error.body()}
            )
            return
        await self.send({"type": "ack", "id": request_id, "version": game.version})

    async def error(self, request_id: str | int | None, code: str, message: str) -> None:
        await self.send(
            {"type": "error", "id": request_id, "error": {"code": code, "message": message}}
        )


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str, since: int | None = None) -> None:
    service: GameService = ws.app.state.service
    try:
        await service.get_game(game_id)
    except AppError:
        await ws.close(CLOSE_NOT_FOUND, "no such game")
        return
    await ws.accept()
    connection = Connection(ws, service, game_id)
    async with service.hub.watch(game_id) as queue:
        try:
            await connection.send_state(since)
            # Read the client and forward the hub until either side ends; anyio's task
            # group cancels the other one cleanly.
            async with anyio.create_task_group() as group:

                async def until_done(part: Callable[[], Awaitable[None]]) -> None:
                    await part()
                    group.cancel_scope.cancel()

                group.start_soon(until_done, connection.read)
                group.start_soon(until_done, lambda: connection.forward(queue))
        except (WebSocketDisconnect, ClosedResourceError):
            pass
        except RuntimeError:
            pass  # the client went away while we were sending
        finally:
            if connection.seats:
                with anyio.CancelScope(shield=True):
                    await connection.depart()
