"""Online Triangles matches played over real sockets against real server processes, as
the browser plays them: each player on a socket of their own, a move acknowledged only
by its ``result`` frame, and, when a socket closes (a drain's 1012, a killed process), a
reconnect with ``?since=`` to whichever process answers. Used by the drain and
rolling-restart tests."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import websockets

from app.identity import COOKIE, CookieSigner
from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES

CLOSED = {"type": "closed"}


class SocketClosed(Exception):
    pass


class Refused(Exception):
    """The server answered a move with an error frame (a stale version, an outage)."""


class NoServer(Exception):
    """No process took a socket or answered a request within the deadline."""


@dataclass
class Stats:
    """What the clients of a run saw go wrong (the chaos bench reports it)."""

    errors_5xx: int = 0  # server errors other than 503
    unavailable: int = 0  # 503: the documented answer while the database is lost
    reconnects: int = 0


class Socket:
    """One player's socket: every frame it gets, the versions its moves' results gave, and
    how and when it closed."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.acks: list[int] = []
        self.closed_at: float | None = None
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame["type"] == "result":
                    self.acks.append(frame["result"]["version"])
                await self.frames.put(frame)
        except websockets.ConnectionClosed:
            pass
        self.closed_at = time.monotonic()
        await self.frames.put(CLOSED)

    async def next(self, *kinds: str, timeout: float = 15) -> dict[str, Any]:
        """The next frame of one of these kinds (others are skipped)."""
        while True:
            frame = await asyncio.wait_for(self.frames.get(), timeout=timeout)
            if frame is CLOSED:
                await self.frames.put(CLOSED)  # for whoever asks next
                raise SocketClosed
            if frame["type"] in kinds:
                return frame


class Match:
    """A 24-star online match between two players of ``secret``'s site; seat ``s``
    prefers ``urls[s % len(urls)]``."""

    def __init__(
        self, urls: list[str], secret: str, name: str, stats: Stats | None = None
    ) -> None:
        self.urls = urls
        self.stats = stats or Stats()
        self.cookies = [
            f"{COOKIE}={CookieSigner(secret).sign(f'{name}-{seat}-'.ljust(22, '0')[:22])}"
            for seat in (0, 1)
        ]
        self.game_id = ""
        self.version = 0
        self.turn = 0
        self.over = False
        self.sockets: list[Socket] = []
        self.acked: set[int] = set()  # versions acknowledged, on any socket

    def http(self, seat: int, url: str | None = None) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=url or self.urls[seat % len(self.urls)],
            headers={"cookie": self.cookies[seat]},
            timeout=15,
        )

    def preferred(self, seat: int) -> list[str]:
        return self.urls[seat % len(self.urls) :] + self.urls[: seat % len(self.urls)]

    async def request(self, seat: int, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """The seat's request to the first process that answers it, as a browser would
        retry: again after a refused connection or a 503, for up to a minute."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for url in self.preferred(seat):
                try:
                    async with self.http(seat, url) as http:
                        answer = await http.request(method, path, **kwargs)
                except httpx.TransportError:
                    continue
                if answer.status_code < 500:
                    return answer
                if answer.status_code == 503:
                    self.stats.unavailable += 1
                else:
                    self.stats.errors_5xx += 1
            await asyncio.sleep(0.5)
        raise NoServer(f"{method} {path}")

    async def start(self) -> None:
        params = {"opponent": "online", "stars": 24}
        created = await self.request(
            0, "POST", "/api/games", json={"game": "triangles", "params": params}
        )
        assert created.status_code == 201, created.text
        self.game_id = created.json()["id"]
        joined = await self.request(1, "POST", f"/api/games/{self.game_id}/join")
        assert joined.status_code == 200, joined.text
        self.sockets = [await self._connect(seat, None) for seat in (0, 1)]

    async def _connect(self, seat: int, since: int | None) -> Socket:
        """A socket to the seat's process, else the other, tried until one answers."""
        query = "" if since is None else f"?since={since}"
        deadline = time.monotonic() + 60
        while True:
            for url in self.preferred(seat):
                try:
                    ws = await websockets.connect(
                        url.replace("http", "ws") + f"/ws/games/{self.game_id}{query}",
                        additional_headers={"cookie": self.cookies[seat]},
                        open_timeout=5,
                    )
                except (OSError, websockets.WebSocketException, TimeoutError):
                    continue
                socket = Socket(ws)
                try:
                    state = await socket.next("state")
                except (SocketClosed, TimeoutError):
                    continue  # a process closing as we came (1012): try again
                self.version, self.over = state["version"], state["view"]["over"]
                self.turn = state["view"]["turn"]
                return socket
            if time.monotonic() > deadline:
                raise NoServer("no process took the socket in 60 s")
            await asyncio.sleep(0.5)

    async def reconnect(self) -> None:
        self.stats.reconnects += 1
        for socket in self.sockets:
            self.acked.update(socket.acks)
            await socket.ws.close()
        self.sockets = []
        self.sockets = [await self._connect(seat, self.version) for seat in (0, 1)]

    async def line(self) -> dict[str, Any]:
        """A legal line for the position (the easy computer's, from the game's log)."""
        log = (await self.request(0, "GET", f"/api/games/{self.game_id}/log")).json()
        return legal_line(log)

    async def send(self) -> None:
        """The player to move draws a line; returns without waiting for the answer."""
        frame = {"type": "move", "version": self.version, "move": await self.line(), "id": 1}
        await self.sockets[self.turn].ws.send(json.dumps(frame))

    async def play_one(self) -> None:
        """One line, acknowledged to its mover and seen by the other player."""
        mover = self.turn
        await self.send()
        answer = await self.sockets[mover].next("result", "error")
        if answer["type"] == "error":
            raise Refused(answer["error"]["code"])
        version = answer["result"]["version"]
        self.acked.add(version)
        seen = await self.sockets[1 - mover].next("move")
        self.version, self.turn = version, seen["view"]["turn"]
        self.over = seen["view"]["over"]

    async def play_through_restarts(
        self, until: asyncio.Event, pause: Callable[[], float] = lambda: 0.05
    ) -> int:
        """Play until ``until`` is set or the match ends, reconnecting whenever a socket
        goes (``pause()`` seconds between lines); the number of lines acknowledged."""
        while not until.is_set() and not self.over:
            try:
                if not self.sockets:
                    raise SocketClosed
                await self.play_one()
                await asyncio.sleep(pause())
            except (SocketClosed, Refused, TimeoutError, websockets.ConnectionClosed):
                try:
                    await self.reconnect()  # and so a fresh state, as the browser does
                except NoServer:
                    await asyncio.sleep(1)
        return len(self.acked)

    async def close(self) -> None:
        for socket in self.sockets:
            self.acked.update(socket.acks)
            await socket.ws.close()

    async def check_log(self) -> None:
        """Every acknowledged line is in the stored log, which replays to the stored view."""
        for socket in self.sockets:
            self.acked.update(socket.acks)
        log = (await self.request(0, "GET", f"/api/games/{self.game_id}/log")).json()
        stored = (await self.request(0, "GET", f"/api/games/{self.game_id}")).json()
        plies = [move["ply"] for move in log["moves"]]
        assert plies == list(range(1, stored["version"] + 1))
        assert self.acked <= set(plies), (sorted(self.acked), plies)
        board = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
        assert json.loads(json.dumps(TRIANGLES.view(board, stored["seat"]))) == stored["view"]


def legal_line(log: dict[str, Any]) -> dict[str, Any]:
    """A legal line after this Triangles log (the easy computer's choice)."""
    state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    return TRIANGLES.dump_move(TRIANGLES.computer_move(state))
