/**
 * me — the player's page: display name (/api/me), daily streak and statistics per game
 * and variant (/api/me/stats), the games list a page at a time (/api/me/games, "more"
 * follows `next`), and the device-transfer panel (me/transfer.js).
 *
 * Page state: main[data-history] loading|ready|error with data-count (games shown),
 * main[data-stats] loading|ready|error.
 */

import { api } from './core/api.js';
import { watchConnection } from './core/connection.js';
import { initNameForm } from './core/name-form.js';
import { formatNumber, has, lang, plural, t } from './core/i18n.js';
import { dayText, intlReady } from './core/intl.js';
import { levelWords, variantWords } from './core/variant.js';
import { el } from './core/ui.js';
import { initNotify } from './me/notify.js';
import { initTransfer } from './me/transfer.js';
/** @import { GameCatalog, History, MyStats } from './types/wire' */

const PAGE = 10;
const main = document.getElementById('main');
let catalog = new Map();

// Offline (an answer that never came), the site's banner says so and the page reads its
// data again once the server is back.
const lost = watchConnection(() => loadCatalog().then(loadAll));

const title = (game) => (has(`games.${game}.title`) ? t(`games.${game}.title`) : game);
const variantOf = (game, variant) => variantWords(game, variant, catalog.get(game));

async function loadCatalog() {
  try {
    const data = /** @type {GameCatalog} */ (await api('GET', '/api/catalog'));
    catalog = new Map((data.games || []).map((game) => [game.name, game]));
  } catch {
    /* variants stay in their plain names */
  }
}

/* ---------------------------------------------------------------- statistics ----- */

// A game played against someone (its stats have levels): wins, losses, draws and the
// rating, not points, which are no record there.
function figuresOf(entry) {
  const levels = Object.values(entry.levels);
  if (!levels.length) {
    return [
      ['me.stats.played', formatNumber(entry.played)],
      ['me.stats.best', entry.best === null ? '—' : formatNumber(entry.best)],
      ['me.stats.average', entry.average === null ? '—' : formatNumber(entry.average)],
    ];
  }
  const sum = (k) => formatNumber(levels.reduce((n, tally) => n + tally[k], 0));
  const figures = [
    ['me.stats.played', formatNumber(entry.played)],
    ['me.stats.wins', sum('wins')],
    ['me.stats.losses', sum('losses')],
    ['me.stats.draws', sum('draws')],
  ];
  if (entry.rating !== null && entry.rating !== undefined) {
    const shown = formatNumber(Math.round(entry.rating)) + (entry.provisional ? '?' : '');
    figures.push(['me.stats.rating', shown]);  // "?": provisional (app/fair_play.py)
  }
  return figures;
}

function statCard(entry) {
  const figures = figuresOf(entry);
  const levels = Object.entries(entry.levels).map(([level, tally]) =>
    el(
      'li',
      { class: 'stat-card__level', dataset: { level } },
      el('span', {}, levelWords(entry.game, level)),
      el('span', { class: 'stat-card__tally' }, t('me.stats.record', tally)),
    ),
  );
  return el(
    'article',
    { class: 'panel stat-card', dataset: { game: entry.game, variant: entry.variant } },
    el('h3', { class: 'stat-card__title' }, title(entry.game)),
    el('p', { class: 'stat-card__variant' }, variantOf(entry.game, entry.variant)),
    el(
      'dl',
      { class: `stat-card__figures${Object.keys(entry.levels).length ? ' stat-card__figures--versus' : ''}` },
      figures.map(([key, value]) => el('div', {}, el('dt', {}, t(key)), el('dd', {}, value))),
    ),
    levels.length ? el('ul', { class: 'stat-card__levels' }, levels) : null,
  );
}

let statsTicket = 0;

