/**
 * palette — the colours of the blocks pages (CSS custom properties from blocks.css, so the
 * light and dark themes change them) and the one way a block is painted, shared by the
 * board, the tray and the floating piece.
 *
 *   colours()                      → {kinds[1..10], highlight, accent, accentText, danger, flash, pill, pillText}
 *                                  (the board's tray and empty cells are the stylesheet's: grid.js)
 *   kindColour(kind)               → the colour of a piece kind (kinds share the 10-colour palette)
 *   drawBlock(ctx, x, y, size, colour, {alpha, scale, flash})
 *                                  one bevelled block with its top-left corner at (x, y)
 *   drawPiece(ctx, cells, x, y, size, colour, opts)   every cell of a piece, (x, y) = its box corner
 *   pieceSize(cells)               → {rows, cols} of a piece's box
 *   pieceSvg(cells, kind, px)      → an <svg> of a piece (final card: the pieces that were stuck)
 */

import { svg } from '../../core/ui.js';
import { cssVars } from '../../core/theme.js';

const PALETTE = 10;
const NAMED = {
  highlight: '--blk-highlight',
  accent: '--accent',
  accentText: '--accent-text',
  danger: '--danger',
  flash: '--blk-flash',
  pill: '--blk-pill',
  pillText: '--blk-pill-text',
};
let cached = null;

window.addEventListener('themechange', () => {
  cached = null;
  sprites.clear();
});

export function colours() {
  if (!cached) {
    const kindNames = Array.from({ length: PALETTE }, (_, i) => `--blk-${i + 1}`);
    const v = cssVars([...kindNames, ...Object.values(NAMED)]);
    cached = { kinds: ['', ...kindNames.map((name) => v[name] || '#6a5cff')] };
    for (const [key, name] of Object.entries(NAMED)) cached[key] = v[name];
  }
  return cached;
}

export function kindColour(kind) {
  const k = Math.max(1, Number(kind) || 1);
  return colours().kinds[((k - 1) % PALETTE) + 1];
}

export function pieceSize(cells) {
  let rows = 0;
  let cols = 0;
  for (const [r, c] of cells) {
    rows = Math.max(rows, r + 1);
    cols = Math.max(cols, c + 1);
  }
  return { rows, cols };
}

// A block painted once per colour, size and pixel ratio, then copied (fast on slow phones).
const sprites = new Map();

// The sprite's pixels per CSS px: the transform's scale (the page's pixel ratio, times the
// zoom of a deal or turn animation), rounded up to a quarter. Keyed by the exact scale, a
// tray's deal painted new sprites for every block in every frame (a long task per frame
// on a slow phone); rounded, an animation reuses a few, drawn at least as fine as needed.
function pixelRatio(ctx) {
  const m = ctx.getTransform();
  return Math.max(0.25, Math.ceil(Math.hypot(m.a, m.b) * 4 - 1e-6) / 4);
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function sprite(colour, size, dpr) {
  const key = `${colour}|${size.toFixed(2)}|${dpr}`;
  let canvas = sprites.get(key);
  if (canvas) return canvas;
  if (sprites.size > 300) sprites.clear();
  canvas = document.createElement('canvas');
  const px = Math.max(1, Math.round(size * dpr));
  canvas.width = px;
  canvas.height = px;
  const ctx = canvas.getContext('2d');
  ctx.scale(px / size, px / size);
  const inset = Math.max(1, size * 0.05);
  const s = size - inset * 2;
  const radius = Math.max(2, size * 0.17);
  // body
  roundRect(ctx, inset, inset, s, s, radius);
  ctx.fillStyle = colour;
  ctx.fill();
  // light from the top, shade at the bottom
  const shade = ctx.createLinearGradient(0, inset, 0, inset + s);
  shade.addColorStop(0, 'rgba(255,255,255,0.30)');
  shade.addColorStop(0.45, 'rgba(255,255,255,0.04)');
  shade.addColorStop(0.55, 'rgba(0,0,0,0)');
  shade.addColorStop(1, 'rgba(0,0,0,0.22)');
  ctx.fillStyle = shade;
  ctx.fill();
  // bevel rim
  ctx.lineWidth = Math.max(1, size * 0.06);
  ctx.strokeStyle = 'rgba(255,255,255,0.22)';
  roundRect(ctx, inset + ctx.lineWidth / 2, inset + ctx.lineWidth / 2, s - ctx.lineWidth, s - ctx.lineWidth, radius * 0.8);
  ctx.stroke();
  // glossy spot
  ctx.fillStyle = 'rgba(255,255,255,0.28)';
  roundRect(ctx, inset + s * 0.16, inset + s * 0.12, s * 0.36, s * 0.14, s * 0.07);
  ctx.fill();
  sprites.set(key, canvas);
  return canvas;
}

export function drawBlock(ctx, x, y, size, colour, { alpha = 1, scale = 1, flash = 0 } = {}) {
  if (alpha <= 0 || scale <= 0) return;
  const dpr = pixelRatio(ctx);
  const image = sprite(colour, size, dpr);
  const s = size * scale;
  const ox = x + (size - s) / 2;
  const oy = y + (size - s) / 2;
  const before = ctx.globalAlpha;
  ctx.globalAlpha = before * alpha;
  ctx.drawImage(image, ox, oy, s, s);
  if (flash > 0) {
    ctx.globalAlpha = before * alpha * Math.min(1, flash);
    ctx.fillStyle = colours().flash;
    roundRect(ctx, ox + s * 0.05, oy + s * 0.05, s * 0.9, s * 0.9, s * 0.17);
    ctx.fill();
  }
  ctx.globalAlpha = before;
}

export function drawPiece(ctx, cells, x, y, size, colour, opts) {
  for (const [r, c] of cells) drawBlock(ctx, x + c * size, y + r * size, size, colour, opts);
}

export function pieceSvg(cells, kind, px = 14) {
  const { rows, cols } = pieceSize(cells);
  const gap = px * 0.1;
  const node = svg('svg', {
    class: 'blocks-piece-svg',
    viewBox: `0 0 ${cols * px} ${rows * px}`,
    width: cols * px,
    height: rows * px,
    'aria-hidden': 'true',
    focusable: 'false',
  });
  for (const [r, c] of cells) {
    node.append(svg('rect', {
      x: c * px + gap / 2,
      y: r * px + gap / 2,
      width: px - gap,
      height: px - gap,
      rx: px * 0.2,
      fill: kindColour(kind),
    }));
  }
  return node;
}
