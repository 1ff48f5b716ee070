/**
 * The lobby's arena card: the next arenas (up to 3, running first), each a link to its page
 * with its countdown, read from GET /api/arenas once and every minute while the lobby is
 * seen, and when a countdown reaches a start or an end.
 *
 *   initArenas()   fills #lobby-arenas; a list that cannot be read leaves the card empty
 */

import { api } from '../core/api.js';
import { plural, t } from '../core/i18n.js';
import { withIntl } from '../core/intl.js';
import { el } from '../core/ui.js';
import { arenaStatus, arenaTitle, clockWords, serverClock, when } from '../arena/words.js';
/** @import { ArenaSummary } from '../types/wire' */

const SHOWN = 3;
const REFRESH_MS = 60_000;
const clock = serverClock();
const list = document.getElementById('lobby-arenas');
/** @type {ArenaSummary[]} */
let shown = [];
let timer = 0;
let ticker = 0;

/** @param {ArenaSummary} arena */
function item(arena) {
  const live = arenaStatus(arena, clock.now()) === 'running';
  return el(
    'li',
    {},
    el(
      'a',
      { class: `arena-card arena-card--${live ? 'running' : 'upcoming'}`, href: `/arenas/${encodeURIComponent(arena.id)}`, dataset: { id: arena.id } },
      el('span', { class: 'arena-card__title' }, arenaTitle(arena), live ? el('span', { class: 'badge arena-card__live' }, t('lobby.arenas.live')) : null),
      el('span', { class: 'arena-card__meta' }, [clockWords(arena.clock, arena.game), t(arena.rated ? 'arena.rated' : 'arena.casual'), plural('arena.players', arena.players)].join(' · ')),
      el('span', { class: 'arena-card__when', dataset: { countdown: '' } }, when(arena, clock.now())),
    ),
  );
}

function tick() {
  clearTimeout(ticker);
  const now = clock.now();
  for (const arena of shown) {
    const node = list.querySelector(`[data-id="${CSS.escape(arena.id)}"] [data-countdown]`);
    if (node) node.textContent = when(arena, now);
  }
  if (shown.some((arena) => !list.querySelector(`.arena-card--${arenaStatus(arena, now)}[data-id="${CSS.escape(arena.id)}"]`))) {
    load();
    return;
  }
  if (shown.length) ticker = setTimeout(tick, 1000 - (now % 1000) + 5);
}

async function load() {
  clearTimeout(timer);
  try {
    // a start over an hour away is written with a date formatter (core/intl.js)
    const data = /** @type {{arenas: ArenaSummary[]}} */ (await withIntl(api('GET', '/api/arenas')));
    clock.take(data.arenas?.[0]?.server_ms);
    const now = clock.now();
    shown = (data.arenas || []).filter((arena) => arenaStatus(arena, now) !== 'over').slice(0, SHOWN);
    list.replaceChildren(...shown.map(item));
    document.getElementById('lobby-arenas-empty').hidden = shown.length > 0;
    tick();
  } catch {
    /* the card keeps what it had; the lobby's own lists say when the server is away */
  }
  if (document.visibilityState === 'visible') timer = setTimeout(load, REFRESH_MS);
}

export function initArenas() {
  if (!list) return;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') load();
  });
  load();
}
