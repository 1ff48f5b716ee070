/**
 * board — the Triangles field on one canvas: stars, lines, filled triangles, the pending
 * line, a refused line, the rubber band, the selection, the keyboard cursor, and the
 * animations of the server's events. It draws what the server sent; it decides nothing.
 *
 *   const board = createBoard(container)
 *   board.setView(view)                 the whole picture from a server view (no animation)
 *   board.play(events, onStep)          → Promise: animates the events in order (line grows,
 *                                         its triangles fill from it); onStep(event) before each
 *   board.setPending({a, b, seat}|null) a line sent but not yet answered (dashed)
 *   board.refuse({a, b, star?, line?})  flashes a refused line (and the star / line the server
 *                                         named as the reason), fading out
 *   board.select(i|null), board.selected
 *   board.setCursor(i|null, visible)    the keyboard cursor
 *   board.setBand({from, x, y, snap}|null)  the rubber band of a drag (CSS px)
 *   board.setHover(i|null)
 *   board.setActiveSeat(seat|null)      colour of the selection and the band
 *   board.starAt(x, y, radius) → i|null the nearest star within radius (CSS px)
 *   board.point(i) → {x, y}             a star's position in CSS px
 *   board.stars                         the view's stars
 */

import { createBoardCanvas } from '../../core/canvas.js';
import { animate, easeOut, reducedMotion } from '../../core/ui.js';
import { readColors, ring } from './paint.js';

const PAD = 6; // CSS px between the field's edge and the canvas edge
const LINE_MS = 260;
const TRIANGLE_MS = 360;
const REPLY_PAUSE_MS = 220;
const REFUSED_MS = 2400;

