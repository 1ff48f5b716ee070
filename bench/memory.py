"""Memory figures: run as ``.venv/bin/python bench/memory.py [--verifies N] [--games M]``.

Starts one ``uvicorn app.asgi:app`` process on a fresh SQLite database (in-process hub,
no Redis; SECRET set, the verify and create limits raised: every request comes from one
cookie on 127.0.0.1), then:

1. verifies N distinct 180-star Triangles numbers (``POST /api/verify`` with an empty
   log: the board is built all the same, on a thread of the main process, and kept in
   its board cache);
2. creates M 180-star Triangles games (hot seat, random boards: each one is built in the
   engine worker pool and comes back to the main process with its state, which the
   live-games cache keeps).

It prints the main process's resident memory (VmRSS of ``/proc/<pid>/status``, and its
peak VmHWM) before, every ``--every`` requests and after each part, and the workers'
resident memory at the end. 180-star boards take up to ~200 ms each to build on a small
machine: N = 1000 takes a few minutes. Loopback only; every loop is bounded.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.identity import COOKIE, CookieSigner  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

SECRET = "bench-memory-secret-".ljust(32, "x")
FIRST_SEED = 30_000_000  # verified numbers are FIRST_SEED, FIRST_SEED + 1, ...
STARS_LETTER = "f"  # tablet, 180 stars
GAME = {"game": "triangles", "params": {"field": "tablet", "stars": 180, "opponent": "human"}}
REQUEST_TIMEOUT_S = 60


def status_kib(pid: int, field: str) -> int:
    """A ``/proc/<pid>/status`` figure in KiB (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found.extend(int(child) for child in task.read_text().split())
        except OSError:
            pass
    return found


def mib(kib: int) -> str:
    return f"{kib / 1024:7.1f} MiB"


def figure(pid: int, label: str) -> int:
    rss = status_kib(pid, "VmRSS")
    print(f"  {label:<40} RSS {mib(rss)}   peak {mib(status_kib(pid, 'VmHWM'))}", flush=True)
    return rss


def verify_boards(http: httpx.Client, pid: int, count: int, every: int) -> None:
    began = time.monotonic()
    for index in range(count):
        number = f"{FIRST_SEED + index:08d}-{STARS_LETTER}"
        answer = http.post("/api/verify", json={"game": "triangles", "number": number, "log": []})
        if answer.status_code != 200:
            raise RuntimeError(f"verify {number}: {answer.status_code} {answer.text}")
        if (index + 1) % every == 0 and index + 1 < count:
            figure(pid, f"after {index + 1} verified")
    took = time.monotonic() - began
    print(f"  ({count} verified in {took:.1f} s, {1000 * took / max(count, 1):.0f} ms each)")


def create_games(http: httpx.Client, pid: int, count: int, every: int) -> None:
    began = time.monotonic()
    for index in range(count):
        answer = http.post("/api/games", json=GAME)
        if answer.status_code != 201:
            raise RuntimeError(f"create: {answer.status_code} {answer.text}")
        if (index + 1) % every == 0 and index + 1 < count:
            figure(pid, f"after {index + 1} games created")
    took = time.monotonic() - began
    print(f"  ({count} created in {took:.1f} s, {1000 * took / max(count, 1):.0f} ms each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verifies", type=int, default=1000, help="distinct boards verified")
    parser.add_argument("--games", type=int, default=300, help="180-star games created")
    parser.add_argument("--every", type=int, default=100, help="print RSS this often")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/memory.db", "SECRET": SECRET}
        env.pop("REDIS_URL", None)
        for limit in ("VERIFIES", "CREATES"):
            env[f"LIMIT_{limit}_PER_PLAYER_MIN"] = "1000000"
            env[f"LIMIT_{limit}_PER_IP_MIN"] = "1000000"
        migrate(env)
        server, base_url = start_uvicorn(env, Path(tmp) / "uvicorn.log")
        player = f"{COOKIE}={CookieSigner(SECRET).sign(secrets.token_urlsafe(16))}"
        try:
            with httpx.Client(
                base_url=base_url, headers={"cookie": player}, timeout=REQUEST_TIMEOUT_S
            ) as http:
                http.get("/api/catalog").raise_for_status()
                pid = server.pid
                print(f"main process {pid}: {args.verifies} verifies, {args.games} creates")
                before = figure(pid, "before")
                verify_boards(http, pid, args.verifies, args.every)
                verified = figure(pid, f"after {args.verifies} verified")
                create_games(http, pid, args.games, args.every)
                created = figure(pid, f"after {args.games} games created")
                per_game = (created - verified) / max(args.games, 1)
                print(
                    f"  verifies: {(verified - before) / 1024:+.1f} MiB; creates: "
                    f"{(created - verified) / 1024:+.1f} MiB ({per_game:+.0f} KiB a game)"
                )
                for worker in children(pid):
                    print(f"  worker {worker:<34} RSS {mib(status_kib(worker, 'VmRSS'))}")
        finally:
            stop(server)


if __name__ == "__main__":
    main()
