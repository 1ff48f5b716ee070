"""Chaos soak: ``.venv/bin/python bench/chaos.py --minutes N --postgres URL --redis URL``.

Two ``python -m app`` processes serve one site on PostgreSQL + Redis, each through a TCP
relay this script controls (tests/faults/relay.py), in a database of its own
(``<name>_chaos``, made afresh). Online Triangles matches (one player on each process)
and games against the computer play at human pace, reconnecting as the browser does
(tests/online_client.py). Meanwhile, one after the other in a random order, again and
again: a process is SIGKILLed and started again, Redis is cut for 5-20 s, PostgreSQL is
cut for 5-20 s, and one address (127.0.0.2) floods the site with creations and sockets.
Every kind of fault happens at least once a minute.

At the end, once both processes are ready again: every acknowledged move must be in its
game's log, and every game's log, folded by the verify path (``app.verify.replay_log``),
must give the state stored in its row (read straight from PostgreSQL). The last line is
one JSON object; the exit status is 0 only when no move was lost and every replay matched.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402
from sqlalchemy.ext.asyncio import create_async_engine  # noqa: E402

from app.config import Settings  # noqa: E402
from app.models import Game  # noqa: E402
from app.verify import replay_log  # noqa: E402
from app.wire import VerifyEntry  # noqa: E402
from engines.registry import ENGINES  # noqa: E402
from tests.faults.relay import Relay, relayed  # noqa: E402
from tests.online_client import Match, NoServer, Stats, legal_line  # noqa: E402
from tests.servers import free_port, fresh_postgres_database, migrate, start_app  # noqa: E402

SECRET = "chaos-secret-".ljust(48, "x")
FLOOD_FROM = "127.0.0.2"  # a loopback address of its own: the per-address limits apply to it
CUT_S = (5.0, 20.0)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


@dataclass
class Site:
    """The two processes, on fixed ports so a restarted one takes its place."""

    env: dict[str, str]
    logs: Path
    ports: list[int] = field(default_factory=lambda: [free_port(), free_port()])
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    async def start(self, index: int) -> None:
        log = self.logs / f"app{index}.log"
        process, _ = await asyncio.to_thread(start_app, self.env, log, self.ports[index])
        if index < len(self.processes):
            self.processes[index] = process
        else:
            self.processes.append(process)

    async def kill_and_restart(self, index: int) -> None:
        process = self.processes[index]
        process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(process.wait)
        await asyncio.sleep(random.uniform(0.5, 2.0))
        await self.start(index)

    async def ready(self, within_s: float = 60) -> bool:
        deadline = time.monotonic() + within_s
        async with httpx.AsyncClient(timeout=3) as http:
            while time.monotonic() < deadline:
                answers = []
                for url in self.urls:
                    try:
                        answers.append((await http.get(f"{url}/readyz")).status_code)
                    except httpx.TransportError:
                        answers.append(0)
                if answers == [200, 200]:
                    return True
                await asyncio.sleep(0.5)
        return False

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


class Solo:
    """A 24-star game against the easy computer, over REST: a move is acknowledged by
    its 2xx answer (the computer's reply is committed with it)."""

    def __init__(self, urls: list[str], name: str, stats: Stats) -> None:
        self.match = Match(urls, SECRET, name, stats)  # its requests, retries and cookie
        self.acked: set[int] = set()
        self.over = False

    @property
    def game_id(self) -> str:
        return self.match.game_id

    async def play(self, until: asyncio.Event, pause: float) -> None:
        params = {"opponent": "easy", "stars": 24}
        created = await self.match.request(
            0, "POST", "/api/games", json={"game": "triangles", "params": params}
        )
        assert created.status_code == 201, created.text
        self.match.game_id = created.json()["id"]
        while not until.is_set() and not self.over:
            await asyncio.sleep(random.uniform(0.5, 2) * pause)
            log = await self.match.request(0, "GET", f"/api/games/{self.game_id}/log")
            body = log.json()
            version = len(body["moves"])
            answer = await self.match.request(
                0, "POST", f"/api/games/{self.game_id}/moves",
                json={"version": version, "move": legal_line(body)},
            )  # fmt: skip
            if answer.status_code == 200:
                self.acked.add(answer.json()["version"])
                self.over = answer.json()["status"] == "over"


@dataclass
class Faults:
    kills: int = 0
    redis_cuts: int = 0
    db_cuts: int = 0
    floods: int = 0
    flood_refused: int = 0


async def flood(url: str, game_id: str, stats: Stats) -> int:
    """Hundreds of creations and sockets at once from one address; the refusals (429,
    sockets closed 1008) it met. Anything 5xx but 503 is counted as an error."""
    refused = 0
    transport = httpx.AsyncHTTPTransport(local_address=FLOOD_FROM)
    slots = asyncio.Semaphore(50)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=15) as http:

        async def create() -> None:
            nonlocal refused
            async with slots:
                with contextlib.suppress(httpx.TransportError):
                    body = {"game": "triangles", "params": {"opponent": "online", "stars": 24}}
                    answer = await http.post("/api/games", json=body)
                    refused += answer.status_code == 429
                    if answer.status_code >= 500:
                        if answer.status_code == 503:
                            stats.unavailable += 1
                        else:
                            stats.errors_5xx += 1

        await asyncio.gather(*(create() for _ in range(400)))
    ws_url = url.replace("http", "ws") + f"/ws/games/{game_id}"

    async def open_socket() -> None:
        nonlocal refused
        async with slots:
            try:
                ws = await websockets.connect(ws_url, local_addr=(FLOOD_FROM, 0), open_timeout=10)
            except (OSError, websockets.WebSocketException, TimeoutError):
                refused += 1
                return
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.recv(), 2)  # the state, or the close at once
                await asyncio.wait_for(ws.recv(), 0.2)
            refused += ws.close_code == 1008
            await ws.close()

    await asyncio.gather(*(open_socket() for _ in range(300)))
    return refused


