/**
 * board — the grid canvas, over its tray and empty cells (grid.js): the blocks, the ghost
 * of a dragged piece with the lines it would clear and its points (all from the server's
 * view), and the animations of what the server's events say happened (snap, line clear,
 * gravity, emptied rows).
 *
 *   const board = new Board(box)
 *   board.setSize(rows, cols)            board.setGrid(grid)      (rows of kinds, 0 = empty)
 *   board.setGhost({cells, kind, row, col, clears:{rows, cols}, points} | null)
 *   board.setOutline({cells, row, col} | null)  a keyboard-held piece that does not fit here
 *   board.setPending({cells, kind, row, col} | null)  a placement waiting for the server
 *   board.toGrid(clientX, clientY)      → {r, c} fractional grid coordinates
 *   board.cellSize                       CSS px of one cell; board.clientRect(r, c) → {x, y, size}
 *   board.geo.cell, board.onCell = () => …  the cell size as last drawn (no layout forced), its change
 *   await board.animate(events, finalGrid)   plays a move's events, ends on finalGrid
 *   board.skip()                         jumps to the end of the running animation
 *
 * The box gets data-grid-left / data-grid-top / data-cell (CSS px inside the canvas) so
 * tests and tools can aim at cells.
 */

import { createBoardCanvas } from '../../core/canvas.js';
import { formatNumber } from '../../core/i18n.js';
import { easeOut, reducedMotion } from '../../core/ui.js';
import { GridFace } from './grid.js';
import { colours, drawBlock, kindColour } from './palette.js';

const SNAP_MS = 170;
const CLEAR_MS = 380;
const FALL_MS = 240;
const STAGGER_MS = 16;

const clamp01 = (x) => Math.max(0, Math.min(1, x));

export class Board {
  constructor(box) {
    this.box = box;
    this.rows = 10;
    this.cols = 10;
    this.grid = [];
    this.target = null;
    this.ghost = null;
    this.outline = null;
    this.pending = null;
    this.effects = [];
    this.run = 0;
    this.frame = 0;
    this.geo = { pad: 0, cell: 0, x0: 0, y0: 0 };
    this.measured = null; // geometryNow's, for the task that asked
    this.onCell = /** @type {(() => void) | null} */ (null);
    this.face = new GridFace(box); // the tray and the empty cells, under the canvas
    this.canvas = createBoardCanvas(box, (ctx, w, h) => this.draw(ctx, w, h), { prepare: colours });
  }

  get cellSize() {
    return this.geometryNow().cell;
  }

  /** The grid the next frame draws, for the box's size now (a move after a resize and before
   * that frame must meet the cells it will show); measured once per task. */
  geometryNow() {
    if (!this.measured) {
      const { width, height } = this.canvas.boxSize();
      this.measured = this.geometry(width, height);
      queueMicrotask(() => { this.measured = null; });
    }
    return this.measured;
  }

  setSize(rows, cols) {
    if (rows === this.rows && cols === this.cols && this.grid.length) return;
    this.rows = rows;
    this.cols = cols;
    this.measured = null;
    this.grid = Array.from({ length: rows }, () => new Array(cols).fill(0));
    this.box.style.setProperty('--board-cols', String(cols));
    this.canvas.requestDraw();
  }

  setGrid(grid) {
    this.skip();
    this.grid = grid.map((row) => row.slice());
    this.target = this.grid;
    this.canvas.requestDraw();
  }

  setGhost(ghost) {
    const same = (a, b) => a === b || (a && b && a.row === b.row && a.col === b.col && a.cells === b.cells);
    if (same(this.ghost, ghost)) return;
    this.ghost = ghost;
    this.canvas.requestDraw();
  }

  setOutline(outline) {
    this.outline = outline;
    this.canvas.requestDraw();
  }

  setPending(pending) {
    this.pending = pending;
    this.canvas.requestDraw();
  }

