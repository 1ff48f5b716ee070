/**
 * overlays — what the Pairs board draws over its tiles: selection and twin rings, the hinted
 * pair, the keyboard cursor, a removed pair's path and scattering shards, the points popup.
 * Board (board.js) extends this class; nothing here knows a rule (paths come from the server).
 */

import { easeOut, reducedMotion } from '../../core/ui.js';
import { pictureColor } from './pictures.js';

export const HINT_PULSE_MS = 2400;

export const clamp01 = (x) => Math.max(0, Math.min(1, x));
export const same = (p, q) => Boolean(p && q && p[0] === q[0] && p[1] === q[1]);

export function rounded(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, Math.max(0, Math.min(r, w / 2, h / 2)));
}

export class Overlays {
  cellRect(g, box, [r, c], grow = 0) {
    return [g.x0 + c * g.cw + box.inset - grow, g.y0 + r * g.ch + box.inset - grow, box.w + 2 * grow, box.h + 2 * grow];
  }

  drawRing(ctx, g, box, cell, color, alpha, width) {
    const [x, y, w, h] = this.cellRect(g, box, cell, 2);
    ctx.save();
    ctx.globalAlpha = clamp01(alpha);
    rounded(ctx, x, y, w, h, box.radius + 2);
    ctx.lineWidth = Math.max(width, g.cw * 0.065);
    ctx.strokeStyle = color;
    ctx.stroke();
    ctx.restore();
  }

  drawTwins(ctx, g, box, colors) {
    const picture = this.tileAt(this.selected);
    if (picture === null) return;
    for (let r = 0; r < g.rows; r += 1) {
      for (let c = 0; c < g.cols; c += 1) {
        if (this.tiles[r][c] !== picture || this.picked().some((cell) => same(cell, [r, c]))) continue;
        const [x, y, w, h] = this.cellRect(g, box, [r, c], 1);
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

  drawHint(ctx, g, box, colors, t) {
    const age = t - this.hintAt;
    const pulse = reducedMotion() || age > HINT_PULSE_MS ? 0 : (1 - Math.cos((age / 600) * Math.PI * 2)) / 2;
    for (const cell of [this.hint.a, this.hint.b]) {
      if (this.tileAt(cell) === null) continue;
      const [x, y, w, h] = this.cellRect(g, box, cell, 2 + pulse * 3);
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

  drawCursor(ctx, g, box, colors) {
    const [x, y, w, h] = this.cellRect(g, box, this.cursor, 4);
    ctx.save();
    rounded(ctx, x, y, w, h, box.radius + 4);
    ctx.lineWidth = 3;
    ctx.setLineDash([7, 5]);
    ctx.strokeStyle = colors.cursor;
    ctx.stroke();
    ctx.restore();
  }

  drawRemoval(ctx, g, box, colors, e, t) {
    const elapsed = t - e.start;
    const points = e.path.map((p) => this.pointXY(p));
    const scatterAt = e.drawMs + e.holdMs;
    const scatter = e.scatterMs ? clamp01((elapsed - scatterAt) / e.scatterMs) : elapsed >= scatterAt ? 1 : 0;

    // The two tiles: in place (lifted, outlined) until the scatter, then flying apart.
    const sprite = this.sprite(e.picture, g);
    for (const cell of [e.a, e.b]) {
      const [cx, cy] = this.pointXY(cell);
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
        ctx.rotate((cell === e.a ? -1 : 1) * scatter * 0.25);
        ctx.drawImage(sprite.canvas, -g.cw / 2 - sprite.pad, -g.ch / 2 - sprite.pad, sprite.w, sprite.h);
        ctx.restore();
      }
    }

    // The path: drawn progressively, held, then fading as the tiles scatter.
    const drawn = e.drawMs ? clamp01(elapsed / e.drawMs) : 1;
    const pathAlpha = 1 - clamp01(scatter * 1.6);
    if (pathAlpha > 0 && points.length > 1) {
      ctx.save();
      ctx.globalAlpha = pathAlpha;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      const trace = () => {
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
      };
      trace();
      ctx.lineWidth = Math.max(9, g.cw * 0.17);
      ctx.strokeStyle = colors.pathCase;
      ctx.shadowColor = colors.path;
      ctx.shadowBlur = g.cw * 0.18;
      ctx.stroke();
      ctx.shadowBlur = 0;
      trace();
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

    // Shards in the picture's colour, flying out from both tiles and along the path.
    if (scatter > 0 && scatter < 1 && e.scatterMs) {
      if (!e.shards) e.shards = this.makeShards(e, points, g);
      const color = pictureColor(e.picture);
      ctx.save();
      for (const s of e.shards) {
        const p = easeOut(scatter);
        const x = s.x + s.vx * p;
        const y = s.y + s.vy * p + 30 * scatter * scatter;
        ctx.globalAlpha = (1 - scatter) * s.alpha;
        ctx.fillStyle = s.sparkle ? colors.path : color;
        ctx.translate(x, y);
        ctx.rotate(s.spin * scatter);
        ctx.fillRect(-s.size / 2, -s.size / 2, s.size, s.size);
        ctx.setTransform(this.view.dpr, 0, 0, this.view.dpr, 0, 0);
      }
      ctx.restore();
    }
  }

  makeShards(e, points, g) {
    const shards = [];
    for (const cell of [e.a, e.b]) {
      const [cx, cy] = this.pointXY(cell);
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

  drawPopup(ctx, g, colors, e, t) {
    const p = clamp01((t - e.start) / (e.end - e.start));
    const centres = e.cells.map((cell) => this.pointXY(cell));
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
}

