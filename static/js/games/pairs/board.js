/**
 * board — the Pairs board on one canvas: layout, tiles, and every animation.
 *
 * Nothing here knows a rule. The controller hands over what the server sent (tiles, the
 * path of a removed pair, the blocker of a refused pair, the hinted pair) and the board
 * draws it:
 *
 *   const board = new Board(container, {onDown({cell, x, y, type})})
 *   board.setTiles(rows)                 the view's `tiles` (rows of picture ids, null = empty)
 *   board.deal() / board.skipDeal()      the opening animation; board.dealing while it runs
 *                                        (and data-dealing="true" on the container), deal.js
 *   board.select(cell | null, second?)   lifts the tile with a turquoise outline (and the
 *                                        second tile of a pair while the server checks it)
 *   board.setTwins(bool)                 pair highlighting: the selected tile's twins light up
 *   board.setHint({a, b} | null)         outlines a hinted pair
 *   board.setCursor(cell | null, shown)  the keyboard focus cursor
 *   board.removePair({a, b, picture, path}, after?) draws the path, holds it, scatters the tiles
 *   board.shake(cells) / board.flashBlocker(cell)    a refused pair
 *   board.reshuffle(fromRows, toRows, delayMs)      tiles flip to their new pictures
 *   board.popup(text, cells, sub?)       floating points over a removed pair
 *   board.cellAt(x, y)                   [row, col] under a point (CSS px in the container), or null
 *   board.shownAt(cell)                  [row, col] where the cell is drawn (the board may be drawn
 *                                        transposed in a wide box: geometry.js)
 *
 * The board owns the state and the animation loop; deal.js runs the opening, and plain
 * functions draw: geometry.js (layout), tiles.js (tile bitmaps and poses), overlays.js
 * (rings, hint, cursor, popup) and removal.js (a removed pair's path and shards).
 * The container's data-geometry holds "x0 y0 cellWidth cellHeight rows cols transposed" (a
 * cell [r, c] is drawn at column c, row r, or at column r, row c when transposed is 1) and its
 * data-animating "true" while the animation loop runs (both for tests).
 */

import { createBoardCanvas } from '../../core/canvas.js';
import { onPointer } from '../../core/pointer.js';
import { easeOut, reducedMotion } from '../../core/ui.js';
import { boardLayout, cellUnder, cellXY, drawnCells, pathPoint, shownAt } from './geometry.js';
import { clamp01, drawCursor, drawHint, drawPopup, drawRing, drawTwins, HINT_PULSE_MS, same } from './overlays.js';
import { Deal } from './deal.js';
import { drawRemoval } from './removal.js';
import { drawSlots, drawTile, TileArt, tileBox } from './tiles.js';

const PATH_DRAW_MS = 170;
const PATH_HOLD_MS = 230;
const SCATTER_MS = 420;
const SHAKE_MS = 380;
const BLOCKER_MS = 600;
const FLIP_MS = 420;
const POPUP_MS = 950;
const LIFT_MS = 110;

const now = () => performance.now();
const key = (r, c) => `${r},${c}`;

export class Board {
  /** @param {HTMLElement} container @param {{onDown?: Function}} [hooks] */
  constructor(container, { onDown } = {}) {
    this.container = container;
    this.onDown = onDown;
    this.tiles = [];
    this.rows = 0;
    this.cols = 6;
    this.selected = null;
    this.second = null;
    this.twins = false;
    this.hint = null;
    this.hintAt = 0;
    this.cursor = null;
    this.cursorShown = false;
    this.lifts = new Map(); // "r,c" → {from, to, at}
    this.effects = []; // {kind, start, end, ...}
    this.art = new TileArt();
    this.dealer = new Deal(this);
    this.geo = null;
    this.raf = 0;
    this.frameAt = 0; // when the animation loop's last frame was drawn
    this.view = createBoardCanvas(container, (ctx, w, h) => this.draw(ctx, w, h), {
      prepare: () => this.palette(),
    });
    window.addEventListener('themechange', () => {
      this.art.reset();
      this.view.requestDraw();
    });
    onPointer(container, {
      down: (p) => this.onDown?.({ cell: this.cellAt(p.x, p.y), x: p.x, y: p.y, type: p.type }),
    });
  }

  /* ------------------------------------------------------------------ state ---- */

  setTiles(rows) {
    const changed = rows.length !== this.rows;
    this.tiles = rows.map((row) => row.slice());
    this.rows = rows.length;
    this.cols = rows[0]?.length ?? 6;
    if (changed) this.geo = null;
    this.kick();
  }

  tileAt(cell) {
    if (!cell) return null;
    return this.tiles[cell[0]]?.[cell[1]] ?? null;
  }

  deal() {
    this.dealer.start();
  }

  skipDeal() {
    this.dealer.skip();
  }

  get dealing() {
    return this.dealer.active;
  }

