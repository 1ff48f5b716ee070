"""Issue 24 on the Triangles page: the low-time clock clearly tinted in every look (13)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return r, g, b


def luminance(colour: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(
    "cookies",
    [{}, {"tri_theme": "paper", "theme": "light"}, {"tri_theme": "paper", "theme": "dark"}],
)
def test_low_time_clock_is_clearly_red(
    desktop: Any, server_url: str, cookies: dict[str, str]
) -> None:
    desktop.add_cookies([{"name": k, "value": v, "url": server_url} for k, v in cookies.items()])
    page = desktop.new_page()
    page.goto("/play/triangles")
    expect(page.locator("#tri")).not_to_have_attribute("data-state", "loading")
    clock = page.locator(".tri-player__clock").first
    page.evaluate(
        """() => { const c = document.querySelector('.tri-player__clock');
        c.hidden = false; c.textContent = '0:07'; c.classList.add('is-running', 'is-low'); }"""
    )
    background = rgb(clock.evaluate("(c) => getComputedStyle(c).backgroundColor"))
    text = rgb(clock.evaluate("(c) => getComputedStyle(c).color"))
    assert background[0] - max(background[1:]) >= 120, background  # red, not a faint wash
    assert contrast(background, text) >= 4.5, (background, text)


def finished_computer_game(page: Any) -> str:
    """A game against the computer, resigned at once, made with the page's cookie."""
    made = page.request.post(
        "/api/games", data={"game": "triangles", "params": {"opponent": "easy", "stars": 24}}
    )
    assert made.ok, made.text()
    game = made.json()
    resigned = page.request.post(
        f"/api/games/{game['id']}/moves",
        data={"version": game["version"], "move": {"type": "resign"}},
    )
    assert resigned.ok, resigned.text()
    return str(game["id"])


def test_end_card_play_again_full_width_and_no_visitor_record(
    browser: Any, desktop: Any, server_url: str
) -> None:
    """Issue 24.9: "Play again" as wide as the shared actions; a visitor of someone else's
    finished game sees no record of their own against the computer."""
    owner = desktop.new_page()
    owner.goto("/")
    gid = finished_computer_game(owner)
    owner.goto(f"/g/{gid}")
    card = owner.locator("#tri-final")
    expect(card).to_be_visible()
    again = card.locator('[data-action="again"]')
    expect(again).to_be_visible()
    shared = card.locator('[data-action="new"]')
    if shared.is_visible():
        assert again.bounding_box()["width"] == shared.bounding_box()["width"]
    actions = card.locator(".end-actions").bounding_box()
    assert again.bounding_box()["width"] >= actions["width"] - 48
    expect(card.locator("#tri-final-stats")).to_be_visible()
    expect(owner.locator("#tri-stats-panel")).to_be_attached()
    assert owner.locator("#tri-stats-panel").get_attribute("hidden") is None
    visitor_context = browser.new_context(
        base_url=server_url, viewport={"width": 390, "height": 844}
    )
    try:
        visitor = visitor_context.new_page()
        visitor.goto(f"/g/{gid}")
        expect(visitor.locator("#tri-final")).to_be_visible()
        expect(visitor.locator("#tri-final-stats")).to_be_hidden()
    finally:
        visitor_context.close()


def test_online_game_has_no_against_the_computer_panel(desktop: Any) -> None:
    page = desktop.new_page()
    page.goto("/")
    made = page.request.post(
        "/api/games", data={"game": "triangles", "params": {"opponent": "online", "stars": 24}}
    )
    assert made.ok, made.text()
    page.goto(f"/g/{made.json()['id']}")
    expect(page.locator("#tri-waiting")).to_be_visible()
    expect(page.locator(".tri-side .panel:has(#tri-stats)")).to_be_hidden()
    expect(page.locator('.tri-side [data-leaderboard="triangles"]')).to_be_visible()
