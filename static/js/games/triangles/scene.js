/**
 * scene — one frame of the Triangles field, painted from the board's state (board.js):
 * the filled triangles, the lines (the last one glowing), the pending line, a review's
 * better line (hint), a refused line with the star or line in its way, the rubber band,
 * the stars with the selection, hover, snap and keyboard rings, and while a review is
 * shown (numbers) each star's number. It reads only what it is handed; the field under
 * them (its fill, glows and edge) is CSS's, placed by the board on fieldBox.
 *
 *   drawScene(ctx, s, fit, colors)   s: the board's state {view, lines, triangles, pending,
 *                                    hint, numbers, refused, band, selected, hover, cursor,
 *                                    cursorVisible, activeSeat, last}; fit: fitField's
 *   fieldBox(fit) → {x, y, w, h}     the field's box (CSS px), painted behind the canvas
 *   fitField(view, width, height) → fit   the field scaled into the canvas (a quarter turn
 *                                    round when that is much larger), the star size:
 *                                    {scale, ox, oy, w, h, turn, r}
 *   starPoint(view, fit, i) → {x, y}      a star's position in CSS px
 */

import { easeOut } from '../../core/ui.js';
import { ring } from './paint.js';
/** @import { TrianglesView } from '../../types/wire' */

const PAD = 6; // CSS px between the field's edge and the canvas edge

export function fitField(v, width, height) {
  const straight = Math.min((width - 2 * PAD) / v.width, (height - 2 * PAD) / v.height);
  const turned = Math.min((width - 2 * PAD) / v.height, (height - 2 * PAD) / v.width);
  // A tall field in a wide box (a phone held sideways) is drawn a quarter turn round, its
  // top on the left: it plays much larger so (the rules see only the stars' numbers).
  const turn = turned > straight * 1.15;
  const scale = turn ? turned : straight;
  const w = (turn ? v.height : v.width) * scale;
  const h = (turn ? v.width : v.height) * scale;
  // Star size from the density: about 5 px on a 24-star phone field, 3.5 px at 180.
  const spacing = Math.sqrt((v.width * v.height) / Math.max(1, v.stars.length)) * scale;
  const r = Math.max(3.4, Math.min(6, spacing * 0.075));
  return { scale, ox: (width - w) / 2, oy: (height - h) / 2, w, h, turn, r };
}

/** @param {TrianglesView} view @param {any} fit @param {number} i */
export function starPoint(view, fit, i) {
  const [x, y] = view.stars[i];
  if (fit.turn) return { x: fit.ox + y * fit.scale, y: fit.oy + (view.width - x) * fit.scale };
  return { x: fit.ox + x * fit.scale, y: fit.oy + y * fit.scale };
}

/** Paints one frame on a cleared canvas: the triangles, lines, the pending and refused
 *  lines, the band, the stars. The field under them is not the canvas's (fieldBox). */
export function drawScene(ctx, s, fit, colors) {
  const pen = { s, fit, colors, point: (i) => starPoint(s.view, fit, i) };
  for (const tri of s.triangles) drawTriangle(ctx, pen, tri);
  const lineWidth = Math.max(2.2, Math.min(3.4, fit.r * 0.62));
  for (const line of s.lines) drawLine(ctx, pen, line, lineWidth);
  if (s.pending) drawPending(ctx, pen, s.pending, lineWidth);
  if (s.hint) drawHint(ctx, pen, s.hint, lineWidth);
  if (s.refused) drawRefused(ctx, pen, s.refused, lineWidth);
  if (s.band) drawBand(ctx, pen, s.band, lineWidth);
  drawStars(ctx, pen);
  if (s.numbers) drawNumbers(ctx, pen);
}

/** The field's box on the canvas (CSS px), PAD round the stars less its edge: where the
 *  board places the field (its fill, glows and edge), which CSS paints behind the canvas.
 *  Painted on the canvas, its two radial gradients over the whole field were a slow phone's
 *  longest task of the page; the browser paints CSS gradients off the main thread. */
export function fieldBox(fit) {
  return { x: fit.ox - PAD + 1, y: fit.oy - PAD + 1, w: fit.w + 2 * PAD - 2, h: fit.h + 2 * PAD - 2 };
}

