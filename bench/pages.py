"""Page weight: run as ``.venv/bin/python bench/pages.py``.

Starts one ``uvicorn app.asgi:app`` (SQLite) and opens each page in headless Chromium
(Playwright, ``/usr/bin/chromium``) at 390×844, and prints per page:

- cold: bytes moved over the network (response headers and bodies as sent, compressed)
  with an empty cache, until the network is idle;
- warm: the same after a reload of the page (what a returning visit costs: the HTML and
  its API calls; scripts, styles and catalogs come from the cache, their URLs being
  immutable, see app/assets.py);
- html: the page's own document as sent (gzip) and as written.

Targets (issue "Faster than boardgame.io", point 6): cold ≤ 70 KB, warm ≤ 10 KB, html ≤ 10 KB.

Then, Lighthouse-style, each page once more on a throttled phone (CDP: CPU 4× slower, and
Lighthouse's mobile network: 150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up), from
Chromium's own PerformanceObserver entries (``longtask``, ``layout-shift``) gathered from
the first byte until the main thread has been quiet for QUIET_MS:

- longest: the longest main-thread task (ms);
- tbt: total blocking time, the sum over every task of its time beyond 50 ms;
- cls: cumulative layout shift, the largest session window (shifts under 1 s apart, a
  window at most 5 s long, shifts right after an input left out), as Lighthouse counts it.

Each page is loaded RUNS times and the median run is printed, as Lighthouse advises for
figures that vary from run to run (here two cores are shared by the server, the browser and
its compositor, so one task now and then takes twice its usual time); the worst run's longest
task and tbt follow in brackets, and cls is the worst run's.

Targets (issue 24, point 14): Pairs' longest task < 100 ms and tbt < 200 ms; cls < 0.05 on
every page.

Last, Lighthouse itself on every page (bench/lighthouse.py).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lighthouse import RUNS as LIGHTHOUSE_RUNS  # noqa: E402
from bench.lighthouse import report as lighthouse_report  # noqa: E402
from tests.servers import sqlite_server  # noqa: E402

PAGES = ("/", "/play/blocks", "/play/pairs", "/play/triangles")
KB = 1024
CPU_SLOWDOWN = 4
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
           "uploadThroughput": 750e3 / 8}
QUIET_MS = 3000
RUNS = 5
WATCH = """
window.__perf = {tasks: [], shifts: []};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__perf.tasks.push(e.duration);
}).observe({type: 'longtask', buffered: true});
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__perf.shifts.push([e.startTime, e.value]);
  }
}).observe({type: 'layout-shift', buffered: true});
"""
# Resolves once no long task has started for `quiet` ms (the page has settled).
SETTLED = """(quiet) => new Promise((done) => {
  let seen = window.__perf.tasks.length, since = performance.now();
  const check = () => {
    if (window.__perf.tasks.length !== seen) {
      seen = window.__perf.tasks.length;
      since = performance.now();
    }
    if (performance.now() - since >= quiet) done(); else setTimeout(check, 100);
  };
  check();
})"""


class Traffic:
    """Bytes on the wire for one page load, from Chromium's own network events."""

    def __init__(self, cdp: Any) -> None:
        self.sizes: dict[str, int] = {}
        self.urls: dict[str, str] = {}
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.send("Network.enable")

    def _response(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["response"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        self.sizes[event["requestId"]] = int(event["encodedDataLength"])

    def reset(self) -> None:
        self.sizes.clear()
        self.urls.clear()

    def total(self) -> int:
        return sum(self.sizes.values())

    def of(self, url: str) -> int:
        return sum(size for rid, size in self.sizes.items() if self.urls.get(rid) == url)


def measure(browser: Any, base_url: str, path: str) -> tuple[int, int, int, int]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    traffic = Traffic(cdp)
    cdp.send("Network.clearBrowserCache")
    url = f"{base_url}{path}"
    page.goto(url, wait_until="networkidle")
    cold, html_sent = traffic.total(), traffic.of(url)
    traffic.reset()
    page.reload(wait_until="networkidle")
    warm = traffic.total()
    html_raw = len(page.request.get(url, headers={"accept-encoding": "identity"}).body())
    context.close()
    return cold, warm, html_sent, html_raw


def session_cls(shifts: list[list[float]]) -> float:
    """Lighthouse's CLS: the largest sum of shifts in a session window (gaps < 1 s, ≤ 5 s)."""
    best = current = 0.0
    start = last = -1e9
    for at, value in sorted(shifts):
        if at - last > 1000 or at - start > 5000:
            start, current = at, 0.0
        current += value
        last = at
        best = max(best, current)
    return best


def throttled(
    browser: Any, base_url: str, path: str, returning: bool = False
) -> tuple[float, float, float]:
    """(longest task ms, total blocking time ms, cls) of one load on a throttled phone; a
    returning player has a game under way and a finished one (the lobby's late cards)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    if returning:
        page.goto(f"{base_url}/me")
        page.request.post(f"{base_url}/api/games", data={"game": "pairs"})
        page.request.post(f"{base_url}/api/games", data={"game": "blocks"})
    page.add_init_script(WATCH)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(f"{base_url}{path}", wait_until="networkidle")
    page.evaluate(SETTLED, QUIET_MS)
    perf = page.evaluate("window.__perf")
    context.close()
    tasks = perf["tasks"]
    longest = max(tasks, default=0.0)
    blocking = sum(max(0.0, task - 50) for task in tasks)
    return longest, blocking, session_cls(perf["shifts"])


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sqlite_server("pages") as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        print(f"{'page':<18} {'cold KB':>8} {'warm KB':>8} {'html KB sent':>13} "
              f"{'html KB raw':>12}")  # fmt: skip
        for path in PAGES:
            cold, warm, sent, raw = measure(browser, base_url, path)
            print(f"{path:<18} {cold / KB:>8.1f} {warm / KB:>8.1f} {sent / KB:>13.1f} "
                  f"{raw / KB:>12.1f}", flush=True)  # fmt: skip
        print(f"\nthrottled phone (CPU {CPU_SLOWDOWN}x, 150 ms RTT, 1.6 Mbit/s), "
              f"median of {RUNS} runs [worst run]:")
        print(f"{'page':<18} {'longest ms':>16} {'tbt ms':>14} {'cls, worst':>11}")
        for path, returning in [(p, False) for p in (*PAGES, "/me")] + [("/", True)]:
            runs = [throttled(browser, base_url, path, returning) for _ in range(RUNS)]
            longest, blocking = (statistics.median(run[i] for run in runs) for i in range(2))
            worst = max(runs)
            name = f"{path} (returning)" if returning else path
            cls = max(run[2] for run in runs)
            print(f"{name:<18} {longest:>6.0f} [{worst[0]:>5.0f}]  {blocking:>6.0f} "
                  f"[{worst[1]:>5.0f}]  {cls:>11.3f}", flush=True)  # fmt: skip
        browser.close()
        print()
        lighthouse_report(base_url, LIGHTHOUSE_RUNS)  # every page, Lighthouse's own figures


if __name__ == "__main__":
    main()
