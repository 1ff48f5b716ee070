/**
 * arena — what an arena game adds to the Triangles page: the link back to its arena with
 * the time the arena has left ("Arena · 2:41 left"), the Berserk button (⚔, half the
 * player's clock and no increment) while the view says the player's seat may
 * (berserk_open), and the end card's "Back to the arena" while the
 * arena runs (its page takes the player to their next game).
 *
 *   takeArena(data)   keeps a snapshot's `arena` ({id} | null; a move's answer has none) and
 *                     reads the arena's end once (GET /api/arenas/{id})
 *   renderArena()     the link and the button (hud.render calls it)
 *   arenaRunning()    the game's arena has time left, on the server's clock
 *   arenaUrl()        its page
 *   canBerserk()      the player may go berserk now
 */

import { api } from '../../core/api.js';
import { t } from '../../core/i18n.js';
import { formatTime } from '../../core/ui.js';
import { ctx, mySeat, S } from './state.js';

const link = document.getElementById('tri-arena');
const button = document.querySelector('#tri-controls [data-action="berserk"]');
let timer = 0;

export function takeArena(data) {
  if (!data || !('arena' in data)) return;
  const tag = data.arena ?? null;
  if (!tag) S.arena = null;
  else if (S.arena?.id !== tag.id) {
    S.arena = { id: tag.id, endsAt: null }; // endsAt: performance.now() of its end
    loadEnd(tag.id);
  }
}

/** The arena's end, on this page's clock (the arena answers with the server's time). */
async function loadEnd(id) {
  try {
    const arena = await api('GET', `/api/arenas/${encodeURIComponent(id)}`);
    if (S.arena?.id !== id) return;
    S.arena.endsAt = performance.now() + (arena.ends_at - arena.server_ms);
    renderArena();
  } catch {
    /* the link still leads to the arena; its time shows once known */
  }
}

const left = () => (S.arena?.endsAt == null ? null : S.arena.endsAt - performance.now());

export function arenaRunning() {
  const ms = left();
  return ms !== null && ms > 0;
}

export function arenaUrl() {
  return S.arena ? `/arenas/${encodeURIComponent(S.arena.id)}` : '/arenas';
}

/** The server's view says whether the seat may go berserk (berserk_open), the page no rule. */
export function canBerserk() {
  const seat = mySeat();
  return Boolean(seat !== null && ctx.session.status === 'active' && ctx.session.view?.berserk_open?.[seat]);
}

export function renderArena() {
  clearTimeout(timer);
  link.hidden = !S.arena;
  document.getElementById('tri').classList.toggle('is-arena', Boolean(S.arena));
  if (S.arena) {
    link.href = arenaUrl();
    const ms = left();
    const text = ms === null
      ? t('games.triangles.arena.link.plain')
      : ms > 0 ? t('games.triangles.arena.link', { time: formatTime(ms) }) : t('games.triangles.arena.link.over');
    if (link.lastChild.textContent !== text) link.lastChild.textContent = text;
    if (ms > 0) timer = setTimeout(renderArena, (ms % 1000) + 5);
  }
  button.hidden = !canBerserk();
  button.disabled = S.busy || S.animating;
}
