"""Lighthouse on every page: run as ``.venv/bin/python bench/lighthouse.py [--runs N]``
(``bench/pages.py`` runs it last).

Starts one ``uvicorn app.asgi:app`` (SQLite), makes a finished Triangles game (for a replay
and a review), and runs Lighthouse 12.2.3 (``npx``, from the npm registry; its mobile
preset with its default throttling: a phone with the CPU 4× slower on a slow 4G network)
against Debian's Chromium, RUNS times per page, and prints the median performance score
and total blocking time per page, the worst run's in brackets. ``--only PATH ...`` runs
only those pages (the replay's and the review's as ``/replay/<id>`` and
``/replay/<id>?review=1``).

Targets (issue 34): performance ≥ 95 and TBT ≤ 150 ms on every page.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from engines.core.replay import replay as fold_log  # noqa: E402
from engines.triangles import ENGINE as TRIANGLES  # noqa: E402
from tests.servers import sqlite_server  # noqa: E402

LIGHTHOUSE = "lighthouse@12.2.3"
CHROMIUM = "/usr/bin/chromium"
RUNS = 3
PAGES = (
    "/",
    "/play/blocks/classic10",
    "/play/blocks/shapes48",
    "/play/blocks/gravity8",
    "/play/pairs",
    "/play/triangles",
    "/daily/pairs",
    "/daily/blocks",
    "/me",
    "/leaderboard/triangles",
)


def finished_game(base_url: str) -> str:
    """A Triangles game against the easy computer: six lines, then a resignation."""
    with httpx.Client(base_url=base_url, timeout=60) as client:
        game = client.post(
            "/api/games", json={"game": "triangles", "params": {"opponent": "easy"}}
        ).json()
        version = game["version"]
        for _ in range(6):
            log = client.get(f"/api/games/{game['id']}/log").json()
            params = TRIANGLES.parse_params(log["params"])
            state = fold_log(TRIANGLES, params, log["seed"], log["moves"])
            line = TRIANGLES.dump_move(TRIANGLES.computer_move(state))
            answer = client.post(
                f"/api/games/{game['id']}/moves", json={"version": version, "move": line}
            )
            version = answer.json()["version"]
        client.post(
            f"/api/games/{game['id']}/moves",
            json={"version": version, "move": {"type": "resign"}},
        ).raise_for_status()
        return str(game["id"])


def lighthouse(url: str) -> tuple[float, float]:
    """One Lighthouse run: the performance score (0-100) and total blocking time (ms)."""
    command = [
        "npx", "--yes", LIGHTHOUSE, url, "--quiet", "--output=json", "--output-path=stdout",
        "--only-categories=performance",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ]  # fmt: skip
    done = subprocess.run(
        command, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True,
        timeout=600, check=True,
    )  # fmt: skip
    report: dict[str, Any] = json.loads(done.stdout)
    score = float(report["categories"]["performance"]["score"]) * 100
    return score, float(report["audits"]["total-blocking-time"]["numericValue"])


def report(base_url: str, runs: int, only: list[str] | None = None) -> None:
    game_id = finished_game(base_url)
    pages = only or (*PAGES, "/replay/<id>", "/replay/<id>?review=1")
    pages = tuple(path.replace("<id>", game_id) for path in pages)
    print(f"Lighthouse 12.2.3, mobile preset, median of {runs} runs [worst run]:")
    print(f"{'page':<34} {'performance':>16} {'tbt ms':>16}")
    for path in pages:
        results = [lighthouse(base_url + path) for _ in range(runs)]
        score = statistics.median(run[0] for run in results)
        blocking = statistics.median(run[1] for run in results)
        worst_score = min(run[0] for run in results)
        worst_blocking = max(run[1] for run in results)
        name = path.replace(game_id, "<id>")
        print(f"{name:<34} {score:>8.0f} [{worst_score:>5.0f}] {blocking:>8.0f} "
              f"[{worst_blocking:>5.0f}]", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    with sqlite_server("lighthouse") as base_url:
        report(base_url, args.runs, args.only)


if __name__ == "__main__":
    main()