async def make_faults(
    site: Site, database: Relay, redis: Relay, ends_at: float, faults: Faults, stats: Stats,
    some_game: Any,
) -> None:  # fmt: skip
    """Every kind of fault in turn, in a random order, until ``ends_at``."""
    while time.monotonic() < ends_at:
        kinds = ["kill", "redis", "database", "flood"]
        random.shuffle(kinds)
        for kind in kinds:
            await asyncio.sleep(random.uniform(1, 3))
            started = time.monotonic()
            if kind == "kill":
                index = random.randrange(2)
                await site.kill_and_restart(index)
                faults.kills += 1
            elif kind in ("redis", "database"):
                relay = redis if kind == "redis" else database
                cut_s = random.uniform(*CUT_S)
                await asyncio.to_thread(relay.cut)
                await asyncio.sleep(cut_s)
                await asyncio.to_thread(relay.start)
                if kind == "redis":
                    faults.redis_cuts += 1
                else:
                    faults.db_cuts += 1
            else:
                faults.flood_refused += await flood(
                    random.choice(site.urls), some_game(), stats
                )
                faults.floods += 1
            print(f"  fault {kind}: {time.monotonic() - started:.1f} s", flush=True)


async def stored_rows(url: str, ids: list[str]) -> dict[str, Game]:
    engine = create_async_engine(Settings(database_url=url).async_database_url)
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(select(Game).where(Game.id.in_(ids)))).all()
    finally:
        await engine.dispose()
    return {row.id: row for row in rows}


async def verify(
    urls: list[str], database_url: str, games: list[tuple[str, set[int], Match]]
) -> tuple[int, int, int]:
    """(moves lost, replays that matched, replays that did not)."""
    rows = await stored_rows(database_url, [game_id for game_id, _, _ in games])
    lost = ok = bad = 0
    engine = ENGINES["triangles"]
    for game_id, acked, client in games:
        log = (await client.request(0, "GET", f"/api/games/{game_id}/log")).json()
        plies = {move["ply"] for move in log["moves"]}
        lost += len(acked - plies)
        row = rows[game_id]
        entries = [VerifyEntry.model_validate(move) for move in log["moves"]]
        folded = replay_log(engine, engine.parse_params(row.params), row.seed, entries)
        if engine.dump_state(folded) == row.state and row.version == len(entries):
            ok += 1
        else:
            bad += 1
            print(f"  replay of {game_id} differs from its row", flush=True)
    return lost, ok, bad


