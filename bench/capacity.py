"""Capacity bench: run as ``.venv/bin/python bench/capacity.py --postgres URL --redis URL``.

Starts one ``python -m app`` process (as production runs it) on PostgreSQL + Redis, keeps
``--matches`` online Triangles matches (24 stars) playing over WebSocket at human pace
(one line every ``--think`` seconds on average per match, 0.5 to 1.5 times it) for
``--seconds``, starting a new match in a slot as soon as one ends, and prints what a
move costs: moves/s, the server process's CPU seconds per move and moves per server
core-second (its /proc utime + stime), the CPU per move of every local PostgreSQL
process and of Redis (all processes named ``postgres…`` and ``redis-server``), and the
latency from a line's send to the opponent's receipt (p50, p99). The last line is the
same figures as one JSON object.

The first matches are made before the clock starts; server CPU counts everything the
process did meanwhile, creating and joining the replacement matches too. Client and
server share this machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import online  # noqa: E402  (bench/online.py, this folder)

from tests.servers import migrate, start_app, stop  # noqa: E402

# Plan whole games: a slot plays its match to the end, then starts another.
online.MOVES_PER_MATCH = 10_000


class Slot:
    """One table of the site: plays a match at human pace, then the next, until the end."""

    def __init__(self, index: int, rng: random.Random) -> None:
        self.index = index
        self.rng = rng
        self.played = 0  # matches started in this slot
        self.failures: list[str] = []

    async def prepare(self, http: httpx.AsyncClient, ws_base: str) -> online.Match:
        """A new match, created, joined and both seats connected."""
        match = online.Match(self.index * 1000 + self.played)
        self.played += 1
        await match.create(http)
        await match.connect([ws_base])
        return match

    async def run(
        self, first: online.Match, http: httpx.AsyncClient, ws_base: str, think: float,
        until: float, latencies: list[float],
    ) -> None:  # fmt: skip
        """Play ``first``, then new matches until ``until``."""
        await asyncio.sleep(think * self.rng.random())  # slots do not start in step
        match: online.Match | None = first
        while time.perf_counter() < until:
            try:
                match = match or await self.prepare(http, ws_base)
                await self.play(match, think, until, latencies)
            except Exception as error:  # a failed match is counted, the slot goes on
                self.failures.append(repr(error)[:200])
            finally:
                if match is not None:
                    await match.close()
                match = None

    async def play(
        self, match: online.Match, think: float, until: float, latencies: list[float]
    ) -> None:
        version, turn = 0, 0
        for line in match.lines:
            await asyncio.sleep(think * self.rng.uniform(0.5, 1.5))
            if time.perf_counter() >= until:
                return
            mover, opponent = match.sockets[turn], match.sockets[1 - turn]
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "move", "version": version, "move": line}))
            message = await online.next_move(opponent, version + 1)
            latencies.append(time.perf_counter() - sent)
            version, turn = message["version"], message["view"]["turn"]
            await online.next_of(mover, "result")  # its own move's result, as a page waits
            if message["view"]["over"]:
                return


async def measure(
    base_url: str, pid: int, matches: int, think: float, seconds: float
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    ws_base = base_url.replace("http://", "ws://")
    rng = random.Random(matches)  # the bench's own pacing, not a game's chance
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as http:
        slots = [Slot(i, rng) for i in range(matches)]
        # The first matches are made before the clock starts, 50 at a time.
        firsts: list[online.Match] = []
        for start in range(0, matches, 50):
            firsts += await asyncio.gather(
                *(s.prepare(http, ws_base) for s in slots[start : start + 50])
            )
        server_before = online.proc_usage(pid)["cpu_s"]
        client_before = sum(os.times()[:2])
        services_before = online.services_cpu_s()
        began = time.perf_counter()
        await asyncio.gather(
            *(
                s.run(first, http, ws_base, think, began + seconds, latencies)
                for s, first in zip(slots, firsts, strict=True)
            )
        )
        elapsed = time.perf_counter() - began
        server_s = online.proc_usage(pid)["cpu_s"] - server_before
        client_s = sum(os.times()[:2]) - client_before
        services = {k: v - services_before[k] for k, v in online.services_cpu_s().items()}
    moves = len(latencies)
    ordered = sorted(latencies)
    failures = [f for s in slots for f in s.failures]
    return {
        "matches": matches,
        "matches_played": sum(s.played for s in slots),
        "think_s": think,
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "server_cpu_share": round(server_s / elapsed, 3),  # of one core
        # this bench's own share: on a shared machine, a busy client delays the lines
        "client_cpu_share": round(client_s / elapsed, 3),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "server_cpu_s_per_move": round(server_s / max(1, moves), 6),
        "moves_per_server_core_s": round(moves / server_s, 1) if server_s else None,
        "postgres_cpu_s_per_move": round(services["PostgreSQL"] / max(1, moves), 6),
        "redis_cpu_s_per_move": round(services["Redis"] / max(1, moves), 6),
        "p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else None,
        "p99_ms": round(online.percentile(ordered, 0.99) * 1000, 1) if ordered else None,
        "failed_matches": len(failures),
        "failures": failures[:3],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL URL (migrated first)")
    parser.add_argument("--redis", required=True, help="a Redis URL")
    parser.add_argument("--matches", type=int, default=200, help="matches playing at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--think", type=float, default=1.5, help="mean seconds between lines")
    args = parser.parse_args()
    online.quiet_client_gc()
    env = online.server_env(args.postgres, args.redis)
    # At most 20 connections: PostgreSQL's 100 may be shared (tests, other benches), and
    # one process at this pace needs far fewer.
    env["DB_POOL_SIZE"] = "20"
    migrate(env)
    log = Path(tempfile.gettempdir()) / f"bench-capacity-{os.getpid()}.log"
    print(f"server log: {log}", flush=True)
    process, base_url = start_app(env, log)
    try:
        figures = asyncio.run(
            measure(base_url, process.pid, args.matches, args.think, args.seconds)
        )
    finally:
        stop(process)
    print(
        f"{figures['matches']} matches ({figures['matches_played']} played), "
        f"{args.think:g} s mean think, {figures['seconds']} s: {figures['moves']} moves, "
        f"{figures['moves_per_s']} moves/s"
    )
    print(
        f"server process: {figures['server_cpu_share']:.0%} of a core, "
        f"{figures['server_cpu_s_per_move'] * 1000:.2f} ms CPU per move, "
        f"{figures['moves_per_server_core_s']} moves per server core-second; "
        f"bench client {figures['client_cpu_share']:.0%} of a core, "
        f"load average {figures['load_average_1min']} on {os.cpu_count()} cores"
    )
    print(
        f"PostgreSQL {figures['postgres_cpu_s_per_move'] * 1000:.3f} ms CPU per move, "
        f"Redis {figures['redis_cpu_s_per_move'] * 1000:.3f} ms CPU per move"
    )
    print(
        f"move latency p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms"
        + (f"; {figures['failed_matches']} matches FAILED" if figures["failed_matches"] else "")
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
