"""One arena served by two uvicorn processes on PostgreSQL + Redis, one of them killed.

Ten players, half of them on process A and half on B, join a 3-minute bullet arena and
play rounds: in every game under way each seat draws a line (through its own process),
then one resigns through B. A's director pairs only when it is woken or once a minute
(``ARENA_PAIR_EVERY_MS``), B's every 200 ms, and a game that ends on B wakes B's: so
after the first round the pairings are B's, and Alice's arena socket on A must be told
``paired`` for each of her games, through Redis.

Checks: no player ever in two games, every process answering the same standings, equal
to the points recomputed from the stored games (``tests/api/test_arena_crowd.py``'s
``violations``). Then A is killed (SIGKILL) with games under way: the standings read
from B keep every game and point committed before (each sheet grows from what it was),
A's players are paired again by B (a socket on B tells one of them), and the arena's end
is brought to a few seconds ahead in its row (waiting out three real minutes would only
slow the test down; the status is a function of the row and the time): B reports it
``over``, every socket gets that last frame and then stays silent while the games still
running end (they count for nothing), and nobody is paired after the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.identity import COOKIE, CookieSigner
from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES
from tests.api.test_arena_crowd import StoredGame, stored_game, violations
from tests.servers import migrate, start_uvicorn, stop

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
SECRET = "multiprocess-secret"
PLAYERS = 10
ROUNDS = 3

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


@pytest.fixture
def two_processes(tmp_path: Path) -> Any:
    env = {
        **os.environ,
        "SECRET": SECRET,
        "LIMIT_SEEKS_PER_IP_MIN": "100000",
        "LIMIT_SEEKS_PER_PLAYER_MIN": "100000",
        "ARENA_HOURLY": "",
        "ARENA_EVENING": "",
    }
    migrate(env)
    first = start_uvicorn({**env, "ARENA_PAIR_EVERY_MS": "60000"}, tmp_path / "a.log")
    second = start_uvicorn({**env, "ARENA_PAIR_EVERY_MS": "200"}, tmp_path / "b.log")
    try:
        yield first, second
    finally:
        stop(first[0])
        stop(second[0])


class Player:
    def __init__(self, index: int, run: str, home: str) -> None:
        self.id = f"ar{index}-{run}-".ljust(22, "0")[:22]  # the form the server issues
        self.name = f"Arena{index}"
        self.headers = {"cookie": f"{COOKIE}={CookieSigner(SECRET).sign(self.id)}"}
        self.home = home

    def http(self, url: str | None = None) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=url or self.home, headers=self.headers, timeout=30)

    async def get(self, path: str, url: str | None = None) -> dict[str, Any]:
        async with self.http(url) as http:
            response = await http.get(path)
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]

    async def post(self, path: str, body: Any = None, url: str | None = None) -> httpx.Response:
        async with self.http(url) as http:
            return await http.post(path, json=body)

    async def game_id(self, arena_id: str) -> str | None:
        return (await self.get(f"/api/arenas/{arena_id}"))["me"]["game_id"]  # type: ignore[no-any-return]

    async def draw(self, game_id: str) -> None:
        """The player's line when it is their turn (through their own process)."""
        game = await self.get(f"/api/games/{game_id}")
        if game["status"] != "active" or game["view"]["turn"] != game["seat"]:
            return
        log = await self.get(f"/api/games/{game_id}/log")
        state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
        move = TRIANGLES.dump_move(TRIANGLES.computer_move(state))
        drawn = await self.post(
            f"/api/games/{game_id}/moves", {"version": game["version"], "move": move}
        )
        assert drawn.status_code == 200, drawn.text

    async def resign(self, game_id: str, url: str) -> None:
        game = await self.get(f"/api/games/{game_id}", url)
        resigned = await self.post(
            f"/api/games/{game_id}/moves",
            {"version": game["version"], "move": {"type": "resign"}},
            url,
        )
        assert resigned.status_code == 200, resigned.text