  geometry(w, h) {
    const size = Math.min(w, h);
    const pad = Math.max(4, Math.round(size * 0.018));
    const cell = (size - pad * 2) / Math.max(this.rows, this.cols);
    return { pad, cell, x0: (w - cell * this.cols) / 2, y0: (h - cell * this.rows) / 2 };
  }

  layout(w, h) {
    const before = this.geo.cell;
    const { cell, x0, y0 } = (this.geo = this.geometry(w, h));
    const grid = { gridLeft: x0.toFixed(2), gridTop: y0.toFixed(2), cell: cell.toFixed(3) };
    Object.assign(this.box.dataset, grid, { rows: String(this.rows), cols: String(this.cols) });
    this.face.place(this.rows, this.cols, this.geo);
    if (cell !== before) this.onCell?.();
  }

  toGrid(clientX, clientY) {
    const { x, y } = this.canvas.toLocal(clientX, clientY);
    const { cell, x0, y0 } = this.geometryNow();
    return { r: (y - y0) / cell, c: (x - x0) / cell };
  }

  clientRect(r, c) {
    const rect = this.canvas.canvas.getBoundingClientRect();
    const { cell, x0, y0 } = this.geometryNow();
    return { x: rect.left + x0 + c * cell, y: rect.top + y0 + r * cell, size: cell };
  }

  /* ------------------------------------------------------------------ drawing -- */

