"""SIGTERM, as docker, systemd and Kubernetes send it, to ``python -m app`` serving
online matches with the JSON log (README "Operating it").

At the signal, moves are in flight on every match. ``/readyz`` must answer 503 at once,
every socket must be closed with 1012 within 3 s, and the process must exit by itself,
with status 0, within SHUTDOWN_S. Started again on the same database, every move that was
acknowledged is in its game's log, and every log replays to the stored board. Every line
the process wrote is one JSON object, none a traceback.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.online_client import Match
from tests.servers import fresh_postgres_database, migrate, start_app, stop

SECRET = "drain-secret-".ljust(40, "x")
SHUTDOWN_S = 10
MATCHES = 4


def drained_site_env(tmp_path: Path, name: str, **settings: str) -> dict[str, str]:
    """The environment of a ``python -m app`` that a test drains: JSON logs, ``SHUTDOWN_S``,
    and a migrated database of its own (``name``) so the tests' tables stay untouched."""
    env = {
        **os.environ,
        "SECRET": SECRET,
        "LOG_FORMAT": "json",
        "SHUTDOWN_S": str(SHUTDOWN_S),
        "LIMIT_CREATES_PER_IP_MIN": "1000",
        **settings,
    }
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        env["DATABASE_URL"] = fresh_postgres_database(url, name)
    else:
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
    migrate(env)
    return env


@pytest.fixture
def site_env(tmp_path: Path) -> dict[str, str]:
    return drained_site_env(tmp_path, "drain")


def read_log(path: Path) -> list[dict[str, Any]]:
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # fails on any line that is not JSON
    for line in parsed:
        assert {"time", "level", "logger", "message"} <= line.keys(), line
        assert "exception" not in line and "Traceback" not in line["message"], line
    return parsed


async def test_sigterm_drains_and_loses_no_acknowledged_move(
    site_env: dict[str, str], tmp_path: Path
) -> None:
    process, base_url = start_app(site_env, tmp_path / "first.log")
    try:
        matches = [Match([base_url], SECRET, f"drain-{number}") for number in range(MATCHES)]
        for match in matches:
            await match.start()
            await match.play_one()
        async with httpx.AsyncClient(base_url=base_url) as http:
            for _ in range(3):
                assert (await http.get("/healthz")).status_code == 200
            missing = await http.get("/api/games/nope", headers={"x-request-id": "drain-404"})
            assert missing.status_code == 404
        async with matches[0].http(0) as http:
            stale = await http.post(
                f"/api/games/{matches[0].game_id}/moves",
                json={"version": 0, "move": await matches[0].line()},
                headers={"x-request-id": "drain-409"},
            )
            assert stale.status_code == 409

        await asyncio.gather(*(match.send() for match in matches))  # in flight at the signal
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        async with httpx.AsyncClient(base_url=base_url) as http:
            readyz = await http.get("/readyz")
        unready_s = time.monotonic() - signalled
        sockets = [socket for match in matches for socket in match.sockets]
        await asyncio.wait_for(asyncio.gather(*(s.reader for s in sockets)), timeout=5)
        closed_s = max(s.closed_at or 0 for s in sockets) - signalled
        returncode = await asyncio.to_thread(process.wait, SHUTDOWN_S + 5)
        exit_s = time.monotonic() - signalled
    finally:
        stop(process)
    print(f"drain: /readyz 503 after {unready_s * 1000:.0f} ms, sockets closed after "
          f"{closed_s * 1000:.0f} ms, exit after {exit_s * 1000:.0f} ms")  # fmt: skip
    assert readyz.status_code == 503 and readyz.json()["checks"]["drain"] == "started"
    assert [s.ws.close_code for s in sockets] == [1012] * len(sockets)
    assert closed_s < 3
    assert returncode == 0 and exit_s < SHUTDOWN_S

    process, base_url = start_app(site_env, tmp_path / "second.log")
    try:
        for match in matches:
            match.urls = [base_url]
            await match.check_log()
    finally:
        stop(process)

    lines = read_log(tmp_path / "first.log")
    assert any(
        line["logger"] == "uvicorn.error" and line["message"].startswith("Uvicorn running on")
        for line in lines
    )
    assert not [line for line in lines if line.get("path") == "/healthz"]  # probes: DEBUG only
    socket_lines = [line for line in lines if "/ws/games/" in line["message"]]
    assert len(socket_lines) == 2 * MATCHES  # one per socket: the app's, at its close
    assert {line["code"] for line in socket_lines} == {1012}
    (not_found,) = [line for line in lines if line.get("request_id") == "drain-404"]
    assert not_found["logger"] == "app.access"
    assert (not_found["method"], not_found["route"], not_found["status"]) == (
        "GET", "/api/games/{game_id}", 404,
    )  # fmt: skip
    assert not_found["game_id"] == "nope" and isinstance(not_found["duration_ms"], float)
    (refused,) = [line for line in lines if line.get("request_id") == "drain-409"]
    assert refused["status"] == 409 and refused["game_id"] == matches[0].game_id
    assert re.fullmatch(r"[0-9a-f]{10}", refused["player"])
    assert "drain-0-0-" not in json.dumps(lines)  # never a player's id
