"""Quick pairing in the browser: two players press "Play online now" with the same time
control and both arrive on the same game page; a cancelled search returns the lobby to
its idle state and leaves the pool."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

GAME_PAGE = re.compile(r"/g/([A-Za-z0-9_-]+)$")


def play_now(page: Any, clock: str) -> None:
    page.goto("/")
    section = page.locator("#seek-section")
    expect(section).to_have_attribute("data-seek", "idle")
    page.locator(f'#seek-clocks input[value="{clock}"]').check()
    page.locator('[data-action="seek"]').click()


@pytest.mark.smoke  # make test-services runs it on PostgreSQL + Redis
def test_two_players_meet_on_one_game(desktop: Any, phone: Any) -> None:
    alice, bob = desktop.new_page(), phone.new_page()
    play_now(alice, "10+5")
    expect(alice.locator("#seek-section")).to_have_attribute("data-seek", "waiting")
    expect(alice.locator("[data-seek-control]")).to_contain_text("10 min + 5 s")
    expect(alice.locator("[data-seek-elapsed]")).to_contain_text("0:0")
    play_now(bob, "10+5")
    expect(bob).to_have_url(GAME_PAGE, timeout=15_000)
    expect(alice).to_have_url(GAME_PAGE, timeout=15_000)
    assert alice.url.rsplit("/", 1)[1] == bob.url.rsplit("/", 1)[1]
    game = alice.request.get(f"/api/games/{alice.url.rsplit('/', 1)[1]}").json()
    assert game["status"] == "active" and game["view"]["clock"]["control"] == "10+5"


def test_cancel_returns_to_idle_and_leaves_the_pool(desktop: Any, phone: Any) -> None:
    alice = desktop.new_page()
    play_now(alice, "5+3")
    section = alice.locator("#seek-section")
    expect(section).to_have_attribute("data-seek", "waiting")
    cancel = alice.locator('[data-action="seek-cancel"]')
    box = cancel.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    cancel.click()
    expect(section).to_have_attribute("data-seek", "idle")
    expect(alice.locator('[data-action="seek"]')).to_be_visible()
    # Nobody is left in the 5+3 pool: another player's seek waits.
    bob = phone.new_page()
    bob.goto("/")
    answer = bob.request.post("/api/seeks", data={"clock": "5+3"}).json()
    assert answer["status"] == "waiting"
    assert bob.request.delete(f"/api/seeks/{answer['seek_id']}").status == 204
