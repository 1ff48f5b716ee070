"""Quick pairing across two uvicorn processes on PostgreSQL + Redis: 200 players post a
seek with the same time control at once, half to each process, then long-poll until
paired. Exactly 100 games come of it; every player is in exactly one, never against
themselves, and both players of a game were told the same game id."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.identity import COOKIE, CookieSigner
from tests.servers import migrate, start_uvicorn, stop

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
SECRET = "multiprocess-secret"
PLAYERS = 200
CLOCK = "3+2"

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


def clear_pool() -> None:
    """Seeks a previous run left in the pool would pair with this run's."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    async def clear() -> None:
        engine = create_async_engine(Settings(database_url=DATABASE_URL).async_database_url)
        async with engine.begin() as connection:
            await connection.execute(text("DELETE FROM seeks"))
        await engine.dispose()

    asyncio.run(clear())


@pytest.fixture
def two_processes(tmp_path: Path) -> Any:
    env = {
        **os.environ,
        "SECRET": SECRET,
        "LIMIT_SEEKS_PER_IP_MIN": "100000",
        "LIMIT_CREATES_PER_IP_MIN": "100000",
    }
    migrate(env)
    clear_pool()
    first = start_uvicorn(env, tmp_path / "a.log")
    second = start_uvicorn(env, tmp_path / "b.log")
    try:
        yield first[1], second[1]
    finally:
        stop(first[0])
        stop(second[0])


class Seeker:
    def __init__(self, index: int, run: str) -> None:
        self.id = f"sk{index}-{run}-".ljust(22, "0")[:22]  # the form the server issues
        self.headers = {"cookie": f"{COOKIE}={CookieSigner(SECRET).sign(self.id)}"}
        self.game_id: str | None = None

    async def play_now(self, http: httpx.AsyncClient) -> None:
        for _ in range(10):  # a 503 under the burst (a pool wait past its bound) is retried,
            # as the browser retries it after its Retry-After
            posted = await http.post(
                "/api/seeks", json={"game": "triangles", "clock": CLOCK}, headers=self.headers
            )
            if posted.status_code != 503:
                break
            await asyncio.sleep(0.5)
        assert posted.status_code == 200, posted.text
        answer = posted.json()
        deadline = time.monotonic() + 60
        while answer["status"] == "waiting":
            assert time.monotonic() < deadline, f"{self.id} never paired"
            polled = await http.get(
                f"/api/seeks/{answer['seek_id']}", params={"wait": 10}, headers=self.headers
            )
            if polled.status_code == 503:  # the page polls again after a pause, too
                await asyncio.sleep(0.5)
                continue
            assert polled.status_code == 200, polled.text
            answer = {**answer, **polled.json()}
        self.game_id = answer["game_id"]


async def pair_all(urls: tuple[str, str]) -> list[Seeker]:
    run = secrets.token_hex(3)
    seekers = [Seeker(i, run) for i in range(PLAYERS)]
    limits = httpx.Limits(max_connections=PLAYERS, max_keepalive_connections=PLAYERS)
    clients = [httpx.AsyncClient(base_url=url, limits=limits, timeout=30) for url in urls]
    try:
        await asyncio.gather(*(s.play_now(clients[i % 2]) for i, s in enumerate(seekers)))
        # Each player reads their game: seated exactly once, the other seat someone else.
        games: dict[str, list[int]] = {}
        for i, seeker in enumerate(seekers):
            assert seeker.game_id is not None
            game = (
                await clients[i % 2].get(f"/api/games/{seeker.game_id}", headers=seeker.headers)
            ).json()
            assert game["status"] == "active"
            assert len(game["seats"]) == 1, f"{seeker.id} holds seats {game['seats']}"
            games.setdefault(seeker.game_id, []).extend(game["seats"])
        for seats in games.values():
            assert sorted(seats) == [0, 1]
    finally:
        for client in clients:
            await client.aclose()
    return seekers


def test_200_seeks_pair_across_two_processes(two_processes: tuple[str, str]) -> None:
    seekers = asyncio.run(pair_all(two_processes))
    per_game = Counter(s.game_id for s in seekers)
    assert len(per_game) == PLAYERS // 2
    assert set(per_game.values()) == {2}  # both players of every game saw the same id
    assert len({s.id for s in seekers}) == PLAYERS
