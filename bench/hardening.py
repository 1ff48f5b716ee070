"""Hardening figures: run as ``.venv/bin/python bench/hardening.py [--postgres URL --redis URL]``.

Starts one ``uvicorn app.asgi:app`` process (SQLite + in-process hub by default;
PostgreSQL + Redis when ``--postgres`` and ``--redis`` are given, e.g.
``--postgres postgresql://postgres@127.0.0.1:5432/test_hard2 --redis redis://127.0.0.1:6379/4``
after ``psql -U postgres -h 127.0.0.1 -c 'create database test_hard2'``) with SECRET set
and the per-address limits raised (every simulated player comes from 127.0.0.1), and
prints one figure per line:

1. 429 threshold: one cookie creates Blocks games back to back; how many succeed before
   the first 429, and its Retry-After.
2. Sockets per player: one cookie opens sockets to one game until one is closed 1008.
3. Presence frames: 300 online Triangles games (600 distinct players), both seats connect
   at once; every ``presence`` frame any socket receives until 3 s after the last connect.
4. Redis connections of the server: peak during the run (CLIENT LIST every 0.5 s) and a few
   seconds after those 600 sockets closed (Redis runs only).
5. Log reads on a 6,000-entry log: 40 concurrent ``GET /api/games/{id}/log`` (one page)
   while another process times ``GET /api/catalog`` every 20 ms; and the whole log read
   page by page.

``--parts 1 3`` runs some of them (4 comes with 3); ``--no-sqlite`` skips the SQLite run.
Each presence socket's frames are also checked: the last one should show both seats in
(GET /api/games/{id} is asked for games where it does not).

Loopback only; every loop is bounded in count and in time. The client shares this
machine's 2 cores with the server (and with whatever else runs there): figures include it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.identity import COOKIE, CookieSigner  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

SECRET = "bench-hardening-secret"
SIGNER = CookieSigner(SECRET)
TRIANGLE_GAMES = 300
LOG_ENTRIES = 6000
LOG_READERS = 40
PROBE_EVERY_S = 0.02


def cookie() -> str:
    """A new player: an id of the form the server issues (22 url-safe characters)."""
    return f"{COOKIE}={SIGNER.sign(secrets.token_urlsafe(16))}"


def figure(name: str, value: str) -> None:
    print(f"{name:<58} {value}", flush=True)


# --- Redis connections of the server ------------------------------------------------


def process_tree(pid: int) -> list[int]:
    pids: list[int] = []
    todo = [pid]
    while todo and len(pids) < 256:
        current = todo.pop()
        pids.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                todo.extend(int(child) for child in task.read_text().split())
            except OSError:
                pass
    return pids


def local_ports_to(pid: int, remote_port: int) -> set[int]:
    """Local TCP ports of the sockets the server (and its children) hold to ``remote_port``."""
    inodes: set[str] = set()
    for each in process_tree(pid):
        try:
            for fd in Path(f"/proc/{each}/fd").iterdir():
                try:
                    target = os.readlink(fd)
                except OSError:
                    continue
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    ports: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == remote_port:
                ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports


class RedisWatch:
    """Counts the server's connections in Redis CLIENT LIST: those on the server's db
    index (not this bench's own), and of those the ones whose client port belongs to the
    server process (other users of the same Redis may share the db index)."""

    def __init__(self, url: str, pid: int) -> None:
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=2)
        self.own_id = self.client.client_id()
        self.db = self.client.connection_pool.connection_kwargs.get("db", 0)
        self.redis_port = int(self.client.connection_pool.connection_kwargs.get("port", 6379))
        self.pid = pid
        self.peak_db = 0
        self.peak_pid = 0
        self.samples = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def count(self) -> tuple[int, int]:
        clients = [
            c
            for c in self.client.client_list()
            if int(c.get("db", -1)) == self.db and int(c["id"]) != self.own_id
        ]
        ports = local_ports_to(self.pid, self.redis_port)
        mine = [c for c in clients if int(c["addr"].rsplit(":", 1)[1]) in ports]
        return len(clients), len(mine)

    def _poll(self) -> None:
        deadline = time.monotonic() + 3600
        while not self.stopping.is_set() and time.monotonic() < deadline:
            try:
                on_db, of_server = self.count()
            except Exception as exc:  # noqa: BLE001 - a missed sample is not fatal
                print(f"  (CLIENT LIST failed: {exc})", flush=True)
            else:
                self.samples += 1
                self.peak_db = max(self.peak_db, on_db)
                self.peak_pid = max(self.peak_pid, of_server)
            self.stopping.wait(0.5)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.client.close()


# --- 1. 429 threshold -------------------------------------------------------------


async def creates_until_429(http: httpx.AsyncClient) -> None:
    player = cookie()
    created, began = 0, time.monotonic()
    for _ in range(500):
        if time.monotonic() - began > 60:
            figure("1. creates before first 429", f"none refused in 60 s ({created} created)")
            return
        answer = await http.post("/api/games", json={"game": "blocks"}, headers={"cookie": player})
        if answer.status_code == 201:
            created += 1
            continue
        if answer.status_code == 429:
            code = answer.json().get("error", {}).get("code")
            took = time.monotonic() - began
            figure("1. creates accepted before first 429", f"{created} (in {took:.2f} s)")
            figure(
                "1. first 429: Retry-After / code",
                f"{answer.headers.get('retry-after')} s / {code}",
            )
            return
        raise RuntimeError(f"create failed: {answer.status_code} {answer.text}")
    figure("1. creates before first 429", f"none refused in 500 tries ({created} created)")


# --- 2. sockets per player --------------------------------------------------------


async def sockets_per_player(http: httpx.AsyncClient, ws_base: str) -> None:
    player = cookie()
    answer = await http.post("/api/games", json={"game": "blocks"}, headers={"cookie": player})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    sockets: list[Any] = []
    outcome = "no 1008 within 100 sockets"
    try:
        for _ in range(100):
            socket = await websockets.connect(
                f"{ws_base}/ws/games/{game_id}",
                additional_headers={"cookie": player},
                ping_interval=None,
                open_timeout=30,
            )
            try:
                first = await asyncio.wait_for(socket.recv(), timeout=30)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                reason = closed.rcvd.reason if closed.rcvd else ""
                outcome = f"{len(sockets)} (socket {len(sockets) + 1} closed {code} {reason!r})"
                break
            if json.loads(first).get("type") != "state":
                raise RuntimeError(f"unexpected first frame {first!r:.200}")
            sockets.append(socket)
        figure("2. sockets accepted for one player", outcome)
    finally:
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)


# --- 3. presence frames for 600 seated sockets ------------------------------------


async def retrying(call: Any, attempts: int = 40) -> httpx.Response:
    """A request retried on 429 ``busy`` (the engine pool's bounded queue), bounded."""
    for _ in range(attempts):
        answer: httpx.Response = await call()
        if answer.status_code != 429:
            return answer
        await asyncio.sleep(min(5.0, float(answer.headers.get("retry-after") or 1)))
    return answer


async def make_triangle_games(http: httpx.AsyncClient) -> tuple[list[tuple[str, str, str]], int]:
    gate = asyncio.Semaphore(8)
    busy = 0

    async def one() -> tuple[str, str, str]:
        nonlocal busy
        owner, guest = cookie(), cookie()
        body = {
            "game": "triangles",
            "params": {"opponent": "online", "field": "phone", "stars": 24},
        }
        async with gate:
            tries = 0

            async def create() -> httpx.Response:
                nonlocal tries, busy
                tries += 1
                if tries > 1:
                    busy += 1
                return await http.post("/api/games", json=body, headers={"cookie": owner})

            created = await retrying(create)
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            joined = await retrying(
                lambda: http.post(f"/api/games/{game_id}/join", headers={"cookie": guest})
            )
            assert joined.status_code == 200, joined.text
        return game_id, owner, guest

    games = await asyncio.gather(*(one() for _ in range(TRIANGLE_GAMES)))
    return list(games), busy


async def presence_storm(http: httpx.AsyncClient, ws_base: str, watch: RedisWatch | None) -> None:
    began = time.monotonic()
    games, busy = await make_triangle_games(http)
    figure(
        "3. setup: online Triangles games created and joined",
        f"{len(games)} in {time.monotonic() - began:.1f} s ({busy} create retries after 429 busy)",
    )
    counts: list[int] = []
    others: dict[str, int] = {}
    last_presence: dict[tuple[str, int], Any] = {}
    seen_both: set[tuple[str, int]] = set()  # sockets that were told both seats are in
    sequences: dict[tuple[str, int], list[str]] = {}  # each socket's presence frames in order
    connected_at: list[float] = []
    sockets: list[Any] = []
    failures: list[str] = []

    async def reader(socket: Any, game_id: str, seat: int, slot: int) -> None:
        async for raw in socket:
            text = raw if isinstance(raw, str) else raw.decode()
            kind = re.search(r'"type":"(\w+)"', text)
            name = kind.group(1) if kind else "?"
            if name == "presence":
                counts[slot] += 1
                last_presence[(game_id, seat)] = text
                if text.count('"connected":true') == 2:
                    seen_both.add((game_id, seat))
                # "10": seat 0 in, seat 1 not; "[]": an empty presence list
                marks = re.findall(r'"connected":(true|false)', text)
                sequences.setdefault((game_id, seat), []).append(
                    "".join("1" if m == "true" else "0" for m in marks) or "[]"
                )
            else:
                others[name] = others.get(name, 0) + 1

    readers: list[asyncio.Task[None]] = []

    async def connect(game_id: str, player: str, seat: int) -> None:
        try:
            socket = await websockets.connect(
                f"{ws_base}/ws/games/{game_id}",
                additional_headers={"cookie": player},
                ping_interval=None,
                open_timeout=60,
                max_size=2**20,
            )
        except Exception as exc:  # noqa: BLE001 - counted and reported
            failures.append(repr(exc)[:120])
            return
        connected_at.append(time.monotonic())
        sockets.append(socket)
        counts.append(0)
        readers.append(asyncio.create_task(reader(socket, game_id, seat, len(counts) - 1)))

    if watch is not None:
        on_db, of_server = await asyncio.to_thread(watch.count)
        figure(
            "4. Redis connections before the 600 sockets",
            f"{of_server} of the server process ({on_db} on db={watch.db}, bench excluded)",
        )
    start = time.monotonic()
    await asyncio.wait_for(
        asyncio.gather(*(connect(g, p, seat) for g, a, b in games for seat, p in ((0, a), (1, b)))),
        timeout=180,
    )
    last = max(connected_at, default=start)
    await asyncio.sleep(max(0.0, last + 3.0 - time.monotonic()))
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    figure(
        "3. sockets connected / failed",
        f"{len(sockets)} / {len(failures)} (all connected {last - start:.2f} s after the first try)"
        + (f"; first failure {failures[0]}" if failures else ""),
    )
    figure("3. presence frames received (start .. last connect + 3 s)", f"{sum(counts)}")
    if counts:
        figure(
            "3. presence frames per socket: min / median / max",
            f"{min(counts)} / {statistics.median(counts):g} / {max(counts)}",
        )
    figure("3. other frames", ", ".join(f"{k} {v}" for k, v in sorted(others.items())) or "none")
    stale = [key for key, text in last_presence.items() if text.count('"connected":true') != 2]
    figure(
        "3. sockets whose last presence frame shows both seats",
        f"{len(last_presence) - len(stale)} of {len(last_presence)}",
    )
    if stale:
        # Told "both in" and then "one in" while nobody left: frames out of order.
        reordered = sum(1 for key in stale if key in seen_both)
        stale_games = sorted({game_id for game_id, _ in stale})
        checked = stale_games[:20]
        answers = await asyncio.gather(*(http.get(f"/api/games/{g}") for g in checked))
        now_both = sum(
            1 for a in answers if [p["connected"] for p in a.json()["presence"]] == [True, True]
        )
        empty = sum(1 for key in stale if '"presence":[]' in last_presence[key])
        figure(
            "3. stale last frames: empty presence list / told both-in before",
            f"{empty} / {reordered} of {len(stale)} sockets ({len(stale_games)} games)",
        )
        figure(
            "3. stale games whose GET shows both seats connected", f"{now_both} of {len(checked)}"
        )
        orders: dict[str, int] = {}
        for key in stale:
            order = ",".join(sequences[key])
            orders[order] = orders.get(order, 0) + 1
        figure(
            "3. stale sockets by frame sequence (1 = seat in)",
            "; ".join(f"{order}: {n}" for order, n in sorted(orders.items())),
        )
        examples = {'"presence":[]' in last_presence[key]: key for key in stale}
        for key in examples.values():
            figure(f"3. e.g. game {key[0]} seat {key[1]} last got", last_presence[key])
    closing = time.monotonic()
    await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
    figure("3. closing all sockets took", f"{time.monotonic() - closing:.2f} s")
    if watch is None:
        figure("4. Redis connections of the server", "n/a (no Redis)")
        return
    for after in (1, 3, 5):
        await asyncio.sleep(after - (time.monotonic() - closing))
        on_db, of_server = await asyncio.to_thread(watch.count)
        figure(
            f"4. Redis connections {after} s after closing",
            f"{of_server} of the server process ({on_db} on db={watch.db}, bench excluded)",
        )
    figure(
        "4. Redis connections peak during the run",
        f"{watch.peak_pid} of the server process ({watch.peak_db} on db={watch.db}; "
        f"{watch.samples} samples)",
    )


def server_cpu_s(pid: int) -> float:
    """The server's CPU seconds so far (its own, not its engine workers'), from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


# --- 5. log reads -------------------------------------------------------------------


def probe_catalog(base_url: str, done: Any, out: Any) -> None:
    """In its own process (the bench's JSON parsing must not delay it): GET /api/catalog
    every 20 ms until ``done`` is set (at most 60 s); sends back (sent, seconds) pairs,
    ``sent`` on the system-wide monotonic clock."""
    samples: list[tuple[float, float]] = []
    with httpx.Client(base_url=base_url, timeout=30) as http:
        tick = time.monotonic()
        stop_at = tick + 60
        while not done.is_set() and tick < stop_at and len(samples) < 10_000:
            now = time.monotonic()
            if now < tick:
                time.sleep(tick - now)
            sent = time.monotonic()
            http.get("/api/catalog").raise_for_status()
            samples.append((sent, time.monotonic() - sent))
            tick = max(tick + PROBE_EVERY_S, time.monotonic() - PROBE_EVERY_S)  # no bursts
    out.send(samples)
    out.close()


async def insert_log(database_url: str, game_id: str) -> None:
    from sqlalchemy import func, insert, select
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.config import Settings
    from app.models import Move

    engine = create_async_engine(Settings(database_url=database_url).async_database_url)
    try:
        async with engine.begin() as conn:
            first = (
                await conn.scalar(select(func.max(Move.ply)).where(Move.game_id == game_id)) or 0
            )
            now = int(time.time() * 1000)
            rows = [
                {
                    "game_id": game_id,
                    "ply": first + i,
                    "seat": 0,
                    "move": {"piece": i % 3, "row": i % 8, "col": (i // 8) % 8},
                    "at_ms": now + i,
                }
                for i in range(1, LOG_ENTRIES + 1)
            ]
            for start in range(0, len(rows), 1000):
                await conn.execute(insert(Move), rows[start : start + 1000])
    finally:
        await engine.dispose()


async def log_reads(http: httpx.AsyncClient, base_url: str, database_url: str, pid: int) -> None:
    player = cookie()
    answer = await http.post("/api/games", json={"game": "blocks"}, headers={"cookie": player})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    await insert_log(database_url, game_id)
    warm = await http.get(f"/api/games/{game_id}/log", headers={"cookie": player})
    warm.raise_for_status()
    page = warm.json()
    figure("5. log: entries on the first page / next", f"{len(page['moves'])} / {page['next']}")

    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    done = context.Event()
    prober = context.Process(target=probe_catalog, args=(base_url, done, send), daemon=True)
    prober.start()
    await asyncio.sleep(2.0)  # the prober process starts and takes a baseline
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=LOG_READERS, max_keepalive_connections=0)
    # The game's own player reads it: a running game's log is its players' (or anyone's
    # once over).
    async with httpx.AsyncClient(
        base_url=base_url, limits=limits, timeout=60, headers={"cookie": player}
    ) as readers:

        async def read() -> None:
            sent = time.monotonic()
            got = await readers.get(f"/api/games/{game_id}/log")
            got.raise_for_status()
            assert len(got.json()["moves"]) == len(page["moves"])
            latencies.append(time.monotonic() - sent)

        cpu_before = server_cpu_s(pid)
        burst_start = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*(read() for _ in range(LOG_READERS))), 120)
        burst_end = time.monotonic()
        burst_cpu = server_cpu_s(pid) - cpu_before
    await asyncio.sleep(0.5)
    done.set()
    samples: list[tuple[float, float]] = (
        await asyncio.to_thread(receive.recv) if await asyncio.to_thread(receive.poll, 30) else []
    )
    prober.join(10)
    if prober.is_alive():
        prober.kill()
    ordered = sorted(latencies)
    figure(
        f"5. {LOG_READERS} concurrent log reads: p50 / max",
        f"{statistics.median(ordered) * 1000:.0f} ms / {ordered[-1] * 1000:.0f} ms "
        f"(burst {(burst_end - burst_start) * 1000:.0f} ms; server CPU "
        f"{burst_cpu * 1000 / LOG_READERS:.0f} ms a read)",
    )
    before = [took for sent, took in samples if sent < burst_start]
    during = [took for sent, took in samples if burst_start <= sent <= burst_end]
    if during:
        figure(
            "5. catalog latency during the burst: max / p50 (n)",
            f"{max(during) * 1000:.0f} ms / {statistics.median(during) * 1000:.1f} ms "
            f"({len(during)} probes)",
        )
    else:
        figure("5. catalog latency during the burst", f"no probe started ({len(samples)} in all)")
    if before:
        figure(
            "5. catalog latency before the burst: max / p50",
            f"{max(before) * 1000:.0f} ms / {statistics.median(before) * 1000:.1f} ms",
        )
    began, pages, entries, after = time.monotonic(), 0, 0, 0
    cpu_before = server_cpu_s(pid)
    page_ms: list[float] = []
    for _ in range(100):
        sent = time.monotonic()
        got = await http.get(
            f"/api/games/{game_id}/log", params={"from": after}, headers={"cookie": player}
        )
        page_ms.append((time.monotonic() - sent) * 1000)
        got.raise_for_status()
        body = got.json()
        pages += 1
        entries += len(body["moves"])
        if body["next"] is None:
            break
        after = body["next"]
    figure(
        "5. whole log page by page",
        f"{(time.monotonic() - began) * 1000:.0f} ms ({pages} pages, {entries} entries; "
        f"a page {min(page_ms):.0f}..{max(page_ms):.0f} ms; server CPU "
        f"{(server_cpu_s(pid) - cpu_before) * 1000 / pages:.0f} ms a page)",
    )


def database_env(base_env: dict[str, str], url: str) -> dict[str, str]:
    return {**base_env, "DATABASE_URL": url}


def run_all(label: str, env: dict[str, str], redis_url: str | None, parts: list[int]) -> None:
    migrate(env)
    log = Path(tempfile.gettempdir()) / f"bench-hardening-{label.split()[0].strip(',').lower()}.log"
    print(f"== {label}  (server log: {log})", flush=True)
    process, base_url = start_uvicorn(env, log)
    watch = RedisWatch(redis_url, process.pid) if redis_url else None
    try:
        if watch:
            watch.start()
        asyncio.run(run(base_url, env["DATABASE_URL"], watch, parts, process.pid))
    finally:
        if watch:
            watch.stop()
        stop(process)
    lines = log.read_text(errors="replace").splitlines()
    kinds: dict[str, int] = {}
    for line in lines:
        kind = re.sub(r"game \S+", "game <id>", line)[:90]
        kinds[kind] = kinds.get(kind, 0) + 1
    figure("server log lines", str(len(lines)))
    for kind, count in sorted(kinds.items(), key=lambda item: -item[1])[:8]:
        print(f"  {count:>5} x {kind}", flush=True)


async def run(
    base_url: str, database_url: str, watch: RedisWatch | None, parts: list[int], pid: int
) -> None:
    ws_base = base_url.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=50, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as http:
        if 1 in parts:
            await creates_until_429(http)
        if 2 in parts:
            await sockets_per_player(http, ws_base)
        if 3 in parts:
            await presence_storm(http, ws_base, watch)
        if 5 in parts:
            await log_reads(http, base_url, database_url, pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its tables are created if missing)")
    parser.add_argument("--redis", help="a Redis URL, used with --postgres")
    parser.add_argument(
        "--parts", type=int, nargs="+", default=[1, 2, 3, 5], help="measurements to run (4 is in 3)"
    )
    parser.add_argument("--no-sqlite", action="store_true", help="skip the SQLite run")
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"one uvicorn process; client and server share this machine's {os.cpu_count()} cores "
        f"with whatever else runs there (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})",
        flush=True,
    )
    base_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    base_env["SECRET"] = SECRET
    # Every simulated player connects from this machine's one loopback address.
    base_env["LIMIT_SOCKETS_PER_IP"] = "100000"
    base_env["LIMIT_CREATES_PER_IP_MIN"] = "100000"
    if args.postgres:
        env = database_env(base_env, args.postgres)
        if args.redis:
            env["REDIS_URL"] = args.redis
        run_all("PostgreSQL + Redis" if args.redis else "PostgreSQL", env, args.redis, args.parts)
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            env = database_env(base_env, f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
            run_all("SQLite, in-process hub", env, None, args.parts)


if __name__ == "__main__":
    main()
