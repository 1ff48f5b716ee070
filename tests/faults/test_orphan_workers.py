"""A server killed outright (SIGKILL, a crash) cannot shut its engine worker pool down:
its workers notice that their server is gone and end, instead of waiting on their queue
for ever with their memory (app/workers.py, _exit_with)."""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.servers import migrate, start_uvicorn, stop


def children_of(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_engine_workers_end_when_their_server_is_killed() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/orphans.db", "ENGINE_WORKERS": "2"}
        env["SECRET"] = "orphan-test-secret-".ljust(32, "x")
        env.pop("REDIS_URL", None)
        migrate(env)
        server, base_url = start_uvicorn(env, Path(tmp) / "uvicorn.log")
        try:
            # A large Triangles board is built in the worker pool: the pool starts.
            body = json.dumps({"game": "triangles", "params": {"opponent": "hard", "stars": 180,
                                                               "field": "tablet"}}).encode()
            request = urllib.request.Request(
                f"{base_url}/api/games", data=body, headers={"content-type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=60) as response:
                assert response.status == 201
            deadline = time.monotonic() + 30
            while not (workers := children_of(server.pid)) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert workers, "the server started no worker"
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            deadline = time.monotonic() + 30
            while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert [pid for pid in workers if alive(pid)] == []
        finally:
            stop(server)
