"""Spectators bench: run as ``.venv/bin/python bench/spectators.py --postgres URL --redis URL``.

Starts one ``python -m app`` process (as production runs it) on PostgreSQL + Redis and
plays one online Triangles match (``--stars``, 24 by default) line after line
(``--think`` seconds apart), first with nobody watching, then with ``--spectators``
sockets watching it (each its own player, reading every frame). For each phase it
prints a line's latency from its send to the opponent's receipt (p50, p99) and, while
watched, to the last spectator's receipt, and the server's CPU per move (/proc counts in
10 ms ticks: use enough lines; a 60-star game has room for ``--lines 80``). A watcher
should cost one write of a frame encoded once per view (``HubMove``), never an encode of
its own, and come after the players (issue "Players who are thinking cost nothing": 500
spectators add at most 2 ms to a move's p99).

The players' sockets are in the bench's process, the spectators' in a second one; both
share this machine's 2 cores with the server, so the figures are an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import online  # noqa: E402  (bench/online.py, this folder)

from app.identity import COOKIE, CookieSigner  # noqa: E402
from tests.servers import fresh_postgres_database, migrate, start_app, stop  # noqa: E402


class Spectator:
    """A watcher's socket; ``seen`` maps each move's version to when it arrived."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.seen: dict[int, float] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                frame = json.loads(raw)
                if frame["type"] == "move":
                    self.seen[frame["version"]] = time.perf_counter()
        except websockets.ConnectionClosed:
            pass


async def watch(ws_base: str, game_id: str, count: int, pipe: Connection) -> None:
    """The spectators, in a process of their own (their reading must not delay the
    players' sockets in the bench's loop): connect, say so, read until told to stop, then
    send back when the last of them had each version (perf_counter: one clock for all the
    processes of this machine)."""
    signer = CookieSigner(online.SECRET)
    watchers = []
    for index in range(count):
        cookie = f"{COOKIE}={signer.sign(f'w{index}-{os.getpid()}-'.ljust(22, '0')[:22])}"
        socket = await websockets.connect(
            f"{ws_base}/ws/games/{game_id}",
            additional_headers={"cookie": cookie},
            max_size=2**20,
            ping_interval=None,
        )
        await online.next_of(socket, "state")
        watchers.append(Spectator(socket))
    pipe.send("ready")
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "stop"
    versions = set().union(*(watcher.seen for watcher in watchers))
    last = {v: max(w.seen.get(v, float("inf")) for w in watchers) for v in versions}
    for watcher in watchers:
        await watcher.socket.close()
    pipe.send(last)


def spectate(ws_base: str, game_id: str, count: int, pipe: Connection) -> None:
    online.quiet_client_gc()
    asyncio.run(watch(ws_base, game_id, count, pipe))


async def play(
    match: online.Match, lines: int, start: int, think: float, rng: random.Random
) -> tuple[list[float], list[tuple[int, float]]]:
    """``lines`` lines from version ``start`` (one line a version: no computer here): each
    line's latency to the opponent, and (version, send time) of each."""
    latencies: list[float] = []
    sends: list[tuple[int, float]] = []
    version, turn = start, await whose_turn(match)
    for line in match.lines[start : start + lines]:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        mover, opponent = match.sockets[turn], match.sockets[1 - turn]
        sent = time.perf_counter()
        await mover.send(json.dumps({"type": "move", "version": version, "move": line}))
        message = await online.next_move(opponent, version + 1)
        latencies.append(time.perf_counter() - sent)
        await online.next_of(mover, "result")
        version, turn = message["version"], message["view"]["turn"]
        sends.append((version, sent))
        if message["view"]["over"]:
            break
    return latencies, sends


async def whose_turn(match: online.Match) -> int:
    """The seat to move now, from a fresh state of the first seat's socket."""
    await match.sockets[0].send(json.dumps({"type": "sync"}))
    state = await online.next_of(match.sockets[0], "state")
    return int(state["view"]["turn"])


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(online.percentile(ordered, 0.5) * 1000, 2),
        "p99_ms": round(online.percentile(ordered, 0.99) * 1000, 2),
    }


