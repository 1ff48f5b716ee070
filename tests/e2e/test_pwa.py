"""The installable app (app/pwa.py, static/js/sw.js): every page links the manifest and
Chromium finds nothing missing to install the lobby; the service worker takes control
and precaches the shell; a page visited before reloads without a network and shows the
offline state, then resumes; a page never visited shows the offline page in the player's
language; a transfer link's page is never kept; a replay's steps (#ply=N) are not fetched
again; a deploy's new version replaces the old and deletes its cache; /me asks for
notifications only when a switch is turned on and says so when the browser refuses.

The module runs its own server (``python -m app`` on a fixed port: a service worker
belongs to one origin, and the deploy test restarts the server on the same one)."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, settle
from tests.e2e.test_replay import at, played
from tests.e2e.test_triangles import draw, fetch, legal_lines, start_game, tap_star
from tests.servers import free_port, migrate, start_app, stop

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp/pwa-shots")
WHOLE_BROWSER = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs {CHROMIUM}")
DEPLOY_PROBE = ROOT / "static" / "css" / "site" / "99-deploy-probe.css"
VERSION_OF_PAGE = "() => document.documentElement.dataset.assets"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
CACHES = "() => caches.keys()"
# Waits (on the page, up to 20 s) until the worker's cache [name] keeps the page's own
# address; returns whether it does. (Not a wait_for_function: Playwright takes the promise
# an async predicate returns for a truthy answer and never polls again.)
KEPT_HERE = """async (name) => {
  const until = Date.now() + 20000;
  for (;;) {
    const keys = await (await caches.open(name)).keys();
    const kept = keys.some((request) => new URL(request.url).pathname === location.pathname);
    if (kept || Date.now() > until) return kept;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}"""
# Waits (on the page, up to 20 s) until the caches are exactly [name]; returns them.
ONLY_CACHE = """async (name) => {
  const until = Date.now() + 20000;
  for (;;) {
    const keys = await caches.keys();
    if ((keys.length === 1 && keys[0] === name) || Date.now() > until) return keys;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}"""


@dataclass
class Server:
    env: dict[str, str]
    log: Path
    port: int
    process: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process, _ = start_app(self.env, self.log, self.port)

    def stop(self) -> None:
        stop(self.process)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("pwa")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'pwa.sqlite3'}",
        "SECRET": "pwa-" + secrets.token_hex(16),
        "VAPID_KEY_FILE": str(folder / "vapid"),
    }
    env.pop("REDIS_URL", None)
    migrate(env)
    running = Server(env, folder / "server.log", free_port())
    running.start()
    try:
        yield running
    finally:
        running.stop()
        DEPLOY_PROBE.unlink(missing_ok=True)


def context_for(browser: Any, server: Server, lang: str = "en", phone: bool = True) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    return browser.new_context(
        base_url=server.url,
        viewport=size,
        device_scale_factor=3 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        locale={"en": "en-US", "ru": "ru-RU", "fr": "fr-FR"}[lang],
    )


def controlled_page(context: Any, path: str) -> Any:
    """A page at ``path`` once the service worker controls it (its first visit installs
    the worker, which then claims the page)."""
    page = context.new_page()
    page.goto(path)
    page.wait_for_function(CONTROLLED, timeout=20_000)
    return page


@WHOLE_BROWSER
def test_the_lobby_links_the_manifest_and_is_installable(browser: Any, server: Server) -> None:
    with tempfile.TemporaryDirectory() as profile:
        # The whole Chromium, as a player installs from, with a profile of its own, started
        # by the worker's Playwright (a second Playwright in this thread is refused):
        # Chromium does not install from an incognito window.
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        page = controlled_page(context, f"{server.url}/")
        assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest"
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{server.url}/manifest.webmanifest"
        assert manifest["errors"] == []
        context.close()


@pytest.mark.parametrize("path", ["/me", "/play/triangles", "/leaderboard/triangles"])
def test_every_page_links_the_manifest(browser: Any, server: Server, path: str) -> None:
    context = context_for(browser, server, phone=False)
    page = context.new_page()
    page.goto(path)
    assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest"
    context.close()


def test_the_worker_takes_control_and_precaches_the_shell_of_the_players_language(
    browser: Any, server: Server
) -> None:
    context = context_for(browser, server, lang="fr")
    page = controlled_page(context, "/")
    version = page.evaluate(VERSION_OF_PAGE)
    assert page.evaluate(CACHES) == [f"nook-{version}"]
    kept = page.evaluate(
        """async (name) => (await (await caches.open(name)).keys())
             .map((request) => { const url = new URL(request.url);
                                 return url.pathname + url.search; })""",
        f"nook-{version}",
    )
    assert "/offline?lang=fr" in kept
    own = page.evaluate(
        """() => [...document.querySelectorAll(
                   'link[rel=stylesheet], link[rel=modulepreload], link[data-i18n-catalog], '
                   + 'script[src]',
                 )].map((e) => new URL(e.href || e.src).pathname)"""
    )
    # its stylesheet, its one script (build.mjs: no chunk shared with other pages) and words
    assert len(own) >= 3 and any("/i18n/fr-" in path for path in own)
    assert set(own) <= set(kept)  # the page's stylesheet, scripts and French words
    shell = page.evaluate("async () => (await fetch('/sw.js?lang=fr')).text()")
    precached = json.loads(shell.split(" = ", 1)[1].split(";\n", 1)[0])["shell"]
    assert set(kept) - {"/"} == set(precached)  # the worker's shell, and the page it claimed
    assert not any("/i18n/ru" in path or "/i18n/en" in path for path in kept)
    context.close()


@pytest.mark.parametrize("lang", ["ru", "fr"])
def test_a_page_visited_before_reloads_offline_in_the_offline_state_then_resumes(
    browser: Any, server: Server, lang: str
) -> None:
    context = context_for(browser, server, lang=lang)
    page = controlled_page(context, "/play/pairs")
    expect(page.locator("#pairs")).to_have_attribute("data-state", re.compile("playing"))
    # the game's new address (/g/<id>) is kept by the worker in the background: wait for it
    version = page.evaluate(VERSION_OF_PAGE)
    assert page.evaluate(KEPT_HERE, f"nook-{version}")
    context.set_offline(True)
    page.reload()
    body = page.locator("body")
    expect(page.locator("#pairs")).to_be_attached()
    expect(body).to_have_attribute("data-connection", "offline", timeout=15_000)
    expect(page.locator("#connection-banner")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    page.screenshot(path=str(SHOTS / f"offline-reload-{lang}.png"))
    context.set_offline(False)
    expect(body).to_have_attribute("data-connection", "online", timeout=20_000)
    expect(page.locator("#pairs")).to_have_attribute("data-state", re.compile("playing"))
    context.close()


@pytest.mark.parametrize(
    ("lang", "heading"), [("ru", "Нет подключения к сети"), ("fr", "Vous êtes hors ligne")]
)
def test_a_page_never_visited_shows_the_offline_page_in_the_players_language(
    browser: Any, server: Server, lang: str, heading: str
) -> None:
    context = context_for(browser, server, lang=lang)
    controlled_page(context, "/")
    page = context.new_page()
    context.set_offline(True)
    page.goto("/leaderboard/triangles")
    expect(page.locator("h1")).to_have_text(heading)
    expect(page.locator("body")).to_have_attribute("data-connection", "offline")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    settle(page)
    page.screenshot(path=str(SHOTS / f"offline-page-{lang}.png"))
    context.set_offline(False)  # the page asked for loads by itself once the network is back
    expect(page.locator("h1")).not_to_have_text(heading, timeout=15_000)
    expect(page).to_have_url(re.compile("/leaderboard/triangles$"))
    context.close()


KEPT_PAGES = """async (name) => (await (await caches.open(name)).keys())
  .map((request) => new URL(request.url))
  .filter((url) => !url.pathname.startsWith('/static/'))
  .map((url) => url.pathname + url.search)"""


def test_a_transfer_links_page_is_never_kept_nor_served_from_the_cache(
    browser: Any, server: Server
) -> None:
    """/me?code=… shows a code and the name of the player it would make this browser:
    the worker never keeps that page (a page it answers is kept before the answer
    reaches the page, so the cache is read once the page has loaded), and offline it is
    the offline page. Before, the page was kept and shown offline."""
    context = context_for(browser, server, phone=False)
    page = controlled_page(context, "/")
    version = page.evaluate(VERSION_OF_PAGE)
    page.goto("/me")
    page.goto("/me?code=ABCDEFGH")
    expect(page).to_have_url(re.compile("/me$"))  # the page took the code out of the bar
    kept = page.evaluate(KEPT_PAGES, f"nook-{version}")
    assert "/me" in kept  # a page of the site is kept as before
    assert [path for path in kept if "code=" in path] == []
    context.set_offline(True)
    page.goto("/me?code=ABCDEFGH")
    expect(page.locator("h1")).to_have_text("You are offline")
    context.set_offline(False)
    context.close()


@WHOLE_BROWSER
def test_notifications_ask_only_when_turned_on_and_say_when_refused(
    browser: Any, server: Server
) -> None:
    # The whole browser: the headless shell refuses every permission before asking, so
    # there a page never sees the "ask" a player's browser starts with.
    chromium = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    context = context_for(chromium, server, phone=False)
    asked: list[str] = []
    context.expose_function("noteAsked", lambda: asked.append("asked"))
    context.add_init_script(
        """const ask = Notification.requestPermission.bind(Notification);
        Notification.requestPermission = () => { window.noteAsked(); return ask(); };"""
    )
    page = context.new_page()
    page.goto("/me")
    section = page.locator("#notify")
    expect(section).to_have_attribute("data-notify", "ready")
    assert asked == []  # nothing asked on the page's load
    switch = page.locator("[data-notify-kind=your_turn]")
    # A click, not check(): the refusal can turn the switch off again before check() has
    # seen it on, which it takes for a click that did nothing.
    switch.click()
    expect(section).to_have_attribute("data-notify", "refused")
    assert asked == ["asked"]
    expect(switch).not_to_be_checked()
    expect(page.locator("#notify-status")).to_contain_text("blocks notifications")
    chromium.close()


def test_a_deploy_replaces_the_old_version_and_deletes_its_cache(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    context = context_for(browser, server, phone=False)
    page = controlled_page(context, "/")
    old = page.evaluate(VERSION_OF_PAGE)
    assert page.evaluate(CACHES) == [f"nook-{old}"]
    server.stop()
    # The next deploy: a changed stylesheet, built anew (build.mjs) into a folder of its own.
    DEPLOY_PROBE.write_text(".deploy-probe { color: red; }\n")
    try:
        build = {**server.env, "NOOK_ASSETS": str(tmp_path / "dist")}
        subprocess.run(["node", "build.mjs"], cwd=ROOT, env=build, check=True)
        server.env = build
        server.start()
        page.reload()
        new = page.evaluate(VERSION_OF_PAGE)
        assert new != old
        assert page.evaluate(ONLY_CACHE, f"nook-{new}") == [f"nook-{new}"]  # the old one is gone
        served = page.evaluate("async () => (await fetch('/sw.js?lang=en')).text()")
        assert served.startswith(f'self.NOOK = {{"cache":"nook-{new}","prefix":"nook-"')
        # Every file the page loaded is of the new version: nothing mixed.
        shell = json.loads(served.split(" = ", 1)[1].split(";\n", 1)[0])["shell"]
        urls = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
        loaded = {path for url in urls if (path := urlparse(url).path).startswith("/static/")}
        assert loaded and loaded <= set(shell)
    finally:
        DEPLOY_PROBE.unlink(missing_ok=True)
    context.close()


def test_a_game_open_across_a_deploy_reloads_itself_and_plays_on(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """A game page of the old build hears the new one's version in the server's next
    answer and loads itself again (once), then plays on with the new build's code."""
    context = context_for(browser, server, phone=False)
    page = context.new_page()
    page.goto("/play/triangles")
    start_game(page, level="easy", stars=24)
    draw(page, *legal_lines(fetch(page)["view"])[0])
    old = page.evaluate(VERSION_OF_PAGE)
    before = fetch(page)
    assert before["build"] == old
    server.stop()
    DEPLOY_PROBE.write_text(f".deploy-probe {{ color: #{secrets.token_hex(3)}; }}\n")
    try:
        build = {**server.env, "NOOK_ASSETS": str(tmp_path / "dist")}
        subprocess.run(["node", "build.mjs"], cwd=ROOT, env=build, check=True)
        server.env = build
        server.start()
    finally:
        DEPLOY_PROBE.unlink(missing_ok=True)
    # The next line's answer comes from the new build: taken, then the page reloads.
    view = before["view"]
    tap_star(page, view, legal_lines(view)[0][0])
    tap_star(page, view, legal_lines(view)[0][1])
    page.wait_for_function("(old) => document.documentElement.dataset.assets !== old", arg=old)
    new = page.evaluate(VERSION_OF_PAGE)
    after = fetch(page)
    assert after["build"] == new and after["version"] == before["version"] + 2  # line + reply
    expect(page.locator("#tri")).to_have_attribute("data-state", "active")
    draw(page, *legal_lines(after["view"])[0])  # plays on, with the new build's code
    assert fetch(page)["version"] == after["version"] + 2
    assert page.evaluate(VERSION_OF_PAGE) == new  # reloaded once, not again
    context.close()


def test_a_replays_steps_are_the_same_page_for_the_worker(browser: Any, server: Server) -> None:
    """A replay's steps change only its address's fragment (#ply=N): the same page, which the
    worker keeps once, not once more at every step; a new address (?review=1) is kept."""
    context = context_for(browser, server, phone=False)
    page = controlled_page(context, "/")
    game = played(page, "blocks", most=3)["id"]
    page.goto(f"/replay/{game}")
    page.keyboard.press("Home")
    at(page, 0)
    fetched: list[str] = []

    def worker_fetch(request: Any) -> None:
        url = urlparse(request.url)
        if request.service_worker is not None and url.path == f"/replay/{game}":
            fetched.append(url.query)

    def new_address_kept(request: Any) -> bool:
        return request.service_worker is not None and "review=1" in request.url

    context.on("request", worker_fetch)
    for ply in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        at(page, ply)
    # the worker answers its messages in order: once it fetches the new address, a step's
    # fetch (had there been one) came before
    with context.expect_event("request", new_address_kept, timeout=20_000):
        page.evaluate("() => history.replaceState(null, '', `${location.pathname}?review=1`)")
    assert fetched == ["review=1"]
    context.close()
