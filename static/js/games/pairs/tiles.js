/**
 * tiles — how one Pairs tile looks: its box inside a cell, its bitmap (face, side, shadow,
 * picture) cached per size and device pixel ratio, and the tile drawn in a pose.
 *
 *   const art = new TileArt()
 *   art.palette()                   the theme's colours (read once, until art.reset())
 *   art.sprite(picture, g, dpr)     {canvas, pad, w, h}: the tile's bitmap for cells of g
 *                                   (its picture over the blank tile, painted once per size;
 *                                   `canvas` is an ImageBitmap, or a canvas in old browsers)
 *   art.ready(picture, g, dpr)      the bitmap if it is made, or made now while this frame's
 *                                   budget lasts (art.newFrame(ms?) starts one), else null
 *   art.reset()                     after a theme change: colours and bitmaps are read anew
 *   tileBox(g)                      {inset, depth, w, h, faceH, radius} of a tile in a cell
 *   drawSlots(ctx, g, box, colors)  the board under the tiles: a soft panel, one slot per cell
 *   drawTile(ctx, g, sprite, pose, colors)   one tile at pose {x, y, scaleX, lift, selected}
 *                                   (x, y: the cell's top left corner)
 */

import { cellXY, drawnCells } from './geometry.js';
import { clamp01, rounded } from './overlays.js';
import { pairsPalette } from './palette.js';
import { drawPicture } from './pictures.js';

const MAX_SPRITES = 64; // past this, the cache holds old sizes after many resizes
// Painting a tile's bitmap (shadow blur at the device's pixel ratio, the picture) is the
// board's costly part: a frame makes bitmaps for this long at most (one at least), the
// rest come in the next frames, so no task blocks the page for long on a slow phone.
const FRAME_BUDGET_MS = 8;

export function tileBox(g) {
  const inset = Math.max(1.5, g.cw * 0.035);
  const depth = Math.max(3, Math.round(g.ch * 0.075));
  const w = g.cw - 2 * inset;
  const h = g.ch - 2 * inset;
  return { inset, depth, w, h, faceH: h - depth, radius: w * 0.17 };
}

export function drawSlots(ctx, g, box, colors) {
  rounded(ctx, g.x0 - 4, g.y0 - 4, g.boardW + 8, g.boardH + 8, box.radius + 4);
  ctx.fillStyle = colors.board;
  ctx.fill();
  ctx.fillStyle = colors.slot;
  for (const cell of drawnCells(g)) {
    const [x, y] = cellXY(g, cell);
    rounded(ctx, x + box.inset, y + box.inset + box.depth, box.w, box.faceH, box.radius);
    ctx.fill();
  }
}

export class TileArt {
  constructor() {
    this.colors = null;
    this.sprites = new Map();
    this.budget = FRAME_BUDGET_MS;
    this.spent = 0; // ms spent making bitmaps in this frame
    this.made = 0; // bitmaps made in this frame
  }

  newFrame(budget = FRAME_BUDGET_MS) {
    this.budget = budget;
    this.spent = 0;
    this.made = 0;
  }

  ready(picture, g, dpr = 1) {
    const made = this.sprites.get(`${picture}|${g.cw}|${g.ch}|${dpr}`);
    if (made) return made;
    if (this.made > 0 && this.spent >= this.budget) return null;
    const start = performance.now();
    const sprite = this.sprite(picture, g, dpr);
    this.spent += performance.now() - start;
    this.made += 1;
    return sprite;
  }

  reset() {
    this.colors = null;
    this.sprites.clear();
  }

  palette() {
    this.colors ??= pairsPalette();
    return this.colors;
  }

  sprite(picture, g, dpr = 1) {
    const id = `${picture}|${g.cw}|${g.ch}|${dpr}`;
    let sprite = this.sprites.get(id);
    if (sprite) return sprite;
    if (this.sprites.size > MAX_SPRITES) this.sprites.clear();
    const blank = this.blank(g, dpr);
    const { ctx, done } = bitmap(blank.canvas.width, blank.canvas.height);
    ctx.drawImage(blank.canvas, 0, 0);
    ctx.scale(dpr, dpr);
    const t = tileBox(g);
    const size = Math.min(t.w, t.faceH) * 0.74;
    drawPicture(ctx, picture, blank.pad + t.inset + (t.w - size) / 2, blank.pad + t.inset + (t.faceH - size) / 2, size);
    sprite = { canvas: done(), pad: blank.pad, w: blank.w, h: blank.h };
    this.sprites.set(id, sprite);
    return sprite;
  }

