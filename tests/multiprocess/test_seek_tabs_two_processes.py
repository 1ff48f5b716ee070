"""Two tabs never pair one player twice, across two ``python -m app`` processes on
PostgreSQL + Redis (README "Quick pairing").

Each round, player P posts two seeks at the same instant (one tab on each process) and
two other players post one seek each, all four at once. The waiting pages then poll
until at most one player is left in the pool. Afterwards, read from the database: P is
in at most one game, every game has two distinct players, nobody in a game still has
an open seek, and every tab that was answered ``paired`` names its player's one game.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config import Settings
from app.identity import COOKIE, CookieSigner
from tests.servers import fresh_postgres_database, migrate, start_app, stop

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
SECRET = "seek-tabs-secret-".ljust(40, "x")
CLOCK = "3+2"
SETTLE_S = 20.0

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


@dataclass
class Tab:
    """One page of one player on one process; ``answer`` is its last seek state
    (``gone``: its seek was dropped by the player's other tab)."""

    player: str
    http: httpx.AsyncClient
    answer: dict[str, Any] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={CookieSigner(SECRET).sign(self.player)}"}

    @property
    def waiting(self) -> bool:
        return self.answer.get("status") == "waiting"

    async def send(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """A request, sent again after a 503 as the page does (a busy machine can make a
        request outwait its database pool bound)."""
        for _ in range(10):
            response = await self.http.request(method, url, headers=self.headers, **kwargs)
            if response.status_code != 503:
                break
            await asyncio.sleep(0.5)
        return response

    async def post(self) -> None:
        response = await self.send("POST", "/api/seeks", json={"game": "triangles", "clock": CLOCK})
        assert response.status_code == 200, response.text
        self.answer = response.json()

    async def poll(self) -> None:
        response = await self.send(
            "GET", f"/api/seeks/{self.answer['seek_id']}", params={"wait": 0}
        )
        if response.status_code == 404:
            self.answer = {"status": "gone"}
            return
        assert response.status_code == 200, response.text
        self.answer = {**self.answer, **response.json()}

    async def leave(self) -> None:
        """Cancel a seek still waiting at the end of the round (it would pair with the
        next round's players); a seek paired meanwhile names its game."""
        response = await self.send("DELETE", f"/api/seeks/{self.answer['seek_id']}")
        if response.status_code == 409:
            self.answer = {"status": "paired", **response.json()["error"]["details"]}
        else:
            assert response.status_code in (204, 404), response.text
            self.answer = {"status": "gone"}


async def settle(tabs: list[Tab]) -> None:
    """Poll the waiting tabs (each poll re-reads the pool and matches it) until at most
    one player is left waiting."""
    deadline = time.monotonic() + SETTLE_S
    while len({tab.player for tab in tabs if tab.waiting}) > 1:
        assert time.monotonic() < deadline, f"the pool never settled: {tabs}"
        await asyncio.gather(*(tab.poll() for tab in tabs if tab.waiting))


async def check(db: AsyncEngine, tabs: list[Tab]) -> list[str]:
    """What is wrong with the round's stored games and seeks (nothing: [])."""
    ids = sorted({tab.player for tab in tabs})
    async with db.connect() as connection:
        games = (
            await connection.execute(
                text(
                    "SELECT id, owner_id, guest_id FROM games "
                    "WHERE owner_id = ANY(:ids) OR guest_id = ANY(:ids)"
                ),
                {"ids": ids},
            )
        ).all()
        open_seeks = (
            await connection.execute(
                text("SELECT player_id FROM seeks WHERE game_id IS NULL AND player_id = ANY(:ids)"),
                {"ids": ids},
            )
        ).all()
    wrong: list[str] = []
    game_of: dict[str, list[str]] = {player: [] for player in ids}
    for game_id, owner, guest in games:
        if guest is None or owner == guest:
            wrong.append(f"game {game_id} has players {owner}, {guest}")
        for seat in {owner, guest} - {None}:
            game_of[seat].append(game_id)
    for player, held in game_of.items():
        if len(held) > 1:
            wrong.append(f"{player} is in {len(held)} games")
        if held and any(row.player_id == player for row in open_seeks):
            wrong.append(f"{player} is in a game and still has an open seek")
    for tab in tabs:
        told = tab.answer.get("game_id") if tab.answer.get("status") == "paired" else None
        if told is not None and told not in game_of[tab.player]:
            wrong.append(f"a tab of {tab.player} was sent to {told}, not its game")
    return wrong


async def one_round(clients: list[httpx.AsyncClient], db: AsyncEngine, number: int) -> list[str]:
    run = secrets.token_hex(3)
    p, q, r = (f"{name}{number}-{run}-".ljust(22, "0")[:22] for name in ("p", "q", "r"))
    side = number % 2  # the other two players alternate between the processes
    tabs = [
        Tab(p, clients[0]),
        Tab(p, clients[1]),
        Tab(q, clients[side]),
        Tab(r, clients[1 - side]),
    ]
    await asyncio.gather(*(tab.post() for tab in tabs))
    await settle(tabs)
    wrong = await check(db, tabs)
    await asyncio.gather(*(tab.leave() for tab in tabs if tab.waiting))
    return wrong


async def rounds(urls: tuple[str, str], database_url: str, count: int) -> list[str]:
    db = create_async_engine(Settings(database_url=database_url).async_database_url)
    clients = [httpx.AsyncClient(base_url=url, timeout=30) for url in urls]
    failures: list[str] = []
    try:
        for number in range(count):
            wrong = await one_round(clients, db, number)
            if wrong:
                failures.append(f"round {number}: " + "; ".join(wrong))
    finally:
        for client in clients:
            await client.aclose()
        await db.dispose()
    return failures


@pytest.fixture
def two_apps(tmp_path: Path) -> Any:
    database_url = fresh_postgres_database(DATABASE_URL, "seektabs")
    env = {
        **os.environ,
        "SECRET": SECRET,
        "DATABASE_URL": database_url,
        "LIMIT_SEEKS_PER_IP_MIN": "1000000",
    }
    migrate(env)
    first = start_app(env, tmp_path / "a.log")
    try:
        second = start_app(env, tmp_path / "b.log")
    except BaseException:
        stop(first[0])
        raise
    try:
        yield (first[1], second[1]), database_url
    finally:
        stop(first[0])
        stop(second[0])


@pytest.mark.slow
def test_two_tabs_never_pair_one_player_twice_in_200_rounds(two_apps: Any) -> None:
    urls, database_url = two_apps
    failures = asyncio.run(rounds(urls, database_url, 200))
    assert failures == [], f"{len(failures)} of 200 rounds went wrong: {failures}"


def test_two_tabs_never_pair_one_player_twice(two_apps: Any) -> None:
    urls, database_url = two_apps
    failures = asyncio.run(rounds(urls, database_url, 20))
    assert failures == [], f"{len(failures)} of 20 rounds went wrong: {failures}"
