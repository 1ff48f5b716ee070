"""Sockets that vanish (no close frame, the TCP connection reset) are normal traffic: on
SQLite, 300 of them, mixed in timing, leave no traceback and no outage in the server's
log, leak no file descriptor and no socket slot, and the games they watched go on.

A socket whose client went away while its query ran had that query cancelled (its task
group cancels the other task); SQLAlchemy then tries to terminate the aiosqlite
connection, which aiosqlite 0.21 cannot do ("terminate_force_close() not implemented by
this DBAPI shim"). And a client gone before its socket was accepted raised uvicorn's
ClientDisconnected, an OSError taken for a database outage, and kept its socket slot.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import websockets

from app.identity import COOKIE, CookieSigner
from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES
from tests.servers import migrate, start_uvicorn, stop

SECRET = "abrupt-closes-secret-".ljust(40, "x")
GAMES = 4
CLOSES = 300
AT_ONCE = 60  # sockets dropped together
FD_MARGIN = 5
SETTLE_S = 20.0
SOCKETS_PER_IP = 200  # a leaked slot a socket would have kept counts against this
AT_ONCE_AFTER = 100

pytestmark = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "sqlite").split(":")[0].startswith("postgres"),
    reason="the aiosqlite connection's terminate is what this checks (SQLite only)",
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, str, Path]]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'abrupt.db'}", "SECRET": SECRET}
    env.pop("REDIS_URL", None)
    env.update(
        LIMIT_SOCKETS_PER_IP=str(SOCKETS_PER_IP),
        LIMIT_SOCKETS_PER_PLAYER="2000",
        LIMIT_CREATES_PER_IP_MIN="1000",
        LIMIT_CREATES_PER_PLAYER_MIN="1000",
        LIMIT_WAITING_PER_PLAYER="100",
        ENGINE_WORKERS="1",
    )
    migrate(env)
    log = tmp_path / "uvicorn.log"
    process, base_url = start_uvicorn(env, log)
    try:
        yield process.pid, base_url, log
    finally:
        stop(process)


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def cookie_of(name: str) -> str:
    player_id = f"abrupt-{name}-".ljust(22, "0")[:22]  # the issued form
    return f"{COOKIE}={CookieSigner(SECRET).sign(player_id)}"


def drop(ws: Any) -> None:
    """Reset the TCP connection: no close frame, no FIN (SO_LINGER 0)."""
    sock = ws.transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ws.transport.abort()


async def upgrade_then_drop(base_url: str, game_id: str) -> None:
    """Send the upgrade request and reset at once: the server is still looking the game
    up (before it accepts)."""
    where = urlsplit(base_url)
    reader, writer = await asyncio.open_connection(where.hostname, where.port)
    writer.write(
        (
            f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: {where.netloc}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    await asyncio.sleep(random.uniform(0, 0.005))
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class Seat:
    def __init__(self, name: str, base_url: str) -> None:
        self.cookie = cookie_of(name)
        self.base_url = base_url

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base_url, headers={"cookie": self.cookie})

    async def socket(self, game_id: str) -> Any:
        url = self.base_url.replace("http", "ws") + f"/ws/games/{game_id}"
        return await websockets.connect(url, additional_headers={"cookie": self.cookie})


async def receive(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
        if message["type"] == kind:
            return message


async def next_line(http: httpx.AsyncClient, game_id: str) -> tuple[int, int, dict[str, Any]]:
    """The game's version, whose turn it is and a legal line (from its log)."""
    log = (await http.get(f"/api/games/{game_id}/log")).json()
    state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    line = TRIANGLES.dump_move(TRIANGLES.computer_move(state))
    return log["version"], int(TRIANGLES.view(state, 0)["turn"]), line


async def new_game(alice: Seat, bob: Seat) -> str:
    async with alice.http() as http:
        created = await http.post(
            "/api/games", json={"game": "triangles", "params": {"opponent": "online", "stars": 24}}
        )
        assert created.status_code == 201, created.text
        game_id: str = created.json()["id"]
    async with bob.http() as http:
        assert (await http.post(f"/api/games/{game_id}/join")).json()["seats"] == [1]
    return game_id


async def play(seats: tuple[Seat, Seat], game_id: str) -> int:
    """One line drawn over a fresh socket of the player to move; the new version. A move
    sent by a socket that was just dropped may still land first: then the version was
    stale (an error frame), and the line is chosen again."""
    for _ in range(5):
        async with seats[0].http() as http:
            version, turn, line = await next_line(http, game_id)
        ws = await seats[turn].socket(game_id)
        try:
            await receive(ws, "state")
            await ws.send(json.dumps({"type": "move", "version": version, "move": line, "id": 1}))
            while (answer := json.loads(await asyncio.wait_for(ws.recv(), 15)))["type"] not in (
                "result",
                "error",
            ):
                pass
        finally:
            await ws.close()
        if answer["type"] == "result":
            return int(answer["result"]["version"])
        await asyncio.sleep(0.05)
    raise AssertionError(f"no move accepted in game {game_id}: {answer}")