async def soak(args: argparse.Namespace) -> tuple[dict[str, Any], bool]:
    """The run's figures, and whether both processes were ready at its end."""
    database_url = fresh_postgres_database(args.postgres, "chaos")
    migrate({**os.environ, "DATABASE_URL": database_url})
    database, relayed_db = relayed(database_url, 5432)
    redis, relayed_redis = relayed(args.redis, 6379)
    logs = Path(tempfile.mkdtemp(prefix="chaos-"))
    env = {
        **os.environ,
        "SECRET": SECRET,
        "DATABASE_URL": relayed_db,
        "REDIS_URL": relayed_redis,
        "SHUTDOWN_S": "10",
    }
    site = Site(env, logs)
    stats, faults = Stats(), Faults()
    games: list[tuple[str, set[int], Match]] = []
    try:
        await site.start(0)
        await site.start(1)
        rss_start = [rss_mb(p.pid) for p in site.processes]
        print(f"two processes ready; logs in {logs}", flush=True)
        until = asyncio.Event()
        ends_at = time.monotonic() + args.minutes * 60
        matches: list[Match] = []
        solos: list[Solo] = []

        async def keep_matching(slot: int) -> None:
            """One match after another in this slot, until the end."""
            number = 0
            while not until.is_set():
                match = Match(site.urls, SECRET, f"chaos-{slot}-{number}", stats)
                number += 1
                try:
                    await match.start()
                except (NoServer, AssertionError):
                    continue
                matches.append(match)
                await match.play_through_restarts(
                    until, lambda: random.uniform(0.5, 2) * args.pace
                )
                await match.close()

        async def keep_solo(slot: int) -> None:
            number = 0
            while not until.is_set():
                solo = Solo(site.urls, f"solo-{slot}-{number}", stats)
                number += 1
                solos.append(solo)
                with contextlib.suppress(NoServer, AssertionError):
                    await solo.play(until, args.pace)

        players = [asyncio.create_task(keep_matching(n)) for n in range(args.matches)]
        players += [asyncio.create_task(keep_solo(n)) for n in range(args.solo)]
        await asyncio.sleep(2)

        def some_game() -> str:
            return matches[-1].game_id if matches else "none"

        await make_faults(site, database, redis, ends_at, faults, stats, some_game)
        ready = await site.ready()
        await asyncio.sleep(3)  # the clients reconnect and move again on a whole site
        until.set()
        await asyncio.wait_for(asyncio.gather(*players, return_exceptions=True), timeout=120)
        for match in matches:
            games.append((match.game_id, match.acked, match))
        for solo in solos:
            if solo.game_id:
                games.append((solo.game_id, solo.acked, solo.match))
        lost, ok, bad = await verify(site.urls, database_url, games)
        ready = ready and await site.ready(10)
        rss_end = [rss_mb(p.pid) for p in site.processes]
    finally:
        site.stop()
        database.close()
        redis.close()
    tracebacks = sum(
        (logs / f"app{i}.log").read_text(errors="replace").count("Traceback") for i in (0, 1)
    )
    print(
        f"  {stats.unavailable} answers 503 during outages, {stats.reconnects} reconnects, "
        f"{faults.floods} floods met {faults.flood_refused} refusals, "
        f"{tracebacks} tracebacks in the logs, both ready at the end: {ready}",
        flush=True,
    )
    return {
        "minutes": args.minutes,
        "moves_acked": sum(len(acked) for _, acked, _ in games),
        "moves_lost": lost,
        "games": len(games),
        "replays_ok": ok,
        "replays_bad": bad,
        "kills": faults.kills,
        "redis_cuts": faults.redis_cuts,
        "db_cuts": faults.db_cuts,
        "errors_5xx": stats.errors_5xx,
        "rss_mb_start": rss_start,
        "rss_mb_end": rss_end,
    }, ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument(
        "--postgres", required=True, help="a PostgreSQL URL (a database beside it is used)"
    )
    parser.add_argument("--redis", required=True, help="a Redis URL")
    parser.add_argument("--matches", type=int, default=8, help="online matches at once")
    parser.add_argument("--solo", type=int, default=4, help="games against the computer at once")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between moves, on average")
    parser.add_argument("--seed", type=int, default=None, help="the faults' random order")
    args = parser.parse_args()
    random.seed(args.seed)
    result, ready = asyncio.run(soak(args))
    healthy = result["moves_lost"] == 0 and result["replays_bad"] == 0 and ready
    print(json.dumps(result), flush=True)
    sys.exit(0 if healthy else 1)


if __name__ == "__main__":
    main()
