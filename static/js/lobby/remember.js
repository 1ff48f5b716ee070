/**
 * The lobby remembers the player: "continue" cards for their unfinished games
 * (/api/me/games?status=active: games under way; games still waiting for an opponent are
 * in the open list), today's daily cards marked done with score and rank (or off the board
 * of honour, played faster than a person can), and the daily
 * streak (/api/me/stats). The player's local date picks "today" among the server's
 * yesterday, today and tomorrow.
 *
 *   remember(catalog) — fills the lobby; catalog: Map name → /api/catalog entry (or null)
 *   Page state: main[data-remembered] = "ready" | "error" once done
 */

import { api } from '../core/api.js';
import { formatNumber, has, ordinal, plural, t } from '../core/i18n.js';
import { variantWords } from '../core/variant.js';
import { el } from '../core/ui.js';
/** @import { History, MyStats } from '../types/wire' */

const CONTINUE_MAX = 6;

function localDay(date = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function card(game, catalog) {
  const title = has(`games.${game.game}.title`) ? t(`games.${game.game}.title`) : game.game;
  const variant = variantWords(game.game, game.variant, catalog?.get(game.game));
  const meta = [variant, game.daily ? t('me.history.daily') : '', game.number].filter(Boolean);
  return el(
    'a',
    { class: 'continue-card', href: `/g/${encodeURIComponent(game.id)}`, dataset: { id: game.id, game: game.game } },
    el(
      'span',
      { class: 'continue-card__main' },
      el('span', { class: 'continue-card__title' }, title),
      el('span', { class: 'continue-card__meta' }, meta.join(' · ')),
    ),
    el('span', { class: 'continue-card__go' }, t('lobby.continue.resume')),
  );
}

function markDailies(results) {
  const today = localDay();
  for (const node of document.querySelectorAll('.daily-card[data-game]')) {
    const done = results.find((r) => r.game === node.dataset.game && r.date === today && r.status === 'over');
    const badge = node.querySelector('[data-done]');
    node.dataset.done = done ? 'true' : 'false';
    if (!badge) continue;
    badge.hidden = !done;
    if (done) {
      const parts = [t('lobby.daily.done', { score: formatNumber(done.score ?? 0) })];
      if (done.too_fast) parts.push(t('lobby.daily.too_fast'));
      else if (done.rank) parts.push(ordinal('lobby.daily.rank', done.rank));
      badge.textContent = parts.join(' · ');
    }
  }
}

export async function remember(catalog) {
  const main = document.getElementById('main');
  try {
    const [active, stats] = await Promise.all([
      /** @type {Promise<History>} */ (api('GET', `/api/me/games?status=active&limit=${CONTINUE_MAX}`)),
      /** @type {Promise<MyStats>} */ (api('GET', '/api/me/stats')),
    ]);
    const section = document.getElementById('continue-section');
    const list = document.getElementById('continue-list');
    list.replaceChildren(...active.games.map((g) => card(g, catalog)));
    list.removeAttribute('aria-busy');
    section.hidden = active.games.length === 0;
    markDailies(stats.daily);
    const streak = document.querySelector('.lobby [data-streak]');
    streak.hidden = stats.streak === 0;
    streak.dataset.streak = String(stats.streak);
    streak.textContent = stats.streak ? plural('lobby.streak', stats.streak) : '';
    main.dataset.remembered = 'ready';
  } catch {
    const reserved = document.querySelector('#continue-list .continue-card--reserved');
    if (reserved) document.getElementById('continue-section').hidden = true;
    main.dataset.remembered = 'error'; // the lobby works without it
  }
}
