"""Push notices and the move path: run as ``.venv/bin/python bench/push.py [--matches 40]``.

Does sending push notices delay a move's answer? Starts ``uvicorn app.asgi:app`` (a
temporary SQLite file) with a VAPID key and a fake push service on loopback admitted by
PUSH_ENDPOINT_ALLOW (tests/push_service.py), which answers each request after
``--push-delay-ms`` (a slow push service). N online Triangles matches (24 stars) play at
once over REST, nobody holding a socket, so every move makes a ``your_turn`` notice for
the opponent. Four rounds, alternating: no subscriber, then both players of every match
subscribed (two endpoints each), twice. For each run it prints the moves per second, the
REST answer time of a move (p50, p99, max), and for the subscribed run the notices the
push service received and how long after their move (p50, p99).

Client, server and the fake push service (a process of its own) share this machine's
cores.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import online  # noqa: E402  (bench/online.py: its match set-up)

from app.push.keys import new_private_key  # noqa: E402
from engines.triangles import ENGINE as TRIANGLES  # noqa: E402
from tests.push_service import Browser, start_push_service  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

SECRET = online.SECRET
MOVES_PER_MATCH = 16


def planned(raw_params: dict[str, Any], seed: int) -> list[tuple[int, dict[str, Any]]]:
    """(seat, move) of the first moves of an easy-vs-easy game on this board."""
    params = TRIANGLES.parse_params({**raw_params, "opponent": "easy"})
    state = TRIANGLES.new_game(params, seed)
    moves = []
    for _ in range(MOVES_PER_MATCH):
        seat = TRIANGLES.to_move(state)
        if TRIANGLES.outcome(state) is not None or seat is None:
            break
        move = TRIANGLES.computer_move(state)
        moves.append((seat, TRIANGLES.dump_move(move)))
        state, _ = TRIANGLES.apply(state, move, 0, seat)
    return moves


class Match(online.Match):
    """An online match (bench/online.py's), with the seat of each planned move."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.moves: list[tuple[int, dict[str, Any]]] = []

    async def start(self, http: httpx.AsyncClient) -> None:
        await self.create(http)
        game = (await http.get(f"/api/games/{self.id}", headers={"cookie": self.cookies[0]})).json()
        self.moves = planned(game["params"], int(game["number"][:8]))

    async def subscribe(self, http: httpx.AsyncClient, service: PushServiceProcess) -> None:
        for seat, cookie in enumerate(self.cookies):
            for device in ("phone", "tablet"):
                sub = Browser(service.endpoint(f"{self.id}-{seat}-{device}"))
                answer = await http.post(
                    "/api/me/push",
                    json=sub.subscription(["your_turn"]),
                    headers={"cookie": cookie},
                )
                assert answer.status_code == 201, answer.text

    async def play(self, http: httpx.AsyncClient, times: list[float], sent: list[float]) -> None:
        for version, (seat, move) in enumerate(self.moves):
            started = time.perf_counter()
            answer = await http.post(
                f"/api/games/{self.id}/moves",
                json={"version": version, "move": move},
                headers={"cookie": self.cookies[seat]},
            )
            assert answer.status_code == 200, answer.text
            times.append(time.perf_counter() - started)
            sent.append(time.time())


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class PushServiceProcess:
    """The fake push service in a process of its own (its HTTP parsing must not take the
    bench client's interpreter lock); it reports each arrival's wall-clock time."""

    def __init__(self, delay_s: float) -> None:
        context = multiprocessing.get_context("spawn")
        self.arrivals: Any = context.Queue()
        ready: Any = context.Queue()
        self.process = context.Process(target=serve, args=(delay_s, ready, self.arrivals))
        self.process.start()
        self.host_port: str = ready.get(timeout=30)

    def endpoint(self, name: str) -> str:
        return f"http://{self.host_port}/push/{name}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.join(5)


def serve(delay_s: float, ready: Any, arrivals: Any) -> None:
    service = start_push_service(delay_s)
    ready.put(service.host_port)
    while True:
        service.next(timeout=3600)
        arrivals.put(time.time())


async def run(base_url: str, label: str, matches: int, service: PushServiceProcess | None) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        games = [Match(i) for i in range(matches)]
        await asyncio.gather(*(game.start(http) for game in games))
        if service is not None:
            await asyncio.gather(*(game.subscribe(http, service) for game in games))
        times: list[float] = []
        sent: list[float] = []
        started = time.perf_counter()
        await asyncio.gather(*(game.play(http, times, sent) for game in games))
        elapsed = time.perf_counter() - started
    ms = [t * 1000 for t in times]
    print(
        f"{label:>14}: {len(ms)} moves in {elapsed:.2f} s = {len(ms) / elapsed:.0f} moves/s; "
        f"answer p50 {quantile(ms, 0.5):.1f} ms, p99 {quantile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms, mean {statistics.fmean(ms):.1f} ms"
    )
    if service is None:
        return
    # Every move but a match's last makes it the opponent's turn; two devices each.
    expected = 2 * (len(ms) - 0)
    arrivals: list[float] = []
    deadline = time.monotonic() + 120
    while len(arrivals) < expected and time.monotonic() < deadline:
        try:
            arrivals.append(service.arrivals.get(timeout=1))
        except queue.Empty:
            continue
    after = max(arrivals) - max(sent) if arrivals else float("nan")
    print(
        f"{'':>14}  {len(arrivals)}/{expected} notices reached the push service; the last "
        f"{after:.2f} s after the last move's answer"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--push-delay-ms", type=int, default=100)
    args = parser.parse_args()
    service = PushServiceProcess(args.push_delay_ms / 1000)
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/bench.sqlite3",
            "SECRET": SECRET,
            "VAPID_PRIVATE_KEY": new_private_key(),
            "PUSH_ENDPOINT_ALLOW": service.host_port,
            "LIMIT_CREATES_PER_IP_MIN": "100000",
            "LIMIT_CREATES_PER_PLAYER_MIN": "100000",
            "LIMIT_PUSH_WRITES_PER_IP_MIN": "100000",
            "LIMIT_WAITING_PER_PLAYER": "100000",
        }
        env.pop("REDIS_URL", None)
        migrate(env)
        process, base_url = start_uvicorn(env, Path(folder) / "server.log")
        try:
            print(
                f"{args.matches} online Triangles matches at once, {MOVES_PER_MATCH} moves each "
                f"over REST; the push service answers after {args.push_delay_ms} ms"
            )
            # Alternated, so a drift of the shared machine shows as a gap between the two
            # runs without subscribers.
            asyncio.run(run(base_url, "no subscriber", args.matches, None))
            asyncio.run(run(base_url, "subscribed", args.matches, service))
            asyncio.run(run(base_url, "again none", args.matches, None))
            asyncio.run(run(base_url, "Subscribed", args.matches, service))
        finally:
            stop(process)
            service.stop()


if __name__ == "__main__":
    main()
