"""Online play benchmark: run as ``.venv/bin/python bench/online.py [--matches 1 50 500]``.

Starts one ``uvicorn app.asgi:app`` process per database (a temporary SQLite file; and
PostgreSQL + Redis when ``--postgres URL`` and ``--redis URL`` are given, as in
production), creates N online Triangles matches (24 stars), connects both players of each
match over WebSocket, and lets all matches play at once: the player to move sends a line
over the socket, and the opponent's socket receives it. For each N it prints the moves
per second over the whole run, the latency from a move's send to the opponent's
receipt (p50, p99, max), the server's share of one core, its CPU per move, and its
resident and peak (VmHWM) memory.

With ``--hard-games N``, N games against the hard computer on 180-star boards keep the
server's worker pool busy while the matches play (their human side answers at once).

With ``--think 0`` the loop is closed: the player who receives a line sends the next one
at once, without waiting for the result of the last line at its mover (as the
boardgame.io harness plays, bench/peer.py); only one line per match is ever in flight.

The lines are chosen before the clock starts (the engine's easy computer player, replayed
locally), so the bench client spends its time on the sockets, not on the rules. Client
and server share this machine's 2 cores: the figures include the client's own work (the
client runs on uvloop, as the servers do).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.identity import COOKIE, CookieSigner  # noqa: E402
from engines.triangles import ENGINE as TRIANGLES  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

SECRET = "bench-secret"
MOVES_PER_MATCH = 20
PING_S = 25.0  # static/js/core/socket.js and arena/live.js PING_MS


class Match:
    def __init__(self, index: int) -> None:
        signer = CookieSigner(SECRET)
        self.cookies = [
            # ids of the form the server issues: 22 url-safe characters
            f"{COOKIE}={signer.sign(f'b{index}-{seat}-{os.getpid()}-'.ljust(22, '0')[:22])}"
            for seat in (0, 1)
        ]
        self.id = ""
        self.lines: list[dict[str, Any]] = []
        self.sockets: list[Any] = []

    async def create(self, http: httpx.AsyncClient, clock: str = "none", stars: int = 24) -> None:
        created = await http.post(
            "/api/games",
            json={
                "game": "triangles",
                "params": {"opponent": "online", "stars": stars, "clock": clock},
            },
            headers={"cookie": self.cookies[0]},
        )
        body = created.json()
        assert created.status_code == 201, created.text
        self.id = body["id"]
        joined = await http.post(f"/api/games/{self.id}/join", headers={"cookie": self.cookies[1]})
        assert joined.status_code == 200, joined.text
        self.lines = planned_lines(body["params"], int(body["number"][:8]))

    async def connect(self, ws_bases: list[str], route: str = "spread") -> None:
        """Each seat's socket; with several servers, the seats go to different ones
        (``route`` "spread", the worst case), or both to the game's own (``route`` "game",
        as deploy/nginx.conf places them: by the game's path)."""
        for seat, cookie in enumerate(self.cookies):
            place = seat if route == "spread" else zlib.crc32(self.id.encode())
            ws_base = ws_bases[place % len(ws_bases)]
            socket = await websockets.connect(
                f"{ws_base}/ws/games/{self.id}",
                additional_headers={"cookie": cookie},
                max_size=2**20,
                ping_interval=None,  # latency is measured here; a busy loop must not drop us
            )
            await next_of(socket, "state")
            self.sockets.append(socket)

    async def play(
        self,
        latencies: list[float],
        think: float,
        rng: random.Random,
        sends: list[float] | None = None,
    ) -> int:
        """Alternate the planned lines; return how many moves were made. With ``think``
        0 the next line leaves as soon as the opponent has the last one (closed loop);
        else the mover also waits for its own move's result, then thinks. ``sends``, if given,
        gets each line's send time (perf_counter), in step with ``latencies``."""
        version = 0
        turn = 0
        await asyncio.sleep(think * rng.random())  # matches do not start in step
        for line in self.lines:
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            mover, opponent = self.sockets[turn], self.sockets[1 - turn]
            sent = time.perf_counter()
            await mover.send(json.dumps({"type": "move", "version": version, "move": line}))
            # the opponent may still hold the result of its own last line: skipped
            message = await next_move(opponent, version + 1)
            latencies.append(time.perf_counter() - sent)
            if sends is not None:
                sends.append(sent)
            version, turn = message["version"], message["view"]["turn"]
            if think:
                await next_of(mover, "result")
            if message["view"]["over"]:
                break
        return version

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()


