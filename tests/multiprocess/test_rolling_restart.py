"""A rolling restart of two ``python -m app`` processes on PostgreSQL + Redis, while
online matches go on (README "Operating it": drain and rolling deploys).

Each match has one player on each process. Process A gets SIGTERM and drains (its
players reconnect to B at the 1012, as browsers do), exits 0 and is started again; then
the same for B. No acknowledged move is lost, every log replays to its stored board,
and the matches went on moving through both restarts.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.online_client import Match
from tests.servers import fresh_postgres_database, migrate, start_app, stop

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
SECRET = "rolling-secret-".ljust(40, "x")
SHUTDOWN_S = 10
MATCHES = 6

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


async def restart(
    process: subprocess.Popen[bytes], env: dict[str, str], log: Path, port: int
) -> subprocess.Popen[bytes]:
    """SIGTERM, a clean exit within SHUTDOWN_S, and the same process started again."""
    process.send_signal(signal.SIGTERM)
    assert await asyncio.to_thread(process.wait, SHUTDOWN_S) == 0
    started, _ = await asyncio.to_thread(start_app, env, log, port)
    return started


async def test_rolling_restart_loses_no_acknowledged_move(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "SECRET": SECRET,
        "SHUTDOWN_S": str(SHUTDOWN_S),
        "LIMIT_CREATES_PER_IP_MIN": "1000",
        "DATABASE_URL": fresh_postgres_database(DATABASE_URL, "rolling"),
    }
    migrate(env)
    first, url_a = start_app(env, tmp_path / "a.log")
    second, url_b = start_app(env, tmp_path / "b.log")
    ports = [int(url.rsplit(":", 1)[1]) for url in (url_a, url_b)]
    matches: list[Match] = []
    stop_playing = asyncio.Event()

    async def keep_playing(slot: int) -> None:
        """One match after another in this slot (a match that ends makes way)."""
        number = 0
        while not stop_playing.is_set():
            match = Match([url_a, url_b], SECRET, f"roll-{slot}-{number}")
            number += 1
            await match.start()
            matches.append(match)
            await match.play_through_restarts(stop_playing, lambda: 0.1)
            await match.close()

    def acked() -> int:
        return sum(len(m.acked.union(*(s.acks for s in m.sockets))) for m in matches)

    async def progress(beyond: int) -> int:
        """Wait until the matches have acknowledged MATCHES more lines than ``beyond``."""
        async with asyncio.timeout(60):
            while acked() < beyond + MATCHES:
                await asyncio.sleep(0.1)
        return acked()

    try:
        playing = [asyncio.create_task(keep_playing(slot)) for slot in range(MATCHES)]
        before = await progress(0)
        first = await restart(first, env, tmp_path / "a.log", ports[0])
        between = await progress(before)  # play goes on through A's restart
        second = await restart(second, env, tmp_path / "b.log", ports[1])
        after = await progress(between)  # and through B's
        stop_playing.set()
        await asyncio.wait_for(asyncio.gather(*playing), timeout=60)
        for match in matches:
            await match.check_log()
    finally:
        stop(first)
        stop(second)
    print(f"rolling restart: {before} lines before, {between} after A's, {after} after B's")
    for log in ("a.log", "b.log"):
        assert "Traceback" not in (tmp_path / log).read_text()
