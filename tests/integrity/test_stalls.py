"""A dependency that goes silent (a network partition: connections stay open, no byte
passes) must not hang a request: it answers 503 ``database_unavailable`` within 10 s,
and the next request after the network heals is served. At start-up, a database that
refuses or stalls ends the process within the README's 15 s."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.i18n import catalog
from app.main import create_app
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock
from tests.faults.relay import Relay, relayed
from tests.servers import ROOT, free_port

DATABASE_URL = os.environ.get("DATABASE_URL", "")
BOUND_S = 10.0  # a request answers within this, whatever the database does
STARTUP_BOUND_S = 15.0 + 2.0  # the README's 15 s, and Python's own start-up


def answered_within(
    calls: list[Callable[[], Any]], bound_s: float, release: Callable[[], None]
) -> list[Any]:
    """Run ``calls`` at once, each on a thread, and return their answers; fail if any is
    still waiting after ``bound_s`` (after ``release()``, which lets the threads end)."""
    answers: dict[int, Any] = {}
    threads = [
        threading.Thread(target=lambda i=i, call=call: answers.__setitem__(i, call()))
        for i, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + bound_s
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    hung = sum(thread.is_alive() for thread in threads)
    if hung:
        release()
        for thread in threads:
            thread.join(timeout=120)
        pytest.fail(f"{hung} of {len(calls)} requests still waiting after {bound_s:.0f} s")
    return [answers[i] for i in range(len(calls))]


def assert_unavailable(answer: Any) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.json()["error"]["code"] == "database_unavailable"
    assert answer.headers["retry-after"] == "5"


@pytest.fixture
def database_relay(settings: Settings) -> Iterator[tuple[Relay, Settings]]:
    if not DATABASE_URL.startswith("postgres"):
        pytest.skip("needs a PostgreSQL DATABASE_URL")
    relay, url = relayed(settings.database_url, 5432)
    try:
        yield relay, settings.model_copy(update={"database_url": url})
    finally:
        relay.resume()
        relay.close()


def create(player: Any) -> Callable[[], Any]:
    return lambda: player.post("/api/games", json={"game": "tally"})


# pooled: the request's connection is open already (the statement stalls); fresh: the pool
# is empty (the connect stalls); queued: two requests, one connection (the second waits
# for it, then stalls in turn).
@pytest.mark.parametrize("case", ["pooled", "fresh", "queued"])
def test_a_stalled_database_answers_503_within_10_s_and_recovers(
    database_relay: tuple[Relay, Settings], clock: FakeClock, players: Any, case: str
) -> None:
    relay, settings = database_relay
    if case == "queued":
        settings = settings.model_copy(update={"db_pool_size": 1, "db_max_overflow": 0})
    if case == "fresh":
        relay.stall()
    app = create_app(settings, engines={"tally": TALLY}, clock=clock)
    with TestClient(app) as client:
        alice, bob = players(client, "alice", "bob")
        if case != "fresh":
            alice.new_game("tally")  # the pool holds an open connection
            relay.stall()
        calls = [create(alice), create(bob)] if case == "queued" else [create(alice)]
        started = time.monotonic()
        answers = answered_within(calls, BOUND_S, relay.resume)
        print(f"{case}: {len(answers)} answered in {time.monotonic() - started:.2f} s")
        for answer in answers:
            assert_unavailable(answer)
        relay.resume()
        after = alice.post("/api/games", json={"game": "tally"})
        assert after.status_code == 201, after.text


def test_a_socket_on_a_stalled_database_is_told_to_come_back(
    database_relay: tuple[Relay, Settings], clock: FakeClock, players: Any
) -> None:
    relay, settings = database_relay
    with TestClient(create_app(settings, engines={"tally": TALLY}, clock=clock)) as client:
        (alice,) = players(client, "alice")
        game = alice.new_game("tally")
        relay.stall()

        def close_code() -> int | None:
            with alice.websocket(f"/ws/games/{game['id']}") as socket:
                try:
                    socket.receive_json()
                except WebSocketDisconnect as closed:
                    return closed.code
            return None  # it was served

        (code,) = answered_within([close_code], BOUND_S, relay.resume)
        assert code == 1013  # try again later
        relay.resume()
        with alice.websocket(f"/ws/games/{game['id']}") as socket:
            assert socket.receive_json()["type"] == "state"


def test_a_locked_sqlite_file_answers_503_within_10_s(
    settings: Settings, clock: FakeClock, players: Any
) -> None:
    """Another program holds SQLite's write lock: a create waits the busy timeout, then
    answers 503 (it waited 30 s before)."""
    if not settings.is_sqlite:
        pytest.skip("SQLite's busy timeout")
    path = settings.async_database_url.split(":///", 1)[1]
    with TestClient(create_app(settings, engines={"tally": TALLY}, clock=clock)) as client:
        (alice,) = players(client, "alice")
        alice.new_game("tally")
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            holder.execute("BEGIN IMMEDIATE")  # the write lock, until rolled back
            started = time.monotonic()
            (answer,) = answered_within([create(alice)], BOUND_S, holder.rollback)
            print(f"locked: answered in {time.monotonic() - started:.2f} s")
            assert_unavailable(answer)
        finally:
            holder.rollback()
            holder.close()
        assert alice.post("/api/games", json={"game": "tally"}).status_code == 201


def exits_within(database_url: str, bound_s: float) -> tuple[float, list[str]]:
    """Start ``python -m app`` on ``database_url``; the seconds until it ended non-zero,
    and the lines it wrote to stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ("HOST", "REDIS_URL")}
    env.update(SECRET="stalls-secret", PORT=str(free_port()), DATABASE_URL=database_url)
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, stderr = process.communicate(timeout=bound_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"the server was still starting after {bound_s:.0f} s")
    took = time.monotonic() - started
    assert process.returncode != 0
    return took, [line for line in stderr.splitlines() if line.strip()]


@pytest.mark.parametrize("database", ["refusing", "stalled"])
def test_an_unreachable_database_at_start_ends_the_process_within_15_s(
    database: str,
) -> None:
    relay: Relay | None = None
    if database == "refusing":
        port = free_port()  # nothing listens there
    else:
        relay = Relay("127.0.0.1", free_port())  # nothing listens behind it either
        relay.start()
        relay.stall()
        port = relay.port
    try:
        url = f"postgresql://games:hunter2@127.0.0.1:{port}/games"
        took, lines = exits_within(url, STARTUP_BOUND_S)
    finally:
        if relay is not None:
            relay.close()
    print(f"{database}: the process ended after {took:.2f} s")
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: the database (postgresql at ") and "hunter2" not in lines[0]
    assert f"127.0.0.1:{port}/games" in lines[0]


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_a_player_reads_why_in_their_language(lang: str) -> None:
    """The page shows ``error.database_unavailable`` (it showed the generic "something
    went wrong" before)."""
    words = catalog(lang)
    assert words["error.database_unavailable"] != words["error.generic"]
