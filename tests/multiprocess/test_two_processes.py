"""Two uvicorn processes serve one online match through PostgreSQL and Redis.

Alice plays through process A, Bob through process B; each sees the other's lines live.
Process A is killed with SIGKILL mid-match; Alice reconnects to B with her last version,
gets the lines she missed, and the match is played to its end. Both players then read
the same, complete move log, and replaying it gives the final board.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from app.identity import COOKIE, CookieSigner
from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES
from tests.servers import migrate, start_uvicorn, stop

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
SECRET = "multiprocess-secret"

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


@pytest.fixture
def two_processes(tmp_path: Path) -> Any:
    env = {**os.environ, "SECRET": SECRET}
    migrate(env)
    first = start_uvicorn(env, tmp_path / "a.log")
    second = start_uvicorn(env, tmp_path / "b.log")
    try:
        yield first, second
    finally:
        stop(first[0])
        stop(second[0])


class Player:
    def __init__(self, name: str, base_url: str) -> None:
        player_id = f"mp-{name}-{os.getpid()}-".ljust(22, "0")[:22]  # the issued form
        self.cookie = f"{COOKIE}={CookieSigner(SECRET).sign(player_id)}"
        self.base_url = base_url
        self.ws: Any = None
        self.version = 0
        self.view: dict[str, Any] = {}

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base_url, headers={"cookie": self.cookie})

    async def connect(self, game_id: str, since: int | None = None) -> dict[str, Any]:
        ws_url = self.base_url.replace("http", "ws") + f"/ws/games/{game_id}"
        if since is not None:
            ws_url += f"?since={since}"
        self.ws = await websockets.connect(ws_url, additional_headers={"cookie": self.cookie})
        state = await self.receive("state")
        self.version, self.view = state["version"], state["view"]
        return state

    async def receive(self, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=15))
            if message["type"] == kind:
                return message

    async def follow(self) -> None:
        """Wait for the next move message and take its version and view."""
        message = await self.receive("move")
        self.version, self.view = message["version"], message["view"]

    async def answered(self) -> None:
        """Wait for the result of this player's own move and take its version and view."""
        result = (await self.receive("result"))["result"]
        self.version, self.view = result["version"], result["view"]


async def legal_line(http: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    log = (await http.get(f"/api/games/{game_id}/log")).json()
    state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    return TRIANGLES.dump_move(TRIANGLES.computer_move(state))


async def play_one(players: dict[int, Player], game_id: str) -> None:
    """The player to move draws a line over their socket; both see it."""
    turn = players[0].view["turn"]
    mover, other = players[turn], players[1 - turn]
    async with mover.http() as http:
        line = await legal_line(http, game_id)
    await mover.ws.send(
        json.dumps({"type": "move", "version": mover.version, "move": line, "id": mover.version})
    )
    await asyncio.gather(mover.answered(), other.follow())
    assert mover.version == other.version
    assert mover.view["lines"] == other.view["lines"]


async def move_game_reads(url: str) -> dict[str, int]:
    """A process's ``nook_move_game_reads_total`` by source (it counts from its start)."""
    async with httpx.AsyncClient(base_url=url) as http:
        text = (await http.get("/metrics")).text
    reads = {"memory": 0, "database": 0}
    for line in text.splitlines():
        if line.startswith("nook_move_game_reads_total{"):
            source = line.split('source="', 1)[1].split('"', 1)[0]
            reads[source] = int(float(line.rsplit(" ", 1)[1]))
    return reads


async def match(urls: tuple[str, str], kill_first: Any) -> None:
    alice, bob = Player("alice", urls[0]), Player("bob", urls[1])
    async with alice.http() as http:
        created = await http.post(
            "/api/games", json={"game": "triangles", "params": {"opponent": "online", "stars": 24}}
        )
        game_id = created.json()["id"]
    async with bob.http() as http:
        assert (await http.post(f"/api/games/{game_id}/join")).json()["seats"] == [1]
    await alice.connect(game_id)
    await bob.connect(game_id)
    players = {0: alice, 1: bob}

    for _ in range(4):  # lines drawn across the two processes
        await play_one(players, game_id)
    # Each process keeps the game its socket loaded and follows the other's moves in
    # memory: no move read the row.
    assert await move_game_reads(urls[0]) == {"memory": 2, "database": 0}
    assert await move_game_reads(urls[1]) == {"memory": 2, "database": 0}

    kill_first()  # SIGKILL: no goodbye, no flush
    await asyncio.sleep(0.2)
    seen = alice.version
    alice.base_url = urls[1]
    for _ in range(2):  # Bob goes on alone while Alice is reconnecting
        if bob.view["turn"] != 1 or bob.view["over"]:
            break
        async with bob.http() as http:
            line = await legal_line(http, game_id)
        await bob.ws.send(json.dumps({"type": "move", "version": bob.version, "move": line}))
        await bob.answered()
    state = await alice.connect(game_id, since=seen)
    assert state["version"] == bob.version
    assert [m["ply"] for m in state.get("missed", [])] == list(range(seen + 1, bob.version + 1))

    while not alice.view["over"]:
        await play_one(players, game_id)

    async with alice.http() as a, bob.http() as b:
        log_a = (await a.get(f"/api/games/{game_id}/log")).json()
        log_b = (await b.get(f"/api/games/{game_id}/log")).json()
        final = (await a.get(f"/api/games/{game_id}")).json()
    assert log_a == log_b
    assert [m["ply"] for m in log_a["moves"]] == list(range(1, final["version"] + 1))
    assert final["status"] == "over"
    rebuilt = replay(
        TRIANGLES, TRIANGLES.parse_params(log_a["params"]), log_a["seed"], log_a["moves"]
    )
    assert json.loads(json.dumps(TRIANGLES.view(rebuilt, final["seat"]))) == final["view"]
    await alice.ws.close()
    await bob.ws.close()


def test_match_survives_a_killed_process(two_processes: Any) -> None:
    (process_a, url_a), (_, url_b) = two_processes

    def kill_first() -> None:
        os.kill(process_a.pid, signal.SIGKILL)
        process_a.wait(timeout=10)

    asyncio.run(match((url_a, url_b), kill_first))
