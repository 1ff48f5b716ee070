/**
 * overlays — what the Pairs board draws over its tiles: selection and twin rings, the hinted
 * pair, the keyboard cursor, the points popup. Plain functions: the board passes in every
 * cell, colour and centre they draw, so nothing here reads the board's state; nothing here
 * knows a rule either.
 *
 *   g      the board's layout (geometry.js): x0, y0, cw, ch, rows, cols, transposed
 *   box    the tile's box (tiles.js tileBox): inset, depth, w, h, radius
 *   colors the palette (palette.js)
 */

import { easeOut, reducedMotion } from '../../core/ui.js';
import { cellXY } from './geometry.js';

export const HINT_PULSE_MS = 2400;

export const clamp01 = (x) => Math.max(0, Math.min(1, x));
export const same = (p, q) => Boolean(p && q && p[0] === q[0] && p[1] === q[1]);

export function rounded(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.max(0, Math.min(r, w / 2, h / 2)));
}

/** A tile's rectangle [x, y, w, h], `grow` px bigger on every side. */
export function cellRect(g, box, cell, grow = 0) {
  const [x, y] = cellXY(g, cell);
  return [x + box.inset - grow, y + box.inset - grow, box.w + 2 * grow, box.h + 2 * grow];
}

export function drawRing(ctx, g, box, cell, color, alpha, width) {
  const [x, y, w, h] = cellRect(g, box, cell, 2);
  ctx.save();
  ctx.globalAlpha = clamp01(alpha);
  rounded(ctx, x, y, w, h, box.radius + 2);
  ctx.lineWidth = Math.max(width, g.cw * 0.065);
  ctx.strokeStyle = color;
  ctx.stroke();
  ctx.restore();
}

/** Dashed rings on every tile of `picture` in `tiles` (rows), except the cells in `skip`. */
export function drawTwins(ctx, g, box, colors, tiles, picture, skip) {
  for (let r = 0; r < g.rows; r += 1) {
    for (let c = 0; c < g.cols; c += 1) {
      if (tiles[r]?.[c] !== picture || skip.some((cell) => same(cell, [r, c]))) continue;
      const [x, y, w, h] = cellRect(g, box, [r, c], 1);
      rounded(ctx, x, y, w, h - box.depth, box.radius + 1);
      ctx.fillStyle = colors.twin;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.setLineDash([5, 4]);
      ctx.strokeStyle = colors.select;
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}

/** Glowing outlines on the hinted `cells`, pulsing for HINT_PULSE_MS after the hint came (`age` ms ago). */
export function drawHint(ctx, g, box, colors, cells, age) {
  const pulse = reducedMotion() || age > HINT_PULSE_MS ? 0 : (1 - Math.cos((age / 600) * Math.PI * 2)) / 2;
  for (const cell of cells) {
    const [x, y, w, h] = cellRect(g, box, cell, 2 + pulse * 3);
    ctx.save();
    ctx.shadowColor = colors.hint;
    ctx.shadowBlur = 10 + pulse * 8;
    rounded(ctx, x, y, w, h, box.radius + 3);
    ctx.lineWidth = Math.max(3, g.cw * 0.06);
    ctx.strokeStyle = colors.hint;
    ctx.stroke();
    ctx.restore();
  }
}

export function drawCursor(ctx, g, box, colors, cell) {
  const [x, y, w, h] = cellRect(g, box, cell, 4);
  ctx.save();
  rounded(ctx, x, y, w, h, box.radius + 4);
  ctx.lineWidth = 3;
  ctx.setLineDash([7, 5]);
  ctx.strokeStyle = colors.cursor;
  ctx.stroke();
  ctx.restore();
}

/** The popup effect `e` ({text, sub, start, end}) rising from the middle of `centres` ([x, y] each). */
export function drawPopup(ctx, g, colors, e, centres, t) {
  const p = clamp01((t - e.start) / (e.end - e.start));
  const x = centres.reduce((s, [cx]) => s + cx, 0) / centres.length;
  const y0 = centres.reduce((s, [, cy]) => s + cy, 0) / centres.length;
  const rise = reducedMotion() ? 0 : easeOut(p) * g.ch * 0.7;
  const size = Math.round(Math.max(18, g.cw * 0.42));
  ctx.save();
  ctx.globalAlpha = p < 0.7 ? 1 : 1 - (p - 0.7) / 0.3;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `800 ${size}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
  ctx.lineWidth = 5;
  ctx.lineJoin = 'round';
  ctx.strokeStyle = colors.pathCase;
  const y = y0 - rise;
  ctx.strokeText(e.text, x, y);
  ctx.fillStyle = colors.popup;
  ctx.fillText(e.text, x, y);
  if (e.sub) {
    ctx.font = `750 ${Math.round(size * 0.55)}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
    ctx.strokeText(e.sub, x, y + size * 0.85);
    ctx.fillText(e.sub, x, y + size * 0.85);
  }
  ctx.restore();
}