  /** The tile without a picture (its shadow, side, face and edge), the same for every
   *  picture of a size: painted once (the shadow's blur is the costly part) and copied. */
  blank(g, dpr) {
    const id = `blank|${g.cw}|${g.ch}|${dpr}`;
    let blank = this.sprites.get(id);
    if (blank) return blank;
    const pad = Math.ceil(g.cw * 0.2);
    const w = g.cw + 2 * pad;
    const h = g.ch + 2 * pad;
    const { ctx, done } = bitmap(Math.ceil(w * dpr), Math.ceil(h * dpr));
    ctx.scale(dpr, dpr);
    this.paint(ctx, pad, pad, g);
    blank = { canvas: done(), pad, w, h };
    this.sprites.set(id, blank);
    return blank;
  }

  paint(ctx, x, y, g) {
    const colors = this.palette();
    const t = tileBox(g);
    const left = x + t.inset;
    const top = y + t.inset;
    ctx.save();
    ctx.shadowColor = colors.shadow;
    ctx.shadowBlur = g.cw * 0.12;
    ctx.shadowOffsetY = g.cw * 0.05;
    rounded(ctx, left, top + t.depth, t.w, t.faceH, t.radius);
    ctx.fillStyle = colors.side;
    ctx.fill();
    ctx.restore();
    // the side (thickness) and the face
    rounded(ctx, left, top + t.depth, t.w, t.faceH, t.radius);
    ctx.fillStyle = colors.side;
    ctx.fill();
    const gradient = ctx.createLinearGradient(0, top, 0, top + t.faceH);
    gradient.addColorStop(0, colors.face);
    gradient.addColorStop(1, colors.face2);
    rounded(ctx, left, top, t.w, t.faceH, t.radius);
    ctx.fillStyle = gradient;
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = colors.edge;
    rounded(ctx, left + 0.5, top + 0.5, t.w - 1, t.faceH - 1, t.radius);
    ctx.stroke();
  }
}

/** Something to paint a bitmap on: an OffscreenCanvas where there is one (done() turns it
 *  into an ImageBitmap, which the board draws faster than a canvas), else a canvas. */
function bitmap(width, height) {
  if (typeof OffscreenCanvas === 'undefined') {
    const canvas = Object.assign(document.createElement('canvas'), { width, height });
    return { ctx: canvas.getContext('2d'), done: () => canvas };
  }
  const canvas = new OffscreenCanvas(width, height);
  return { ctx: canvas.getContext('2d'), done: () => canvas.transferToImageBitmap() };
}

/** One tile: scaled about its centre (scaleX for a flip), lifted with a shadow, and the
 *  selected tile outlined once it has lifted. */
export function drawTile(ctx, g, sprite, { x, y, scaleX, lift, selected }, colors) {
  const cx = x + g.cw / 2;
  const cy = y + g.ch / 2;
  const grow = 1 + lift * 0.04;
  ctx.save();
  ctx.translate(cx, cy);
  ctx.scale(grow * Math.max(0.02, scaleX), grow);
  if (lift > 0) {
    ctx.shadowColor = colors.shadow;
    ctx.shadowBlur = g.cw * 0.35 * lift;
    ctx.shadowOffsetY = g.cw * 0.12 * lift;
  }
  ctx.drawImage(sprite.canvas, -g.cw / 2 - sprite.pad, -g.ch / 2 - sprite.pad, sprite.w, sprite.h);
  ctx.restore();
  if (!selected || lift <= 0.01) return;
  const box = tileBox(g);
  ctx.save();
  ctx.translate(cx, cy);
  ctx.scale(grow, grow);
  ctx.globalAlpha = clamp01(lift * 1.4);
  rounded(ctx, -g.cw / 2 + box.inset - 2, -g.ch / 2 + box.inset - 2, box.w + 4, box.h + 4, box.radius + 2);
  ctx.lineWidth = Math.max(3, g.cw * 0.06);
  ctx.strokeStyle = colors.select;
  ctx.stroke();
  ctx.restore();
}
