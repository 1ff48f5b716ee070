"""Where a move waits: ``.venv/bin/python bench/tools/probe.py [--matches 500] [--postgres URL]``.

Runs our server (``app.asgi:app`` under uvicorn, in a child process) with timers wrapped
around its queues, without changing app/: the database pool's checkout wait and hold
time (SQLAlchemy), the Redis pool's checkout wait, the move path (``MovePath.play``),
its transactions (``Store.advance``, ``Store.advance_many``) and its publish
(``Hub.publish``), every garbage collection (``gc.callbacks``), and the event loop's lag
(a 10 ms ticker's overshoot), from the first line to the last receipt. Then
bench/online.py plays the matches against it (closed loop, or at ``--think`` pace) and
this prints percentiles of each timer beside the client's latencies. The wrappers cost
some CPU: read the shares, not the absolute speed. (A diagnostic, not a bench: ``make
bench`` runs bench/*.py only.)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))  # bench/online.py

TIMERS: dict[str, list[float]] = defaultdict(list)  # name -> seconds


def wrap_async(owner: Any, name: str, label: str) -> None:
    original = getattr(owner, name)

    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            TIMERS[label].append(time.perf_counter() - start)

    setattr(owner, name, timed)


def wrap_sync(owner: Any, name: str, label: str) -> None:
    original = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            TIMERS[label].append(time.perf_counter() - start)

    setattr(owner, name, timed)


def instrument() -> None:
    """Wrap the queues' entry points (classes, before the app builds its objects)."""
    import redis.asyncio.connection as redis_connection
    from sqlalchemy import event
    from sqlalchemy.pool import AsyncAdaptedQueuePool, Pool

    # checkout wait: the pool's get, run in the greenlet of an awaiting task
    wrap_sync(AsyncAdaptedQueuePool, "_do_get", "db pool checkout wait")
    held: dict[int, float] = {}

    @event.listens_for(Pool, "checkout")
    def _out(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        held[id(record)] = time.perf_counter()

    @event.listens_for(Pool, "checkin")
    def _in(dbapi_connection: Any, record: Any) -> None:
        start = held.pop(id(record), None)
        if start is not None:
            TIMERS["db connection held"].append(time.perf_counter() - start)

    wrap_async(redis_connection.BlockingConnectionPool, "get_connection", "redis pool wait")

    from app import hub, moves, store

    wrap_async(moves.MovePath, "play", "move path (MovePath.play)")
    wrap_async(store.Store, "advance", "transaction (Store.advance)")
    wrap_async(store.Store, "advance_many", "group transaction (Store.advance_many)")
    wrap_async(hub.RedisHub, "publish", "publish (RedisHub.publish)")
    wrap_async(hub.LocalHub, "publish", "publish (LocalHub.publish)")

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            TIMERS["_gc_start"] = [time.perf_counter()]
        else:
            took = time.perf_counter() - TIMERS["_gc_start"][0]
            TIMERS[f"gc generation {info['generation']}"].append(took)

    gc.callbacks.append(on_gc)


async def lag_ticker(stop: asyncio.Event) -> None:
    tick = 0.01
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(tick)
        TIMERS["event loop lag"].append(time.perf_counter() - start - tick)


def serve(port: int, out: Path) -> None:
    """The child: our app under uvicorn, instrumented; timers to ``out`` at shutdown."""
    import uvicorn

    instrument()
    from app.asgi import app  # sets the server's gc thresholds, as in production

    def dump() -> None:  # on SIGUSR1 (uvicorn re-raises SIGTERM after its shutdown)
        timers = {k: v for k, v in TIMERS.items() if not k.startswith("_")}
        out.with_suffix(".part").write_text(json.dumps(timers))
        out.with_suffix(".part").rename(out)

    async def main() -> None:
        stop = asyncio.Event()
        ticker = asyncio.create_task(lag_ticker(stop))
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, dump)
        # SIGUSR2: the play starts; forget the setup's samples
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, TIMERS.clear)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        await uvicorn.Server(config).serve()
        stop.set()
        await ticker

    asyncio.run(main())


def summary(name: str, samples: list[float]) -> str:
    if not samples:
        return f"{name:<34} -"
    ordered = sorted(samples)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    return (
        f"{name:<34} n={len(ordered):>6}  p50 {at(0.5):>8.2f}  p90 {at(0.9):>8.2f}  "
        f"p99 {at(0.99):>8.2f}  max {ordered[-1] * 1000:>8.2f} ms  "
        f"sum {sum(ordered):>7.2f} s"
    )


def on_play(process: subprocess.Popen[bytes]) -> Any:
    def hook(starting: bool) -> None:
        if starting:
            process.send_signal(signal.SIGUSR2)
            time.sleep(0.2)

    return hook


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20, help="lines per match")
    parser.add_argument(
        "--think", type=float, default=0, help="mean seconds between lines (0: closed loop)"
    )
    parser.add_argument("--postgres")
    parser.add_argument("--redis")
    parser.add_argument("--json", type=Path, help="write the raw timers and samples here")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]))
        return

    import online

    from tests.servers import free_port, migrate, stop, wait_until_up

    online.MOVES_PER_MATCH = args.moves
    online.quiet_client_gc()
    with tempfile.TemporaryDirectory(prefix="bench-probe-") as scratch:
        env = online.server_env(args.postgres, args.redis)
        if not args.postgres:
            env["DATABASE_URL"] = f"sqlite+aiosqlite:///{scratch}/bench.sqlite3"
        migrate(env)
        port, out, log = free_port(), Path(scratch) / "timers.json", Path(scratch) / "log"
        command = [sys.executable, __file__, "--serve", str(port), str(out)]
        with log.open("wb") as sink:
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT
            )
        base_url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base_url, process, log)
            figures = asyncio.run(
                online.run(base_url, process.pid, args.matches, args.think, on_play(process))
            )
            process.send_signal(signal.SIGUSR1)
            deadline = time.monotonic() + 30
            while not out.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            stop(process)
        timers: dict[str, list[float]] = json.loads(out.read_text()) if out.exists() else {}
        errors = log.read_text(errors="replace").count("Exception in ASGI application")
    lat = sorted(lat for _, lat in figures["samples"])
    print(
        f"{args.matches} matches, {len(lat)} lines, {figures['moves_per_s']:.0f} moves/s, "
        f"server {figures['server_cpu_ms_per_move']:.2f} ms CPU per move, "
        f"{figures['failed_matches']} failed matches, {errors} socket handlers crashed; "
        f"load avg {os.getloadavg()[0]:.1f}"
    )
    print(summary("client latency", lat))
    for name in sorted(timers):
        print(summary(name, timers[name]))
    if figures["samples"]:
        slow = [t for t, latency in figures["samples"] if latency > 10 * statistics.median(lat)]
        print(f"lines over 10x the median: {len(slow)}, sent at (s): {sorted(slow)[:10]} ...")
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "timers": timers}))


if __name__ == "__main__":
    main()
