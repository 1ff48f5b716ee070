"""Pairs' deal paints the board once (issue 24.14, blocking time on a slow phone): the tiles'
bitmaps are made while the canvas is hidden, then the whole board is drawn in one frame and
the canvas drops in by a compositor animation. A per-tile cascade repainted the whole canvas
in every frame of the deal (some 20 frames, 55-110 ms each on the throttled phone of
bench/pages.py). The board canvas's paints are counted by wrapping its clearRect (canvas.js
clears before every draw). And a tap meets the cell the next frame draws under it, even
before that frame (the board's box may have changed size since the last one)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.test_pairs import PairsPage

COUNT_PAINTS = """
window.__paints = [];
const clearRect = CanvasRenderingContext2D.prototype.clearRect;
CanvasRenderingContext2D.prototype.clearRect = function (...args) {
  const box = this.canvas.closest && this.canvas.closest('#pairs-board');
  if (box) window.__paints.push([box.dataset.dealing, box.dataset.deal || '']);
  return clearRect.apply(this, args);
};
"""


def test_the_deal_paints_the_board_once_while_it_drops_in(desktop_in_motion: Any) -> None:
    page = desktop_in_motion.new_page()
    page.add_init_script(COUNT_PAINTS)
    pairs = PairsPage(page, touch=False)
    pairs.open("/play/pairs/86106612-a", prefs={"highlight": None})
    board = page.locator("#pairs-board")
    expect(board).to_have_attribute("data-dealing", "false")
    expect(board).to_have_attribute("data-animating", "false")
    paints = page.evaluate("window.__paints")
    # canvas.js's first sizing paints the empty canvas (before the game, data-dealing unset);
    # the deal itself paints once, when the canvas is shown (no data-deal="prepare"), and
    # again only if the board's box is resized meanwhile (the page's panels filling in):
    # a cascade painted every frame, 10-20 times.
    during_deal = [p for p in paints if p[0] == "true"]
    assert 1 <= len([p for p in during_deal if p[1] == ""]) <= 2, paints
    assert len(during_deal) <= 3, paints
    # the canvas is not left hidden, nor mid-animation
    assert page.evaluate(
        "() => { const c = document.querySelector('#pairs-board canvas');"
        " return [getComputedStyle(c).opacity, c.getAnimations().length]; }"
    ) == ["1", 0]


def test_the_board_is_dealt_where_there_is_no_offscreen_canvas(desktop: Any) -> None:
    """Older browsers (Safari before 16.4) have no OffscreenCanvas: the tile bitmaps are
    canvas elements there, and the board is dealt all the same."""
    page = desktop.new_page()
    page.add_init_script("delete window.OffscreenCanvas;")
    pairs = PairsPage(page, touch=False)
    pairs.open("/play/pairs/86106612-a", prefs={"highlight": None})
    board = page.locator("#pairs-board")
    expect(board).to_have_attribute("data-dealing", "false")
    # the first tile's face, at its centre, is painted and opaque
    alpha = page.evaluate(
        """() => {
          const box = document.querySelector('#pairs-board');
          const [x0, y0, cw, ch] = box.dataset.geometry.split(' ').map(Number);
          const canvas = box.querySelector('canvas');
          const k = canvas.width / box.clientWidth;
          const at = [Math.round((x0 + cw / 2) * k), Math.round((y0 + ch / 3) * k)];
          return canvas.getContext('2d').getImageData(at[0], at[1], 1, 1).data[3];
        }"""
    )
    assert alpha == 255


def test_a_tap_before_the_next_frame_meets_the_cell_that_frame_shows(
    desktop_in_motion: Any,
) -> None:
    """The board's box changes size (a line above it wraps, a font arrives) and a tap comes
    before the next frame has laid the board out again (on a busy phone, long after): it
    must meet the cell that frame draws there, not the one the last frame drew there."""
    page = desktop_in_motion.new_page()
    page.goto("/")
    found = page.evaluate("""async () => {
        const { Board } = await import('/static/js/games/pairs/board.js');
        const geometry = await import('/static/js/games/pairs/geometry.js');
        const box = document.createElement('div');
        box.style.cssText = 'position: relative; width: 600px; height: 700px';
        document.body.append(box);
        const board = new Board(box, {});
        board.setTiles(Array.from({ length: 8 }, () => Array(6).fill(1)));
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        box.style.width = '300px';  // no frame comes between this and the taps below
        const now = geometry.boardLayout(300, 700, 8, 6);
        return [[0, 0], [3, 2], [7, 5]].map((cell) => {
            const [x, y] = geometry.pathPoint(now, cell);
            return board.cellAt(x, y);
        });
    }""")
    assert found == [[0, 0], [3, 2], [7, 5]]