async def measure(
    base_url: str, pid: int, spectators: int, lines: int, think: float, stars: int
) -> dict[str, Any]:
    rng = random.Random(7)
    ws_base = base_url.replace("http", "ws", 1)
    online.MOVES_PER_MATCH = 2 * lines  # both phases' lines, planned at creation
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        match = online.Match(0)
        await match.create(http, stars=stars)
    if len(match.lines) < 2 * lines:
        raise SystemExit(
            f"a {stars}-star game has {len(match.lines)} lines, not {2 * lines}: "
            "ask for fewer --lines or more --stars"
        )
    await match.connect([ws_base])
    alone_cpu = online.proc_usage(pid)["cpu_s"]
    alone, _ = await play(match, lines, 0, think, rng)
    alone_cpu = online.proc_usage(pid)["cpu_s"] - alone_cpu
    ours, theirs = multiprocessing.Pipe()
    watching = multiprocessing.Process(
        target=spectate, args=(ws_base, match.id, spectators, theirs)
    )
    watching.start()
    await asyncio.get_running_loop().run_in_executor(None, ours.recv)  # "ready"
    watched_cpu = online.proc_usage(pid)["cpu_s"]
    watched, sends = await play(match, lines, len(alone), think, rng)
    await asyncio.sleep(1.0)  # the last frames reach every watcher
    watched_cpu = online.proc_usage(pid)["cpu_s"] - watched_cpu
    ours.send("stop")
    last = await asyncio.get_running_loop().run_in_executor(None, ours.recv)
    watching.join(30)
    to_all = [last.get(version, float("inf")) - sent for version, sent in sends]
    missed = sum(1 for latency in to_all if latency == float("inf"))
    await match.close()
    return {
        "spectators": spectators,
        "lines": [len(alone), len(watched)],
        "alone": summary(alone),
        "watched": summary(watched),
        "to_last_spectator": summary([x for x in to_all if x != float("inf")]),
        "frames_missed": missed,
        "server_cpu_ms_per_move": {
            "alone": round(alone_cpu / max(1, len(alone)) * 1000, 2),
            "watched": round(watched_cpu / max(1, len(watched)) * 1000, 2),
        },
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL URL (its _spec twin)")
    parser.add_argument("--redis", required=True, help="a Redis URL")
    parser.add_argument("--spectators", type=int, default=500, help="sockets watching")
    parser.add_argument("--lines", type=int, default=24, help="lines per phase")
    parser.add_argument(
        "--stars", type=int, default=24, choices=(24, 60, 120),
        help="the field's stars (24: 61 lines in all, so --lines 30 at most; 60: --lines 80)",
    )  # fmt: skip
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds between lines")
    args = parser.parse_args()
    online.quiet_client_gc()
    env = online.server_env(fresh_postgres_database(args.postgres, "spec"), args.redis)
    env["LIMIT_SOCKETS_PER_PLAYER"] = "100000"
    migrate(env)
    log = Path(tempfile.gettempdir()) / f"bench-spectators-{os.getpid()}.log"
    print(f"server log: {log}", flush=True)
    process, base_url = start_app(env, log)
    try:
        figures = asyncio.run(
            measure(base_url, process.pid, args.spectators, args.lines, args.think, args.stars)
        )
    finally:
        stop(process)
    print(
        f"one match, {figures['lines'][0]} lines alone then {figures['lines'][1]} watched by "
        f"{figures['spectators']} spectators: to the opponent p50/p99 "
        f"{figures['alone']['p50_ms']}/{figures['alone']['p99_ms']} ms alone, "
        f"{figures['watched']['p50_ms']}/{figures['watched']['p99_ms']} ms watched; to the "
        f"last spectator p50/p99 {figures['to_last_spectator']['p50_ms']}/"
        f"{figures['to_last_spectator']['p99_ms']} ms ({figures['frames_missed']} missed); "
        f"server CPU per move {figures['server_cpu_ms_per_move']['alone']} ms alone, "
        f"{figures['server_cpu_ms_per_move']['watched']} ms watched"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
