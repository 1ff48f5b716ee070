"""WebSocket ``/ws/games/{id}``: live state for players and spectators, moves with results.

On connect the server sends ``{"type":"state", ...}`` (with ``missed`` moves when the
client passed ``?since=<version>``), then a ``{"type":"move", ...}`` per move. Clients
may send ``move`` (answered by ``result``, what ``POST /moves`` answers, or ``error``),
``sync`` (a fresh state) and ``ping``. While a move of the socket's own is in flight the
hub's frames wait, so the result comes in its place in the game's order, and the move's
own ``move`` frame, older by then, is never sent to it.

Frames over the size limit close the socket (1009); a message over the player's rate is
answered ``rate_limited`` (with its ``id``, like every error frame), and a socket
refused more than three bursts' worth within the time a burst takes to refill is closed
(1008); bad frames get an error frame.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable
from typing import TypeVar

import anyio
from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ValidationError
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from app.budgets import MessageBudgets
from app.drain import CLOSE_RESTART, Drain
from app.errors import AppError
from app.fanout import Resync, Watch
from app.hub import HubUnavailable
from app.metrics import RATE_LIMITED
from app.outage import is_outage
from app.presence import Lease
from app.services import Services
from app.sockets import (
    CLOSE_NOT_FOUND,
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    PONG_TEXT,
    admitted,
    heard,
    refuse_in_outage,
    refuse_while_draining,
    until_one_ends,
)
from app.wire import (
    ErrorFrame,
    ErrorInfo,
    HubMessage,
    HubMove,
    MoveResult,
    ResultFrame,
    Snapshot,
    StateFrame,
)
from app.wire.client_frames import (
    CLIENT_FRAME,
    KNOWN_TYPES,
    MoveMessage,
    PingMessage,
    SyncMessage,
)
from engines.core.errors import AppCode

router = APIRouter()
log = logging.getLogger("app.ws")

CLOSE_TOO_BIG = 1009
# A sync sends the moves a client missed only while they fit in one frame; a client
# further behind (a Pairs game with thousands of pauses) gets the state alone.
SYNC_FRAME_BYTES = 256 * 1024
MISSED_MOST = 2000
PING_TEXT = '{"type":"ping"}'  # what a browser sends every 25 s: known without parsing


T = TypeVar("T")


async def to_the_end(work: Awaitable[T]) -> T:
    """Await database work (a state load, a move's commit) shielded from the socket's
    task group: when the client goes away, the group cancels its other task, and a
    query cancelled in flight leaves SQLAlchemy an aiosqlite connection whose graceful
    close is cancelled too and which aiosqlite 0.21 cannot terminate (a traceback,
    "terminate_force_close() not implemented", for each). Each query is bounded by its
    own timeout, so this waits seconds at most; the cancellation lands at the next await."""
    with anyio.CancelScope(shield=True):
        result = await work
    return result


Parsed = MoveMessage | SyncMessage | PingMessage | AppError
PING = PingMessage(type="ping")


def parse(data: str | bytes) -> tuple[Parsed, str | int | None]:
    """A client's frame as its model, or the error that says why it is not one; and the
    ``id`` it gave (when it is a JSON object), which every answer to it carries."""
    if data == PING_TEXT:
        return PING, None
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):  # nesting too deep: invalid
        return AppError(AppCode.BAD_JSON, "a message is one JSON object"), None
    if not isinstance(raw, dict):
        return AppError(AppCode.BAD_MESSAGE, "a message is one JSON object"), None
    given = raw.get("id")
    message_id = given if isinstance(given, str | int) else None
    try:
        return CLIENT_FRAME.validate_python(raw), message_id
    except ValidationError as error:
        kinds = {problem["type"] for problem in error.errors()}
        if kinds & {"union_tag_invalid", "union_tag_not_found"}:
            return AppError(AppCode.UNKNOWN_TYPE, f"known types: {KNOWN_TYPES}"), message_id
        why = "a move needs an integer version and a move object"
        return AppError(AppCode.BAD_MESSAGE, why), message_id


class Connection:
    def __init__(self, ws: WebSocket, svc: Services, game_id: str, conn_id: str) -> None:
        self.ws = ws
        self.svc = svc
        self.game_id = game_id
        self.player_id: str | None = ws.scope.get("state", {}).get("player_id")
        self.version = -1
        self.view_key = "public"
        settings = ws.app.state.settings
        self.max_frame = settings.ws_max_frame_bytes
        budgets: MessageBudgets = ws.app.state.message_budgets
        self.bucket = budgets.join(self.player_id)
        self.flood = budgets.flood_watch()
        self.send_lock = asyncio.Lock()
        self.conn_id = conn_id
        self.seats: list[int] = []
        self.seat_count = 0
        self.no_move_in_flight = asyncio.Event()  # cleared while this socket's move is played
        self.no_move_in_flight.set()
        self.queue: Watch | None = None  # the hub's queue for this socket, once watching

    async def send(self, frame: BaseModel) -> None:
        await self.send_text(frame.model_dump_json())

    async def send_text(self, text: str) -> None:
        async with self.send_lock:
            await self.ws.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        async with self.send_lock:  # never in the middle of a frame being sent
            await self.ws.close(code, reason)

    async def send_state(self, since: int | None) -> None:
        """Send the full state. A socket whose player holds a seat it did not hold before
        (on connect, or after taking the seat through ``/join``) then takes its leases."""
        loaded = await to_the_end(self.svc.reads.game(self.game_id, self.player_id))
        state = StateFrame(**dict(loaded))
        newly_seated = bool(state.seats) and not self.seats
        self.seats = state.seats
        if self.queue is not None:  # a player's frames go out before the spectators'
            self.queue.seated = bool(state.seats)
        self.seat_count = len(state.players)  # one entry per seat
        self.view_key = str(state.seats[0]) if state.seats else "public"
        if since is not None and 0 <= since < state.version:
            missed = await to_the_end(
                self.svc.reads.moves_since(self.game_id, since, MISSED_MOST + 1)
            )
            if len(missed) <= MISSED_MOST:
                state.missed = missed
        self.version = state.version
        text = state.model_dump_json()
        if len(text) > SYNC_FRAME_BYTES and state.missed:
            state.missed = []  # the state alone: a client far behind just adopts it
            text = state.model_dump_json()
        await self.send_text(text)
        if newly_seated:
            await self.arrive()

    async def forward(self, queue: Watch) -> None:
        # Each message is handled in a call of its own, so that no frame of this loop
        # keeps the last one alive while the socket waits (for minutes, between moves).
        while await self.forward_one(await queue.get()):
            pass

    async def forward_one(self, message: HubMessage | Resync | None) -> bool:
        """Send one hub message on; False once the hub has dropped this socket."""
        await self.no_move_in_flight.wait()
        if message is None:  # the hub dropped us: let the client reconnect and resume
            await self.ws.close(CLOSE_RESTART)
            return False
        if isinstance(message, Resync):  # the hub lost messages while it was down
            await self.send_state(self.version)
        elif not isinstance(message, HubMove):
            await self.send(message)
        elif message.version <= self.version:
            pass  # already in the state we sent
        elif message.from_version > self.version:
            await self.send_state(self.version)  # we missed some: resend with them
        else:
            self.version = message.version
            await self.send_text(message.frame(self.view_key))
        return True

    def leases(self) -> list[Lease]:
        return [(self.game_id, seat, self.conn_id) for seat in self.seats]

    async def arrive(self) -> None:
        """Take this socket's leases on its seats and tell the other watchers.

        Presence is advisory: if its store fails, the game goes on regardless.
        """
        try:
            await self.svc.presence.join(self.leases(), self.svc.clock.now_ms())
        except (RedisError, OSError) as exc:
            log.warning("presence lease for game %s failed: %s", self.game_id, exc)
        await self.announce_presence()

    async def depart(self) -> None:
        try:
            await self.svc.presence.leave(self.leases(), self.svc.clock.now_ms())
        except (RedisError, OSError) as exc:
            log.warning("presence release for game %s failed: %s", self.game_id, exc)
        await self.announce_presence()

    async def announce_presence(self) -> None:
        if self.seats:
            await self.svc.presence_notices.changed(self.game_id, self.seat_count)

    async def read(self) -> None:
        while True:
            frame = await heard(self.ws, self.close)
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            data: str | bytes = text if text is not None else frame.get("bytes") or b""
            if len(data) > self.max_frame:
                await self.ws.close(CLOSE_TOO_BIG, "frame too large")
                return
            message, message_id = parse(data)
            if not self.bucket.take():
                if self.flood.refused():
                    await self.ws.close(CLOSE_POLICY, "too many messages")
                    return
                RATE_LIMITED.labels("ws_messages").inc()
                await self.refuse(message_id, AppError(AppCode.RATE_LIMITED, "slow down"))
                continue
            await self.handle(message, message_id)

    async def handle(self, message: Parsed, message_id: str | int | None) -> None:
        if isinstance(message, AppError):
            await self.refuse(message_id, message)
        elif isinstance(message, PingMessage):
            await self.send_text(PONG_TEXT)
        elif isinstance(message, SyncMessage):
            await self.send_state(message.since())
        else:
            await self.move(message, message_id)

    async def move(self, message: MoveMessage, request_id: str | int | None) -> None:
        self.no_move_in_flight.clear()
        try:
            await self.play(message, request_id)
        finally:
            self.no_move_in_flight.set()

    async def play(self, message: MoveMessage, request_id: str | int | None) -> None:
        try:
            played = await to_the_end(
                self.svc.moves.play(self.game_id, self.player_id, message.version, message.move)
            )
        except AppError as error:
            await self.refuse(request_id, error)
            return
        except (SQLAlchemyError, OSError) as error:
            if not is_outage(error):
                raise
            await self.refuse(request_id, self.svc.outages.unavailable(error))
            return
        engine = self.svc.catalog.engine(played.game.engine)
        snapshot = self.svc.snapshots.snapshot(played.game, engine, played.state, self.player_id)
        result = ResultFrame.model_construct(
            id=request_id,
            from_version=played.from_version,
            result=MoveResult.model_construct(**dict(snapshot), events=played.events),
        )
        # A frame this socket was still to send, older than the move, now comes after it:
        # the client sees the gap (from_version) and asks for the state.
        self.version = max(self.version, played.game.version)
        await self.send(result)

    async def refuse(self, request_id: str | int | None, error: AppError) -> None:
        """The REST error body of ``error`` as a socket frame."""
        current = error.extra.get("current")
        await self.send(
            ErrorFrame(
                id=request_id,
                status=error.status,
                error=ErrorInfo(
                    code=error.code, message=error.message, details=error.details or None
                ),
                current=Snapshot.model_validate(current) if current else None,
            )
        )


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str, since: int | None = None) -> None:
    svc: Services = ws.app.state.services
    if ws.app.state.drain.started:  # about to stop: the socket goes to another process
        await refuse_while_draining(ws)
        return
    try:
        await svc.store.game(game_id)
    except AppError:
        await ws.close(CLOSE_NOT_FOUND, "no such game")
        return
    except (SQLAlchemyError, OSError) as error:
        await refuse_in_outage(ws, error)
        return
    holder = secrets.token_urlsafe(8)
    async with admitted(ws, svc, holder) as serving:
        if serving:
            await serve(ws, svc, game_id, since, holder)


async def serve(ws: WebSocket, svc: Services, game_id: str, since: int | None, holder: str) -> None:
    connection = Connection(ws, svc, game_id, holder)
    drain: Drain = ws.app.state.drain
    if drain.started:  # the drain began while it was admitted: closed as the others are
        await ws.close(CLOSE_RESTART, "server restarting")
        return
    drain.sockets.add(connection)
    try:
        async with svc.hub.watch(game_id) as queue:
            await follow(ws, connection, queue, since)
    except HubUnavailable as exc:  # raised on entering only: nothing was sent yet
        log.warning("socket for game %s refused: %s", game_id, exc)
        await ws.close(CLOSE_TRY_AGAIN, "live updates unavailable; reconnect shortly")
    finally:
        drain.sockets.discard(connection)


async def follow(ws: WebSocket, connection: Connection, queue: Watch, since: int | None) -> None:
    """Send the state, then read the client and forward the hub until either side ends
    (anyio's task group cancels the other one cleanly)."""
    connection.queue = queue
    try:
        await until_one_ends(
            ws,
            lambda: connection.send_state(since),
            connection.read,
            lambda: connection.forward(queue),
        )
    finally:
        if connection.seats:
            with anyio.CancelScope(shield=True):
                await connection.depart()
