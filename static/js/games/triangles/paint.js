/**
 * paint — the Triangles board's colours (CSS custom properties: the palettes live in CSS)
 * and a small canvas helper.
 */

import { cssVars } from '../../core/theme.js';

const NAMES = ['--p1', '--p2', '--tri-field', '--tri-star',
  '--tri-star-glow', '--tri-refused', '--focus', '--tri-fill-alpha', '--tri-hatch', '--tri-hint-halo'];

export function readColors(node) {
  const values = cssVars(NAMES, node);
  const get = (name, fallback) => values[name] || fallback;
  return {
    p: [get('--p1', '#ff5a36'), get('--p2', '#3d8bff')],
    field: get('--tri-field', '#0d1436'),
    star: get('--tri-star', '#f4f1ff'),
    starGlow: get('--tri-star-glow', 'rgba(200,210,255,0.35)'),
    danger: get('--tri-refused', '#ff6b64'),
    focus: get('--focus', '#8fb8ff'),
    fillAlpha: Number(get('--tri-fill-alpha', '0.45')) || 0.45,
    hatch: get('--tri-hatch', 'rgba(255,255,255,0.35)'),
    hint: get('--tri-hint-halo', 'rgba(0,0,0,0.45)'),
  };
}

export function ring(ctx, p, radius, colour, { width = 2.5, dash = null, alpha = 1, fillAlpha = 0 } = {}) {
  ctx.save();
  if (fillAlpha) {
    ctx.globalAlpha = fillAlpha;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(p.x, p.y, radius, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = alpha;
  if (dash) ctx.setLineDash(dash);
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.arc(p.x, p.y, radius, 0, Math.PI * 2);
  ctx.stroke();
  ctx.restore();
}
