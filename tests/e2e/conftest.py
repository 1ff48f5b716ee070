"""Browser tests: Playwright (sync API) driving Debian's Chromium against a real uvicorn.

Fixtures:
  server_url  (session) a migrated database (a temporary SQLite file, or DATABASE_URL /
              REDIS_URL from the environment when set) and ``uvicorn app.asgi:app`` on a
              free loopback port; yields "http://127.0.0.1:<port>". With E2E_BASE_URL set,
              the tests use that running server instead and start nothing.
  browser     (session) Debian's chromium-headless-shell (or /usr/bin/chromium where only
              that is installed); its contexts prefer reduced motion unless a test asks
              for reduced_motion="no-preference"
  phone       a fresh context: 390×844, touch, mobile, device scale 3, base_url set
  desktop     a fresh context: 1280×800, base_url set
  phone_in_motion, desktop_in_motion  the same, with every animation the site plays
  shot        shot(page, name) waits for the page to settle; with SCREENSHOTS=1 in the
              environment it also saves artifacts/screenshots/<name>.png (gitignored)

Every test under tests/e2e/ is marked ``e2e`` and skipped when Chromium is missing.
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import fresh_postgres_database, migrate, start_uvicorn, stop

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
# The player's browser, whole: what only it has (an installability check, a permission that
# asks the player) is tested on it (test_pwa.py).
CHROMIUM = Path("/usr/bin/chromium")
# Every other browser test runs on the same Blink without the browser around it (Debian's
# chromium-headless-shell, of the same version): the tests before pytest's second part took
# 512 s on it against 817 s on the whole browser, the same hour.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
TEST_CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SKIP_REASON = (f"{TEST_CHROMIUM} is missing: install Debian's chromium and chromium-headless-shell"
               " to run the e2e tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.e2e)
            if not TEST_CHROMIUM.exists():
                item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not TEST_CHROMIUM.exists():
        pytest.skip(SKIP_REASON)
    if os.environ.get("E2E_BASE_URL"):
        yield os.environ["E2E_BASE_URL"].rstrip("/")
        return
    env = dict(os.environ)
    database_url = env.get("DATABASE_URL")
    if not database_url:
        database_url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('e2e-db') / 'e2e.sqlite3'}"
        env["DATABASE_URL"] = database_url
    else:
        # A database of its own: the other tests empty theirs between tests, and run on a
        # fake clock this server's flag sweeper (on the real one) would see as overdue.
        env["DATABASE_URL"] = fresh_postgres_database(database_url, "e2e")
    migrate(env)
    env.setdefault("SECRET", "e2e-" + secrets.token_hex(16))
    log = tmp_path_factory.mktemp("e2e-server") / "uvicorn.log"
    process, base_url = start_uvicorn(env, log)
    try:
        yield base_url
    finally:
        stop(process)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    # One Chromium a worker (0.9 CPU-seconds a launch, once a module before). Playwright's
    # sync API leaves its event loop marked as this thread's running loop: the tests outside
    # tests/e2e run without the mark (tests/conftest.py, pytest_runtest_protocol).
    if not TEST_CHROMIUM.exists():
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    chromium = playwright.chromium.launch(
        executable_path=str(TEST_CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    # A test sees the site as a player who prefers reduced motion: each answer drawn at
    # once, no looping animation. Chromium draws every frame in software here, and the
    # animations were a tenth of the browser tests' time. The tests of motion itself (what
    # a frame shows mid-animation, a whole board played with every animation) ask for it:
    # reduced_motion="no-preference", or the *_in_motion fixtures.
    chromium.new_context = functools.partial(chromium.new_context, reduced_motion="reduce")
    try:
        yield chromium
    finally:
        chromium.close()
        playwright.stop()


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "locale": "en-US"}
# Playwright's routing may miss requests of a page a service worker controls (its docs
# advise service_workers="block" with request interception), and the site's worker takes
# control once installed, at a moment no test chooses: a test that routes the page's API
# calls opens it without the worker (phone_without_worker, desktop_without_worker). The
# worker's own tests are in test_pwa.py.
NO_WORKER = {"service_workers": "block"}
IN_MOTION = {"reduced_motion": "no-preference"}


def opened_context(browser: Any, server_url: str, **options: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=server_url, **options)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def phone(browser: Any, server_url: str) -> Iterator[Any]:
    yield from opened_context(browser, server_url, **PHONE)


@pytest.fixture
def desktop(browser: Any, server_url: str) -> Iterator[Any]:
    yield from opened_context(browser, server_url, **DESKTOP)


@pytest.fixture
def phone_in_motion(browser: Any, server_url: str) -> Iterator[Any]:
    yield from opened_context(browser, server_url, **PHONE, **IN_MOTION)


@pytest.fixture
def desktop_in_motion(browser: Any, server_url: str) -> Iterator[Any]:
    yield from opened_context(browser, server_url, **DESKTOP, **IN_MOTION)


@pytest.fixture
def phone_without_worker(browser: Any, server_url: str) -> Iterator[Any]:
    yield from opened_context(browser, server_url, **PHONE, **NO_WORKER)


@pytest.fixture
def desktop_without_worker(browser: Any, server_url: str) -> Iterator[Any]:
    yield from opened_context(browser, server_url, **DESKTOP, **NO_WORKER)


SETTLED = """() => document.getAnimations().every(
    (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)"""


# A frame, or 250 ms if the browser paints none (a starved or hidden page never runs
# requestAnimationFrame, and an evaluate awaiting it would wait forever).
FRAME = "() => new Promise((r) => { requestAnimationFrame(r); setTimeout(r, 250); })"
TWO_FRAMES = f"async () => {{ const frame = {FRAME}; await frame(); await frame(); }}"


def settle(page: Any) -> None:
    """Wait on page state, not a clock: no finite CSS animation or transition running
    (looping ones are ignored), then two frames painted."""
    page.wait_for_function(SETTLED, timeout=15_000)
    page.evaluate(TWO_FRAMES)


def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """Wait for ``page`` to settle; with SCREENSHOTS=1, save it as
    artifacts/screenshots/<name>.png (encoding a picture the run does not look at costs
    a tenth of a page state's check)."""
    settle(page)
    path = SCREENSHOTS / f"{name}.png"
    if os.environ.get("SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)
    return path


@pytest.fixture(name="shot")
def shot_fixture() -> Callable[..., Path]:
    return shot
