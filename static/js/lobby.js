/**
 * lobby — the games list (availability and variants from /api/catalog), the daily cards,
 * open online games (/api/open, refreshed every 5 s while the page is visible) and the
 * player's display name (/api/me).
 */

import { api } from './core/api.js';
import { fnv1a32 } from './core/daily.js';
import { has, lang, t } from './core/i18n.js';
import { el, toast } from './core/ui.js';

const OPEN_REFRESH_MS = 5000;
const NAME_MAX = 24;

/* ---------------------------------------------------------------- catalog -------- */

// The chips of a card: the catalog keys it shows, as i18n keys (untranslated ones are skipped).
function chipKeys(game, variant, entry) {
  if (game === 'blocks') {
    const ruleset = entry.rulesets?.[variant];
    const modes = ruleset ? Object.keys(ruleset.modes || {}) : [];
    const keys = modes.length > 1 ? modes.filter((m) => m !== 'daily').map((m) => `games.blocks.mode.${m}`) : [];
    if (ruleset?.rotation) keys.push('games.blocks.rotation');
    return keys;
  }
  const param = { pairs: 'size', triangles: 'opponent' }[game];
  return (entry.params?.[param]?.choices || []).map((choice) => `games.${game}.${param}.${choice}`);
}

let catalog = null;

async function loadCatalog() {
  const notice = document.getElementById('catalog-error');
  try {
    const data = await api('GET', '/api/catalog');
    catalog = new Map((data.games || []).map((game) => [game.name, game]));
    notice.hidden = true;
    for (const card of document.querySelectorAll('.game-card[data-game], .daily-card[data-game]')) {
      markCard(card);
    }
    const create = document.querySelector('[data-create-challenge]');
    if (create) create.disabled = !catalog.has('triangles');
  } catch {
    notice.hidden = false;
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
    for (const key of chipKeys(game, variant, entry)) {
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

function ago(ms) {
  const seconds = Math.max(0, (Date.now() - ms) / 1000);
  if (seconds < 45) return t('common.just_now');
  const format = new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' });
  if (seconds < 3600) return format.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86400) return format.format(-Math.round(seconds / 3600), 'hour');
  return format.format(-Math.round(seconds / 86400), 'day');
}

function describe(game) {
  const parts = [];
  const params = game.params || {};
  if (game.game !== 'triangles') parts.push(t(`games.${game.game}.title`));
  if (params.stars) parts.push(t('games.triangles.stars', { n: params.stars }));
  if (params.field && has(`games.triangles.field.${params.field}`)) parts.push(t(`games.triangles.field.${params.field}`));
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
    : [el('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'join' } }, t('lobby.open.join'))];
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
  const focusKey = focused && [focused.dataset.id, document.activeElement.dataset.action];
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
    const data = await api('GET', '/api/open');
    renderOpen(data.games || []);
  } catch {
    status.hidden = false;
    status.classList.add('open-status--error');
    status.textContent = t('lobby.open.error');
  } finally {
    openBusy = false;
    if (document.visibilityState === 'visible') openTimer = setTimeout(refreshOpen, OPEN_REFRESH_MS);
  }
}

function errorText(error, prefix) {
  const key = `${prefix}.${error.code}`;
  return has(key) ? t(key) : error.message || t('common.error.generic');
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
    const game = await api('POST', '/api/games', { game: 'triangles', params: { opponent: 'online' }, public: true });
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

const form = document.getElementById('name-form');
const input = document.getElementById('name-input');
const nameError = document.getElementById('name-error');

function showNameError(text) {
  nameError.textContent = text || '';
  nameError.hidden = !text;
  input.setAttribute('aria-invalid', String(Boolean(text)));
}

async function loadName() {
  try {
    const me = await api('GET', '/api/me');
    if (me?.name && !input.value) input.value = me.name;
  } catch {
    /* the field stays empty; saving will report any problem */
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = input.value.trim();
  const length = Array.from(name).length;
  if (length === 0) return showNameError(t('lobby.name.error.empty'));
  if (length > NAME_MAX) return showNameError(t('lobby.name.error.long'));
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    const me = await api('PUT', '/api/me', { name });
    input.value = me.name;
    showNameError('');
    toast(t('lobby.name.saved'), { kind: 'success' });
    refreshOpen();
  } catch (error) {
    showNameError(error.status === 422 ? errorText(error, 'lobby.name.error') : error.message);
  } finally {
    button.disabled = false;
  }
});

input.addEventListener('input', () => showNameError(''));

document.querySelector('[data-retry-catalog]')?.addEventListener('click', loadCatalog);

showToday();
loadCatalog();
loadName();
refreshOpen();
