"""Long tasks per page on a throttled phone: run as ``.venv/bin/python bench/long_tasks.py``.

Starts one ``uvicorn app.asgi:app`` (SQLite) and opens each page in headless Chromium
(Playwright, ``/usr/bin/chromium``) as a phone (390×844, DPR 3, touch) with the CPU made
CPU_SLOWDOWN× slower over CDP (``Emulation.setCPUThrottlingRate``), and records every long
task (> 50 ms, Chromium's own PerformanceObserver ``longtask`` entries) from the first byte
until the board has drawn and the main thread has been quiet for QUIET_MS. Per page it
prints, median of RUNS loads:

- longest: the longest main-thread task (ms);
- tbt: total blocking time, the sum over every task of its time beyond 50 ms;
- tasks: the long tasks of the median run, in ms.

Target (issue 34): no task over 100 ms on any page, TBT ≤ 150 ms.

Two cores are shared by the server, the browser and whatever else runs, so wall-clock
figures vary: compare before and after in the same conditions, and read the medians.

Options:
  --runs N          loads per page (default 3)
  --only PATH ...   only these pages (a replay's and a review's as /replay/<id> and
                    /replay/<id>?review=1: a finished Triangles game is made at the start)
  --profile PATH    one more load of PATH under the CDP sampling profiler, its scripts built
                    unminified (NOOK_MINIFY=0) into a folder of their own; prints the
                    functions with the most self time (where a long task's time goes)
  --compare REV     each page with the front end (scripts, stylesheets) of git revision REV
                    and of the working tree, in turns: each built (build.mjs) into a folder
                    of its own (REV in a worktree beside) and served through the browser's
                    request routing
  --trace PATH      one more load of PATH under Chromium's tracing; prints each long task
                    of the main thread with what its time went to (trace events' self time:
                    scripts by function, style, layout, paint, parsing...)
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lighthouse import finished_game  # noqa: E402
from tests.servers import sqlite_server  # noqa: E402

PAGES = (
    "/",
    "/play/triangles",
    "/play/pairs",
    "/play/blocks/classic10",
    "/play/blocks/shapes48",
    "/play/blocks/gravity8",
    "/daily/pairs",
    "/me",
    "/leaderboard/triangles",
    "/replay/<id>",
    "/replay/<id>?review=1",
)
CPU_SLOWDOWN = 4
QUIET_MS = 3000
WATCH = """
window.__tasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
}).observe({type: 'longtask', buffered: true});
"""
# Resolves once a canvas (if the page has one) has been sized and no long task has started
# for `quiet` ms (the board has drawn and the page has settled).
SETTLED = """(quiet) => new Promise((done) => {
  let seen = window.__tasks.length, since = performance.now();
  const check = () => {
    if (window.__tasks.length !== seen) {
      seen = window.__tasks.length;
      since = performance.now();
    }
    const canvases = [...document.querySelectorAll('canvas.board-canvas')];
    const drawn = canvases.every((c) => c.width > 0);
    if (drawn && performance.now() - since >= quiet) done(); else setTimeout(check, 100);
  };
  check();
})"""


def phone(browser: Any) -> tuple[Any, Any, Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=3,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.add_init_script(WATCH)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page, cdp


def load(browser: Any, base_url: str, path: str, front: Path | None = None) -> list[float]:
    """The long tasks (ms) of one load of `path` on a throttled phone; with `front` (a
    build's folder, see `build`) the page's scripts and stylesheets are served from it."""
    context, page, _ = phone(browser)
    if front is not None:
        serve_from(page, front)
    page.goto(f"{base_url}{path}", wait_until="load")
    page.evaluate(SETTLED, QUIET_MS)
    tasks = page.evaluate("window.__tasks")
    context.close()
    return [duration for _, duration in tasks]


@functools.cache
def build(revision: str = "", minify: bool = True) -> Path:
    """The front end built (build.mjs) into a folder of its own, removed at exit: of the
    working tree, or of a git revision (checked out beside, with this tree's node_modules)."""
    import atexit
    import shutil
    import subprocess
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="longtasks-"))
    atexit.register(shutil.rmtree, folder, True)
    source = ROOT
    if revision:
        source = folder / "src"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", str(source), revision], check=True,
                       capture_output=True)  # fmt: skip
        (source / "node_modules").symlink_to(ROOT / "node_modules")
    env = {**os.environ, "NOOK_ASSETS": str(folder / "dist"), "NOOK_MINIFY": "1" if minify else "0"}
    subprocess.run(["node", "build.mjs"], cwd=source, env=env, check=True)
    if revision:
        subprocess.run([*git, "worktree", "remove", "--force", str(source)], check=True)
    return folder / "dist"


