/**
 * "Play online now": quick pairing in the lobby. The player picks a game (when several
 * offer online play: the catalog's `online_play`), a time control (that game's clocks)
 * and, when they have a name, rated or casual; POST /api/seeks either pairs them at once or puts them in the
 * pool, and the page long-polls the seek (GET /api/seeks/{id}?wait=…) until it becomes a
 * game, then goes to /g/{id}. Each poll keeps the seek alive: a closed page stops polling
 * (and withdraws the seek on its way out), so its seek leaves the pool.
 *
 *   initSeek(catalog) — wires the section once; catalog: Map name → /api/catalog entry
 *   (the page's games; those with `online_play` are offered)
 *   seekGame()        — the name of the game chosen (null: no game is played online)
 *   Page state: #seek-section[data-seek] = "idle" | "waiting" | "paired"
 */

import { api } from '../core/api.js';
import { errorText } from '../core/errors.js';
import { has, plural, t } from '../core/i18n.js';
import { formatTime, toast } from '../core/ui.js';
/** @import { SeekState } from '../types/wire' */

const WAIT_S = 20; // seconds a poll is held by the server
const RETRY_MS = [500, 1000, 2000, 4000];
const MIN_POLL_MS = 1000; // a poll answered sooner (replaced, or a proxy's) waits this long
const STORE = 'lobby.seek';

const section = document.getElementById('seek-section');
const form = document.getElementById('seek-form');
const gamesField = document.getElementById('seek-games-field');
const gamesBox = document.getElementById('seek-games');
const clocksBox = document.getElementById('seek-clocks');
const ratedRow = document.getElementById('seek-rated-row');
const rated = document.getElementById('seek-rated');
const ratedNote = document.getElementById('seek-rated-note');
const idle = section?.querySelector('[data-seek-idle]');
const waiting = section?.querySelector('[data-seek-waiting]');

let games = []; // the catalog entries of the games played online
let game = null; // the one chosen
let player = null; // the /api/me answer: {name, rated: {<game>: {finished, needed, moves}}}
let seekId = null;
let active = false; // a search is under way (until paired, cancelled or failed)
let startedAt = 0;
let timer = 0;

function saved() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || '{}') || {};
  } catch {
    return {};
  }
}

function save(choice) {
  try {
    localStorage.setItem(STORE, JSON.stringify(choice));
  } catch {
    /* storage may be blocked */
  }
}

function clockWords(name) {
  const key = `games.${game.name}.clock.choice.${name}`;
  return has(key) ? t(key) : name;
}

function chosenClock() {
  return clocksBox.querySelector('input[name="seek-clock"]:checked')?.value ?? null;
}

// Why the player may not play rated yet, as the seek would refuse it (null: they may).
function ratedRefusal() {
  if (!player.name) return { code: 'rated_needs_name' };
  const progress = player.rated?.[game.name];
  if (progress && progress.finished < progress.needed) return { code: 'rated_needs_games', details: progress };
  return null;
}

// The Rated switch: shown for the clocks rated play offers once the player is known; off,
// with the player's progress and the reason, until the server would accept a rated seek.
function syncRated() {
  ratedRow.hidden = !player || !(game.params.rated?.clocks ?? []).includes(chosenClock());
  if (ratedRow.hidden) return;
  const refusal = ratedRefusal();
  rated.disabled = Boolean(refusal);
  if (refusal) rated.checked = false;
  ratedNote.hidden = !refusal;
  const progress = refusal?.details;
  ratedNote.querySelector('[data-rated-progress]').textContent = progress
    ? plural('lobby.seek.rated.progress', progress.finished, { needed: progress.needed })
    : '';
  ratedNote.querySelector('[data-rated-reason]').textContent = refusal ? errorText(game.name, refusal) : '';
}

// One choice per game played online; shown only when there are several.
function renderGames() {
  const remembered = saved().game;
  game = games.find((g) => g.name === remembered) ?? games[0];
  gamesField.hidden = games.length < 2;
  gamesBox.replaceChildren(
    ...games.map(({ name }) => {
      const label = document.createElement('label');
      const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'seek-game', value: name, checked: name === game.name });
      const text = document.createElement('span');
      text.textContent = t(`games.${name}.title`);
      label.append(input, text);
      return label;
    }),
  );
}

function chooseGame() {
  const name = gamesBox.querySelector('input[name="seek-game"]:checked')?.value;
  game = games.find((g) => g.name === name) ?? game;
  renderClocks();
}

function renderClocks() {
  const choices = game.params.clock.choices;
  const remembered = saved();
  const sameGame = (remembered.game ?? game.name) === game.name;
  const pick = sameGame && choices.includes(remembered.clock) ? remembered.clock : choices.find((c) => c !== 'none') ?? choices[0];
  clocksBox.replaceChildren(
    ...choices.map((name) => {
      const label = document.createElement('label');
      const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'seek-clock', value: name, checked: name === pick });
      const text = document.createElement('span');
      text.textContent = clockWords(name);
      label.append(input, text);
      return label;
    }),
  );
  rated.checked = Boolean(remembered.rated);
  syncRated();
}

