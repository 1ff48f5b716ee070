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
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import sqlite_server  # noqa: E402

PAGES = ("/", "/play/blocks", "/play/pairs", "/play/triangles")
KB = 1024


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
        browser.close()


if __name__ == "__main__":
    main()
