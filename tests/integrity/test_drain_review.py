"""SIGTERM while reviews run, to ``python -m app`` (README "Operating it", docs/review.md).

Reviews of three 180-star games (seconds of search each) and of a small one are
pending, one running, when the signal comes. The process must exit by itself, with status
0, within SHUTDOWN_S: the reviews are dropped (their workers killed), not waited for (the
process used to live until every queued review was done). Nothing of them is stored;
started again on the same database, the server knows none of them (``none``),
and asked again, a review starts again and is stored.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Review
from engines.core.replay import replay as fold_log
from engines.triangles import ENGINE as TRIANGLES
from tests.integrity.test_drain import SHUTDOWN_S, drained_site_env, read_log
from tests.servers import start_app, stop

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

STARS = (180, 180, 180, 24)  # the small one last: still queued at the signal
RUNNING_CPU_S = 2.0  # a worker that has thought this long is reviewing (a start is < 1 s)


@pytest.fixture
def site_env(tmp_path: Path) -> dict[str, str]:
    return drained_site_env(tmp_path, "reviewdrain", ENGINE_WORKERS="2")


async def finished_game(http: httpx.AsyncClient, stars: int) -> str:
    """A game played to its end on one device, its lines chosen here by the easy
    computer."""
    field = "phone" if stars == 24 else "tablet"
    params = {"field": field, "stars": stars, "opponent": "human"}
    created = (await http.post("/api/games", json={"game": "triangles", "params": params})).json()
    log = (await http.get(f"/api/games/{created['id']}/log")).json()
    state = fold_log(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    version = created["version"]
    while not state.over:
        move = TRIANGLES.computer_move(
            replace(state, params=replace(state.params, opponent="easy"))
        )
        body = {"version": version, "move": TRIANGLES.dump_move(move)}
        answer = await http.post(f"/api/games/{created['id']}/moves", json=body)
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        state, _ = TRIANGLES.apply(state, move, 0, state.turn)
    return str(created["id"])


def busiest_child_cpu_s(pid: int) -> float:
    """The most CPU time (s) any child process of ``pid`` has used."""
    ticks = os.sysconf("SC_CLK_TCK")
    most = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:  # fields: state, ppid, ..., utime (11), stime (12)
            most = max(most, (int(fields[11]) + int(fields[12])) / ticks)
    return most


async def stored_reviews(database_url: str, game_ids: list[str]) -> dict[str, Any]:
    """The reviews the database holds for these games, by game id."""
    engine = create_async_engine(Settings(database_url=database_url).async_database_url)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                select(Review.game_id, Review.body).where(Review.game_id.in_(game_ids))
            )
            return {game_id: body for game_id, body in rows}
    finally:
        await engine.dispose()


async def test_sigterm_drops_running_reviews_and_exits_within_shutdown_s(
    site_env: dict[str, str], tmp_path: Path
) -> None:
    process, base_url = start_app(site_env, tmp_path / "first.log")
    try:
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as owner:
            assert (await owner.get("/api/me/games")).status_code == 200  # the cookie, once
            games = await asyncio.gather(*(finished_game(owner, stars) for stars in STARS))
        for pair in (games[:2], games[2:]):  # two askers: two reviews pending each
            async with httpx.AsyncClient(base_url=base_url) as asker:
                for game_id in pair:
                    asked = await asker.post(f"/api/games/{game_id}/review")
                    assert (asked.status_code, asked.json()) == (202, {"status": "pending"})
        deadline = time.monotonic() + 60
        while busiest_child_cpu_s(process.pid) < RUNNING_CPU_S:  # a review is running
            assert time.monotonic() < deadline, "no review started"
            await asyncio.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        returncode = await asyncio.to_thread(process.wait, SHUTDOWN_S + 30)
        exit_s = time.monotonic() - signalled
    finally:
        stop(process)
    print(f"drain with {len(games)} reviews pending: exit after {exit_s * 1000:.0f} ms")
    assert returncode == 0 and exit_s < SHUTDOWN_S
    assert await stored_reviews(site_env["DATABASE_URL"], games) == {}  # nothing half-stored

    process, base_url = start_app(site_env, tmp_path / "second.log")
    try:
        async with httpx.AsyncClient(base_url=base_url) as http:
            for game_id in games:  # forgotten with the process
                missing = await http.get(f"/api/games/{game_id}/review")
                assert (missing.status_code, missing.json()["status"]) == (200, "none")
            url = f"/api/games/{games[3]}/review"
            assert (await http.post(url)).status_code == 202  # asked again: it starts again
            deadline = time.monotonic() + 60
            while (answer := await http.get(url)).json()["status"] == "pending":
                assert time.monotonic() < deadline, "the review asked again never ended"
                await asyncio.sleep(0.2)
        body = answer.json()
    finally:
        stop(process)
    assert body["status"] == "done" and len(body["plies"]) > 0
    stored = await stored_reviews(site_env["DATABASE_URL"], games)
    assert stored == {games[3]: {key: value for key, value in body.items() if key != "status"}}
    read_log(tmp_path / "first.log")  # every line JSON, none a traceback
