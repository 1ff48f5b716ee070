"""Issue 24 on the Triangles page: the low-time clock clearly tinted in every look (13)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.states import api, computer_line
from tests.e2e.test_triangles import EN

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
    """Issue 24.9: "Play again" as wide as the shared actions (across the card); a visitor
    of someone else's finished game sees no record of their own against the computer."""
    owner = desktop.new_page()
    owner.goto("/")
    gid = finished_computer_game(owner)
    owner.goto(f"/g/{gid}")
    card = owner.locator("#tri-final")
    expect(card).to_be_visible()
    again = card.locator('[data-action="again"]')
    expect(again).to_be_visible()
    # the shared links' row spans the card (New game sits beside Review since issue 36)
    shared = card.locator(".end-actions__row")
    # measured once the card has stopped growing in (its opening animation scales it)
    card.evaluate("el => Promise.all(el.getAnimations({subtree: true}).map((a) => a.finished))")
    assert abs(again.bounding_box()["width"] - shared.bounding_box()["width"]) < 1
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


def online_match(browser: Any, server_url: str) -> tuple[Any, Any, Any]:
    """Alice's page on a casual 5+3 online game Bob has joined and where both have drawn
    their first line, so Alice's clock runs (all through the API with each browser's
    cookie): (alice's context, bob's context, alice's page)."""
    alice_ctx = browser.new_context(base_url=server_url, viewport={"width": 390, "height": 844})
    bob_ctx = browser.new_context(base_url=server_url)
    assert alice_ctx.request.put("/api/me", data={"name": "Alice"}).ok
    params = {"opponent": "online", "stars": 24, "clock": "5+3"}
    made = alice_ctx.request.post("/api/games", data={"game": "triangles", "params": params})
    assert made.ok, made.text()
    gid = made.json()["id"]
    assert bob_ctx.request.put("/api/me", data={"name": "Bob"}).ok
    assert bob_ctx.request.post(f"/api/games/{gid}/join").ok
    for version, player in enumerate((alice_ctx, bob_ctx)):  # a clock starts with its first line
        api(player, "POST", f"/api/games/{gid}/moves",
            {"version": version, "move": computer_line(player, {"id": gid})})
    page = alice_ctx.new_page()
    page.goto(f"/g/{gid}")
    expect(page.locator(".tri-player__clock.is-running")).to_have_count(1)
    return alice_ctx, bob_ctx, page


def test_new_game_during_an_online_game_asks_first(browser: Any, server_url: str) -> None:
    """Issue 24.5: "New game" beside Resign while an online game is on opens a translated
    warning first; "Back to the game" keeps the game, "New game" goes on to the dialog."""
    alice_ctx, bob_ctx, page = online_match(browser, server_url)
    try:
        leave, new = page.locator("#tri-leave"), page.locator("#tri-new")
        page.locator('#tri-controls [data-action="new"]').click()
        expect(leave).to_be_visible()
        expect(leave).to_contain_text(EN["games.triangles.leave.text"])
        expect(new).to_be_hidden()
        leave.locator('[data-action="no"]').click()
        expect(leave).to_be_hidden()
        expect(new).to_be_hidden()
        page.locator('#tri-controls [data-action="new"]').click()
        leave.locator('[data-action="yes"]').click()
        expect(new).to_be_visible()
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_own_clock_runs_down_while_offline(browser: Any, server_url: str) -> None:
    """Issue 24.5: offline, the running clock keeps counting down on screen from the last
    server state (the server keeps charging it)."""
    alice_ctx, bob_ctx, page = online_match(browser, server_url)
    try:
        running = page.locator(".tri-player__clock.is-running")
        start = int(running.get_attribute("data-left-ms") or 0)
        alice_ctx.set_offline(True)
        expect(page.locator("body")).to_have_attribute("data-connection", "offline")
        page.wait_for_function(
            "(ms) => Number(document.querySelector('.tri-player__clock.is-running')"
            "?.dataset.leftMs) < ms",
            arg=start - 3_000,
            timeout=15_000,
        )
        expect(page.locator("body")).to_have_attribute("data-connection", "offline")
    finally:
        alice_ctx.close()
        bob_ctx.close()