async def moving_then_drop(seats: tuple[Seat, Seat], game_id: str) -> None:
    """The player to move sends a line and resets at once: its commit is under way."""
    async with seats[0].http() as http:
        version, turn, line = await next_line(http, game_id)
    ws = await seats[turn].socket(game_id)
    await receive(ws, "state")
    await ws.send(json.dumps({"type": "move", "version": version, "move": line, "id": 1}))
    await asyncio.sleep(random.uniform(0, 0.003))
    drop(ws)


async def connect_then_drop(seat: Seat, game_id: str, linger_s: float) -> None:
    """Open a socket and reset it after ``linger_s`` (0: while the state is loading)."""
    ws = await seat.socket(game_id)
    if linger_s:
        await asyncio.sleep(linger_s)
    drop(ws)


async def sync_then_drop(seat: Seat, game_id: str) -> None:
    """Ask for fresh states and reset while moves are played: a move sent to this socket
    fails, and its task group cancels the state load under way."""
    ws = await seat.socket(game_id)
    await receive(ws, "state")
    await asyncio.sleep(random.uniform(0, 0.1))
    for _ in range(5):
        await ws.send(json.dumps({"type": "sync"}))
    drop(ws)


async def moves_meanwhile(seats: tuple[Seat, Seat], game_id: str, moves: int) -> None:
    for _ in range(moves):
        await play(seats, game_id)


async def watch_at_once(seat: Seat, game_id: str, sockets: int) -> list[int]:
    """Open ``sockets`` sockets together, each closed cleanly once its state came; their
    versions."""

    async def one() -> int:
        ws = await seat.socket(game_id)
        try:
            return int((await receive(ws, "state"))["version"])
        finally:
            await ws.close()

    return list(await asyncio.gather(*(one() for _ in range(sockets))))


async def games_under_way(base_url: str) -> tuple[list[str], tuple[Seat, Seat]]:
    """Games with a move each, and the database's pool at its full size (a burst of
    clean sockets), so that what follows is measured against a server at work."""
    seats = (Seat("alice", base_url), Seat("bob", base_url))
    games = [await new_game(*seats) for _ in range(GAMES)]
    for game_id in games:
        await play(seats, game_id)
    assert await watch_at_once(Seat("dave", base_url), games[0], AT_ONCE) == [1] * AT_ONCE
    return games, seats


async def abrupt_closes(base_url: str, games: list[str], seats: tuple[Seat, Seat]) -> None:
    spectator = Seat("carol", base_url)
    dropped = 0
    rounds = 0
    while dropped < CLOSES:
        batch: list[Any] = []
        for n in range(min(AT_ONCE, CLOSES - dropped)):
            game_id = games[n % GAMES]
            kind = n % 4
            if kind == 0:
                batch.append(upgrade_then_drop(base_url, game_id))
            elif kind == 1:
                batch.append(connect_then_drop(spectator, game_id, 0))
            elif kind == 2:
                batch.append(connect_then_drop(seats[n % 2], game_id, random.uniform(0, 0.05)))
            else:
                batch.append(sync_then_drop(spectator, game_id))
        if rounds % 2 == 0:  # moves in flight (and dropped) while the others go
            batch.extend(moving_then_drop(seats, game_id) for game_id in games)
        dropped += len(batch)
        if rounds % 2 == 1:  # moves played over clean sockets while the others go
            batch.extend(moves_meanwhile(seats, game_id, 3) for game_id in games)
        rounds += 1
        await asyncio.gather(*batch)
        for game_id in games:  # the games go on between the drops
            await play(seats, game_id)


def settled_fds(pid: int, limit: int) -> int:
    """The server's open descriptors once at most ``limit`` (or the last count seen
    when the deadline passes)."""
    deadline = time.monotonic() + SETTLE_S
    count = open_fds(pid)
    while count > limit and time.monotonic() < deadline:
        time.sleep(0.2)
        count = open_fds(pid)
    return count


def test_300_abrupt_closes_leave_a_clean_log_and_no_leak(server: tuple[int, str, Path]) -> None:
    pid, base_url, log = server
    games, seats = asyncio.run(games_under_way(base_url))
    before = open_fds(pid)
    asyncio.run(abrupt_closes(base_url, games, seats))
    after = open_fds(pid)
    settled = settled_fds(pid, before + FD_MARGIN)
    text = log.read_text(errors="replace")
    tracebacks = text.count("Traceback")
    terminates = sum("terminate_force_close" in line for line in text.splitlines())
    outages = sum("database unavailable" in line for line in text.splitlines())
    figures = f"fds {before} -> {after} -> {settled}; tracebacks {tracebacks}"
    assert (tracebacks, terminates, outages) == (0, 0, 0), f"{figures}\n{text[-3000:]}"
    assert settled <= before + FD_MARGIN, figures

    async def still_playing() -> None:
        versions = []
        for game_id in games:
            async with seats[0].http() as http:
                version = (await http.get(f"/api/games/{game_id}")).json()["version"]
                log_moves = (await http.get(f"/api/games/{game_id}/log")).json()["moves"]
            assert [move["ply"] for move in log_moves] == list(range(1, version + 1))
            assert await play(seats, game_id) == version + 1
            versions.append(version + 1)
        # Every slot was given back: one address may open this many sockets again.
        watched = await watch_at_once(Seat("erin", base_url), games[0], AT_ONCE_AFTER)
        assert watched == [versions[0]] * AT_ONCE_AFTER

    asyncio.run(still_playing())
