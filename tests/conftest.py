"""Shared fixtures: a migrated database (SQLite file, or PostgreSQL when DATABASE_URL is
set), the app with a replaceable clock, and per-player HTTP clients."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import http.cookiejar
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from hypothesis import settings as hypothesis_settings
from sqlalchemy import make_url, text

from app.config import Settings
from app.identity import COOKIE, CookieSigner
from app.main import create_app
from tests.qualify import qualify
from tests.workers import isolate_stores

ROOT = Path(__file__).resolve().parent.parent
TABLES = (
    "arena_players",
    "arenas",
    "push_subscriptions",
    "seeks",
    "transfers",
    "records",
    "rating_opponents",
    "rated_addresses",
    "ratings",
    "reviews",
    "moves",
    "games",
    "daily",
    "players",
)
START_MS = 1_795_000_000_000  # 2026-11-18, a fixed server time for tests

# make check runs HYPOTHESIS_PROFILE=quick (tests/profile.py scales the explicit counts)
hypothesis_settings.register_profile("quick", max_examples=10)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config: pytest.Config) -> None:
    isolate_stores()  # an xdist worker's own database and Redis number (tests/workers.py)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting imported (the app, the engines, Hypothesis, Playwright) is left out
    of every later collection, as a server leaves out its start-up objects
    (app/collector.py, ``tune_for_serving``). Each app a test starts measures the old
    generation (``collect_young_forever``), and a walk over every imported module's
    objects was 14 % of the API tests' time."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """A test outside the browser tests runs with no event loop marked as running in this
    thread, as in a process of its own: the browser tests' Playwright (sync API, one a
    worker) leaves its loop marked between its calls, and asyncio.run() would refuse to
    start. The mark is put back for the next browser test's calls."""
    playwright_loop = asyncio._get_running_loop()
    if playwright_loop is None or item.get_closest_marker("e2e"):
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(playwright_loop)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked slow first (in their order, the rest in theirs): on the cores
    (pytest-xdist) a minute-long test that starts last is a tail one core waits out alone,
    and one that waits on a real clock early has the other core's work beside it."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def migrate(database_url: str) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = database_url
    command.upgrade(config, "head")


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        settings = Settings(database_url=url)
        _reset_postgres(settings.async_database_url)
    else:
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'test.sqlite3'}"
    migrate(url)
    return url


def _reset_postgres(async_url: str) -> None:
    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    async def reset() -> None:
        engine = create_async_engine(async_url)
        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
        await engine.dispose()

    asyncio.run(reset())


def _clean(database_url: str) -> None:
    """Empty every table before a test: on SQLite through the standard library (an
    engine and an event loop per test cost more than the deletes)."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        with contextlib.closing(sqlite3.connect(str(url.database))) as connection, connection:
            for table in TABLES:
                connection.execute(f"DELETE FROM {table}")
        return

    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    async def clean() -> None:
        engine = create_async_engine(Settings(database_url=database_url).async_database_url)
        async with engine.begin() as conn:
            for table in TABLES:
                await conn.execute(text(f"DELETE FROM {table}"))
        await engine.dispose()

    asyncio.run(clean())


class FakeClock:
    def __init__(self) -> None:
        self.ms = START_MS

    def now_ms(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _clean_redis() -> None:
    """Limits, presence and slots kept in Redis would otherwise carry from test to test."""
    url = os.environ.get("REDIS_URL")
    if url:
        import redis

        client = redis.Redis.from_url(url)
        client.flushdb()
        client.close()


@pytest.fixture
def settings(database_url: str) -> Settings:
    _clean(database_url)
    _clean_redis()
    return Settings(
        database_url=database_url,
        redis_url=os.environ.get("REDIS_URL") or None,
        secret="test-secret",
        # no site-run arenas (tests/api/test_arenas.py turns them on), a quick pairing
        arena_hourly="",
        arena_evening="",
        arena_pair_every_ms=100,
    )


def player_id_for(name: str) -> str:
    """A readable id of the form the server issues (22 url-safe characters)."""
    return f"{name}-".ljust(22, "0")[:22]


class _KeepNoCookies(http.cookiejar.DefaultCookiePolicy):
    """A players' client stores no cookie the server sets: each Player sends its own."""

    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


class Player:
    """One player's HTTP view of the app: every request carries their signed cookie.

    Players share their client, from several threads in the long-poll tests, so the
    client's cookie jar is kept empty rather than cleared before each request."""

    def __init__(self, client: TestClient, player_id: str, signer: CookieSigner) -> None:
        self.client = client
        self.id = player_id
        self.cookie = f"{COOKIE}={signer.sign(player_id)}"

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        headers = {"cookie": self.cookie, **kwargs.pop("headers", {})}
        return self.client.request(method, url, headers=headers, **kwargs)

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.request("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> Any:
        return self.request("PUT", url, **kwargs)

    def websocket(self, url: str) -> Any:
        return self.client.websocket_connect(url, headers={"cookie": self.cookie})

    def new_game(self, game: str, **body: Any) -> dict[str, Any]:
        response = self.post("/api/games", json={"game": game, **body})
        assert response.status_code == 201, response.text
        return response.json()  # type: ignore[no-any-return]

    def move(self, game_id: str, version: int, move: dict[str, Any]) -> Any:
        return self.post(f"/api/games/{game_id}/moves", json={"version": version, "move": move})

    def ready_for_rated(self, name: str) -> None:
        """Name the player and finish the Triangles games rated play asks for first
        (``app.fair_play``), as cheaply as the rules allow (``tests.qualify``)."""
        assert self.put("/api/me", json={"name": name}).status_code == 200
        qualify(self._ok_post, self._ok_get)

    def _ok_post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.post(url, json=body)
        assert response.status_code in (200, 201), response.text
        return response.json()  # type: ignore[no-any-return]

    def _ok_get(self, url: str) -> dict[str, Any]:
        response = self.get(url)
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]


@pytest.fixture
def make_client(settings: Settings, clock: FakeClock) -> Iterator[Any]:
    """``make_client(engines=None)`` → a started TestClient; closed after the test."""
    clients: list[TestClient] = []

    def make(engines: Any = None) -> TestClient:
        client = TestClient(create_app(settings, engines=engines, clock=clock))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def players(settings: Settings) -> Any:
    signer = CookieSigner(settings.secret)

    def make(client: TestClient, *names: str) -> list[Player]:
        client.cookies.clear()
        client.cookies.jar.set_policy(_KeepNoCookies())
        return [Player(client, player_id_for(name), signer) for name in names]

    return make
