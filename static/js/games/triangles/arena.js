/**
 * arena — what an arena game adds to the Triangles page: the link back to its arena with
 * the time the arena has left ("Arena · 2:41 left"), the Berserk button (⚔, half the
 * player's clock and no increment) while the view allows it and the player's seat has
 * neither gone berserk nor drawn a line, and the end card's "Back to the arena" while the
 * arena runs (its page takes the player to their next game).
 *
 *   takeArena(data)   keeps a snapshot's `arena` ({id, ends_at} | null; a move's answer has none)
 *   renderArena()     the link and the button (hud.render calls it)
 *   arenaRunning()    the game's arena has time left, on the server's clock
 *   arenaUrl()        its page
 *   canBerserk()      the player may go berserk now
 */

import { t } from '../../core/i18n.js';
import { formatTime } from '../../core/ui.js';
import { ctx, mySeat, S } from './state.js';

const link = document.getElementById('tri-arena');
const button = document.querySelector('#tri-controls [data-action="berserk"]');
let timer = 0;

export function takeArena(data) {
  if (data && 'arena' in data) S.arena = data.arena ?? null;
}

const now = () => ctx.session.serverClockNow();

export function arenaRunning() {
  return Boolean(S.arena) && S.arena.ends_at > now();
}

export function arenaUrl() {
  return S.arena ? `/arenas/${encodeURIComponent(S.arena.id)}` : '/arenas';
}

export function canBerserk() {
  const view = ctx.session.view;
  const seat = mySeat();
  return Boolean(
    view?.berserk_allowed && seat !== null && !view.over && ctx.session.status === 'active'
      && !view.berserk?.[seat] && !view.lines.some((line) => line[2] === seat),
  );
}

export function renderArena() {
  clearTimeout(timer);
  link.hidden = !S.arena;
  document.getElementById('tri').classList.toggle('is-arena', Boolean(S.arena));
  if (S.arena) {
    link.href = arenaUrl();
    const left = S.arena.ends_at - now();
    const text = left > 0 ? t('games.triangles.arena.link', { time: formatTime(left) }) : t('games.triangles.arena.link.over');
    if (link.lastChild.textContent !== text) link.lastChild.textContent = text;
    if (left > 0) timer = setTimeout(renderArena, (left % 1000) + 5);
  }
  button.hidden = !canBerserk();
  button.disabled = S.busy || S.animating;
}
