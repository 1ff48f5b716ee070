"""Pairs' points popup ("+10", "+20 ×24") leaves the board when it ends (issue 24.10): the
canvas is drawn once more at or after the popup's end, however long the frame that showed it
took. A slow device is made by a frame that takes longer than the whole popup (its points
text takes 1.5 s to draw, once); the test then waits for the board's animation loop to rest
(data-animating="false") and compares the canvas with a fresh redraw of the same board."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.test_pairs import PairsPage, next_pair

SLOW_POPUP = """
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  if (String(text).startsWith('+') && !window.__slowed) {
    window.__slowed = true;
    const until = performance.now() + 1500;
    while (performance.now() < until) { /* a frame as slow as a starved phone's */ }
  }
  return fillText.call(this, text, ...rest);
};
"""

PIXELS = "() => document.querySelector('#pairs-board canvas').toDataURL()"


def test_the_points_popup_is_gone_when_the_board_rests(desktop: Any) -> None:
    page = desktop.new_page()
    page.add_init_script(SLOW_POPUP)
    pairs = PairsPage(page, touch=False)
    pairs.open("/play/pairs/86106612-a", prefs={"highlight": None})
    pairs.skip_deal()
    board = page.locator("#pairs-board")
    expect(board).to_have_attribute("data-animating", "false")
    pairs.remove(*next_pair(pairs.view()))
    page.wait_for_function("() => window.__slowed === true")
    expect(board).to_have_attribute("data-animating", "false")
    shown = page.evaluate(PIXELS)
    page.evaluate("window.dispatchEvent(new Event('themechange'))")  # redraws the same board
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(PIXELS) == shown, "the popup stayed on the board after its end"
    pairs.assert_clean()