  /** Lifts `cell` (the selection) and, while a pair is being checked, `second` too. */
  select(cell, second = null) {
    const next = [cell, second].filter(Boolean).map((c) => [c[0], c[1]]);
    for (const old of this.picked()) if (!next.some((c) => same(c, old))) this.setLift(old, 0);
    for (const c of next) if (!this.picked().some((old) => same(c, old))) this.setLift(c, 1);
    this.selected = next[0] ?? null;
    this.second = next[1] ?? null;
    this.kick();
  }

  picked() {
    return [this.selected, this.second].filter(Boolean);
  }

  setLift(cell, to) {
    const k = key(cell[0], cell[1]);
    const from = this.liftOf(cell);
    if (reducedMotion()) this.lifts.set(k, { from: to, to, at: 0 });
    else this.lifts.set(k, { from, to, at: now() });
  }

  liftOf(cell) {
    const lift = this.lifts.get(key(cell[0], cell[1]));
    if (!lift) return 0;
    const x = clamp01((now() - lift.at) / LIFT_MS);
    return lift.from + (lift.to - lift.from) * easeOut(x);
  }

  setTwins(on) {
    this.twins = Boolean(on);
    this.kick();
  }

  setHint(hint) {
    const next = hint ? { a: hint.a, b: hint.b } : null;
    const same2 = (this.hint && next && same(this.hint.a, next.a) && same(this.hint.b, next.b)) || (!this.hint && !next);
    if (!same2) this.hintAt = now();
    this.hint = next;
    this.kick();
  }

  setCursor(cell, shown) {
    this.cursor = cell ? [cell[0], cell[1]] : null;
    this.cursorShown = Boolean(shown);
    this.kick();
  }

  /* ------------------------------------------------------------------ effects -- */

  /** Draws the server's path, holds it, then scatters the two tiles. Resolves when the
   *  path has been held (the tiles are on their way out). */
  removePair({ a, b, picture, path }) {
    const start = now();
    const reduced = reducedMotion();
    const drawMs = reduced ? 0 : PATH_DRAW_MS;
    const holdMs = reduced ? 320 : PATH_HOLD_MS;
    const scatterMs = reduced ? 0 : SCATTER_MS;
    const effect = {
      kind: 'remove',
      a,
      b,
      picture,
      path,
      start,
      drawMs,
      holdMs,
      scatterMs,
      end: start + drawMs + holdMs + scatterMs,
      shards: null,
    };
    const left = this.picked().filter((c) => !same(c, a) && !same(c, b));
    this.selected = left[0] ?? null;
    this.second = null;
    this.lifts.delete(key(a[0], a[1]));
    this.lifts.delete(key(b[0], b[1]));
    this.effects.push(effect);
    this.kick();
    return new Promise((resolve) => setTimeout(resolve, drawMs + holdMs));
  }

  shake(cells) {
    const start = now();
    if (reducedMotion()) {
      this.effects.push({ kind: 'refused', cells, start, end: start + BLOCKER_MS });
    } else {
      this.effects.push({ kind: 'shake', cells, start, end: start + SHAKE_MS });
    }
    this.kick();
  }

  flashBlocker(cell) {
    const start = now();
    this.effects.push({ kind: 'blocker', cell, start, end: start + BLOCKER_MS });
    this.kick();
  }

  reshuffle(from, to, delayMs = 0) {
    const start = now() + delayMs;
    this.setTiles(to);
    if (reducedMotion()) return;
    this.effects.push({ kind: 'flip', from: from.map((row) => row.slice()), start, end: start + FLIP_MS + (this.rows + this.cols) * 14 });
    this.kick();
  }

  popup(text, cells, sub = '') {
    const start = now() + (reducedMotion() ? 0 : PATH_DRAW_MS);
    this.effects.push({ kind: 'popup', text, sub, cells, start, end: start + (reducedMotion() ? 700 : POPUP_MS) });
    this.kick();
  }

  /* ------------------------------------------------------------------ geometry - */

  layout(width = this.view.width, height = this.view.height) {
    if (this.geo && this.geo.width === width && this.geo.height === height && this.geo.rows === this.rows) {
      return this.geo;
    }
    const g = boardLayout(width, height, this.rows || 6, this.cols || 6);
    this.geo = g;
    this.container.dataset.geometry = [g.x0, g.y0, g.cw, g.ch, g.rows, g.cols, g.transposed ? 1 : 0].join(' ');
    return g;
  }

  /** The cell under a point, as the next frame draws the board (core/canvas.js boxSize). */
  cellAt(x, y) {
    if (!this.rows) return null;
    const { width, height } = this.view.boxSize();
    return cellUnder(this.layout(width, height), x, y);
  }

  shownAt(cell) {
    return shownAt(this.layout(), cell);
  }

  get transposed() {
    return Boolean(this.rows && this.layout().transposed);
  }

  /** The centre of a path point (board cells, or the frame ring at -1 / rows / cols). */
  pointXY(cell) {
    return pathPoint(this.layout(), cell);
  }

  /* ------------------------------------------------------------------ loop ----- */

