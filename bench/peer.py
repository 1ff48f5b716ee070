"""Peer benchmark: ``.venv/bin/python bench/peer.py [--matches 50 500]`` (make bench-peer).

Runs the boardgame.io 0.50.2 load harness (``../shared/peer-bgio``, or ``--harness DIR``:
its stock server with the Lines24 game, and its raw socket.io client) and then our server
(bench/online.py, Triangles on 24 stars), one after the other for each match count, with
the same number of matches and lines per match (``--moves``, 60 by default: a whole
game), both in a closed loop (a player sends its line as soon as it has the opponent's;
one line per match in flight). Each run starts a
fresh server process, so peak memory (VmHWM) is that run's alone. Our server uses
PostgreSQL + Redis when ``--postgres URL --redis URL`` are given, else a temporary SQLite
file.

It prints one table per match count: moves/s, server CPU per move, latency p50/p99/max
from a line's send to the opponent's receipt, server peak memory, and the ratio
ours/theirs stated so that >= 1.0 means ours is at least as good. The harness is copied to
a temporary folder and installed there with ``npm ci`` (node >= 18); nothing is written
next to it. Load client and servers share this machine: the table also states how busy
the machine's cores were during each run, as other processes count against both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import online  # noqa: E402  (bench/online.py, this folder)

from tests.servers import free_port, migrate  # noqa: E402

HARNESS = ROOT.parent / "shared" / "peer-bgio"
# Lines per match: a whole game. Ours on 24 stars ends after 54-63 lines (59.6 on average
# over 200 easy-against-easy games); the harness plays 60 by default too. Its Lines24
# state and log grow with every move, so the first 20 lines alone (the old default) show
# its cheapest third: report those with --moves 20.
WHOLE_GAME = 60
NPM_TIMEOUT_S = 300
RUN_TIMEOUT_S = 170  # run.js's own hard cap per run; we wait a little longer


def machine_busy() -> tuple[float, float]:
    """Busy and total jiffies of all cores so far (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def helpers_cpu_s() -> float:
    """CPU seconds so far of the local PostgreSQL and Redis (the database and broker our
    server leans on; boardgame.io keeps its state in memory)."""
    return sum(online.services_cpu_s().values())


class Load:
    """How busy the machine was between start and stop: cores busy on average, and the
    1-minute load average at the start."""

    def __init__(self) -> None:
        self.loadavg = os.getloadavg()[0]
        self.busy0, self.total0 = machine_busy()
        self.helpers0 = helpers_cpu_s()
        self.t0 = time.monotonic()

    def stop(self) -> dict[str, float]:
        busy, total = machine_busy()
        elapsed = time.monotonic() - self.t0
        cores = os.cpu_count() or 1
        return {
            "loadavg_1m": self.loadavg,
            "cores_busy": cores * (busy - self.busy0) / max(1, total - self.total0),
            "helpers_cpu_s": helpers_cpu_s() - self.helpers0,
            "window_s": elapsed,
        }


def install_harness(source: Path, into: Path) -> None:
    shutil.copytree(source, into, ignore=shutil.ignore_patterns("node_modules", "results.jsonl"))
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=into,
        check=True,
        timeout=NPM_TIMEOUT_S,
        stdout=subprocess.DEVNULL,
    )


def free_port_pair() -> int:
    """A free loopback port whose next port is free too."""
    while True:
        port = free_port()
        if port + 1 > 65535:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port


