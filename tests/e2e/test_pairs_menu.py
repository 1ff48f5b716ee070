"""Issue 24.13: in the Pairs menu, picking a size and a mode starts nothing and keeps the
menu open; "New game" then starts exactly one game with both."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_pairs import PairsPage

pytestmark = pytest.mark.e2e


def test_size_and_mode_then_one_new_game(phone: Any) -> None:
    pairs = PairsPage(phone.new_page(), touch=True)
    pairs.open("/play/pairs", prefs={"size": "classic", "mode": "calm"})
    page = pairs.page
    first = pairs.game_id
    page.locator('[data-action="menu"]').first.tap()
    menu = page.locator("#pairs-menu")
    expect(menu).to_be_visible()
    menu.locator('label:has(input[name="pairs-size"][value="beginner"])').tap()
    menu.locator('label:has(input[name="pairs-mode"][value="timed"])').tap()
    expect(menu.locator('input[name="pairs-mode"][value="timed"]')).to_be_checked()
    expect(menu).to_be_visible()
    assert pairs.game_id == first
    menu.locator('[data-action="new"]').tap()
    expect(menu).to_be_hidden()
    expect(page.locator("#pairs")).not_to_have_attribute("data-game-id", first)
    pairs.wait_ready()
    view = pairs.view()
    assert (view["size"], view["mode"]) == ("beginner", "timed")
    games = page.request.get("/api/me/games?game=pairs").json()["games"]
    assert [g["id"] for g in games] == [pairs.game_id, first]  # one restart, not two
    pairs.assert_clean()
