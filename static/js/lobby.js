/**
 * lobby — the games list (availability and variants: what /api/catalog serves, in the
 * page's JSON), the daily cards, open online games (/api/open, refreshed every 5 s while
 * the page is visible and online; offline, the last list stays, under the site's banner,
 * until the server is back), the player's display name (/api/me), what the lobby
 * remembers of the player (lobby/remember.js: unfinished games, today's dailies done, the
 * streak) and quick pairing ("Play online now", lobby/seek.js) and the next arenas
 * (lobby/arenas.js).
 */

import { api } from './core/api.js';
import { offline, syncServerActions, watchConnection } from './core/connection.js';
import { initNameForm } from './core/name-form.js';
import { errorText as wordsFor } from './core/errors.js';
import { fnv1a32 } from './core/daily.js';
import { has, lang, t } from './core/i18n.js';
import { intlReady } from './core/intl.js';
import { el, pageConfig, toast } from './core/ui.js';
import { variantParts, variantWords } from './core/variant.js';
import { initArenas } from './lobby/arenas.js';
import { remember } from './lobby/remember.js';
import { initSeek, seekGame, seekPlayer } from './lobby/seek.js';
/** @import { CreatedGame, GameCatalog, OpenGames } from './types/wire' */

const OPEN_REFRESH_MS = 5000;

/* ---------------------------------------------------------------- catalog -------- */

// The chips of a card, as i18n keys (untranslated ones are skipped): a variant's modes and
// rotation where the catalog has variants (rulesets), else the choices of the parameter the
// card names (data-chips="…"). No game is named here: a new game needs no lobby edit.
function chipKeys(game, variant, entry, param) {
  const ruleset = variant ? entry.rulesets?.[variant] : null;
  if (ruleset) {
    const modes = Object.entries(ruleset.modes || {}).filter(([, m]) => !m.daily_once).map(([name]) => name);
    const keys = modes.length > 1 ? modes.map((m) => `games.${game}.mode.${m}`) : [];
    // rotation is an option of a new game (off unless chosen in the menu): the chip says so
    if (ruleset.rotation) keys.push(`games.${game}.rotation.optional`);
    return keys;
  }
  return param ? (entry.params?.[param]?.choices || []).map((choice) => `games.${game}.${param}.${choice}`) : [];
}

/** The game of the lobby's challenges: the one chosen in "Play online now", else the
 *  first whose catalog offers an online opponent. */
function onlineGame() {
  return seekGame() ?? [...catalog.values()].find((g) => g.params?.opponent?.choices?.includes('online'))?.name ?? null;
}

// The games (what /api/catalog serves) come with the page: name → catalog entry.
const catalog = new Map(((/** @type {GameCatalog} */ (pageConfig())).games || []).map((game) => [game.name, game]));

// Offline (an answer that never came), the page says so once, in the site's banner, and
// reads everything again when the server is back: no notice claims the list below failed.
const lost = watchConnection(() => loadAll());

function markCards() {
  for (const card of document.querySelectorAll('.game-card[data-game], .daily-card[data-game]')) {
    markCard(card);
  }
  const create = /** @type {HTMLButtonElement | null} */ (document.querySelector('[data-create-challenge]'));
  if (create) {
    // offline, a challenge waits for the server: off, and its note says why (core/connection.js)
    const online = Boolean(onlineGame());
    create.toggleAttribute('data-needs-server', online);
    create.disabled = !online;
    syncServerActions(create.parentElement ?? document);
  }
}

function markCard(card) {
  const { game, variant } = card.dataset;
  const entry = catalog.get(game);
  const rulesets = entry?.params?.ruleset?.choices;
  const available = Boolean(entry) && (!variant || !rulesets || rulesets.includes(variant));
  card.classList.toggle('is-unavailable', !available);
  if (!available) {
    card.removeAttribute('href');
    card.setAttribute('aria-disabled', 'true');
  }
  const slot = card.querySelector('[data-chips]');
  if (!slot) return;
  const chips = [];
  if (!available) {
    chips.push(el('span', { class: 'badge' }, t('lobby.catalog.soon')));
  } else {
    for (const key of chipKeys(game, variant, entry, slot.dataset.chips)) {
      if (has(key)) chips.push(el('span', { class: 'chip' }, t(key)));
    }
  }
  slot.replaceChildren(...chips);
}

/* ---------------------------------------------------------------- daily ---------- */

function showToday() {
  const now = new Date();
  const text = new Intl.DateTimeFormat(lang(), { weekday: 'short', day: 'numeric', month: 'short' }).format(now);
  const label = text.charAt(0).toLocaleUpperCase(lang()) + text.slice(1);
  for (const node of document.querySelectorAll('[data-day]')) node.textContent = String(now.getDate());
  for (const node of document.querySelectorAll('.daily-card [data-date]')) node.textContent = label;
}

/* ---------------------------------------------------------------- open games ----- */

const list = document.getElementById('open-list');
const status = document.getElementById('open-status');
const rows = new Map(); // game id → <li>
let openTimer = 0;
let openBusy = false;
let openLoaded = false; // a list came once: offline, it stays as it was

function ago(ms) {
  const seconds = Math.max(0, (Date.now() - ms) / 1000);
  if (seconds < 45) return t('common.just_now');
  const format = new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' });
  if (seconds < 3600) return format.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86400) return format.format(-Math.round(seconds / 3600), 'hour');
  return format.format(-Math.round(seconds / 86400), 'day');
}