function trianglePath(ctx, pen, tri) {
  const { point } = pen;
  const pa = point(tri.a);
  const pb = point(tri.b);
  const pc = point(tri.c);
  if (tri.fill >= 1 || !tri.base) {
    ctx.moveTo(pa.x, pa.y);
    ctx.lineTo(pb.x, pb.y);
    ctx.lineTo(pc.x, pc.y);
    ctx.closePath();
    return;
  }
  // Fill from the new line: the apex travels from the line's middle to its place.
  const [u, w] = tri.base;
  const apex = [tri.a, tri.b, tri.c].find((i) => i !== u && i !== w);
  const pu = point(u);
  const pw = point(w);
  const pp = point(apex);
  const mx = (pu.x + pw.x) / 2;
  const my = (pu.y + pw.y) / 2;
  const k = easeOut(tri.fill);
  ctx.moveTo(pu.x, pu.y);
  ctx.lineTo(pw.x, pw.y);
  ctx.lineTo(mx + (pp.x - mx) * k, my + (pp.y - my) * k);
  ctx.closePath();
}

function drawTriangle(ctx, pen, tri) {
  const { colors, point } = pen;
  const colour = colors.p[tri.seat] ?? colors.p[0];
  ctx.save();
  ctx.beginPath();
  trianglePath(ctx, pen, tri);
  ctx.globalAlpha = colors.fillAlpha * (0.35 + 0.65 * Math.min(1, tri.fill));
  ctx.fillStyle = colour;
  ctx.fill();
  if (tri.seat === 1) {
    // Player 2's triangles are hatched as well: told apart by shape, not only colour.
    ctx.clip();
    ctx.globalAlpha = Math.min(1, tri.fill);
    ctx.strokeStyle = colors.hatch;
    ctx.lineWidth = 1.4;
    const pts = [point(tri.a), point(tri.b), point(tri.c)];
    const minX = Math.min(...pts.map((p) => p.x));
    const maxX = Math.max(...pts.map((p) => p.x));
    const minY = Math.min(...pts.map((p) => p.y));
    const maxY = Math.max(...pts.map((p) => p.y));
    const step = 7;
    ctx.beginPath();
    for (let d = minX - (maxY - minY); d < maxX; d += step) {
      ctx.moveTo(d, maxY);
      ctx.lineTo(d + (maxY - minY), minY);
    }
    ctx.stroke();
  }
  if (tri.flash > 0) {
    ctx.globalAlpha = tri.flash * 0.55;
    ctx.fillStyle = colors.star;
    ctx.beginPath();
    trianglePath(ctx, pen, tri);
    ctx.fill();
  }
  ctx.restore();
}

