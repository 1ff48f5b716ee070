/**
 * arena — one arena's page (templates/arena.html): its title, rated or casual, the
 * countdown to its start or end, the player's Join / Pause / Back in, the share button of
 * a private arena, the standings (arena/standings.js) and, once over, the podium. Live over
 * /ws/arenas/{id} (arena/live.js). When the server pairs the player (a `paired` frame, or
 * `me.game_id` while the arena runs) the page goes to the game at once: its clock runs.
 *
 * Page config (app/pages.py): {arena_id, key}. State for tests and styles:
 * #arena[data-status] = "loading" | "upcoming" | "running" | "over" | "error",
 * #arena[data-me] = "out" | "in" | "paused".
 */

import { api } from './core/api.js';
import { errorText } from './core/errors.js';
import { plural, t } from './core/i18n.js';
import { pageConfig, shareLink, toast } from './core/ui.js';
import { arenaLive } from './arena/live.js';
import { renderPodium, renderStandings } from './arena/standings.js';
import { arenaStatus, arenaTitle, clockWords, countdown, serverClock } from './arena/words.js';
/** @import { Arena } from './types/wire' */

const { arena_id: id, key = null } = pageConfig();
const query = key ? `?key=${encodeURIComponent(key)}` : '';
const $ = (selector) => document.querySelector(selector);
const root = $('#arena');
const clock = serverClock();
const LEFT = 'arena.left'; // games this tab was taken to: never taken to one twice
/** @type {Arena | null} */
let arena = null;
let ticker = 0;
let going = false;

function taken() {
  try {
    return JSON.parse(sessionStorage.getItem(LEFT) || '[]');
  } catch {
    return [];
  }
}

function goTo(gameId) {
  if (going || taken().includes(gameId)) return;
  going = true;
  try {
    sessionStorage.setItem(LEFT, JSON.stringify([...taken(), gameId].slice(-50)));
  } catch {
    /* storage may be blocked */
  }
  $('#arena-note').textContent = t('arenas.to_game');
  location.assign(`/g/${encodeURIComponent(gameId)}`);
}

function chip(text, kind = '') {
  const span = document.createElement('span');
  span.className = `chip${kind ? ` chip--${kind}` : ''}`;
  span.textContent = text;
  return span;
}

function note(a, status) {
  if (status === 'over') return '';
  if (!a.me.joined) return t('arenas.not_joined');
  if (a.me.paused) return t('arenas.paused');
  return status === 'running' ? t('arenas.joined.running') : t('arenas.joined');
}

function tick() {
  clearTimeout(ticker);
  if (!arena) return;
  const now = clock.now();
  const status = arenaStatus(arena, now);
  if (status !== root.dataset.status) {
    show(arena); // it started or ended between two frames: the server says more soon
    live.refresh();
    return;
  }
  $('#arena-clock').textContent = countdown(arena, now);
  if (status !== 'over') ticker = setTimeout(tick, 1000 - (now % 1000) + 5);
}

/** @param {Arena} a */
function show(a) {
  arena = a;
  clock.take(a.server_ms);
  const status = arenaStatus(a, clock.now());
  root.dataset.status = status;
  root.dataset.me = !a.me.joined ? 'out' : a.me.paused ? 'paused' : 'in';
  root.removeAttribute('aria-busy');
  $('#arena-error').hidden = true;
  const title = arenaTitle(a);
  $('#arena-title').textContent = title;
  document.title = `${title} · ${t('site.name')}`;
  const chips = [chip(clockWords(a.clock, a.game)), chip(t(a.rated ? 'arena.rated' : 'arena.casual'), a.rated ? 'rated' : '')];
  if (a.private) chips.push(chip(t('arena.private')));
  chips.push(chip(plural('arena.players', a.players)));
  $('#arena-chips').replaceChildren(...chips);
  const text = note(a, status);
  if ($('#arena-note').textContent !== text && !going) $('#arena-note').textContent = text;
  const open = status !== 'over';
  $('[data-action="join"]').hidden = !(open && !a.me.joined);
  $('[data-action="pause"]').hidden = !(open && a.me.joined && !a.me.paused);
  $('[data-action="back-in"]').hidden = !(open && a.me.joined && a.me.paused);
  $('[data-action="share"]').hidden = !a.link;
  renderStandings(a.standings, status === 'over');
  renderPodium(status === 'over' ? a.standings : []);
  tick();
  if (status === 'running' && a.me.joined && !a.me.paused && a.me.game_id) goTo(a.me.game_id);
}

function failed(error) {
  if (arena && error.status === 0) return; // offline: the last standings stay, live.js retries
  $('#arena-error-text').textContent = errorText(arena?.game ?? 'triangles', error);
  $('#arena-error').hidden = false;
  if (!arena) {
    root.dataset.status = 'error';
    root.removeAttribute('aria-busy');
    $('#arena-title').textContent = t('arenas.list.title');
  }
}

const live = arenaLive(id, key, {
  onArena: show,
  onPaired: goTo,
  onError: failed,
  onStatus: (status) => {
    document.body.dataset.arenaLive = status;
    $('#arena-live').hidden = status === 'open' || root.dataset.status === 'over';
  },
});

async function act(button, path) {
  button.disabled = true;
  try {
    show(/** @type {Arena} */ (await api('POST', `/api/arenas/${encodeURIComponent(id)}/${path}${path === 'join' ? query : ''}`)));
    const next = document.querySelector('.arena-head__actions button:not([hidden])');
    if (next instanceof HTMLElement && document.activeElement === button) next.focus();
  } catch (error) {
    toast(errorText(arena?.game ?? 'triangles', error), { kind: 'error' });
  } finally {
    button.disabled = false;
  }
}

const ACTIONS = {
  join: (button) => act(button, 'join'),
  'back-in': (button) => act(button, 'join'),
  pause: (button) => act(button, 'pause'),
  share: () => shareLink(new URL(arena.link, location.origin).href, t('arenas.share.title')),
  retry: () => live.refresh(),
};

document.addEventListener('click', (event) => {
  const button = /** @type {Element} */ (event.target).closest('button[data-action]');
  if (button) ACTIONS[button.dataset.action]?.(button);
});

window.addEventListener('pageshow', (event) => {
  if (event.persisted) {
    going = false; // back from the game: this page is live again
    live.refresh();
  }
});

live.refresh();