def run_theirs(harness: Path, matches: int, moves: int) -> dict[str, Any]:
    """One run.js measurement (fresh boardgame.io server, raw socket.io client)."""
    port = free_port_pair()  # the lobby listens on port + 1
    load = Load()
    command = [
        "node", "run.js", "--matches", str(matches), "--moves", str(moves),
        "--client", "raw", "--port", str(port), "--timeout-s", str(RUN_TIMEOUT_S),
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=harness, capture_output=True, text=True, timeout=RUN_TIMEOUT_S + 30
    )
    last = done.stdout.strip().splitlines()[-1:]
    row: dict[str, Any] = json.loads(last[0]) if last else {"status": "no output"}
    if row.get("status") != "ok":
        raise RuntimeError(f"boardgame.io run failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    lat = row["lat_ms"]
    return {
        "matches": matches,
        "moves": row["moves_total"],
        "moves_per_s": row["moves_per_s"],
        "server_cpu_ms_per_move": row["server_cpu_s_play"] * 1000 / row["moves_total"],
        "p50_ms": lat["p50"],
        "p99_ms": lat["p99"],
        "max_ms": lat["max"],
        "server_peak_mib": row["server_peak_rss_mb"],
        "client_cpu_s": row["client_cpu_s_play"],
        "play_s": row["play_s"],
        **load.stop(),
    }


class PySpy:
    """py-spy record on our server during its play phase (``--py-spy OUT``): started
    when the first line leaves, stopped (SIGINT: it writes its file) after the last."""

    def __init__(self, out: Path, fmt: str, rate: int) -> None:
        self.out, self.fmt, self.rate = out, fmt, rate
        self.process: subprocess.Popen[bytes] | None = None

    def __call__(self, pid: int, starting: bool) -> None:
        if starting:
            exe = Path(sys.executable).parent / "py-spy"
            command = [
                str(exe), "record", "--pid", str(pid), "--output", str(self.out),
                "--format", self.fmt, "--rate", str(self.rate), "--nonblocking",
            ]  # fmt: skip
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
            time.sleep(1.0)  # attached before the first line
        elif self.process is not None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_ours(
    env: dict[str, str], log: Path, matches: int, profiler: PySpy | None
) -> dict[str, Any]:
    marks: dict[str, Any] = {}

    def on_play(pid: int, starting: bool) -> None:
        if profiler:
            profiler(pid, starting)
        if starting:
            marks["load"] = Load()
            marks["client_cpu"] = time.process_time()
        else:
            marks["load_figures"] = marks["load"].stop()
            marks["client_cpu_s"] = time.process_time() - marks["client_cpu"]

    figures = online.measure(env, log, matches, 0, on_play)
    return {**figures, "client_cpu_s": marks["client_cpu_s"], **marks["load_figures"]}


ROWS = [
    # label, key, format, higher is better
    ("moves/s", "moves_per_s", "{:.0f}", True),
    ("server CPU per move (ms)", "server_cpu_ms_per_move", "{:.2f}", False),
    ("latency p50 (ms)", "p50_ms", "{:.0f}", False),
    ("latency p99 (ms)", "p99_ms", "{:.0f}", False),
    ("latency max (ms)", "max_ms", "{:.0f}", False),
    ("server peak memory (MiB)", "server_peak_mib", "{:.0f}", False),
]


W = 38  # the first column's width


def table(theirs: dict[str, Any], ours: dict[str, Any], label: str) -> str:
    postgres = label.startswith("PostgreSQL")
    lines = [
        f"{theirs['matches']} matches, {theirs['moves']} / {ours['moves']} moves "
        f"(boardgame.io / ours: {label})",
        f"| {'':<{W}} | {'boardgame.io':>12} | {'ours':>10} | {'ratio (>= 1: ours as good)':>26} |",
        f"|{'-' * (W + 2)}|{'-' * 13}:|{'-' * 11}:|{'-' * 27}:|",
    ]
    for name, key, fmt, higher in ROWS:
        a, b = theirs[key], ours[key]
        ratio = (b / a if higher else a / b) if a and b else float("nan")
        cells = f"{fmt.format(a):>12} | {fmt.format(b):>10} | {ratio:>26.2f}"
        lines.append(f"| {name:<{W}} | {cells} |")
    helpers = ours["helpers_cpu_s"] * 1000 / max(1, ours["moves"])
    notes = [
        ("PostgreSQL + Redis CPU per move (ms)", "-", f"{helpers:.2f}" if postgres else "-"),
        ("load client CPU (s)", f"{theirs['client_cpu_s']:.1f}", f"{ours['client_cpu_s']:.1f}"),
        ("play time (s)", f"{theirs['play_s']:.1f}", f"{ours['play_s']:.1f}"),
        (
            "machine: cores busy / load avg 1m",
            f"{theirs['cores_busy']:.2f} / {theirs['loadavg_1m']:.1f}",
            f"{ours['cores_busy']:.2f} / {ours['loadavg_1m']:.1f}",
        ),
    ]
    if ours.get("failed_matches"):
        notes.append(("our matches that failed (see log)", "-", str(ours["failed_matches"])))
    for name, a, b in notes:
        lines.append(f"| {name:<{W}} | {a:>12} | {b:>10} | {'':>26} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--moves", type=int, default=WHOLE_GAME, help="lines per match")
    parser.add_argument("--postgres", help="a PostgreSQL URL for our server (with --redis)")
    parser.add_argument("--redis", help="a Redis URL, used with --postgres")
    parser.add_argument("--harness", type=Path, default=HARNESS, help="the peer-bgio folder")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument(
        "--py-spy", type=Path, help="profile our server's play phase at the largest count"
    )
    parser.add_argument("--py-spy-format", default="raw", help="raw, speedscope or flamegraph")
    parser.add_argument("--py-spy-rate", type=int, default=100, help="samples per second")
    args = parser.parse_args()
    if not (args.harness / "run.js").exists() or shutil.which("node") is None:
        print(f"skipped: needs node and the boardgame.io harness in {args.harness}")
        return
    online.MOVES_PER_MATCH = args.moves
    online.quiet_client_gc()
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as scratch:
        tables = bench(args, Path(scratch))
    if args.json:
        args.json.write_text(json.dumps(tables, indent=1))


def bench(args: argparse.Namespace, scratch: Path) -> list[dict[str, Any]]:
    if args.postgres:
        env = online.server_env(args.postgres, args.redis)
        label = "PostgreSQL + Redis" if args.redis else "PostgreSQL"
    else:
        sqlite = f"sqlite+aiosqlite:///{scratch}/bench.sqlite3"
        env = {**online.server_env(), "DATABASE_URL": sqlite}
        label = "SQLite"
    migrate(env)
    log = online.server_log(label)
    print(
        f"closed loop, {args.moves} lines per match; boardgame.io 0.50.2 (stock server, "
        f"in-memory, raw socket.io client) vs ours ({label}, one uvicorn process, Triangles "
        f"24 stars; server log {log}); {os.cpu_count()} cores shared by clients and servers",
        flush=True,
    )
    results = []
    harness = scratch / "peer-bgio"
    install_harness(args.harness, harness)
    for count in args.matches:
        theirs = run_theirs(harness, count, args.moves)
        profiler = None
        if args.py_spy and count == max(args.matches):
            profiler = PySpy(args.py_spy, args.py_spy_format, args.py_spy_rate)
        ours = run_ours(env, log, count, profiler)
        print("\n" + table(theirs, ours, label), flush=True)
        results.append({"theirs": theirs, "ours": ours})
    return results


if __name__ == "__main__":
    main()
