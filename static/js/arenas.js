/**
 * arenas — the arenas page (templates/arenas.html): running, upcoming and recently
 * finished arenas as cards (GET /api/arenas, read again every 30 s and when a countdown
 * reaches a start or an end), and the form that creates one (POST /api/arenas), shown to
 * a player with a name (GET /api/me); others read why, with a link to where a name is set.
 *
 * State: #arenas-lists[data-loaded], #arena-form[data-player] = "named" | "anonymous".
 */

import { api } from './core/api.js';
import { errorText } from './core/errors.js';
import { plural, t } from './core/i18n.js';
import { withIntl } from './core/intl.js';
import { el } from './core/ui.js';
import { arenaStatus, arenaTitle, clockWords, serverClock, when } from './arena/words.js';
/** @import { Arena, ArenaSummary } from './types/wire' */

const REFRESH_MS = 30_000;
const WEEK_MS = 7 * 86_400_000;
const $ = (selector) => document.querySelector(selector);
const clock = serverClock();
/** @type {ArenaSummary[]} */
let arenas = [];
let timer = 0;
let ticker = 0;

/** @param {ArenaSummary} arena */
function card(arena) {
  const status = arenaStatus(arena, clock.now());
  const meta = [clockWords(arena.clock, arena.game), t(arena.rated ? 'arena.rated' : 'arena.casual'), plural('arena.players', arena.players)];
  return el(
    'li',
    {},
    el(
      'a',
      { class: `arena-card arena-card--${status}`, href: `/arenas/${encodeURIComponent(arena.id)}`, dataset: { id: arena.id } },
      el('span', { class: 'arena-card__title' }, arenaTitle(arena)),
      el('span', { class: 'arena-card__meta' }, meta.join(' · ')),
      el('span', { class: 'arena-card__when', dataset: { countdown: '' } }, when(arena, clock.now())),
    ),
  );
}

function render() {
  const now = clock.now();
  for (const section of document.querySelectorAll('[data-list]')) {
    const shown = arenas.filter((arena) => arenaStatus(arena, now) === section.dataset.list);
    section.querySelector('[data-cards]').replaceChildren(...shown.map(card));
    section.querySelector('[data-none]').hidden = shown.length > 0;
  }
  const lists = $('#arenas-lists');
  lists.dataset.loaded = 'true';
  lists.removeAttribute('aria-busy');
}

function tick() {
  clearTimeout(ticker);
  const now = clock.now();
  let moved = false;
  for (const node of document.querySelectorAll('.arena-card')) {
    const arena = arenas.find((a) => a.id === /** @type {HTMLElement} */ (node).dataset.id);
    if (!arena) continue;
    if (!node.classList.contains(`arena-card--${arenaStatus(arena, now)}`)) moved = true;
    node.querySelector('[data-countdown]').textContent = when(arena, now);
  }
  if (moved) load();
  ticker = setTimeout(tick, 1000 - (now % 1000) + 5);
}

async function load() {
  clearTimeout(timer);
  try {
    // a start over an hour away is written with a date formatter (core/intl.js)
    const data = /** @type {{arenas: ArenaSummary[]}} */ (await withIntl(api('GET', '/api/arenas')));
    arenas = data.arenas || [];
    clock.take(arenas[0]?.server_ms);
    $('#arenas-error').hidden = true;
    render();
    tick();
  } catch {
    $('#arenas-error').hidden = false;
  }
  if (document.visibilityState === 'visible') timer = setTimeout(load, REFRESH_MS);
}

/* ---------------------------------------------------------------- the form ------- */

const form = /** @type {HTMLFormElement} */ ($('#arena-form'));
const at = /** @type {HTMLInputElement} */ ($('#arena-at'));
const formError = $('#arena-form-error');

/** The value of the form's checked radio button named `name`. */
const checked = (name) => /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name="${name}"]:checked`))?.value ?? null;

/** A datetime-local value ("2030-01-02T18:30") of local time `ms`. */
function localValue(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

function showLater() {
  const later = checked('start') === 'later';
  $('#arena-at-row').hidden = !later;
  if (later) {
    const now = Date.now();
    at.min = localValue(now);
    at.max = localValue(now + WEEK_MS);
    if (!at.value) at.value = localValue(Math.ceil((now + 15 * 60_000) / 900_000) * 900_000); // the next quarter hour, 15 min on
  }
}

function showError(text) {
  formError.textContent = text;
  formError.hidden = !text;
}

async function create(event) {
  event.preventDefault();
  showError('');
  const body = {
    game: 'triangles',
    clock: checked('clock'),
    minutes: Number(/** @type {HTMLSelectElement} */ ($('#arena-minutes')).value),
    rated: /** @type {HTMLInputElement} */ ($('#arena-rated')).checked,
    private: /** @type {HTMLInputElement} */ ($('#arena-private')).checked,
  };
  if (checked('start') === 'later') {
    const when = at.value ? new Date(at.value).getTime() : Number.NaN;
    if (!Number.isFinite(when)) {
      showError(t('error.bad_start'));
      at.focus();
      return;
    }
    body.starts_at = when;
  }
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  try {
    const arena = /** @type {Arena} */ (await api('POST', '/api/arenas', body));
    location.assign(arena.link || `/arenas/${encodeURIComponent(arena.id)}`);
  } catch (error) {
    showError(errorText('triangles', error));
    button.disabled = false;
  }
}

async function player() {
  let named = false;
  try {
    named = Boolean((await api('GET', '/api/me'))?.name);
  } catch {
    /* unknown: the form shows, and the server answers name_required if need be */
    named = true;
  }
  form.dataset.player = named ? 'named' : 'anonymous';
  form.hidden = !named;
  $('#arena-create-name').hidden = named;
}

form.addEventListener('submit', create);
form.addEventListener('change', (event) => {
  if (/** @type {HTMLInputElement} */ (event.target).name === 'start') showLater();
});
at.addEventListener('input', () => showError(''));
$('[data-action="retry"]').addEventListener('click', load);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') load();
});

load();
player();