function drawLine(ctx, pen, line, width) {
  const { s, colors, point } = pen;
  const pa = point(line.a);
  const pb = point(line.b);
  const k = line.grow ?? 1;
  const ex = pa.x + (pb.x - pa.x) * k;
  const ey = pa.y + (pb.y - pa.y) * k;
  const colour = colors.p[line.seat] ?? colors.p[0];
  const isLast = s.last && s.last[0] === line.a && s.last[1] === line.b;
  ctx.save();
  ctx.lineCap = 'round';
  if (isLast || line.flash > 0) {
    ctx.globalAlpha = 0.28 + 0.4 * (line.flash || 0);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width + 6;
    ctx.beginPath();
    ctx.moveTo(pa.x, pa.y);
    ctx.lineTo(ex, ey);
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(pa.x, pa.y);
  ctx.lineTo(ex, ey);
  ctx.stroke();
  ctx.restore();
}

function drawPending(ctx, pen, line, width) {
  const { colors, point } = pen;
  const pa = point(line.a);
  const pb = point(line.b);
  ctx.save();
  ctx.lineCap = 'round';
  ctx.setLineDash([width * 2.2, width * 2]);
  ctx.globalAlpha = 0.85;
  ctx.strokeStyle = colors.p[line.seat] ?? colors.p[0];
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(pa.x, pa.y);
  ctx.lineTo(pb.x, pb.y);
  ctx.stroke();
  ctx.restore();
}

/** The review's better line: dashed in its player's colour over a dark halo, its ends ringed. */
function drawHint(ctx, pen, line, width) {
  const { fit, colors, point } = pen;
  const pa = point(line.a);
  const pb = point(line.b);
  const colour = colors.p[line.seat] ?? colors.hint;
  ctx.save();
  ctx.lineCap = 'round';
  ctx.strokeStyle = colors.hint;
  ctx.globalAlpha = 0.5;
  ctx.lineWidth = width + 4;
  ctx.beginPath();
  ctx.moveTo(pa.x, pa.y);
  ctx.lineTo(pb.x, pb.y);
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.setLineDash([width * 3, width * 2]);
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.stroke();
  ctx.restore();
  for (const p of [pa, pb]) ring(ctx, p, fit.r + 6, colour, { width: 2 });
}

function drawRefused(ctx, pen, refused, width) {
  const { fit, colors, point } = pen;
  const pa = point(refused.a);
  const pb = point(refused.b);
  ctx.save();
  ctx.globalAlpha = refused.alpha;
  ctx.lineCap = 'round';
  ctx.strokeStyle = colors.danger;
  if (refused.line) {
    // The drawn line that is in the way (named by the server).
    const pc = point(refused.line[0]);
    const pd = point(refused.line[1]);
    ctx.lineWidth = width + 5;
    ctx.globalAlpha = refused.alpha * 0.45;
    ctx.beginPath();
    ctx.moveTo(pc.x, pc.y);
    ctx.lineTo(pd.x, pd.y);
    ctx.stroke();
    ctx.globalAlpha = refused.alpha;
  }
  ctx.setLineDash([width * 2, width * 1.8]);
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(pa.x, pa.y);
  ctx.lineTo(pb.x, pb.y);
  ctx.stroke();
  ctx.setLineDash([]);
  if (refused.star != null) {
    // The star the line would run through (named by the server).
    const p = point(refused.star);
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.arc(p.x, p.y, fit.r + 7, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.restore();
}

function drawBand(ctx, pen, band, width) {
  const { s, colors, point } = pen;
  const pa = point(band.from);
  const end = band.snap != null ? point(band.snap) : { x: band.x, y: band.y };
  const colour = colors.p[s.activeSeat] ?? colors.p[0];
  ctx.save();
  ctx.lineCap = 'round';
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  if (band.snap == null) {
    ctx.setLineDash([width * 1.6, width * 2]);
    ctx.globalAlpha = 0.75;
  } else {
    ctx.globalAlpha = 0.9;
  }
  ctx.beginPath();
  ctx.moveTo(pa.x, pa.y);
  ctx.lineTo(end.x, end.y);
  ctx.stroke();
  if (band.snap == null) {
    ctx.setLineDash([]);
    ctx.globalAlpha = 0.6;
    ctx.beginPath();
    ctx.arc(end.x, end.y, 5, 0, Math.PI * 2);
    ctx.fillStyle = colour;
    ctx.fill();
  }
  ctx.restore();
}

function drawStars(ctx, pen) {
  const { s, fit, colors, point } = pen;
  const r = fit.r;
  const active = colors.p[s.activeSeat] ?? colors.p[0];
  const snap = s.band?.snap ?? null;
  s.view.stars.forEach((_, i) => {
    const p = point(i);
    if (i === s.hover && i !== s.selected) ring(ctx, p, r + 7, active, { alpha: 0.45, width: 2 });
    if (i === s.selected || (s.band && i === s.band.from)) {
      ring(ctx, p, r + 8, active, { width: 3, fillAlpha: 0.22 });
    }
    if (i === snap) ring(ctx, p, r + 10, active, { width: 3, alpha: 0.95 });
    if (s.cursorVisible && i === s.cursor) ring(ctx, p, r + 12, colors.focus, { width: 2.5, dash: [4, 3] });
  });
  ctx.save();
  for (const [i] of s.view.stars.entries()) {
    const p = point(i);
    const glow = ctx.createRadialGradient(p.x, p.y, 0, p.x, p.y, r * 3);
    glow.addColorStop(0, colors.starGlow);
    glow.addColorStop(1, 'rgba(0,0,0,0)');
    ctx.fillStyle = glow;
    ctx.beginPath();
    ctx.arc(p.x, p.y, r * 3, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = colors.star;
  for (const [i] of s.view.stars.entries()) {
    const p = point(i);
    ctx.beginPath();
    ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** Each star's number (its index in the view's stars, plus one: the words of a review name
 *  lines by these numbers), beside the star, above and to the right, outlined in the
 *  field's colour so it reads over lines and triangles. */
function drawNumbers(ctx, pen) {
  const { s, fit, colors, point } = pen;
  const size = Math.round(Math.max(10, Math.min(13, fit.r * 2.2)));
  ctx.save();
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = colors.field;
  ctx.fillStyle = colors.star;
  // the field's edges, inside its 1 px border: a number that would cross one goes to the
  // star's other side
  const field = fieldBox(fit);
  const right = field.x + field.w - 1;
  const top = field.y + 1;
  const gap = fit.r + 3; // clear of the star and of the rings at a better line's ends
  for (const [i] of s.view.stars.entries()) {
    const p = point(i);
    const label = String(i + 1);
    const width = ctx.measureText(label).width;
    let x = p.x + gap;
    let y = p.y - gap;
    if (x + width > right) x = p.x - gap - width;
    if (y - size < top) y = p.y + gap + size;
    ctx.strokeText(label, x, y);
    ctx.fillText(label, x, y);
  }
  ctx.restore();
}