export function createBoard(container) {
  let colors = readColors(container);
  const s = {
    view: null,
    lines: [], // {a, b, seat, grow, flash}
    triangles: [], // {a, b, c, seat, fill, base:[a, b]}
    pending: null,
    refused: null, // {a, b, star, line, alpha}
    selected: null,
    cursor: null,
    cursorVisible: false,
    band: null,
    hover: null,
    activeSeat: 0,
    last: null,
  };
  let fit = { scale: 1, ox: 0, oy: 0, r: 5 };
  let refusedTimer = 0;

  const surface = createBoardCanvas(container, draw);
  window.addEventListener('themechange', () => {
    colors = readColors(container);
    surface.requestDraw();
  });

  function layout(width, height) {
    const v = s.view;
    if (!v) return;
    const scale = Math.min((width - 2 * PAD) / v.width, (height - 2 * PAD) / v.height);
    const ox = (width - v.width * scale) / 2;
    const oy = (height - v.height * scale) / 2;
    // Star size from the density: about 5 px on a 24-star phone field, 3.5 px at 180.
    const spacing = Math.sqrt((v.width * v.height) / Math.max(1, v.stars.length)) * scale;
    const r = Math.max(3.4, Math.min(6, spacing * 0.075));
    fit = { scale, ox, oy, r };
  }

  function point(i) {
    const star = s.view.stars[i];
    return { x: fit.ox + star[0] * fit.scale, y: fit.oy + star[1] * fit.scale };
  }

  function starAt(x, y, radius, except = null) {
    if (!s.view) return null;
    let best = null;
    let bestD = radius * radius;
    s.view.stars.forEach((_, i) => {
      if (i === except) return;
      const p = point(i);
      const d = (p.x - x) ** 2 + (p.y - y) ** 2;
      if (d <= bestD) {
        best = i;
        bestD = d;
      }
    });
    return best;
  }

  /* ------------------------------------------------------------ drawing ---------- */

  function draw(ctx, width, height) {
    if (!s.view) return;
    layout(width, height);
    drawField(ctx);
    for (const tri of s.triangles) drawTriangle(ctx, tri);
    const lineWidth = Math.max(2.2, Math.min(3.4, fit.r * 0.62));
    for (const line of s.lines) drawLine(ctx, line, lineWidth);
    if (s.pending) drawPending(ctx, s.pending, lineWidth);
    if (s.refused) drawRefused(ctx, s.refused, lineWidth);
    if (s.band) drawBand(ctx, s.band, lineWidth);
    drawStars(ctx);
  }

  function drawField(ctx) {
    const v = s.view;
    const x = fit.ox - PAD + 1;
    const y = fit.oy - PAD + 1;
    const w = v.width * fit.scale + 2 * PAD - 2;
    const h = v.height * fit.scale + 2 * PAD - 2;
    ctx.save();
    ctx.beginPath();
    ctx.roundRect(x, y, w, h, 18);
    ctx.fillStyle = colors.field;
    ctx.fill();
    ctx.clip();
    for (const [cx, cy, glow] of [[x + w * 0.18, y + h * 0.22, colors.glow1], [x + w * 0.85, y + h * 0.78, colors.glow2]]) {
      if (glow === 'transparent') continue;
      const g = ctx.createRadialGradient(cx, cy, 0, cx, cy, Math.max(w, h) * 0.55);
      g.addColorStop(0, glow);
      g.addColorStop(1, 'rgba(0,0,0,0)');
      ctx.fillStyle = g;
      ctx.fillRect(x, y, w, h);
    }
    ctx.restore();
    ctx.beginPath();
    ctx.roundRect(x + 0.5, y + 0.5, w - 1, h - 1, 18);
    ctx.strokeStyle = colors.fieldEdge;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  function trianglePath(ctx, tri) {
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

  function drawTriangle(ctx, tri) {
    const colour = colors.p[tri.seat] ?? colors.p[0];
    ctx.save();
    ctx.beginPath();
    trianglePath(ctx, tri);
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
      trianglePath(ctx, tri);
      ctx.fill();
    }
    ctx.restore();
  }

  function drawLine(ctx, line, width) {
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

  function drawPending(ctx, line, width) {
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

  function drawRefused(ctx, refused, width) {
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

  function drawBand(ctx, band, width) {
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

  function drawStars(ctx) {
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

  /* ------------------------------------------------------------ state ------------- */

  function setView(view) {
    s.view = view;
    s.lines = view.lines.map(([a, b, seat]) => ({ a, b, seat, grow: 1, flash: 0 }));
    s.triangles = view.triangles.map(([a, b, c, seat]) => ({ a, b, c, seat, fill: 1, flash: 0, base: null }));
    s.last = view.last ? [view.last[0], view.last[1]] : null;
    s.pending = null;
    if (s.selected != null && s.selected >= view.stars.length) s.selected = null;
    if (s.cursor != null && s.cursor >= view.stars.length) s.cursor = null;
    surface.requestDraw();
  }

  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, reducedMotion() ? 0 : ms));

  async function playLine(event) {
    const { a, b, seat } = event;
    const matchesPending = s.pending && Math.min(s.pending.a, s.pending.b) === a && Math.max(s.pending.a, s.pending.b) === b;
    const line = { a, b, seat, grow: matchesPending ? 1 : 0, flash: 0 };
    if (matchesPending) s.pending = null;
    s.lines = s.lines.filter((l) => !(l.a === a && l.b === b));
    s.lines.push(line);
    s.last = [a, b];
    if (matchesPending) {
      await animate(LINE_MS * 0.8, (x) => {
        line.flash = 1 - x;
        surface.requestDraw();
      });
    } else {
      await animate(LINE_MS, (x) => {
        line.grow = easeOut(x);
        line.flash = x < 1 ? 0.6 : 0;
        surface.requestDraw();
      });
    }
    line.grow = 1;
    line.flash = 0;
    surface.requestDraw();
  }

  async function playTriangles(events, base) {
    const added = events.map((e) => ({ a: e.a, b: e.b, c: e.c, seat: e.seat, fill: 0, flash: 0, base }));
    s.triangles.push(...added);
    await animate(TRIANGLE_MS, (x) => {
      for (const tri of added) {
        tri.fill = x;
        tri.flash = x < 1 ? Math.sin(x * Math.PI) * 0.8 : 0;
      }
      surface.requestDraw();
    });
    for (const tri of added) {
      tri.fill = 1;
      tri.flash = 0;
    }
    surface.requestDraw();
  }

  async function play(events, onStep = () => {}) {
    let base = null;
    let lastSeat = null;
    for (let i = 0; i < events.length; i += 1) {
      const event = events[i];
      if (event.type === 'line') {
        if (lastSeat !== null && lastSeat !== event.seat) await wait(REPLY_PAUSE_MS);
        onStep(event);
        await playLine(event);
        base = [event.a, event.b];
        lastSeat = event.seat;
      } else if (event.type === 'triangle') {
        const group = [event];
        while (events[i + 1]?.type === 'triangle') group.push(events[++i]);
        for (const e of group) onStep(e);
        await playTriangles(group, base);
      } else {
        onStep(event);
      }
    }
  }

  function setPending(line) {
    s.pending = line;
    surface.requestDraw();
  }

  function refuse(refused) {
    clearTimeout(refusedTimer);
    s.refused = { ...refused, alpha: 1 };
    surface.requestDraw();
    refusedTimer = setTimeout(async () => {
      const current = s.refused;
      await animate(300, (x) => {
        if (s.refused === current) {
          current.alpha = 1 - x;
          surface.requestDraw();
        }
      });
      if (s.refused === current) {
        s.refused = null;
        surface.requestDraw();
      }
    }, REFUSED_MS);
  }

  function clearRefused() {
    clearTimeout(refusedTimer);
    if (s.refused) {
      s.refused = null;
      surface.requestDraw();
    }
  }

  function change(key, value) {
    if (s[key] === value) return;
    s[key] = value;
    surface.requestDraw();
  }

  return {
    get stars() {
      return s.view ? s.view.stars : [];
    },
    get selected() {
      return s.selected;
    },
    get cursor() {
      return s.cursor;
    },
    setView,
    play,
    setPending,
    refuse,
    clearRefused,
    select: (i) => change('selected', i),
    setCursor(i, visible) {
      s.cursor = i;
      s.cursorVisible = Boolean(visible);
      surface.requestDraw();
    },
    setBand: (band) => {
      s.band = band;
      surface.requestDraw();
    },
    setHover: (i) => change('hover', i),
    setActiveSeat: (seat) => change('activeSeat', seat ?? 0),
    starAt,
    point,
  };
}
