"""A game packaged outside this repository brings its own page (docs/adding-a-game.md, "A
worked page"): the fixture game Lamps Out, its script and stylesheet built into the
site's bundle by ``GAME_PACKAGES``, its words merged into its page's catalog, served by a
site that serves the fixture games (tests/fixtures/games/asgi.py). Played to the end with
a finger, in its own words."""

from __future__ import annotations

import os
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.servers import migrate, start_uvicorn, stop

ROOT = Path(__file__).resolve().parents[2]
LAMPSOUT = ROOT / "tests" / "fixtures" / "games" / "lampsout"


@pytest.fixture(scope="module")
def packaged_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site serving the fixture games, its front end built with Lamps Out's page."""
    tmp = tmp_path_factory.mktemp("packaged")
    assets = tmp / "dist"
    env = {**os.environ, "GAME_PACKAGES": str(LAMPSOUT), "NOOK_ASSETS": str(assets)}
    subprocess.run(["node", "build.mjs"], cwd=ROOT, env=env, check=True, capture_output=True)
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp / 'packaged.sqlite3'}"
    env["SECRET"] = "e2e-" + secrets.token_hex(16)
    env.pop("REDIS_URL", None)
    migrate(env)
    process, base_url = start_uvicorn(env, tmp / "uvicorn.log", "tests.fixtures.games.asgi:app")
    try:
        yield base_url
    finally:
        stop(process)


def test_lamps_out_is_played_on_its_own_page(browser: Any, packaged_site: str) -> None:
    context = browser.new_context(base_url=packaged_site, **{**PHONE, "locale": "fr-FR"})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/play/lampsout")
        stage = page.locator("#lampsout")
        expect(stage).to_have_attribute("data-state", "playing")
        expect(page.locator("h1")).to_have_text("Lampes éteintes")
        lamps = page.locator(".lampsout-lamp")
        expect(lamps).to_have_count(4)  # the default board: four lamps
        expect(lamps.first).to_have_attribute("aria-label", "Lampe 1")
        lit = [i for i in range(4) if lamps.nth(i).get_attribute("aria-pressed") == "true"]
        assert lit, "a new board has a lamp lit"
        for done, lamp in enumerate(lit, start=1):
            lamps.nth(lamp).tap()
            expect(lamps.nth(lamp)).to_have_attribute("aria-pressed", "false")
            expect(page.locator("[data-presses]")).to_have_text(str(done))
        expect(stage).to_have_attribute("data-state", "over")
        presses = len(lit)
        word = "appui" if presses == 1 else "appuis"
        expect(page.locator("[data-status]")).to_have_text(f"Tout est éteint en {presses} {word}")
        expect(lamps.first).to_be_disabled()
        assert errors == []
    finally:
        context.close()