  draw(ctx, w, h) {
    this.layout(w, h);
    const pal = colours();
    const { cell, x0, y0 } = this.geo;
    const now = performance.now();
    const gw = cell * this.cols;
    const gh = cell * this.rows;
    const inset = Math.max(1, cell * 0.05);

    // the lines the ghost would clear: a band under them
    const ghost = this.ghost;
    const lit = new Set();
    if (ghost) {
      ctx.fillStyle = pal.highlight;
      for (const r of ghost.clears.rows) {
        ctx.beginPath();
        ctx.roundRect(x0, y0 + r * cell, gw, cell, cell * 0.2);
        ctx.fill();
        for (let c = 0; c < this.cols; c += 1) lit.add(r * this.cols + c);
      }
      for (const c of ghost.clears.cols) {
        ctx.beginPath();
        ctx.roundRect(x0 + c * cell, y0, cell, gh, cell * 0.2);
        ctx.fill();
        for (let r = 0; r < this.rows; r += 1) lit.add(r * this.cols + c);
      }
    }

    // effects that change how the grid itself is drawn
    const fall = this.effects.find((e) => e.type === 'fall');
    const fallOffset = new Map();
    if (fall) {
      const t = easeOut(clamp01((now - fall.start) / fall.duration));
      for (const [from, to] of fall.moves) fallOffset.set(to, (from - to) * (1 - t) * cell);
    }
    const snap = this.effects.filter((e) => e.type === 'snap');
    const snapped = new Map();
    for (const e of snap) {
      const t = clamp01((now - e.start) / e.duration);
      for (const [r, c] of e.cells) snapped.set(r * this.cols + c, t);
    }

    // blocks
    const ghostColour = ghost ? kindColour(ghost.kind) : null;
    for (let r = 0; r < this.rows; r += 1) {
      const dy = fallOffset.get(r) || 0;
      for (let c = 0; c < this.cols; c += 1) {
        const kind = this.grid[r]?.[c];
        if (!kind) continue;
        const key = r * this.cols + c;
        const colour = lit.has(key) ? ghostColour : kindColour(kind);
        const t = snapped.get(key);
        const opts = t === undefined ? undefined : { scale: 1 + 0.14 * (1 - easeOut(t)), flash: 0.45 * (1 - t) };
        drawBlock(ctx, x0 + c * cell, y0 + r * cell + dy, cell, colour, opts);
      }
    }

    // a placement sent to the server, drawn as placed
    if (this.pending) {
      const colour = kindColour(this.pending.kind);
      for (const [dr, dc] of this.pending.cells) {
        drawBlock(ctx, x0 + (this.pending.col + dc) * cell, y0 + (this.pending.row + dr) * cell, cell, colour);
      }
    }

    // the ghost: the piece where it would land, and the lines it completes in its colour
    if (ghost) {
      for (const [dr, dc] of ghost.cells) {
        const r = ghost.row + dr;
        const c = ghost.col + dc;
        const full = lit.has(r * this.cols + c);
        drawBlock(ctx, x0 + c * cell, y0 + r * cell, cell, ghostColour, { alpha: full ? 0.9 : 0.42 });
      }
    }

    // a held piece that does not fit here (keyboard): a dashed outline
    if (this.outline) {
      ctx.save();
      ctx.strokeStyle = pal.danger;
      ctx.lineWidth = Math.max(1.5, cell * 0.06);
      ctx.setLineDash([cell * 0.16, cell * 0.12]);
      for (const [dr, dc] of this.outline.cells) {
        const r = this.outline.row + dr;
        const c = this.outline.col + dc;
        if (r < 0 || c < 0 || r >= this.rows || c >= this.cols) continue;
        ctx.beginPath();
        ctx.roundRect(x0 + c * cell + inset * 2, y0 + r * cell + inset * 2, cell - inset * 4, cell - inset * 4, cell * 0.16);
        ctx.stroke();
      }
      ctx.restore();
    }

    // cleared cells: flash, then shrink away from where the piece landed
    for (const e of this.effects) {
      if (e.type !== 'clear') continue;
      const elapsed = now - e.start;
      const band = clamp01(1 - elapsed / (e.duration * 0.7));
      if (band > 0 && (e.rows.length || e.cols.length)) {
        ctx.save();
        ctx.globalAlpha = band;
        ctx.fillStyle = pal.flash;
        for (const r of e.rows) {
          ctx.beginPath();
          ctx.roundRect(x0, y0 + r * cell + cell * 0.35, gw, cell * 0.3, cell * 0.15);
          ctx.fill();
        }
        for (const c of e.cols) {
          ctx.beginPath();
          ctx.roundRect(x0 + c * cell + cell * 0.35, y0, cell * 0.3, gh, cell * 0.15);
          ctx.fill();
        }
        ctx.restore();
      }
      for (const [r, c, kind, delay] of e.cells) {
        const t = clamp01((elapsed - delay) / (e.duration - e.maxDelay));
        if (t >= 1) continue;
        const colour = kindColour(kind || 1);
        if (t < 0.3) {
          drawBlock(ctx, x0 + c * cell, y0 + r * cell, cell, colour, { scale: 1 + 0.1 * (t / 0.3), flash: (t / 0.3) * 0.85 });
        } else {
          const k = (t - 0.3) / 0.7;
          drawBlock(ctx, x0 + c * cell, y0 + r * cell, cell, colour, { scale: 1.1 * (1 - easeOut(k)) + 0.05, alpha: 1 - k, flash: 0.85 * (1 - k) });
        }
      }
    }

    // the points of the ghost's placement, in a pill above it (below when at the top)
    if (ghost && ghost.points > 0) this.drawPoints(ctx, ghost, pal);

    if (this.effects.length) this.tick();
  }