class Socket:
    """A player's arena socket, its frames collected in the background."""

    def __init__(self, player: Player, url: str, arena_id: str) -> None:
        self.url = url.replace("http", "ws", 1) + f"/ws/arenas/{arena_id}"
        self.player = player
        self.frames: list[tuple[float, dict[str, Any]]] = []
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> Socket:
        self.ws = await websockets.connect(
            self.url, additional_headers=self.player.headers, max_size=None
        )
        self.task = asyncio.create_task(self._read())
        while not self.frames:
            await asyncio.sleep(0.02)
        return self

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                self.frames.append((time.monotonic(), json.loads(message)))
        except websockets.ConnectionClosed:
            pass

    def paired(self) -> list[str]:
        return [f["game_id"] for _, f in self.frames if f["type"] == "paired"]

    async def close(self) -> None:
        await self.ws.close()
        if self.task is not None:
            await self.task


async def until(check: Any, timeout: float = 15, every: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        assert time.monotonic() < deadline, "never came"
        await asyncio.sleep(every)


async def stored(reader: Player, arena_id: str) -> list[StoredGame]:
    engine = create_async_engine(Settings(database_url=DATABASE_URL).async_database_url)
    async with engine.connect() as connection:
        rows = (
            await connection.execute(
                text("SELECT id, seats, started_ms FROM games WHERE arena_id = :arena"),
                {"arena": arena_id},
            )
        ).all()
    await engine.dispose()
    games = []
    for game_id, seats, started_ms in rows:
        seats = json.loads(seats) if isinstance(seats, str) else seats
        row = {"id": game_id, "seats": seats, "started_ms": started_ms}
        games.append(stored_game(row, await reader.get(f"/api/games/{game_id}")))
    return games


async def set_end(arena_id: str, ends_ms: int) -> None:
    engine = create_async_engine(Settings(database_url=DATABASE_URL).async_database_url)
    async with engine.begin() as connection:
        await connection.execute(
            text("UPDATE arenas SET ends_ms = :ends WHERE id = :arena"),
            {"ends": ends_ms, "arena": arena_id},
        )
    await engine.dispose()


async def play_round(everyone: list[Player], arena_id: str, resign_on: str) -> list[str]:
    """Every game under way: each seat draws a line, then one resigns through
    ``resign_on``; the games it ended."""
    current: dict[str, list[Player]] = {}
    for player in everyone:
        game_id = await player.game_id(arena_id)
        if game_id is not None:
            current.setdefault(game_id, []).append(player)
    for game_id, seated in current.items():
        assert len(seated) == 2, f"{game_id} is {len(seated)} players' game"
        for _ in range(2):
            for player in seated:
                await player.draw(game_id)
        await seated[0].resign(game_id, resign_on)
    return list(current)


async def standings_agree(players: list[Player], urls: list[str], arena_id: str) -> Any:
    """The standings once every process answers the same (each caches them 500 ms)."""

    async def same() -> Any:
        answers = [await players[0].get(f"/api/arenas/{arena_id}", url) for url in urls]
        first = answers[0]["standings"]
        return first if all(a["standings"] == first for a in answers[1:]) else None

    return await until(same, timeout=5)


async def scenario(urls: tuple[str, str], kill_a: Any) -> None:
    url_a, url_b = urls
    run = secrets.token_hex(3)
    everyone = [Player(i, run, urls[i % 2]) for i in range(PLAYERS)]
    alice = everyone[0]  # on A
    names = {p.id: p.name for p in everyone}
    for player in everyone:
        async with player.http() as http:
            assert (await http.put("/api/me", json={"name": player.name})).status_code == 200
    made = await alice.post(
        "/api/arenas", {"game": "triangles", "clock": "1+1", "minutes": 3}, url_a
    )
    assert made.status_code == 201, made.text
    arena_id = made.json()["id"]
    watch_a = await Socket(alice, url_a, arena_id).open()
    for player in everyone:
        assert (await player.post(f"/api/arenas/{arena_id}/join")).status_code == 200

    async def all_paired() -> bool:
        return all([await p.game_id(arena_id) for p in everyone])

    await until(all_paired)
    alice_games = []
    finished = 0
    for _ in range(ROUNDS):
        alice_games.append(await alice.game_id(arena_id))
        ended = await play_round(everyone, arena_id, resign_on=url_b)
        assert len(ended) >= PLAYERS // 2 - 1  # two may wait (each other's last opponent)
        finished += len(ended)

        async def most_paired(ended: list[str] = ended) -> bool:
            ids = [await p.game_id(arena_id) for p in everyone]
            return sum(1 for g in ids if g is not None and g not in ended) >= PLAYERS - 2

        await until(most_paired)
    # Alice's socket on A was told each of her pairings after the first: B made them.
    after_first = [g for g in alice_games[1:] if g is not None]
    await until(lambda: _true(set(after_first) <= set(watch_a.paired())), timeout=5)

    standings = await standings_agree(everyone, list(urls), arena_id)
    arena = await alice.get(f"/api/arenas/{arena_id}", url_b)
    games = await stored(alice, arena_id)
    assert violations(games, standings, names, arena["ends_at"]) == []
    before = {row["name"]: row["games"] for row in standings}
    assert sum(len(g) for g in before.values()) == 2 * finished

    # A dies with games under way; its players come to B.
    under_way = {p.id: await p.game_id(arena_id) for p in everyone}
    on_a = [p for p in everyone if p.home == url_a]
    kill_a()
    killed_ms = int(time.time() * 1000)
    for player in on_a:
        player.home = url_b
    watch_b = await Socket(alice, url_b, arena_id).open()
    ended = await play_round(everyone, arena_id, resign_on=url_b)
    assert set(ended) == {g for g in under_way.values() if g is not None}

    async def a_players_paired_again() -> bool:
        ids = [await p.game_id(arena_id) for p in on_a]
        return sum(1 for g in ids if g is not None and g not in ended) >= len(on_a) - 1

    await until(a_players_paired_again)
    games = await stored(alice, arena_id)
    again = {p for g in games if g.started_ms > killed_ms for p in g.seats}
    assert len(again & {p.id for p in on_a}) >= len(on_a) - 1  # B paired A's players
    alice_now = await alice.game_id(arena_id)
    if alice_now is not None and alice_now not in ended:
        await until(lambda: _true(alice_now in watch_b.paired()), timeout=5)
    standings = await standings_agree(everyone, [url_b], arena_id)
    after = {row["name"]: row["games"] for row in standings}
    for name, sheet in before.items():  # nothing committed before the kill was lost
        assert [g["game_id"] for g in after[name][: len(sheet)]] == [g["game_id"] for g in sheet]
    assert violations(games, standings, names, arena["ends_at"]) == []

    # The arena's end, a few seconds ahead: over, one last frame, then silence.
    sockets = [watch_b] + [await Socket(p, url_b, arena_id).open() for p in everyone[1:4]]
    ends_ms = int(time.time() * 1000) + 2_000
    await set_end(arena_id, ends_ms)

    async def over() -> bool:
        return bool((await alice.get(f"/api/arenas/{arena_id}", url_b))["status"] == "over")

    await until(over, timeout=10)
    for socket in sockets:
        await until(lambda s=socket: _true(s.frames[-1][1]["arena"]["status"] == "over"), 5)
    quiet_from = time.monotonic()
    running = {g for g in [await p.game_id(arena_id) for p in everyone] if g is not None}
    for game_id in running:  # ended after the arena: they count for nothing
        seated = [p for p in everyone if await p.game_id(arena_id) == game_id]
        await seated[0].resign(game_id, url_b)
    await asyncio.sleep(2.5)  # two director turns and more: no pairing, no frame
    for socket in sockets:
        late = [f for at, f in socket.frames if at > quiet_from]
        assert late == [], late
        await socket.close()
    games = await stored(alice, arena_id)
    assert all(g.started_ms < ends_ms for g in games)
    final = await standings_agree(everyone, [url_b], arena_id)
    assert violations(games, final, names, ends_ms) == []
    assert all(line["game_id"] not in running for row in final for line in row["games"])
    await watch_a.close()


async def _true(value: bool) -> bool:
    return value


def test_an_arena_on_two_processes_survives_one_killed(two_processes: Any) -> None:
    (process_a, url_a), (_, url_b) = two_processes

    def kill_a() -> None:
        os.kill(process_a.pid, signal.SIGKILL)
        process_a.wait(timeout=10)

    began = time.monotonic()
    asyncio.run(scenario((url_a, url_b), kill_a))
    print(f"\nthe arena on two processes, one killed: {time.monotonic() - began:.1f} s")