class HardGame:
    """A game against the hard computer on a 180-star board, kept thinking: its human side
    answers at once (the easy player, on a copy of the board kept here from the log), so
    the server's worker pool always has a hard move to find while the matches play."""

    PARAMS = {"opponent": "hard", "field": "tablet", "stars": 180}

    def __init__(self, index: int) -> None:
        signer = CookieSigner(SECRET)
        player = f"h{index}-{os.getpid()}-".ljust(22, "0")[:22]
        self.headers = {"cookie": f"{COOKIE}={signer.sign(player)}"}
        self.id = ""
        self.state: Any = None
        self.human = 0
        self.applied = 0  # log entries applied to the copy (the game's version)
        self.moves = 0  # human moves sent

    async def create(self, http: httpx.AsyncClient) -> None:
        created = await http.post(
            "/api/games", json={"game": "triangles", "params": self.PARAMS}, headers=self.headers
        )
        assert created.status_code == 201, created.text
        body = created.json()
        self.id = body["id"]
        self.human = 1 - body["view"]["computer_seat"]
        easy = TRIANGLES.parse_params({**body["params"], "opponent": "easy"})
        self.state = await asyncio.to_thread(TRIANGLES.new_game, easy, int(body["number"][:8]))

    async def keep_thinking(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        while not stop.is_set():
            log = await http.get(
                f"/api/games/{self.id}/log", params={"after": self.applied}, headers=self.headers
            )
            for entry in log.json()["moves"]:
                move = TRIANGLES.parse_move(entry["move"])
                self.state, _ = TRIANGLES.apply(self.state, move, 0, entry["seat"])
                self.applied += 1
            if TRIANGLES.outcome(self.state) is not None:
                return
            if TRIANGLES.to_move(self.state) != self.human:
                await asyncio.sleep(0.05)  # the computer is still thinking
                continue
            line = TRIANGLES.dump_move(TRIANGLES.computer_move(self.state))
            answer = await http.post(
                f"/api/games/{self.id}/moves",
                json={"version": self.applied, "move": line},
                headers=self.headers,
            )
            if answer.status_code == 429:  # the pool's queue is full: "busy"
                await asyncio.sleep(0.2)
            else:
                self.moves += 1


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
        # a deadline on this task, not asyncio.wait_for's task per message (a loop turn
        # and a task's set-up on each of the client's thousands of messages a second)
        async with asyncio.timeout(60):
            message: dict[str, Any] = json.loads(await socket.recv())
        if message["type"] == kind:
            return message
        if message["type"] == "error":
            raise RuntimeError(message)


async def next_move(socket: Any, version: int) -> dict[str, Any]:
    """The first "move" message that brings the game to ``version`` or later."""
    while True:
        message = await next_of(socket, "move")
        if message["version"] >= version:
            return message


async def pinging(socket: Any, rng: random.Random) -> None:
    """What a page's socket does: a ping every 25 s (the first at a random point of the
    interval, so sockets opened together do not ping in step), until cancelled. The
    server closes a socket silent for 90 s."""
    await asyncio.sleep(PING_S * rng.random())
    while True:
        await socket.send('{"type":"ping"}')  # the browser's bytes (JSON.stringify)
        await asyncio.sleep(PING_S)


def proc_usage(pid: int) -> dict[str, float]:
    """A process's CPU seconds so far (user + system), resident memory and peak resident
    memory (VmHWM) in MiB, from Linux's /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu_s = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return {
        "cpu_s": cpu_s,
        "rss_mib": int(fields["VmRSS"].split()[0]) / 1024,
        "hwm_mib": int(fields["VmHWM"].split()[0]) / 1024,
    }


def server_usage(pid: int) -> tuple[float, int]:
    """The server's CPU seconds so far and its resident memory in MiB (Linux's /proc)."""
    usage = proc_usage(pid)
    return usage["cpu_s"], int(usage["rss_mib"])


def percentile(ordered: list[float], share: float) -> float:
    """Nearest-rank percentile of sorted samples (as the boardgame.io harness counts)."""
    rank = max(0, min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1))
    return ordered[rank]


async def run(
    base_url: str,
    server_pid: int,
    matches: int,
    think: float,
    on_play: Callable[[bool], None] | None = None,
    others: list[tuple[str, int]] | None = None,
    hard_games: int = 0,
    route: str = "spread",
) -> dict[str, Any]:
    """Create, connect and play ``matches`` matches; ``on_play(True)`` is called just
    before the first line and ``on_play(False)`` just after the last receipt (a
    profiler's start and stop). With ``others`` (more servers' URLs and pids), each
    match's second player connects to another process than the first (``route``
    "spread"), or both to the game's process (``route`` "game", as nginx routes). With
    ``hard_games``, that many games against the hard computer keep it thinking meanwhile."""
    servers = [(base_url, server_pid), *(others or [])]
    # No keep-alive: a pooled connection may be closed by the server just as it is reused.
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as http:
        games = [Match(i) for i in range(matches)]
        for start in range(0, matches, 50):
            await asyncio.gather(*(g.create(http) for g in games[start : start + 50]))
        hard = [HardGame(i) for i in range(hard_games)]
        await asyncio.gather(*(g.create(http) for g in hard))
    hard_http = httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60)
    stop_thinking = asyncio.Event()
    thinking = [asyncio.create_task(g.keep_thinking(hard_http, stop_thinking)) for g in hard]
    ws_bases = [url.replace("http://", "ws://") for url, _ in servers]
    for start in range(0, matches, 50):
        await asyncio.gather(*(g.connect(ws_bases, route) for g in games[start : start + 50]))
    latencies: list[float] = []
    sends: list[float] = []
    rng = random.Random(matches)  # the bench's own pacing, not a game's chance
    if on_play:
        on_play(True)
    before = [proc_usage(pid) for _, pid in servers]
    services_before = services_cpu_s()
    client_before = sum(os.times()[:2])  # this process: the load client
    began = time.perf_counter()
    played = await asyncio.gather(
        *(g.play(latencies, think, rng, sends) for g in games), return_exceptions=True
    )
    # from the first line to the last receipt (a failed match's wait does not count)
    elapsed = max(s + lat for s, lat in zip(sends, latencies, strict=True)) - began
    stop_thinking.set()
    await asyncio.gather(*thinking, return_exceptions=True)
    await hard_http.aclose()
    failed = [repr(n)[:200] for n in played if not isinstance(n, int)]
    if len(failed) == len(played):
        raise RuntimeError(f"every match failed, the first: {failed[0]}")
    usage = [proc_usage(pid) for _, pid in servers]  # every socket still open
    client_s = sum(os.times()[:2]) - client_before
    services = {k: v - services_before[k] for k, v in services_cpu_s().items()}
    after = usage[0]
    if on_play:
        on_play(False)
    await asyncio.gather(*(g.close() for g in games), return_exceptions=True)
    ordered = sorted(latencies)
    cpus = [u["cpu_s"] - b["cpu_s"] for u, b in zip(usage, before, strict=True)]
    cpu_s = cpus[0]
    return {
        "server_cpus": [c / elapsed for c in cpus],  # each process's share of one core
        "matches": matches,
        "moves": len(latencies),  # lines received (a failed match counts up to its loss)
        "play_s": elapsed,
        "moves_per_s": len(latencies) / elapsed,  # lines received, as the harness counts
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": percentile(ordered, 0.99) * 1000,
        "max_ms": ordered[-1] * 1000,
        "server_cpu": cpu_s / elapsed,
        "server_cpu_s": cpu_s,
        "server_cpu_ms_per_move": cpu_s * 1000 / max(1, len(latencies)),
        # every process's, and the database's and the broker's (when local)
        "servers_cpu_ms_per_move": sum(cpus) * 1000 / max(1, len(latencies)),
        "services_cpu_ms_per_move": {
            k: v * 1000 / max(1, len(latencies)) for k, v in services.items()
        },
        "client_cpu": client_s / elapsed,  # the load client's share of one core
        "load_average_1min": os.getloadavg()[0],
        "server_rss_mib": int(after["rss_mib"]),
        "server_peak_mib": after["hwm_mib"],
        "samples": [(s - began, lat) for s, lat in zip(sends, latencies, strict=True)],
        # a match whose socket the server dropped or that waited 60 s for a line
        "hard_moves": sum(g.moves for g in hard),  # human moves the hard computer answered
        "failed_matches": len(failed),
        "failures": failed[:5],
    }


SERVICES = {"postgres": "PostgreSQL", "redis-server": "Redis"}


def services_cpu_s() -> dict[str, float]:
    """CPU seconds so far of every local PostgreSQL and Redis process, by service."""
    ticks = dict.fromkeys(SERVICES.values(), 0)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        service = SERVICES.get(text[text.index("(") + 1 : text.rindex(")")])
        if service:
            fields = text.rsplit(")", 1)[1].split()
            ticks[service] += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return {service: t / os.sysconf("SC_CLK_TCK") for service, t in ticks.items()}


def server_log(label: str) -> Path:
    return Path(tempfile.gettempdir()) / f"bench-online-{label.split()[0].strip(',').lower()}.log"


def measure(
    env: dict[str, str],
    log: Path,
    count: int,
    think: float,
    on_play: Callable[[int, bool], None] | None = None,
) -> dict[str, Any]:
    """One run on a fresh server process (its peak memory is this run's alone);
    ``on_play(server_pid, starting)`` as in ``run``."""
    process, base_url = start_uvicorn(env, log)
    try:
        hook = (lambda starting: on_play(process.pid, starting)) if on_play else None
        return client_loop(run(base_url, process.pid, count, think, hook))
    finally:
        stop(process)


def bench_database(
    label: str,
    env: dict[str, str],
    counts: list[int],
    think: float,
    processes: int = 1,
    hard_games: int = 0,
    route: str = "spread",
) -> None:
    migrate(env)
    log = server_log(label)
    print(f"server log: {log}", flush=True)
    started = [start_uvicorn(env, log.with_suffix(f".{i}.log")) for i in range(processes)]
    process, base_url = started[0]
    others = [(url, p.pid) for p, url in started[1:]]
    try:
        for count in counts:
            figures = client_loop(
                run(
                    base_url,
                    process.pid,
                    count,
                    think,
                    others=others,
                    hard_games=hard_games,
                    route=route,
                )
            )
            print(
                f"{label:<22} {count:>5} matches  {figures['moves']:>6} moves  "
                f"{figures['moves_per_s']:>8.1f} moves/s  "
                f"p50 {figures['p50_ms']:>7.1f} ms  p99 {figures['p99_ms']:>7.1f} ms  "
                f"max {figures['max_ms']:>7.1f} ms  "
                f"server {figures['server_cpu']:>4.0%} CPU "
                f"{figures['server_cpu_ms_per_move']:.2f} ms/move "
                f"{figures['server_rss_mib']:>5} MiB (peak {figures['server_peak_mib']:.0f})"
                + (
                    "  CPU per process "
                    + " ".join(f"{share:.0%}" for share in figures["server_cpus"])
                    if processes > 1
                    else ""
                )
                + f"  client {figures['client_cpu']:.0%} CPU"
                + f", load {figures['load_average_1min']:.1f}"
                + (capacity(figures) if processes > 1 else "")
                + (
                    f"  {hard_games} hard games: {figures['hard_moves']} moves answered"
                    if hard_games
                    else ""
                )
                + (
                    f"  {figures['failed_matches']} matches FAILED"
                    if figures["failed_matches"]
                    else ""
                ),
                flush=True,
            )
    finally:
        for started_process, _ in started:
            stop(started_process)


def capacity(figures: dict[str, Any]) -> str:
    """What each part of the system spent per move, and so how many moves a second one
    more core of server processes, Redis's single thread and PostgreSQL would each take:
    where more processes on a larger machine would stop adding (PostgreSQL and Redis
    are measured only when they run on this machine)."""
    servers = figures["servers_cpu_ms_per_move"]
    services = figures["services_cpu_ms_per_move"]
    parts = [f"\n  per move: server processes {servers:.2f} ms CPU"] + [
        f"{name} {ms:.3f} ms" for name, ms in services.items()
    ]
    ceilings = [f"one more server core: +{1000 / servers:.0f} moves/s"]
    if services.get("Redis"):
        ceilings.append(f"Redis's one thread: {1000 / services['Redis']:.0f} moves/s at most")
    if services.get("PostgreSQL"):
        ceilings.append(f"PostgreSQL: {1000 / services['PostgreSQL']:.0f} moves/s per core")
    return ", ".join(parts) + "\n  capacity: " + "; ".join(ceilings)


def server_env(postgres: str | None = None, redis: str | None = None) -> dict[str, str]:
    """This environment for a bench server: our secret, loopback limits raised, and
    PostgreSQL (+ Redis) when given, else no database (the caller adds SQLite's)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SECRET"] = SECRET
    # Every simulated player connects from this machine's one loopback address.
    env["LIMIT_SOCKETS_PER_IP"] = "100000"
    env["LIMIT_CREATES_PER_IP_MIN"] = "100000"
    if postgres:
        env["DATABASE_URL"] = postgres
        if redis:
            env["REDIS_URL"] = redis
    return env


def client_loop(main: Any) -> Any:
    """Runs the load client on uvloop, the loop the server runs on (uvicorn[standard]):
    the client's own turns, on the cores the servers share, count in every latency."""
    return uvloop.run(main)


def quiet_client_gc() -> None:
    """The client's own garbage collections would stall its sockets and count as server
    latency; it collects as seldom as the server does (app/asgi.py)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[1, 50, 500])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its tables are created if missing)")
    parser.add_argument("--redis", help="a Redis URL, used with --postgres")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds between lines")
    parser.add_argument("--no-sqlite", action="store_true", help="bench PostgreSQL only")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on PostgreSQL + Redis",
    )
    parser.add_argument(
        "--route",
        choices=["spread", "game"],
        default="spread",
        help="with several processes: each match's players on different ones (spread, the "
        "worst case), or both on the game's own (game, as deploy/nginx.conf routes sockets)",
    )
    parser.add_argument(
        "--hard-games",
        type=int,
        default=0,
        help="games against the hard computer (180 stars) kept thinking while the matches play",
    )
    args = parser.parse_args()
    quiet_client_gc()
    print(
        f"{args.processes} uvicorn process(es); {MOVES_PER_MATCH} lines per match at most; "
        "24 stars; "
        f"{args.think:g} s mean think time"
        + (f"; sockets placed by {args.route}" if args.processes > 1 else "")
    )
    base_env = server_env()
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite = {**base_env, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"}
            bench_database(
                "SQLite, in-process hub", sqlite, args.matches, args.think, 1, args.hard_games
            )
    if args.postgres:
        postgres = server_env(args.postgres, args.redis)
        label = "PostgreSQL + Redis" if args.redis else "PostgreSQL"
        bench_database(
            label, postgres, args.matches, args.think, args.processes, args.hard_games, args.route
        )


if __name__ == "__main__":
    main()