  drawPoints(ctx, ghost, pal) {
    const { cell, x0, y0 } = this.geo;
    let top = Infinity;
    let bottom = -Infinity;
    let left = Infinity;
    let right = -Infinity;
    for (const [dr, dc] of ghost.cells) {
      top = Math.min(top, ghost.row + dr);
      bottom = Math.max(bottom, ghost.row + dr + 1);
      left = Math.min(left, ghost.col + dc);
      right = Math.max(right, ghost.col + dc + 1);
    }
    const clears = ghost.clears.rows.length + ghost.clears.cols.length > 0;
    const text = `+${formatNumber(ghost.points)}`;
    const font = Math.max(12, Math.round(cell * (clears ? 0.5 : 0.4)));
    ctx.save();
    ctx.font = `800 ${font}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
    const tw = ctx.measureText(text).width;
    const ph = font * 1.55;
    const pw = tw + font * 1.1;
    let cx = x0 + ((left + right) / 2) * cell;
    let cy = y0 + top * cell - ph * 0.75;
    if (cy - ph / 2 < 2) cy = y0 + bottom * cell + ph * 0.75;
    cx = Math.max(x0 + pw / 2, Math.min(x0 + this.cols * cell - pw / 2, cx));
    ctx.shadowColor = 'rgba(0,0,0,0.25)';
    ctx.shadowBlur = 8;
    ctx.shadowOffsetY = 2;
    ctx.fillStyle = clears ? pal.accent : pal.pill;
    ctx.beginPath();
    ctx.roundRect(cx - pw / 2, cy - ph / 2, pw, ph, ph / 2);
    ctx.fill();
    ctx.shadowColor = 'transparent';
    ctx.fillStyle = clears ? pal.accentText : pal.pillText;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, cx, cy + font * 0.04);
    ctx.restore();
  }

  /* ------------------------------------------------------------------ animation -- */

  tick() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const now = performance.now();
      const done = this.effects.filter((e) => now - e.start >= e.duration);
      if (done.length) {
        this.effects = this.effects.filter((e) => !done.includes(e));
        for (const e of done) e.resolve();
      }
      this.canvas.drawNow();
    });
  }

  effect(type, data, duration) {
    return new Promise((resolve) => {
      this.effects.push({ type, ...data, duration, start: performance.now(), resolve });
      this.tick();
    });
  }

  skip() {
    this.run += 1;
    const effects = this.effects;
    this.effects = [];
    for (const e of effects) e.resolve();
    if (this.target && this.grid !== this.target) this.grid = this.target.map((row) => row.slice());
    this.canvas.requestDraw();
  }

  clearCells(cells, grid, origin) {
    const [or, oc] = origin;
    let maxDelay = 0;
    const out = cells.map(([r, c]) => {
      const delay = Math.min(8, Math.abs(r - or) + Math.abs(c - oc)) * STAGGER_MS;
      maxDelay = Math.max(maxDelay, delay);
      return [r, c, grid[r]?.[c] || 0, delay];
    });
    for (const [r, c] of cells) if (grid[r]) grid[r][c] = 0;
    return { cells: out, maxDelay };
  }

  async animate(events, finalGrid) {
    this.skip();
    const run = this.run;
    const final = finalGrid.map((row) => row.slice());
    this.target = final;
    this.pending = null;
    if (reducedMotion()) {
      this.grid = final.map((row) => row.slice());
      this.canvas.requestDraw();
      return;
    }
    let grid = this.grid.map((row) => row.slice());
    let origin = [this.rows / 2, this.cols / 2];
    const alive = () => run === this.run;
    for (const ev of events || []) {
      if (!alive()) return;
      if (ev.type === 'placed') {
        for (const [r, c] of ev.cells) if (grid[r]) grid[r][c] = ev.kind;
        const rs = ev.cells.map(([r]) => r);
        const cs = ev.cells.map(([, c]) => c);
        origin = [(Math.min(...rs) + Math.max(...rs)) / 2, (Math.min(...cs) + Math.max(...cs)) / 2];
        this.grid = grid.map((row) => row.slice());
        this.effect('snap', { cells: ev.cells }, SNAP_MS);
      } else if (ev.type === 'cleared' || ev.type === 'zen_cleared_row' || ev.type === 'continued') {
        const rows = ev.rows || (ev.row !== undefined ? [ev.row] : []);
        const { cells, maxDelay } = this.clearCells(ev.cells || [], grid, origin);
        this.grid = grid.map((row) => row.slice());
        await this.effect('clear', { cells, maxDelay, rows, cols: ev.cols || [] }, CLEAR_MS + maxDelay);
      } else if (ev.type === 'gravity') {
        grid = final.map((row) => row.slice());
        this.grid = grid.map((row) => row.slice());
        await this.effect('fall', { moves: ev.moves || [] }, FALL_MS);
      }
    }
    if (!alive()) return;
    this.grid = final.map((row) => row.slice());
    this.canvas.requestDraw();
  }
}
