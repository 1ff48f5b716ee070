"""Cold and warm page weight: run as ``.venv/bin/python bench/cold_pages.py [PATH ...]``.

Starts one ``uvicorn app.asgi:app`` (SQLite, ``tests.servers.sqlite_server``, as
``bench/pages.py``), makes a finished Triangles game (``bench.lighthouse.finished_game``)
for its replay and game pages, and opens each page in headless Chromium (Playwright,
``/usr/bin/chromium``) at 390×844, each in a fresh browser context (an empty cache, no
service worker). It prints per page:

- requests, KB: what the page itself loads on a first visit, until the network is idle:
  the requests the page's own CDP session sees finish (``Network.loadingFinished``), and
  their ``encodedDataLength`` (headers and body as sent, compressed); a request the
  browser's cache answered (``requestServedFromCache``, ``fromDiskCache``: a file asked
  for a second time) moved nothing and is not counted;
- sw req, sw KB: what the service worker's install fetches over the network on that
  visit (its precache of the shell, ``cache.addAll``, and the pages it keeps on
  activation), after the page has loaded: a separate thing, counted apart (Playwright's
  requests whose ``service_worker`` is set, their header and body sizes as received);
- warm KB: ``page.reload()`` once the worker is active, until the network is idle: the
  page's requests that went to the network (those answered by the worker from its
  cache cost nothing) plus what the worker fetched for it (the page, network first).

A server in use has sent each page before: each is asked for (no cookie, as a new
visitor) until its size settles, so that it goes out as compressed at its best
(``app/compressed_pages.py``: a page asked for twice in the same bytes is kept in brotli
at quality 11, compressed once in a thread). A page's first visit ever costs about 0.6 KB
more (quality 5).

Target (issue "cold pages"): a cold page ≤ 40 KB in ≤ 10 requests, a warm reload ≤ 5 KB.
"""

from __future__ import annotations

import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.lighthouse import PAGES as LIGHTHOUSE_PAGES  # noqa: E402
from bench.lighthouse import finished_game  # noqa: E402
from tests.servers import sqlite_server  # noqa: E402

KB = 1024
COLD_KB, COLD_REQUESTS, WARM_KB = 40, 10, 5
WORKER_READY = "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"


class PageTraffic:
    """The page's own requests, from its CDP session: bytes as sent, per request."""

    def __init__(self, cdp: Any) -> None:
        self.sizes: dict[str, int] = {}
        self.urls: dict[str, str] = {}
        self.from_worker: set[str] = set()  # answered by the service worker, or
        self.from_cache: set[str] = set()  # by the HTTP cache (a file asked for again)
        cdp.on("Network.requestServedFromCache", self._cached)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.send("Network.enable")

    def _response(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["response"]["url"]
        if event["response"].get("fromServiceWorker"):
            self.from_worker.add(event["requestId"])
        if event["response"].get("fromDiskCache"):
            self.from_cache.add(event["requestId"])

    def _cached(self, event: dict[str, Any]) -> None:
        self.from_cache.add(event["requestId"])

    def _finished(self, event: dict[str, Any]) -> None:
        self.sizes[event["requestId"]] = int(event["encodedDataLength"])

    def reset(self) -> None:
        self.sizes.clear()
        self.urls.clear()
        self.from_worker.clear()
        self.from_cache.clear()

    def network(self) -> dict[str, int]:
        """request id → bytes, for the requests that went to the network."""
        kept = self.from_worker | self.from_cache
        return {rid: n for rid, n in self.sizes.items() if rid not in kept}


class WorkerTraffic:
    """The service worker's own fetches (Playwright reports them on the context)."""

    def __init__(self, context: Any) -> None:
        self.sizes: list[tuple[str, int]] = []
        context.on("requestfinished", self._finished)

    def _finished(self, request: Any) -> None:
        if request.service_worker is None:
            return
        sizes = request.sizes()
        self.sizes.append((request.url, sizes["responseHeadersSize"] + sizes["responseBodySize"]))

    def total(self) -> int:
        return sum(size for _, size in self.sizes)


def served_before(url: str) -> None:
    """Asks for the page as a new visitor until its compressed size stops shrinking (5 s at
    most): the second ask starts its compression at quality 11."""
    as_new = {"Accept-Encoding": "br", "Accept-Language": "en"}
    request = urllib.request.Request(url, headers=as_new)
    sizes: list[int] = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (len(sizes) < 3 or sizes[-1] < sizes[-2]):
        with urllib.request.urlopen(request) as response:
            sizes.append(len(response.read()))
        time.sleep(0.1)


def measure(browser: Any, base_url: str, path: str, verbose: bool) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    traffic = PageTraffic(cdp)
    worker = WorkerTraffic(context)
    url = f"{base_url}{path}"
    served_before(url)
    page.goto(url, wait_until="networkidle")
    cold = traffic.network()
    if verbose:
        for rid, size in sorted(cold.items(), key=lambda item: -item[1]):
            print(f"    {size:>7}  {traffic.urls.get(rid, '?').removeprefix(base_url)}")
    page.evaluate(WORKER_READY)
    page.wait_for_timeout(500)  # the activation's keeping of the open page
    sw_requests, sw_bytes = len(worker.sizes), worker.total()
    traffic.reset()
    worker.sizes.clear()
    page.reload(wait_until="networkidle")
    warm = sum(traffic.network().values()) + worker.total()
    if verbose:
        for rid, size in traffic.network().items():
            print(f"    warm {size:>7}  {traffic.urls.get(rid, '?').removeprefix(base_url)}")
        for request_url, size in worker.sizes:
            print(f"    warm sw {size:>7}  {request_url.removeprefix(base_url)}")
    context.close()
    return {
        "requests": len(cold),
        "bytes": sum(cold.values()),
        "sw_requests": sw_requests,
        "sw_bytes": sw_bytes,
        "warm": warm,
    }


def main() -> None:
    from playwright.sync_api import sync_playwright

    args = [arg for arg in sys.argv[1:] if arg != "-v"]
    verbose = "-v" in sys.argv[1:]
    with sqlite_server("cold-pages") as base_url, sync_playwright() as playwright:
        game_id = finished_game(base_url)
        # a page may be named with <id> for the finished game's: /g/<id>, /replay/<id>
        named = [arg.replace("<id>", game_id) for arg in args]
        pages = named or [*LIGHTHOUSE_PAGES, f"/replay/{game_id}", f"/g/{game_id}"]
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        print(f"targets: cold ≤ {COLD_KB} KB in ≤ {COLD_REQUESTS} requests, warm ≤ {WARM_KB} KB; "
              "sw: the worker's install fetches, counted apart")  # fmt: skip
        print(f"{'page':<26} {'requests':>8} {'KB':>6} {'warm KB':>8} {'sw req':>7} "
              f"{'sw KB':>6}")  # fmt: skip
        over = []
        for path in pages:
            shown = path.replace(game_id, "<id>")
            if verbose:
                print(shown)
            row = measure(browser, base_url, path, verbose)
            flag = ""
            if (row["bytes"] > COLD_KB * KB or row["requests"] > COLD_REQUESTS
                    or row["warm"] > WARM_KB * KB):  # fmt: skip
                flag = "  over"
                over.append(shown)
            print(f"{shown:<26} {row['requests']:>8} {row['bytes'] / KB:>6.1f} "
                  f"{row['warm'] / KB:>8.1f} {row['sw_requests']:>7} "
                  f"{row['sw_bytes'] / KB:>6.1f}{flag}", flush=True)  # fmt: skip
        browser.close()
        print(f"over a target: {', '.join(over) if over else 'none'}")


if __name__ == "__main__":
    main()
