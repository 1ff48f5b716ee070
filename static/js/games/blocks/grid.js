/**
 * grid — the board's tray and its empty cells, an SVG behind the board's canvas. The page
 * paints it and its compositor rasters it (off the main thread, and only when its
 * geometry changes), where the canvas rastered the same shapes on the main thread at
 * every draw: on a slow phone, most of the first draw's long task. Its colours are the
 * theme's own (--blk-board, --blk-cell), so a theme change redraws nothing here.
 *
 *   const grid = new GridFace(box)        prepended to the board's box, under its canvas
 *   grid.place(rows, cols, {cell, x0, y0})   the geometry the canvas draws with (CSS px)
 */

import { svg } from '../../core/ui.js';

const fixed = (n) => Number(n.toFixed(2));

/** Path data of a rounded rectangle, as the canvas's roundRect drew it. */
function roundedRect(x, y, w, h, r) {
  const [X, Y, R, W, H] = [x + r, y, r, w - 2 * r, h - 2 * r].map(fixed);
  const arc = (dx, dy) => `a${R} ${R} 0 0 1 ${dx} ${dy}`;
  return `M${X} ${Y}h${W}${arc(R, R)}v${H}${arc(-R, R)}h${-W}${arc(-R, -R)}v${-H}${arc(R, -R)}z`;
}

export class GridFace {
  constructor(box) {
    this.tray = svg('path', { class: 'blocks-grid__tray' });
    this.cells = svg('path', { class: 'blocks-grid__cells' });
    // where it lies is part of it (the canvas over it meets it cell for cell); its colours
    // are the stylesheet's
    const place = { position: 'absolute', inset: '0', width: '100%', height: '100%', pointerEvents: 'none' };
    box.prepend(svg('svg', { class: 'blocks-grid', 'aria-hidden': 'true', style: place }, this.tray, this.cells));
    this.placed = '';
  }

  place(rows, cols, { cell, x0, y0 }) {
    const placed = `${rows} ${cols} ${cell} ${x0} ${y0}`;
    if (placed === this.placed) return;
    this.placed = placed;
    const frame = Math.max(3, cell * 0.14);
    const width = cell * cols + frame * 2;
    const height = cell * rows + frame * 2;
    this.tray.setAttribute('d', roundedRect(x0 - frame, y0 - frame, width, height, Math.max(8, cell * 0.35)));
    const inset = Math.max(1, cell * 0.05);
    const side = cell - inset * 2;
    const cells = [];
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        cells.push(roundedRect(x0 + c * cell + inset, y0 + r * cell + inset, side, side, cell * 0.16));
      }
    }
    this.cells.setAttribute('d', cells.join(''));
  }
}