HASHED = re.compile(r"^(?P<stem>.+)-[A-Z0-9]{8}(?P<ext>\.(?:js|css)(?:\.map)?)$")


def serve_from(page: Any, front: Path) -> None:
    """The page's scripts and stylesheets (and their chunks) from another build of the
    front end: a file of the page's build by the name of the same entry in `front`."""
    stems = {}
    for file in front.rglob("*"):
        if match := HASHED.match(file.relative_to(front).as_posix()):
            stems[match["stem"] + match["ext"]] = file

    def fulfil(route: Any) -> None:
        name = route.request.url.split("/static/dist/", 1)[1].split("?", 1)[0]
        match = HASHED.match(name)
        file = front / name if (front / name).exists() else None
        if file is None and match:
            file = stems.get(match["stem"] + match["ext"])
        if file is None:
            route.continue_()
            return
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        route.fulfill(body=file.read_bytes(), content_type=kind)

    page.route(re.compile(r"/static/dist/(js|css)/"), fulfil)


def profile(browser: Any, base_url: str, path: str, top: int = 8) -> None:
    """One load under the sampling profiler: the functions with the most self time."""
    context, page, cdp = phone(browser)
    # Scripts built unminified, so that names and lines read as written.
    serve_from(page, build(minify=False))
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    page.goto(f"{base_url}{path}", wait_until="load")
    page.evaluate(SETTLED, QUIET_MS)
    result = cdp.send("Profiler.stop")["profile"]
    tasks = page.evaluate("window.__tasks")
    context.close()
    nodes = {node["id"]: node for node in result["nodes"]}
    parents = {child: node["id"] for node in result["nodes"] for child in node.get("children", [])}
    print(f"\n{path}: long tasks {[round(d) for _, d in tasks]} ms (observer); busy stretches")
    print("of the main thread over 50 ms (samples between idle gaps of 1 ms and more):")
    at = result["startTime"]
    busy: Counter[str] = Counter()
    begin = end = idle_since = at
    total: Counter[str] = Counter()
    for sample, delta in zip(result["samples"], result["timeDeltas"], strict=False):
        at += delta
        frame = nodes[sample]["callFrame"]
        if frame["functionName"] == "(idle)":
            if at - idle_since >= 1000 and busy:
                report(busy, begin, end, top)
                busy = Counter()
            continue
        if not busy:
            begin = at
        idle_since = end = at
        name = where(frame)
        if not frame["url"] and sample in parents:  # a native function: who called it
            name += f" <- {where(nodes[parents[sample]]['callFrame'])}"
        busy[name] += delta / 1000
        total[name] += delta / 1000
    report(busy, begin, end, top)
    print("  self time over the whole load:")
    for name, ms in total.most_common(top):
        print(f"    {ms:>7.1f}  {name}")


def where(frame: dict[str, Any]) -> str:
    url = frame["url"].rsplit("/", 1)[-1] or "(native)"
    return f"{frame['functionName'] or '(anonymous)'} {url}:{frame['lineNumber'] + 1}"


def report(busy: Counter[str], begin: float, end: float, top: int) -> None:
    if (end - begin) / 1000 < 50:
        return
    print(f"  busy {(end - begin) / 1000:.0f} ms:")
    for name, ms in busy.most_common(top):
        print(f"    {ms:>7.1f}  {name}")


def label(event: dict[str, Any]) -> str:
    data = event.get("args", {}).get("data", {}) or {}
    name = event["name"]
    if name in ("FunctionCall", "EvaluateScript", "v8.compile", "v8.compileModule"):
        where = (data.get("url") or data.get("fileName") or "").rsplit("/", 1)[-1]
        return f"{name} {data.get('functionName', '')} {where}".rstrip()
    if name in ("TimerFire", "FireAnimationFrame", "EventDispatch", "ResourceReceivedData"):
        return f"{name} {data.get('type', '')}".rstrip()
    return name