// A challenge in the catalog's words: the game, its variant (see core/variant.js), when.
function describe(game) {
  const entry = catalog.get(game.game);
  const parts = [has(`games.${game.game}.title`) ? t(`games.${game.game}.title`) : game.game];
  const variant = variantWords(game.game, variantParts(game.params, entry), entry);
  if (variant) parts.push(variant);
  parts.push(ago(game.created_ms));
  return parts.join(' · ');
}

function row(game) {
  const name = game.name || t('lobby.open.anonymous');
  const avatar = el('span', { class: 'avatar', 'aria-hidden': 'true' }, Array.from(name)[0]);
  avatar.style.setProperty('--avatar', `var(--piece-${(fnv1a32(name) % 6) + 1})`);
  const actions = game.mine
    ? [
        el('a', { class: 'btn btn-outline', href: `/g/${encodeURIComponent(game.id)}`, dataset: { action: 'open' } }, t('lobby.open.open')),
        el('button', { type: 'button', class: 'btn btn-ghost', dataset: { action: 'cancel' } }, t('lobby.open.cancel')),
      ]
    : [el('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'join', needsServer: '' } }, t('lobby.open.join'))];
  return el(
    'li',
    { class: `open-item${game.mine ? ' open-item--mine' : ''}`, dataset: { id: game.id } },
    avatar,
    el(
      'span',
      { class: 'open-item__main' },
      el('span', { class: 'open-item__name' }, game.mine ? `${name} · ${t('lobby.open.yours')}` : name),
      el('span', { class: 'open-item__meta' }, describe(game)),
    ),
    el('span', { class: 'open-item__actions' }, actions),
  );
}

function renderOpen(games) {
  const focused = document.activeElement?.closest?.('.open-item');
  const focusKey = focused && [focused.dataset.id, /** @type {HTMLElement} */ (document.activeElement).dataset.action];
  const items = games.map((game) => {
    const signature = JSON.stringify([game.name, game.mine, game.params]);
    let li = rows.get(game.id);
    if (!li || li.dataset.signature !== signature) {
      li = row(game);
      li.dataset.signature = signature;
      rows.set(game.id, li);
    } else {
      li.querySelector('.open-item__meta').textContent = describe(game);
    }
    return li;
  });
  const ids = new Set(games.map((game) => game.id));
  for (const id of [...rows.keys()]) if (!ids.has(id)) rows.delete(id);
  const same = items.length === list.children.length && items.every((li, i) => list.children[i] === li);
  if (!same) list.replaceChildren(...items);
  if (focusKey && !list.contains(document.activeElement)) {
    const [id, action] = focusKey;
    [...list.children].find((li) => li.dataset.id === id)?.querySelector(`[data-action="${action}"]`)?.focus();
  }
  status.hidden = games.length > 0;
  status.classList.remove('open-status--error');
  status.textContent = t('lobby.open.empty');
}

async function refreshOpen() {
  clearTimeout(openTimer);
  if (openBusy) return;
  openBusy = true;
  try {
    const data = /** @type {OpenGames} */ (await api('GET', '/api/open'));
    renderOpen(data.games || []);
    openLoaded = true;
  } catch (error) {
    // Offline the banner says so, and the list it had stays: no error above it. It says it
    // could not load only when there is no list to show, or the server refused.
    if (!lost(error) || !openLoaded) {
      status.hidden = false;
      status.classList.add('open-status--error');
      status.textContent = t('lobby.open.error');
    }
  } finally {
    openBusy = false;
    // offline, the connection watch reads everything again once the server is back
    if (document.visibilityState === 'visible' && !offline()) openTimer = setTimeout(refreshOpen, OPEN_REFRESH_MS);
  }
}

function errorText(error, prefix) {
  const key = `${prefix}.${error.code}`;
  return has(key) ? t(key) : wordsFor(null, error); // the catalog's words, never the server's
}

list.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  const id = button.closest('.open-item').dataset.id;
  button.disabled = true;
  try {
    if (button.dataset.action === 'join') {
      await api('POST', `/api/games/${encodeURIComponent(id)}/join`);
      location.assign(`/g/${encodeURIComponent(id)}`);
      return;
    }
    await api('POST', `/api/games/${encodeURIComponent(id)}/cancel`);
    toast(t('lobby.open.cancelled'), { kind: 'success' });
  } catch (error) {
    toast(errorText(error, 'lobby.open.error'), { kind: 'error' });
  }
  button.disabled = false;
  refreshOpen();
});

document.querySelector('[data-create-challenge]')?.addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    const game = /** @type {CreatedGame} */ (await api('POST', '/api/games', { game: onlineGame(), params: { opponent: 'online' }, public: true }));
    toast(t('lobby.open.created'), { kind: 'success' });
    location.assign(`/g/${encodeURIComponent(game.id)}`);
  } catch (error) {
    toast(errorText(error, 'lobby.open.error'), { kind: 'error' });
    button.disabled = false;
  }
});

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') refreshOpen();
  else clearTimeout(openTimer);
});

/* ---------------------------------------------------------------- name ----------- */

const nameForm = initNameForm({
  onSaved: (me) => {
    seekPlayer(me);
    refreshOpen();
  },
});

// The date comes once a worker has loaded the formatters' data (core/intl.js): made here
// first, the date formatter loaded it in the page's first script task.
intlReady().then(showToday);
function loadAll() {
  nameForm.load().then(seekPlayer);
  intlReady().then(refreshOpen); // the rows say how long ago with a formatter
  remember(catalog);
}

markCards();
initSeek(catalog);
loadAll();
initArenas();
