/**
 * geometry — where the Pairs board sits on its canvas, and which cell is where.
 *
 * Six columns always; the tile size is what the tallest board (9 rows) allows, so tiles
 * never shrink on a bigger board, except in a short box (a phone held sideways), where
 * the height is scarce: there the board's own rows set it. In a box wider than tall the
 * board may be drawn transposed (its rows as columns) when that makes its tiles larger: a
 * 8-row board on a phone held sideways has 47×50 px tiles drawn so, 35×37 upright. It is
 * a drawing choice only: every cell keeps its [row, col], the one the server knows; only
 * where it is drawn changes. The frame ring outside the board is drawn FRAME_PX beyond
 * the board's edge, so a path that leaves the board visibly does.
 *
 *   boardLayout(width, height, rows, cols) → g {width, height, rows, cols, transposed, cw, ch,
 *                         x0, y0, boardW, boardH}  (rows, cols: the board's; cw, ch: a drawn cell)
 *   cellXY(g, [r, c])     [x, y]: the top-left corner of a cell as drawn
 *   shownAt(g, [r, c])    [row, col] of a cell as drawn (on screen)
 *   drawnCells(g)         every cell [r, c], in the order they are drawn (screen rows, top down)
 *   cellUnder(g, x, y)    [row, col] under a point (CSS px), or null
 *   pathPoint(g, [r, c])  [x, y]: a cell's centre, or a point of the frame ring (-1 / rows / cols)
 */

const MAX_ROWS = 9;
const RATIO = 1.06; // tile height / width
const FRAME_PX = 8; // the outside ring of the path, beyond the board's edge
const MARGIN = 16; // canvas room around the board (the frame path, lifted tiles, glows)
const MAX_CELL = 84;
const SHORT_PX = 480; // a box this short sizes tiles by the board's own rows

/** The layout of a grid of `across` × `down` drawn cells; `tallest`: the rows sizing it. */
function fit(width, height, across, down, tallest) {
  const byWidth = (width - 2 * MARGIN) / across;
  const byHeight = (height - 2 * MARGIN) / (tallest * RATIO);
  const cw = Math.max(8, Math.floor(Math.min(byWidth, byHeight, MAX_CELL)));
  const ch = Math.round(cw * RATIO);
  const boardW = cw * across;
  const boardH = ch * down;
  const x0 = Math.round((width - boardW) / 2);
  const y0 = Math.round(Math.max(MARGIN, (height - boardH) / 2));
  return { cw, ch, x0, y0, boardW, boardH };
}

export function boardLayout(width, height, rows, cols) {
  const upright = fit(width, height, cols, rows, height < SHORT_PX ? rows : MAX_ROWS);
  const across = width > height ? fit(width, height, rows, cols, cols) : null;
  const transposed = Boolean(across && across.cw > upright.cw);
  return { width, height, rows, cols, transposed, ...(transposed ? across : upright) };
}

export function shownAt(g, [r, c]) {
  return g.transposed ? [c, r] : [r, c];
}

export function cellXY(g, cell) {
  const [r, c] = shownAt(g, cell);
  return [g.x0 + c * g.cw, g.y0 + r * g.ch];
}

export function drawnCells(g) {
  const cells = [];
  const [down, across] = g.transposed ? [g.cols, g.rows] : [g.rows, g.cols];
  for (let y = 0; y < down; y += 1) {
    for (let x = 0; x < across; x += 1) cells.push(g.transposed ? [x, y] : [y, x]);
  }
  return cells;
}

export function cellUnder(g, x, y) {
  const [down, across] = g.transposed ? [g.cols, g.rows] : [g.rows, g.cols];
  const c = Math.floor((x - g.x0) / g.cw);
  const r = Math.floor((y - g.y0) / g.ch);
  if (r < 0 || c < 0 || r >= down || c >= across) return null;
  return g.transposed ? [c, r] : [r, c];
}

export function pathPoint(g, cell) {
  // a point of the frame ring (-1, or rows / cols) maps like a cell: drawn rows are the
  // board's columns when transposed, so the ring beyond its last column is below it
  const [r, c] = shownAt(g, cell);
  const [down, across] = g.transposed ? [g.cols, g.rows] : [g.rows, g.cols];
  const x = c < 0 ? g.x0 - FRAME_PX : c >= across ? g.x0 + g.boardW + FRAME_PX : g.x0 + (c + 0.5) * g.cw;
  const y = r < 0 ? g.y0 - FRAME_PX : r >= down ? g.y0 + g.boardH + FRAME_PX : g.y0 + (r + 0.5) * g.ch;
  return [x, y];
}