def trace(browser: Any, base_url: str, path: str, top: int = 10) -> None:
    """One load under tracing: each long main-thread task and where its time went."""
    import json

    context, page, _ = phone(browser)
    browser.start_tracing(
        page=page,
        categories=[
            "toplevel",
            "blink",
            "v8",
            "devtools.timeline",
            "disabled-by-default-devtools.timeline",
        ],
    )
    page.goto(f"{base_url}{path}", wait_until="load")
    page.evaluate(SETTLED, QUIET_MS)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    context.close()
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    print(f"\n{path}: long main-thread tasks (ms, CPU x{CPU_SLOWDOWN}), self time inside:")
    for thread in mains:
        spans = sorted(
            (e for e in events if (e["pid"], e["tid"]) == thread and e.get("ph") == "X"),
            key=lambda e: (e["ts"], -e.get("dur", 0)),
        )
        stack: list[dict[str, Any]] = []
        task: dict[str, Any] | None = None
        selves: Counter[str] = Counter()
        for event in spans + [{"ts": float("inf"), "dur": 0, "name": "end"}]:
            while stack and stack[-1]["ts"] + stack[-1].get("dur", 0) <= event["ts"]:
                stack.pop()
            if not stack:
                if task and task["dur"] > 50_000:
                    print(f"  task {task['dur'] / 1000:.0f} ms at {task['ts'] / 1000:.0f}:")
                    for name, us in selves.most_common(top):
                        print(f"    {us / 1000:>7.1f}  {name}")
                task, selves = event, Counter()
            else:
                selves[label(stack[-1])] -= event.get("dur", 0)
            selves[label(event)] += event.get("dur", 0)
            stack.append(event)


def shown(path: str) -> str:
    """A page's path as printed: a replay's game id as ``<id>``."""
    return re.sub(r"/replay/[^?#]+", "/replay/<id>", path)


def compare(browser: Any, base_url: str, revision: str, paths: Any, runs: int) -> None:
    """Each page loaded `runs` times with the front end of `revision` and as it is now, in
    turns (a busy machine slows both alike); medians of the longest task and the tbt."""
    print(f"long tasks on a phone, CPU {CPU_SLOWDOWN}x, front end of {revision} | now, "
          f"median of {runs} loads each, in turns")  # fmt: skip
    print(f"{'page':<24} {'longest ms':>16} {'tbt ms':>14}")
    for path in paths:
        figures: dict[str, list[tuple[float, float]]] = {revision: [], "": []}
        for _ in range(runs):
            for which in (revision, ""):
                tasks = load(browser, base_url, path, build(which))
                longest = max(tasks, default=0.0)
                figures[which].append((longest, sum(max(0.0, t - 50) for t in tasks)))
        cells = [
            statistics.median(run[i] for run in figures[which])
            for i in (0, 1)
            for which in (revision, "")
        ]
        longest = f"{cells[0]:>7.0f} | {cells[1]:>6.0f}"
        tbt = f"{cells[2]:>6.0f} | {cells[3]:>5.0f}"
        print(f"{shown(path):<24} {longest} {tbt}", flush=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--profile", nargs="*")
    parser.add_argument("--trace", nargs="*")
    parser.add_argument("--compare")
    args = parser.parse_args()
    with sqlite_server("longtasks") as base_url, sync_playwright() as playwright:
        # a finished Triangles game for the replay's and the review's pages
        game_id = finished_game(base_url)

        def with_id(paths: Any) -> list[str]:
            return [path.replace("<id>", game_id) for path in paths or ()]

        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        if args.profile or args.trace:
            for path in with_id(args.profile):
                profile(browser, base_url, path)
            for path in with_id(args.trace):
                trace(browser, base_url, path)
            browser.close()
            return
        if args.compare:
            compare(browser, base_url, args.compare, with_id(args.only or PAGES), args.runs)
            browser.close()
            return
        print(f"long tasks on a phone, CPU {CPU_SLOWDOWN}x, median of {args.runs} loads")
        print(f"{'page':<24} {'longest ms':>10} {'tbt ms':>8}  tasks of the median run (ms)")
        for path in with_id(args.only or PAGES):
            runs = [load(browser, base_url, path) for _ in range(args.runs)]
            tbts = [sum(max(0.0, task - 50) for task in run) for run in runs]
            longest = statistics.median(max(run, default=0.0) for run in runs)
            median = sorted(range(len(runs)), key=lambda i: tbts[i])[len(runs) // 2]
            tasks = " ".join(f"{task:.0f}" for task in runs[median])
            print(f"{shown(path):<24} {longest:>10.0f} {statistics.median(tbts):>8.0f}  {tasks}",
                  flush=True)  # fmt: skip
        browser.close()


if __name__ == "__main__":
    main()