async function loadStats() {
  const ticket = ++statsTicket;
  main.dataset.stats = 'loading';
  try {
    const stats = /** @type {MyStats} */ (await api('GET', '/api/me/stats'));
    if (stats.streak_until) await intlReady(); // its date (see core/intl.js)
    if (ticket !== statsTicket) return;
    const streak = document.querySelector('[data-streak]');
    streak.textContent = stats.streak ? plural('me.streak.days', stats.streak) : t('me.streak.none');
    streak.dataset.streak = String(stats.streak);
    streak.classList.toggle('streak-panel__value--none', !stats.streak);
    document.querySelector('[data-streak-until]').textContent = stats.streak_until
      ? t('me.streak.until', { date: dayText(stats.streak_until) })
      : '';
    document.getElementById('stats-list').replaceChildren(...stats.stats.map(statCard));
    const empty = document.getElementById('stats-empty');
    empty.textContent = t('me.stats.empty');
    empty.hidden = stats.stats.length > 0;
    main.dataset.stats = 'ready';
  } catch (error) {
    lost(error);
    if (ticket !== statsTicket) return;
    // Said, not "Loading…" for ever: the streak and the statistics could not be read.
    const streak = document.querySelector('[data-streak]');
    if (!streak.dataset.streak) {
      streak.textContent = t('me.streak.error');
      streak.classList.add('streak-panel__value--none');
      const empty = document.getElementById('stats-empty');
      empty.textContent = t('me.stats.error');
      empty.hidden = false;
    }
    main.dataset.stats = 'error';
  }
}

/* ---------------------------------------------------------------- history -------- */

const list = document.getElementById('history-list');
const status = document.getElementById('history-status');
const moreRow = document.getElementById('history-more-row');
const filter = document.getElementById('history-filter');
let next = null;
let loading = 0;

let whenFormat = null; // one formatter for every row: making one costs a few ms on a phone

function item(game) {
  whenFormat ??= new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' });
  const when = whenFormat.format(game.started_ms);
  const state = game.result ? t(`me.result.${game.result}`) : t(`me.status.${game.status}`);
  const meta = [];
  // points only for a game played alone: a versus game's result says it all
  if (game.score !== null && !game.result) meta.push(t('me.history.score', { n: formatNumber(game.score) }));
  if (game.daily) meta.push(t('me.history.daily'));
  meta.push(when, game.number);
  const unfinished = game.status === 'active' || game.status === 'waiting';
  const actions = unfinished
    ? [el('a', { class: 'btn btn-primary', href: `/g/${encodeURIComponent(game.id)}` }, t('me.history.resume'))]
    : [el('a', { class: 'btn btn-outline', href: game.links.replay }, t('me.history.replay'))];
  if (!game.daily) actions.push(el('a', { class: 'btn btn-ghost', href: game.links.play }, t('me.history.play')));
  return el(
    'li',
    { class: `history-item history-item--${game.result || game.status}`, dataset: { id: game.id, game: game.game } },
    el(
      'span',
      { class: 'history-item__main' },
      el('span', { class: 'history-item__title' }, [title(game.game), variantOf(game.game, game.variant)].filter(Boolean).join(' · ')),
      el(
        'span',
        { class: 'history-item__meta' },
        el('span', { class: 'history-item__state' }, state),
        ` · ${meta.join(' · ')}`,
      ),
    ),
    el('span', { class: 'history-item__actions' }, actions),
  );
}

async function loadGames(more = false) {
  const ticket = ++loading;
  main.dataset.history = 'loading';
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (filter.value) query.set('game', filter.value);
  if (more && next) query.set('before', next);
  try {
    const page = /** @type {History} */ (await api('GET', `/api/me/games?${query}`));
    if (page.games.length) await intlReady(); // the rows' dates (see core/intl.js)
    if (ticket !== loading) return;
    const items = page.games.map(item);
    if (more) list.append(...items);
    else list.replaceChildren(...items);
    next = page.next;
    moreRow.hidden = !next;
    status.hidden = list.children.length > 0;
    status.textContent = t('me.history.empty');
    main.dataset.count = String(list.children.length);
    main.dataset.history = 'ready';
  } catch (error) {
    lost(error);
    if (ticket !== loading) return;
    status.hidden = false;
    status.textContent = t('me.history.error');
    main.dataset.history = 'error';
  }
}

moreRow.querySelector('[data-more]').addEventListener('click', () => loadGames(true));
filter.addEventListener('change', () => loadGames(false));

/* ---------------------------------------------------------------- name ----------- */

const nameForm = initNameForm();

/* ---------------------------------------------------------------- start ---------- */

async function loadAll() {
  await Promise.all([nameForm.load(), loadStats(), loadGames(false)]);
}

const catalogReady = loadCatalog();
initTransfer({
  onClaimed: async () => {
    await catalogReady;
    await loadAll();
  },
});
initNotify();
await catalogReady;
loadAll();
