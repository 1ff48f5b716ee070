/**
 * removal — a removed pair on the Pairs board: the two tiles lifted and outlined, the
 * server's path drawn progressively and held, then the tiles scattering in shards.
 *
 *   drawRemoval(ctx, g, box, colors, effect, t, {ends, points, sprite, dpr})
 *     effect   {a, b, picture, start, drawMs, holdMs, scatterMs, shards} (board.js removePair);
 *              its shards are made on the first scattering frame and kept on it
 *     ends     the two tiles' centres [x, y]; points  the path's points [x, y]
 *     sprite   the tile's bitmap (tiles.js); dpr  the canvas's device pixel ratio
 *
 * The board works out every position, so nothing here reads its state.
 */

import { easeOut } from '../../core/ui.js';
import { clamp01, rounded } from './overlays.js';
import { pictureColor } from './pictures.js';

export function drawRemoval(ctx, g, box, colors, e, t, { ends, points, sprite, dpr }) {
  const elapsed = t - e.start;
  const scatterAt = e.drawMs + e.holdMs;
  const scatter = e.scatterMs ? clamp01((elapsed - scatterAt) / e.scatterMs) : elapsed >= scatterAt ? 1 : 0;
  drawTiles(ctx, g, box, colors, ends, sprite, scatter);
  const drawn = e.drawMs ? clamp01(elapsed / e.drawMs) : 1;
  const pathAlpha = 1 - clamp01(scatter * 1.6);
  if (pathAlpha > 0 && points.length > 1) drawPath(ctx, g, colors, points, drawn, pathAlpha);
  if (scatter > 0 && scatter < 1 && e.scatterMs) {
    e.shards ??= makeShards(ends, points, g);
    drawShards(ctx, colors, e.shards, pictureColor(e.picture), scatter, dpr);
  }
}

/** The two tiles: in place (lifted, outlined) until the scatter, then flying apart. */
function drawTiles(ctx, g, box, colors, ends, sprite, scatter) {
  ends.forEach(([cx, cy], i) => {
    if (scatter <= 0) {
      ctx.save();
      ctx.translate(cx, cy);
      ctx.drawImage(sprite.canvas, -g.cw / 2 - sprite.pad, -g.ch / 2 - sprite.pad, sprite.w, sprite.h);
      rounded(ctx, -g.cw / 2 + box.inset - 2, -g.ch / 2 + box.inset - 2, box.w + 4, box.h + 4, box.radius + 2);
      ctx.lineWidth = Math.max(3, g.cw * 0.06);
      ctx.strokeStyle = colors.select;
      ctx.stroke();
      ctx.restore();
    } else if (scatter < 1) {
      ctx.save();
      ctx.globalAlpha = 1 - easeOut(scatter);
      ctx.translate(cx, cy);
      const s = 1 + scatter * 0.35;
      ctx.scale(s, s);
      ctx.rotate((i === 0 ? -1 : 1) * scatter * 0.25);
      ctx.drawImage(sprite.canvas, -g.cw / 2 - sprite.pad, -g.ch / 2 - sprite.pad, sprite.w, sprite.h);
      ctx.restore();
    }
  });
}

/** Traces the first `drawn` (0..1, eased) of the polyline `points`. */
function trace(ctx, points, drawn) {
  ctx.beginPath();
  const lengths = [];
  let total = 0;
  for (let i = 1; i < points.length; i += 1) {
    const d = Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
    lengths.push(d);
    total += d;
  }
  let left = total * easeOut(drawn);
  ctx.moveTo(points[0][0], points[0][1]);
  for (let i = 1; i < points.length && left > 0; i += 1) {
    const d = lengths[i - 1];
    const f = d ? Math.min(1, left / d) : 1;
    ctx.lineTo(points[i - 1][0] + (points[i][0] - points[i - 1][0]) * f, points[i - 1][1] + (points[i][1] - points[i - 1][1]) * f);
    left -= d;
  }
}

/** The path: drawn progressively, held, then fading as the tiles scatter. */
function drawPath(ctx, g, colors, points, drawn, alpha) {
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  trace(ctx, points, drawn);
  ctx.lineWidth = Math.max(9, g.cw * 0.17);
  ctx.strokeStyle = colors.pathCase;
  ctx.shadowColor = colors.path;
  ctx.shadowBlur = g.cw * 0.18;
  ctx.stroke();
  ctx.shadowBlur = 0;
  trace(ctx, points, drawn);
  ctx.lineWidth = Math.max(4.5, g.cw * 0.09);
  ctx.strokeStyle = colors.path;
  ctx.stroke();
  ctx.fillStyle = colors.path;
  for (const [x, y] of [points[0], ...(drawn >= 1 ? [points[points.length - 1]] : [])]) {
    ctx.beginPath();
    ctx.arc(x, y, Math.max(4, g.cw * 0.08), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** Shards in the picture's colour, flying out from both tiles and along the path. */
function drawShards(ctx, colors, shards, color, scatter, dpr) {
  ctx.save();
  for (const s of shards) {
    const p = easeOut(scatter);
    const x = s.x + s.vx * p;
    const y = s.y + s.vy * p + 30 * scatter * scatter;
    ctx.globalAlpha = (1 - scatter) * s.alpha;
    ctx.fillStyle = s.sparkle ? colors.path : color;
    ctx.translate(x, y);
    ctx.rotate(s.spin * scatter);
    ctx.fillRect(-s.size / 2, -s.size / 2, s.size, s.size);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }
  ctx.restore();
}

function makeShards(ends, points, g) {
  const shards = [];
  for (const [cx, cy] of ends) {
    for (let i = 0; i < 14; i += 1) {
      const angle = Math.random() * Math.PI * 2;
      const speed = g.cw * (0.45 + Math.random() * 0.7);
      shards.push({
        x: cx,
        y: cy,
        vx: Math.cos(angle) * speed,
        vy: Math.sin(angle) * speed - g.cw * 0.2,
        size: g.cw * (0.06 + Math.random() * 0.08),
        spin: (Math.random() - 0.5) * 8,
        alpha: 0.95,
        sparkle: false,
      });
    }
  }
  for (let i = 1; i < points.length; i += 1) {
    const [x1, y1] = points[i - 1];
    const [x2, y2] = points[i];
    const n = Math.max(1, Math.round(Math.hypot(x2 - x1, y2 - y1) / (g.cw * 0.5)));
    for (let k = 0; k < n; k += 1) {
      const f = (k + Math.random()) / n;
      const angle = Math.random() * Math.PI * 2;
      shards.push({
        x: x1 + (x2 - x1) * f,
        y: y1 + (y2 - y1) * f,
        vx: Math.cos(angle) * g.cw * 0.25,
        vy: Math.sin(angle) * g.cw * 0.25,
        size: g.cw * 0.06,
        spin: 3,
        alpha: 0.8,
        sparkle: true,
      });
    }
  }
  return shards;
}