  kick() {
    if (this.raf) return;
    this.container.dataset.animating = 'true'; // page state, for tests: "false" once the loop rests
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.frameAt = now();
      try {
        if (this.dealer.preparing) this.dealer.prepare();
        else this.view.drawNow();
      } finally {
        this.dealer.mark(); // a frame that throws must not end the loop with it
        if (this.busy()) this.kick();
        else this.container.dataset.animating = 'false';
      }
    });
  }

  /** Another frame is due? Judged at the last frame's time, not now: an effect (a points
   *  popup) is drawn once more past its end however long that frame took. */
  busy() {
    const t = this.frameAt;
    this.effects = this.effects.filter((e) => e.end > t);
    if (this.effects.length || this.dealer.preparing || this.unpainted) return true;
    if (this.hint && !reducedMotion() && t - this.hintAt < HINT_PULSE_MS) return true;
    for (const lift of this.lifts.values()) if (t - lift.at < LIFT_MS) return true;
    return false;
  }

  /* ------------------------------------------------------------------ drawing -- */
  palette() {
    return this.art.palette();
  }

  draw(ctx, width, height) {
    if (!this.rows) return;
    this.art.newFrame();
    this.unpainted = false; // a tile this frame had no time to make the bitmap of
    const g = this.layout(width, height);
    const colors = this.palette();
    const t = now();
    const box = tileBox(g);

    drawSlots(ctx, g, box, colors);
    const flip = this.effects.find((e) => e.kind === 'flip');
    const shakes = this.effects.filter((e) => e.kind === 'shake' && e.start <= t);

    // Tiles, screen row by screen row; the selected one last, so its lift and shadow sit
    // above its neighbours.
    for (const [r, c] of drawnCells(g)) {
      if (this.picked().some((cell) => same(cell, [r, c]))) continue;
      this.drawCell(ctx, g, r, c, t, flip, shakes);
    }
    if (this.twins && this.selected) {
      const picture = this.tileAt(this.selected);
      if (picture !== null) drawTwins(ctx, g, box, colors, this.tiles, picture, this.picked());
    }
    for (const cell of this.picked()) this.drawCell(ctx, g, cell[0], cell[1], t, flip, shakes, true);

    if (this.hint) {
      const cells = [this.hint.a, this.hint.b].filter((cell) => this.tileAt(cell) !== null);
      drawHint(ctx, g, box, colors, cells, t - this.hintAt);
    }
    for (const effect of this.effects) {
      if (effect.start > t) continue;
      if (effect.kind === 'blocker') drawRing(ctx, g, box, effect.cell, colors.blocker, 1 - clamp01((t - effect.start - BLOCKER_MS * 0.75) / (BLOCKER_MS * 0.25)), 3.5);
      if (effect.kind === 'refused') for (const cell of effect.cells) drawRing(ctx, g, box, cell, colors.refused, 1, 3);
    }
    for (const effect of this.effects) if (effect.kind === 'remove') drawRemoval(ctx, g, box, colors, effect, t, this.removalScene(effect, g));
    for (const effect of this.effects) {
      if (effect.kind === 'popup' && effect.start <= t && t < effect.end) drawPopup(ctx, g, colors, effect, effect.cells.map((cell) => this.pointXY(cell)), t);
    }
    if (this.cursor && this.cursorShown) drawCursor(ctx, g, box, colors, this.cursor);
    if (this.unpainted) this.kick(); // the next frame draws the tiles left out
  }

  /** Where a removed pair is drawn this frame (the layout may have changed since it began). */
  removalScene(effect, g) {
    return {
      ends: [this.pointXY(effect.a), this.pointXY(effect.b)],
      points: effect.path.map((p) => this.pointXY(p)),
      sprite: this.art.sprite(effect.picture, g, this.view.dpr || 1),
      dpr: this.view.dpr,
    };
  }

  drawCell(ctx, g, r, c, t, flip, shakes, selected = false) {
    let picture = this.tiles[r]?.[c];
    let scaleX = 1;
    if (flip) {
      const delay = (r + c) * 14;
      const x = clamp01((t - flip.start - delay) / FLIP_MS);
      if (x < 0.5) {
        picture = flip.from[r]?.[c] ?? null;
        scaleX = 1 - 2 * x;
      } else {
        scaleX = 2 * x - 1;
      }
      if (t < flip.start) {
        picture = flip.from[r]?.[c] ?? null;
        scaleX = 1;
      }
    }
    if (picture === null || picture === undefined) return;
    let [x, y] = cellXY(g, [r, c]);
    for (const shake of shakes) {
      if (shake.cells.some((cell) => same(cell, [r, c]))) {
        const p = clamp01((t - shake.start) / SHAKE_MS);
        x += Math.sin(p * Math.PI * 6) * g.cw * 0.09 * (1 - p);
      }
    }
    const lift = this.liftOf([r, c]);
    y -= lift * g.ch * 0.07;
    const sprite = this.art.ready(picture, g, this.view.dpr || 1);
    if (!sprite) {
      this.unpainted = true;
      return;
    }
    drawTile(ctx, g, sprite, { x, y, scaleX, lift, selected }, this.palette());
  }
}
