/**
 * tray-paint — the picture of the Blocks tray: three thirds, each with its piece (dimmed
 * where it fits nowhere, with a turn badge where it fits only turned), the keyboard's
 * chosen third outlined, and the deal and turn animations.
 *
 *   drawTray(ctx, w, h, {hand, anim, unit, focused, now}) → whether an animation still runs
 *     hand     the TrayHand (tray-hand.js); anim  slot → {type: "deal" | "turn", start,
 *              duration} (finished ones are removed); unit  CSS px of one block;
 *     focused  whether the keyboard focus ring shows
 */

import { easeOut } from '../../core/ui.js';
import { colours, drawPiece, kindColour, pieceSize } from './palette.js';

export function drawTray(ctx, w, h, { hand, anim, unit, focused, now }) {
  const pal = colours();
  let busy = false;
  for (let slot = 0; slot < 3; slot += 1) {
    const cx = (w * (slot * 2 + 1)) / 6;
    const cy = h / 2;
    if (focused && slot === hand.selected) drawFocus(ctx, cx - w / 6 + 5, w / 3 - 10, h, pal);
    const entry = hand.ready(slot);
    if (!entry) continue;
    const { rows, cols } = pieceSize(entry.cells);
    let scale = 1;
    let angle = 0;
    const running = anim.get(slot);
    if (running) {
      const x = Math.max(0, Math.min(1, (now - running.start) / running.duration));
      if (x >= 1) anim.delete(slot);
      else busy = true;
      if (running.type === 'deal') scale = now < running.start ? 0 : 0.35 + 0.65 * easeOut(x) + Math.sin(x * Math.PI) * 0.08;
      if (running.type === 'turn') angle = -(Math.PI / 2) * (1 - easeOut(x));
    }
    if (scale <= 0) continue;
    const alpha = !entry.placeable ? 0.32 : !entry.fits ? 0.6 : 1;
    ctx.save();
    ctx.translate(cx, cy);
    if (angle) ctx.rotate(angle);
    ctx.scale(scale, scale);
    drawPiece(ctx, entry.cells, (-cols * unit) / 2, (-rows * unit) / 2, unit, kindColour(entry.kind), { alpha });
    ctx.restore();
    if (entry.placeable && !entry.fits) drawTurnBadge(ctx, cx + (cols * unit) / 2, cy - (rows * unit) / 2, pal);
  }
  return busy;
}

function drawFocus(ctx, x, width, h, pal) {
  ctx.save();
  ctx.strokeStyle = pal.accent;
  ctx.lineWidth = 2.5;
  ctx.setLineDash([6, 5]);
  ctx.beginPath();
  ctx.roundRect(x, 4, width, h - 8, 14);
  ctx.stroke();
  ctx.restore();
}

function drawTurnBadge(ctx, x, y, pal) {
  const r = 11;
  ctx.save();
  ctx.fillStyle = pal.accent;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = pal.accentText;
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  ctx.beginPath();
  ctx.arc(x, y, 5, -Math.PI * 0.1, Math.PI * 1.35);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x + 5.6, y - 4.6);
  ctx.lineTo(x + 5, y - 0.4);
  ctx.lineTo(x + 1.2, y - 2.2);
  ctx.stroke();
  ctx.restore();
}
