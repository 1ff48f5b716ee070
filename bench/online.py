"""Online play benchmark: run as ``.venv/bin/python bench/online.py [--matches 1 50 500]``.

Starts one ``uvicorn app.asgi:app`` process per database (a temporary SQLite file; and
PostgreSQL + Redis when ``--postgres URL`` and ``--redis URL`` are given, as in
production), creates N online Triangles matches (24 stars), connects both players of each
match over WebSocket, and lets all matches play at once: the player to move sends a line
over the socket, and the opponent's socket receives it. For each N it prints the moves
per second over the whole run, the latency from a move's send to the opponent's
receipt (p50, p99), and the server's share of one core and its resident memory.

The lines are chosen before the clock starts (the engine's easy computer player, replayed
locally), so the bench client spends its time on the sockets, not on the rules. Client
and server share this machine's 2 cores: the figures include the client's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.identity import COOKIE, CookieSigner  # noqa: E402
from engines.triangles import ENGINE as TRIANGLES  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

SECRET = "bench-secret"
MOVES_PER_MATCH = 20


class Match:
    def __init__(self, index: int) -> None:
        signer = CookieSigner(SECRET)
        self.cookies = [
            f"{COOKIE}={signer.sign(f'bench-{index}-{seat}-{os.getpid()}')}" for seat in (0, 1)
        ]
        self.id = ""
        self.lines: list[dict[str, Any]] = []
        self.sockets: list[Any] = []

    async def create(self, http: httpx.AsyncClient) -> None:
        created = await http.post(
            "/api/games",
            json={"game": "triangles", "params": {"opponent": "online", "stars": 24}},
            headers={"cookie": self.cookies[0]},
        )
        body = created.json()
        self.id = body["id"]
        joined = await http.post(f"/api/games/{self.id}/join", headers={"cookie": self.cookies[1]})
        assert joined.status_code == 200, joined.text
        self.lines = planned_lines(body["params"], int(body["number"][:8]))

    async def connect(self, ws_base: str) -> None:
        for cookie in self.cookies:
            socket = await websockets.connect(
                f"{ws_base}/ws/games/{self.id}",
                additional_headers={"cookie": cookie},
                max_size=2**20,
                ping_interval=None,  # latency is measured here; a busy loop must not drop us
            )
            await next_of(socket, "state")
            self.sockets.append(socket)

    async def play(self, latencies: list[float], think: float, rng: random.Random) -> int:
        """Alternate the planned lines; return how many moves were made."""
        version = 0
        turn = 0
        await asyncio.sleep(think * rng.random())  # matches do not start in step
        for line in self.lines:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            mover, opponent = self.sockets[turn], self.sockets[1 - turn]
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "move", "version": version, "move": line}))
            message = await next_of(opponent, "move")
            latencies.append(time.perf_counter() - sent)
            version, turn = message["version"], message["view"]["turn"]
            await next_of(mover, "move")
            if message["view"]["over"]:
                break
        return version

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()


def planned_lines(raw_params: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """The first lines of an easy-vs-easy game on this board (``again`` is off, so turns
    simply alternate)."""
    params = TRIANGLES.parse_params({**raw_params, "opponent": "easy"})
    state = TRIANGLES.new_game(params, seed)
    lines = []
    for _ in range(MOVES_PER_MATCH):
        if TRIANGLES.outcome(state) is not None:
            break
        move = TRIANGLES.computer_move(state)
        lines.append(TRIANGLES.dump_move(move))
        state, _ = TRIANGLES.apply(state, move, 0, TRIANGLES.to_move(state) or 0)
    return lines


async def next_of(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), timeout=60))
        if message["type"] == kind:
            return message
        if message["type"] == "error":
            raise RuntimeError(message)


def server_usage(pid: int) -> tuple[float, int]:
    """The server's CPU seconds so far and its resident memory in MiB (Linux's /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu_s = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    rss_kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return cpu_s, rss_kib // 1024


async def run(base_url: str, server_pid: int, matches: int, think: float) -> dict[str, float]:
    # No keep-alive: a pooled connection may be closed by the server just as it is reused.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as http:
        games = [Match(i) for i in range(matches)]
        for start in range(0, matches, 50):
            await asyncio.gather(*(g.create(http) for g in games[start : start + 50]))
    ws_base = base_url.replace("http://", "ws://")
    for start in range(0, matches, 50):
        await asyncio.gather(*(g.connect(ws_base) for g in games[start : start + 50]))
    latencies: list[float] = []
    began = time.perf_counter()
    cpu_before, _ = server_usage(server_pid)
    rng = random.Random(matches)  # the bench's own pacing, not a game's chance
    moves = await asyncio.gather(*(g.play(latencies, think, rng) for g in games))
    elapsed = time.perf_counter() - began
    cpu_after, rss_mib = server_usage(server_pid)  # every socket still open
    await asyncio.gather(*(g.close() for g in games))
    ordered = sorted(latencies)
    return {
        "moves": sum(moves),
        "moves_per_s": sum(moves) / elapsed,
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        "server_cpu": (cpu_after - cpu_before) / elapsed,
        "server_rss_mib": rss_mib,
    }


def bench_database(label: str, env: dict[str, str], counts: list[int], think: float) -> None:
    migrate(env)
    log = Path(tempfile.gettempdir()) / f"bench-online-{label.split()[0].strip(',').lower()}.log"
    print(f"server log: {log}", flush=True)
    process, base_url = start_uvicorn(env, log)
    try:
        for count in counts:
            figures = asyncio.run(run(base_url, process.pid, count, think))
            print(
                f"{label:<22} {count:>5} matches  {figures['moves']:>6} moves  "
                f"{figures['moves_per_s']:>8.1f} moves/s  "
                f"p50 {figures['p50_ms']:>7.1f} ms  p99 {figures['p99_ms']:>7.1f} ms  "
                f"server {figures['server_cpu']:>4.0%} CPU {figures['server_rss_mib']:>5} MiB",
                flush=True,
            )
    finally:
        stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[1, 50, 500])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its tables are created if missing)")
    parser.add_argument("--redis", help="a Redis URL, used with --postgres")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds between lines")
    parser.add_argument("--no-sqlite", action="store_true", help="bench PostgreSQL only")
    args = parser.parse_args()
    # The client's own garbage collections would stall its sockets and count as server
    # latency; it collects as seldom as the server does (app/asgi.py).
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)
    print(
        f"one uvicorn process; {MOVES_PER_MATCH} lines per match at most; 24 stars; "
        f"{args.think:g} s mean think time"
    )
    base_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    base_env["SECRET"] = SECRET
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = {**base_env, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"}
            bench_database("SQLite, in-process hub", sqlite, args.matches, args.think)
    if args.postgres:
        postgres = {**base_env, "DATABASE_URL": args.postgres}
        if args.redis:
            postgres["REDIS_URL"] = args.redis
        label = "PostgreSQL + Redis" if args.redis else "PostgreSQL"
        bench_database(label, postgres, args.matches, args.think)


if __name__ == "__main__":
    main()
