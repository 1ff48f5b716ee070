"""A clock runs out while the process that served the game is dead: the survivor flags it.

Twelve timed games are created across two uvicorn processes (PostgreSQL + Redis) and
both seats draw their first lines (a clock starts with its seat's first line); seat 0's
clock is then shortened in the database to a couple of seconds (waiting out a real minute
would only slow the test down; the row is what every process reads). Process A, which
holds Alice's socket, is killed with SIGKILL before any clock reaches zero. Process B's
sweeper must flag every game on time, exactly once each, and Bob's socket on B must see
the flag without anyone sending anything. Prints the flag delay after zero (server side:
the flag's log stamp minus the moment the clock reached zero).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import time
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from engines.triangles.clock import LAG_MS
from tests.multiprocess.test_two_processes import (  # noqa: F401
    Player,
    legal_line,
    two_processes,
)

FIRST_LINES = 2  # each seat's first line, drawn before the clocks are shortened

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
GAMES = 12

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


async def shorten(game_ids: list[str]) -> None:
    """Give seat 0 of game i 1.5 s + i·100 ms left, as if it had been playing a while."""
    db = create_async_engine(Settings(database_url=DATABASE_URL).async_database_url)
    async with db.begin() as conn:
        for i, game_id in enumerate(game_ids):
            row = (
                await conn.execute(
                    text("SELECT state::text, started_ms FROM games WHERE id = :id"),
                    {"id": game_id},
                )
            ).one()
            state = json.loads(row[0])
            since = row[1] + state["turn_started_ms"]  # Bob's first line: seat 0's clock runs
            left = int((time.time() * 1000) - since) + 1_500 + i * 100
            state["clocks"] = [left, 60_000]
            await conn.execute(
                text(
                    "UPDATE games SET state = CAST(:state AS json), deadline_ms = :deadline "
                    "WHERE id = :id"
                ),
                {
                    "id": game_id,
                    "state": json.dumps(state),
                    "deadline": since + left + LAG_MS,
                },
            )
    await db.dispose()


async def flagged(http: Any, game_id: str, within_s: float = 30) -> dict[str, Any]:
    """The game's log once it holds the flag (waiting on the game's state, not a clock)."""
    deadline = time.monotonic() + within_s
    while True:
        log: dict[str, Any] = (await http.get(f"/api/games/{game_id}/log")).json()
        if len(log["moves"]) > FIRST_LINES or time.monotonic() > deadline:
            return log
        await asyncio.sleep(0.1)


async def scenario(urls: tuple[str, str], kill_first: Any) -> list[int]:
    alice, bob = Player("alice", urls[0]), Player("bob", urls[1])
    game_ids = []
    for _ in range(GAMES):
        async with alice.http() as http:
            created = await http.post(
                "/api/games",
                json={
                    "game": "triangles",
                    "params": {"opponent": "online", "stars": 24, "clock": "1+1"},
                },
            )
            assert created.status_code == 201, created.text
            game_ids.append(created.json()["id"])
        async with bob.http() as http:
            joined = await http.post(f"/api/games/{game_ids[-1]}/join")
            assert joined.json()["status"] == "active"
        for version, player in enumerate((alice, bob)):
            async with player.http() as http:
                move = await legal_line(http, game_ids[-1])
                drawn = await http.post(
                    f"/api/games/{game_ids[-1]}/moves", json={"version": version, "move": move}
                )
                assert drawn.status_code == 200, drawn.text
    await alice.connect(game_ids[0])
    await bob.connect(game_ids[0])
    await shorten(game_ids)
    kill_first()  # A dies holding Alice's socket; nothing is due yet

    flag = await bob.receive("move")  # nobody sends anything
    assert flag["outcome"]["reason"] == "time" and flag["outcome"]["winner"] == 1
    delays = []
    async with bob.http() as http:
        for game_id in game_ids:
            await flagged(http, game_id)
        for game_id in game_ids:  # read again once all are flagged: no second flag since
            game = (await http.get(f"/api/games/{game_id}/log")).json()
            (entry,) = game["moves"][FIRST_LINES:]  # the flag, exactly once
            assert entry["move"] is None
            outcome = (await http.get(f"/api/games/{game_id}")).json()["outcome"]
            assert outcome["reason"] == "time" and outcome["winner"] == 1
            delays.append(entry["at_ms"] - outcome["time_ms"])
    await bob.ws.close()
    return delays


def test_a_killed_process_s_games_are_flagged_by_the_survivor(two_processes: Any) -> None:  # noqa: F811
    (process_a, url_a), (_, url_b) = two_processes

    def kill_first() -> None:
        os.kill(process_a.pid, signal.SIGKILL)
        process_a.wait(timeout=10)

    delays = asyncio.run(scenario((url_a, url_b), kill_first))
    delays.sort()
    print(
        f"\nflag delay after zero over {len(delays)} games: p50 {statistics.median(delays)} ms, "
        f"max {delays[-1]} ms"
    )
    assert all(0 <= d < 1_000 for d in delays), delays
