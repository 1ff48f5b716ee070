/**
 * geometry — where the Pairs board sits on its canvas, and which cell is where.
 *
 * Six columns always; the tile size is what the tallest board (9 rows) allows, so tiles
 * never shrink on a bigger board, except in a short box (a phone held sideways), where
 * the height is scarce: there the board's own rows set it (31×33 px tiles became 35×37). The frame ring outside the board is drawn FRAME_PX
 * beyond the board's edge, so a path that leaves the board visibly does.
 *
 *   boardLayout(width, height, rows, cols) → g {width, height, rows, cols, cw, ch, x0, y0, boardW, boardH}
 *   cellUnder(g, x, y)    [row, col] under a point (CSS px), or null
 *   pathPoint(g, [r, c])  [x, y]: a cell's centre, or a point of the frame ring (-1 / rows / cols)
 */

const MAX_ROWS = 9;
const RATIO = 1.06; // tile height / width
const FRAME_PX = 8; // the outside ring of the path, beyond the board's edge
const MARGIN = 16; // canvas room around the board (the frame path, lifted tiles, glows)
const MAX_CELL = 84;
const SHORT_PX = 480; // a box this short sizes tiles by the board's own rows

export function boardLayout(width, height, rows, cols) {
  const byWidth = (width - 2 * MARGIN) / cols;
  const byHeight = (height - 2 * MARGIN) / ((height < SHORT_PX ? rows : MAX_ROWS) * RATIO);
  const cw = Math.max(8, Math.floor(Math.min(byWidth, byHeight, MAX_CELL)));
  const ch = Math.round(cw * RATIO);
  const boardW = cw * cols;
  const boardH = ch * rows;
  const x0 = Math.round((width - boardW) / 2);
  const y0 = Math.round(Math.max(MARGIN, (height - boardH) / 2));
  return { width, height, rows, cols, cw, ch, x0, y0, boardW, boardH };
}

export function cellUnder(g, x, y) {
  const c = Math.floor((x - g.x0) / g.cw);
  const r = Math.floor((y - g.y0) / g.ch);
  if (r < 0 || c < 0 || r >= g.rows || c >= g.cols) return null;
  return [r, c];
}

export function pathPoint(g, [r, c]) {
  const x = c < 0 ? g.x0 - FRAME_PX : c >= g.cols ? g.x0 + g.boardW + FRAME_PX : g.x0 + (c + 0.5) * g.cw;
  const y = r < 0 ? g.y0 - FRAME_PX : r >= g.rows ? g.y0 + g.boardH + FRAME_PX : g.y0 + (r + 0.5) * g.ch;
  return [x, y];
}