function show(state) {
  section.dataset.seek = state;
  idle.hidden = state !== 'idle';
  waiting.hidden = state === 'idle';
  clearInterval(timer);
  if (state === 'waiting') {
    tick();
    timer = setInterval(tick, 1000);
  }
}

function tick() {
  section.querySelector('[data-seek-elapsed]').textContent = t('lobby.seek.elapsed', { time: formatTime(Date.now() - startedAt) });
}

function describe(clock, isRated) {
  return [clockWords(clock), isRated ? t('lobby.seek.rated') : t('lobby.seek.casual')].join(' · ');
}

function paired(gameId) {
  active = false;
  seekId = null;
  show('paired');
  location.assign(`/g/${encodeURIComponent(gameId)}`);
}

function stop(message, kind = 'info') {
  active = false;
  seekId = null;
  show('idle');
  if (message) toast(message, { kind });
  form.querySelector('[data-action="seek"]')?.focus();
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function follow(id) {
  let failures = 0;
  while (active && seekId === id) {
    const sent = Date.now();
    try {
      const answer = /** @type {SeekState} */ (await api('GET', `/api/seeks/${encodeURIComponent(id)}?wait=${WAIT_S}`));
      failures = 0;
      if (!active || seekId !== id) return;
      if (answer.status === 'paired') return paired(answer.game_id);
      await pause(MIN_POLL_MS - (Date.now() - sent));
    } catch (error) {
      if (!active || seekId !== id) return;
      if (error.status === 404) return stop(t('lobby.seek.expired'));
      await pause(RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
      failures += 1;
    }
  }
}

async function start(event) {
  event.preventDefault();
  if (active) return;
  const clock = chosenClock();
  if (!clock) return;
  const isRated = !ratedRow.hidden && !rated.disabled && rated.checked;
  save({ game: game.name, clock, rated: rated.disabled ? Boolean(saved().rated) : rated.checked });
  active = true;
  startedAt = Date.now();
  section.querySelector('[data-seek-control]').textContent = describe(clock, isRated);
  show('waiting');
  section.querySelector('[data-action="seek-cancel"]').focus();
  try {
    const answer = /** @type {SeekState} */ (await api('POST', '/api/seeks', { game: game.name, clock, rated: isRated }));
    // Paired already: an opponent is waiting in that game, even if Cancel came meanwhile.
    if (answer.status === 'paired') return paired(answer.game_id);
    if (!active) {
      withdraw(answer.seek_id).catch((error) => {
        if (error.code === 'seek_paired' && error.details?.game_id) paired(error.details.game_id);
      });
      return;
    }
    seekId = answer.seek_id;
    follow(seekId);
  } catch (error) {
    if (error.code === 'rated_needs_games' && player) {
      player = { ...player, rated: { ...player.rated, [game.name]: error.details } };
      syncRated();
    }
    stop(errorText(game.name, error), 'error');
  }
}

function withdraw(id, keepalive = false) {
  const url = `/api/seeks/${encodeURIComponent(id)}`;
  if (keepalive) {
    fetch(url, { method: 'DELETE', credentials: 'same-origin', keepalive: true }).catch(() => {});
    return Promise.resolve();
  }
  return api('DELETE', url);
}

async function cancel() {
  const id = seekId;
  active = false;
  seekId = null;
  if (id) {
    try {
      await withdraw(id);
    } catch (error) {
      if (error.code === 'seek_paired' && error.details?.game_id) return paired(error.details.game_id);
    }
  }
  stop(t('lobby.seek.cancelled'));
}

export function initSeek(catalog) {
  games = [...(catalog?.values() ?? [])].filter((g) => g.online_play && g.params?.clock);
  if (!section || !games.length) return;
  renderGames();
  renderClocks();
  form.addEventListener('submit', start);
  gamesBox.addEventListener('change', chooseGame);
  clocksBox.addEventListener('change', syncRated);
  section.querySelector('[data-action="seek-cancel"]').addEventListener('click', cancel);
  // A page on its way out stops polling and withdraws its seek (it would expire anyway).
  window.addEventListener('pagehide', () => {
    if (active && seekId) withdraw(seekId, true);
    active = false;
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) show('idle'); // back from the cache: that search is over
  });
  section.hidden = false;
  show('idle');
}

/** The game chosen for online play (null: none is played online). */
export function seekGame() {
  return game?.name ?? null;
}

/** The player as the lobby's name form read or saved it (GET/PUT /api/me; null: unknown):
 *  rated seeks need a name and the finished games its `rated` progress counts. */
export function seekPlayer(me) {
  player = me ?? null;
  if (game) syncRated();
}
