"""The clock error a player's page shows: run as ``.venv/bin/python bench/clock_page.py``.

Starts one ``uvicorn app.asgi:app`` (SQLite), seats Alice and Bob in an online 10+5
Triangles game on 60 stars, opens both players' pages in headless Chromium, and plays
``--moves`` lines (60) through the API, each one drawn by the seat to move after both
pages have shown the last one. Then, for ``--samples`` ticks of each page's running clock,
it compares what the page shows with the server's truth at the same instant:

- the page: every time a clock's text changes, its ``data-left-ms`` (the time left the
  page computed for that moment) with the wall clock of that moment (a MutationObserver);
- the server: the game's clock from ``GET /api/games/{id}`` (``server_ms``, the game's
  own time, taken at the midpoint of the request on this machine's wall clock), and the
  view's ``deadline_ms`` / ``left_ms``: the time left at any wall instant follows.

It prints the error (page − server, ms) per page: median, p99 of its size and the
largest, and the request's round trip (the bound on how well the server's time is known here).
Target (issue "Online Triangles like a chess site"): report the error after 60 moves.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.test_triangles import legal_lines  # noqa: E402
from tests.servers import sqlite_server  # noqa: E402

RECORD_TICKS = """
window.__ticks = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const box = change.target.closest && change.target.closest('[data-clock]');
    if (box && box.classList.contains('is-running')) {
      window.__ticks.push([Date.now(), Number(box.dataset.leftMs)]);
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-left-ms'] });
"""


def server_truth(request: Any, game_id: str) -> tuple[int, dict[str, Any], float]:
    """(wall ms at which the game's time was 0, the view's clock, round trip ms)."""
    sent = time.time() * 1000
    data = request.get(f"/api/games/{game_id}").json()
    came = time.time() * 1000
    return round((sent + came) / 2 - data["server_ms"]), data["view"]["clock"], came - sent


def left_at(clock: dict[str, Any], game_ms: float) -> float:
    """The server's time left for the running seat at game time ``game_ms``."""
    running = clock["running"]
    return max(0.0, min(clock["left_ms"][running], clock["deadline_ms"] - game_ms))


def wait_version(pages: list[Any], version: int) -> None:
    for page in pages:
        page.wait_for_function(
            "v => Number(document.querySelector('#tri').dataset.version) >= v", arg=version
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--samples", type=int, default=12, help="clock ticks read per page")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sqlite_server("clock") as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        run(browser, base_url, args.moves, args.samples)
        browser.close()


def run(browser: Any, base_url: str, moves: int, samples: int) -> None:
    players = []
    for name in ("Alice", "Bob"):
        ctx = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844})
        assert ctx.request.put("/api/me", data={"name": name}).ok
        players.append(ctx)
    params = {"opponent": "online", "clock": "10+5", "stars": 60}
    created = players[0].request.post("/api/games", data={"game": "triangles", "params": params})
    game_id = created.json()["id"]
    assert players[1].request.post(f"/api/games/{game_id}/join").ok
    pages = []
    for ctx in players:
        page = ctx.new_page()
        page.add_init_script(RECORD_TICKS)
        page.goto(f"/g/{game_id}")
        page.wait_for_function("() => document.querySelector('#tri').dataset.state === 'active'")
        pages.append(page)

    data = players[0].request.get(f"/api/games/{game_id}").json()
    for _ in range(moves):
        view, version = data["view"], data["version"]
        wait_version(pages, version)
        a, b = legal_lines(view)[0]
        mover = players[view["turn"]]
        answer = mover.request.post(
            f"/api/games/{game_id}/moves",
            data={"version": version, "move": {"type": "line", "a": a, "b": b}},
        )
        assert answer.ok, answer.text()
        data = answer.json()
    wait_version(pages, data["version"])
    print(f"{moves} lines drawn; game version {data['version']}, "
          f"{data['view']['clock']['left_ms']} ms left")  # fmt: skip

    for seat, page in enumerate(pages):
        page.evaluate("window.__ticks = []")
        page.wait_for_function("n => window.__ticks.length >= n", arg=samples, timeout=60_000)
        ticks = page.evaluate("window.__ticks")
        zero_wall, clock, rtt = server_truth(players[seat].request, game_id)
        errors = [left - left_at(clock, wall - zero_wall) for wall, left in ticks]
        sizes = sorted(abs(e) for e in errors)
        p99 = sizes[min(len(sizes) - 1, round(0.99 * (len(sizes) - 1)))]
        print(f"page of seat {seat}: {len(errors)} ticks, error page − server "
              f"median {statistics.median(errors):+.1f} ms, |error| p99 {p99:.1f} ms, "
              f"largest {max(errors, key=abs):+.1f} ms (round trip {rtt:.1f} ms)")  # fmt: skip


if __name__ == "__main__":
    main()
