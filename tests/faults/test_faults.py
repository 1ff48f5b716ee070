"""Faults: the database or Redis lost at start or mid-match. A relay stands between the
app and the real server, so a test can cut it and restore it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.main import create_app
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock
from tests.faults.relay import Relay, relayed
from tests.servers import ROOT, free_port

REDIS_URL = os.environ.get("REDIS_URL", "")
DATABASE_URL = os.environ.get("DATABASE_URL", "")


def wait_until(check: Any, within_s: float = 15.0) -> float:
    """Seconds until ``check()`` is true (fails the test after ``within_s``)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < within_s, "timed out"
        time.sleep(0.05)
    return time.monotonic() - start


def online_game(alice: Any, bob: Any) -> dict[str, Any]:
    game = alice.new_game("tally", params={"opponent": "online", "limit": 30})
    assert bob.post(f"/api/games/{game['id']}/join").status_code == 200
    return game


def mover(game: dict[str, Any], alice: Any, bob: Any) -> tuple[Any, Any]:
    return (alice, bob) if game["view"]["turn"] == 0 else (bob, alice)


def test_database_unreachable_at_start_exits_with_one_line() -> None:
    port = free_port()  # nothing listens there
    env = {
        **os.environ,
        "SECRET": "faults-secret",
        "DATABASE_URL": f"postgresql://games:hunter2@127.0.0.1:{port}/games",
    }
    env.pop("REDIS_URL", None)
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "uvicorn", "app.asgi:app", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    took = time.monotonic() - started
    assert result.returncode != 0
    assert took < 30, took
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert f"127.0.0.1:{port}" in lines[0] and "hunter2" not in result.stderr


@pytest.fixture
def lost_database(settings: Settings, clock: FakeClock) -> Iterator[tuple[Relay, TestClient]]:
    if not DATABASE_URL.startswith("postgres"):
        pytest.skip("needs a PostgreSQL DATABASE_URL")
    relay, url = relayed(settings.database_url, 5432)
    app = create_app(
        settings.model_copy(update={"database_url": url}), engines={"tally": TALLY}, clock=clock
    )
    try:
        with TestClient(app) as client:
            yield relay, client
    finally:
        relay.close()


def test_database_lost_and_back(
    lost_database: tuple[Relay, TestClient], players: Any, caplog: pytest.LogCaptureFixture
) -> None:
    relay, client = lost_database
    (alice,) = players(client, "alice")
    game = alice.new_game("tally")
    relay.cut()
    with caplog.at_level(logging.WARNING):
        for _ in range(5):
            answer = alice.get(f"/api/games/{game['id']}")
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "database_unavailable"
            assert answer.headers["retry-after"] == "5"
            assert "content-security-policy" in answer.headers
        moved = alice.move(game["id"], 0, {"type": "add", "n": 1})
        assert moved.status_code == 503
        # Alive, but not to be sent traffic (the readiness check is cached for a second).
        assert client.get("/healthz").status_code == 200
        wait_until(lambda: client.get("/readyz").status_code == 503)
        assert client.get("/readyz").json()["checks"]["database"] == "down"
    outage_lines = [r for r in caplog.records if "database unavailable" in r.getMessage()]
    assert len(outage_lines) == 1
    assert not [r for r in caplog.records if r.exc_info]  # no traceback per request
    relay.start()
    took = wait_until(lambda: alice.get(f"/api/games/{game['id']}").status_code == 200)
    print(f"database back: answering again after {took:.2f} s")
    assert alice.move(game["id"], 0, {"type": "add", "n": 1}).status_code == 200
    wait_until(lambda: client.get("/readyz").status_code == 200)


@pytest.fixture
def lost_redis(settings: Settings, clock: FakeClock) -> Iterator[tuple[Relay, TestClient]]:
    if not REDIS_URL:
        pytest.skip("needs REDIS_URL")
    relay, url = relayed(REDIS_URL, 6379)
    app = create_app(
        settings.model_copy(update={"redis_url": url}), engines={"tally": TALLY}, clock=clock
    )
    try:
        with TestClient(app) as client:
            yield relay, client
    finally:
        relay.close()


