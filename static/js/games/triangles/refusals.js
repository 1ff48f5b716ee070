/**
 * refusals — a refused or impossible line, explained next to where it happened: the board
 * marks the star or line the server named, and a bubble says why in the player's language
 * (the catalog's words by code; a refusal with no words of its own becomes a toast).
 *
 *   refuse(error, a, b)   blocked(star)   hideBubble()
 */

import { errorText } from '../../core/errors.js';
import { has, t } from '../../core/i18n.js';
import { toast } from '../../core/ui.js';
import { ctx, isSpectator, S } from './state.js';

const bubble = document.getElementById('tri-bubble');
const boardBox = document.getElementById('tri-board');
const err = (error) => errorText('triangles', error);

export function hideBubble() {
  bubble.hidden = true;
  ctx.board.clearRefused();
}

let bubbleTimer = 0;

function showBubble(at, text, kind = 'error') {
  clearTimeout(bubbleTimer);
  bubble.textContent = text;
  bubble.dataset.kind = kind;
  bubble.hidden = false;
  const width = boardBox.clientWidth;
  const half = Math.min(bubble.offsetWidth / 2, width / 2 - 4);
  const x = Math.max(half + 4, Math.min(width - half - 4, at.x));
  const below = at.y < bubble.offsetHeight + 28;
  bubble.classList.toggle('is-below', below);
  bubble.style.left = `${x}px`;
  bubble.style.top = `${at.y}px`;
  bubbleTimer = setTimeout(() => {
    bubble.hidden = true;
  }, 2800);
}

export function refuse(error, a, b) {
  const code = error?.code;
  if (code === 'stale_version' && error.body?.current) {
    toast(err(error)); // the session's one policy: it has adopted the server's state; say so
    return;
  }
  if (code === 'game_over' || code === 'waiting_for_opponent') {
    ctx.session.refresh();
  }
  const key = `games.triangles.error.${code}`;
  if (!has(key)) {
    toast(err(error), { kind: 'error' }); // the catalog's words by code, never the server's
    return;
  }
  const pa = ctx.board.point(a);
  const pb = ctx.board.point(b);
  ctx.board.refuse({ a, b, star: error.details?.star ?? null, line: error.details?.line ?? null });
  showBubble({ x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2 }, t(key));
}

export function blocked(star) {
  if (!ctx.session.view) return;
  let key = null;
  if (isSpectator()) key = 'games.triangles.spectator.cannot';
  else if (ctx.session.view.over) key = 'games.triangles.error.game_over';
  else if (ctx.session.status === 'waiting') key = 'games.triangles.error.waiting_for_opponent';
  else if (S.thinking || S.busy || S.animating) key = null;
  else if (!ctx.session.seats.includes(ctx.session.view.turn)) key = 'games.triangles.error.not_your_turn';
  if (key) showBubble(ctx.board.point(star), t(key), 'info');
}

window.addEventListener('resize', () => {
  bubble.hidden = true;
});
