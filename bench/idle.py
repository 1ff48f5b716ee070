"""Idle sockets bench: run as ``.venv/bin/python bench/idle.py --postgres URL --redis URL``.

Starts one ``python -m app`` process (as production runs it) on PostgreSQL + Redis,
creates ``--games`` online Triangles games (24 stars, ``--clock``), both seats taken and
connected over WebSocket, and then nobody moves: each socket only pings every 25 s, as
the browser does (core/api.js). For ``--seconds`` it measures what the open sockets cost
the server process while nothing happens (its /proc utime + stime, as a share of one
core) and its resident memory, then the same per socket. The last line is the figures as
one JSON object.

What an idle socket should cost is its pings: timers, presence leases and per-socket
tasks that run whether or not anything happens are what this bench finds (issue "Players
who are thinking cost nothing").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import online  # noqa: E402  (bench/online.py, this folder)

from tests.servers import fresh_postgres_database, migrate, start_app, stop  # noqa: E402


async def drain(socket: Any) -> int:
    """Reads whatever the server sends (pongs, presence notices); returns the count."""
    frames = 0
    try:
        async for _ in socket:
            frames += 1
    except Exception:  # the socket closed at the end of the run
        pass
    return frames


async def create_games(base_url: str, games: int, clock: str) -> list[online.Match]:
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    matches = [online.Match(index) for index in range(games)]
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as http:
        for start in range(0, games, 10):
            await asyncio.gather(*(m.create(http, clock) for m in matches[start : start + 10]))
    return matches


async def connect(
    base_url: str, matches: list[online.Match], rng: random.Random
) -> tuple[list[asyncio.Task[None]], list[asyncio.Task[int]]]:
    """Every seat's socket, each pinging and read from its opening on (one that waited
    for thousands of others to be made and connected would have been closed as silent
    before the measuring began): the pingers' and the readers' tasks."""
    ws_base = base_url.replace("http://", "ws://")
    pingers: list[asyncio.Task[None]] = []
    readers: list[asyncio.Task[int]] = []
    for start in range(0, len(matches), 50):
        batch = matches[start : start + 50]
        await asyncio.gather(*(m.connect([ws_base]) for m in batch))
        for socket in (socket for match in batch for socket in match.sockets):
            pingers.append(asyncio.create_task(online.pinging(socket, rng)))
            readers.append(asyncio.create_task(drain(socket)))
    return pingers, readers


async def measure(
    base_url: str, pid: int, games: int, clock: str, seconds: float
) -> dict[str, Any]:
    at_start = online.proc_usage(pid)["rss_mib"]
    matches = await create_games(base_url, games, clock)
    created = online.proc_usage(pid)["rss_mib"]
    pingers, readers = await connect(base_url, matches, random.Random(games))
    sockets = [socket for match in matches for socket in match.sockets]
    await asyncio.sleep(2.0)  # the joins' notices and first leases settle
    before = online.proc_usage(pid)
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - began
    after = online.proc_usage(pid)
    for pinger in pingers:
        pinger.cancel()
    for socket in sockets:
        await socket.close()
    frames = sum(await asyncio.gather(*readers))
    cpu_s = after["cpu_s"] - before["cpu_s"]
    return {
        "games": games,
        "sockets": len(sockets),
        "clock": clock,
        "seconds": round(elapsed, 1),
        "server_cpu_share": round(cpu_s / elapsed, 4),  # of one core
        "server_cpu_us_per_socket_s": round(cpu_s / elapsed / len(sockets) * 1e6, 2),
        "frames_received": frames,
        "rss_mib": round(after["rss_mib"], 1),
        "rss_mib_at_start": round(at_start, 1),
        "rss_mib_games_created": round(created, 1),
        # what each socket adds, beyond the process and the games it serves
        "rss_kib_per_socket": round((after["rss_mib"] - created) * 1024 / len(sockets), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgres", required=True, help="a PostgreSQL URL (its _idle twin is used)"
    )
    parser.add_argument("--redis", required=True, help="a Redis URL")
    parser.add_argument("--games", type=int, default=1000, help="online games, two sockets each")
    parser.add_argument("--clock", default="none", help="time control (real-time: flag timers)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long nobody moves")
    args = parser.parse_args()
    online.quiet_client_gc()
    env = online.server_env(fresh_postgres_database(args.postgres, "idle"), args.redis)
    env["DB_POOL_SIZE"] = "20"
    migrate(env)
    log = Path(tempfile.gettempdir()) / f"bench-idle-{os.getpid()}.log"
    print(f"server log: {log}", flush=True)
    process, base_url = start_app(env, log)
    try:
        figures = asyncio.run(measure(base_url, process.pid, args.games, args.clock, args.seconds))
    finally:
        stop(process)
    print(
        f"{figures['sockets']} idle sockets on {figures['games']} games ({args.clock}), "
        f"{figures['seconds']} s: the server process at {figures['server_cpu_share']:.1%} of "
        f"a core ({figures['server_cpu_us_per_socket_s']} µs CPU per socket-second), "
        f"{figures['rss_mib']} MiB resident ({figures['rss_mib_at_start']} at start, "
        f"{figures['rss_mib_games_created']} with the games made, then "
        f"{figures['rss_kib_per_socket']} KiB per socket); "
        f"load average {figures['load_average_1min']} on {os.cpu_count()} cores"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