def test_redis_lost_mid_match_and_back(
    lost_redis: tuple[Relay, TestClient], players: Any
) -> None:
    relay, client = lost_redis
    alice, bob = players(client, "alice", "bob")
    game = online_game(alice, bob)
    first, second = mover(game, alice, bob)
    hub = client.app.state.services.hub  # type: ignore[attr-defined]
    url = f"/ws/games/{game['id']}"
    with second.websocket(url) as watcher:
        assert watcher.receive_json()["type"] == "state"
        relay.cut()
        wait_until(lambda: not hub._connected.is_set())
        loaded = alice.get(f"/api/games/{game['id']}")
        assert loaded.status_code == 200, loaded.text
        assert loaded.json()["presence"][0] == {"connected": False, "away_ms": None}
        moved = first.move(game["id"], 0, {"type": "add", "n": 1})
        assert moved.status_code == 200, moved.text
        frames = [watcher.receive_json() for _ in range(1)]
        while frames[-1]["type"] != "move":
            frames.append(watcher.receive_json())
        assert frames[-1]["version"] == 1  # local sockets keep getting moves
        with first.websocket(url) as refused, pytest.raises(WebSocketDisconnect) as closed:
            refused.receive_json()
        assert closed.value.code == 1013  # told at once to come back later
        # Reported, but still ready: moves and reads go on without Redis.
        wait_until(lambda: client.get("/readyz").json()["checks"].get("redis") == "down")
        assert client.get("/readyz").status_code == 200
        assert hub.connected is False  # what nook_hub_connected reads
        relay.start()
        took = wait_until(hub._connected.is_set)
        print(f"redis back: hub reconnected after {took:.2f} s")
        resync = watcher.receive_json()
        while resync["type"] != "state":
            resync = watcher.receive_json()
        assert resync["version"] == 1  # the socket resynced by itself
    with first.websocket(url) as again:
        assert again.receive_json()["type"] == "state"


def test_redis_lost_a_seek_still_pairs(settings: Settings, clock: FakeClock, players: Any) -> None:
    """Without Redis, the long-poll cannot be woken by another process: it finds the
    pairing by re-reading the pool (``seek_recheck_ms``) instead."""
    if not REDIS_URL:
        pytest.skip("needs REDIS_URL")
    import threading

    relay, url = relayed(REDIS_URL, 6379)
    app = create_app(settings.model_copy(update={"redis_url": url}), clock=clock)
    try:
        with TestClient(app) as client:
            alice, bob = players(client, "alice", "bob")
            hub = client.app.state.services.hub  # type: ignore[attr-defined]
            wait_until(hub._connected.is_set)
            relay.cut()
            wait_until(lambda: not hub._connected.is_set())
            posted = alice.post("/api/seeks", json={"game": "triangles", "clock": "3+2"})
            assert posted.status_code == 200, posted.text
            seek_id = posted.json()["seek_id"]
            answers: list[Any] = []
            poll = threading.Thread(
                target=lambda: answers.append(alice.get(f"/api/seeks/{seek_id}?wait=20"))
            )
            poll.start()
            seeks = client.app.state.services.seeks  # type: ignore[attr-defined]
            wait_until(lambda: seek_id in seeks.polls)
            paired = bob.post("/api/seeks", json={"game": "triangles", "clock": "3+2"})
            assert paired.status_code == 200, paired.text
            took = wait_until(lambda: bool(answers), within_s=10)
            print(f"redis lost: the poll saw the pairing after {took:.2f} s")
            assert answers[0].json()["game_id"] == paired.json()["game_id"]
            poll.join()
    finally:
        relay.close()


class ServerError(Exception):
    """What asyncpg raises, as SQLAlchemy's asyncpg dialect adapts it: a SQLSTATE."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"server error {sqlstate}")
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("sqlstate", "outage"),
    [
        ("53300", True),  # too many connections: PostgreSQL full, not a bad query
        ("57P01", True),  # the server is shutting down
        ("57P03", True),  # the server is starting up
        ("08006", True),  # the connection failed
        ("23505", False),  # a unique violation is the app's business
        ("42P01", False),  # an unknown table is a bug, not an outage
    ],
)
def test_a_database_that_cannot_take_work_is_an_outage(sqlstate: str, outage: bool) -> None:
    from sqlalchemy.exc import DBAPIError

    from app.outage import is_outage

    error = DBAPIError("SELECT 1", None, ServerError(sqlstate))
    assert is_outage(error) is outage
