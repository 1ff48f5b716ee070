/**
 * main — the Pairs page controller: creates or resumes a game, turns taps and keys into
 * moves, sends them one at a time, and hands what the server answered to the board, the
 * HUD, the menu and the final card.
 *
 * The server decides everything (paths, blockers, hints, points, the clock); this module
 * only keeps the selection, counts the clock down between answers (from the view's
 * `as_of_ms` and the answer's `server_ms`), pauses the game while the menu or the results
 * are open or the page is hidden, and shows at most two gentle tips per game.
 *
 * Pages: /play/pairs (resumes the unfinished game, or a new one), /play/pairs/<number>
 * (that board; ?mode=timed for the timed mode), /daily/pairs (today's board from the
 * browser's local date), /g/<id> (that game). Once a game is open the address becomes
 * /g/<id>, so a reload brings the same game back.
 */

import { api } from '../../core/api.js';
import { localDate } from '../../core/daily.js';
import { formatNumber, has, t } from '../../core/i18n.js';
import { copyLink, el, formatTime, pageConfig, shareLink } from '../../core/ui.js';
import { Board } from './board.js';
import { FinalCard } from './final.js';
import { Menu } from './menu.js';
import { pictureName } from './pictures.js';

const SIZES = ['beginner', 'classic', 'long'];
const MODES = ['calm', 'timed'];
const KEY_PREFS = 'pairs.prefs';
const KEY_CURRENT = 'pairs.current';
const KEY_DAILY = 'pairs.daily';
const KEY_TIPS = 'pairs.tips';
const TIP_AFTER_MS = 15_000;
const TIP_SHOW_MS = 9_000;
const MAX_TIPS = 2;
const LOW_MS = 10_000;
const FINAL_DELAY_MS = 900;
const MESSAGE_MS = { error: 3600, info: 2600, tip: TIP_SHOW_MS };

/* ------------------------------------------------------------------ elements ---- */

const root = document.getElementById('pairs');
const $ = (id) => document.getElementById(id);
const hud = {
  sub: $('pairs-sub'),
  count: $('pairs-count'),
  score: $('pairs-score'),
  streak: $('pairs-streak'),
  clock: $('pairs-clock'),
  clockBox: $('pairs-clock-box'),
  clockLabel: $('pairs-clock-label'),
  clockBonus: $('pairs-clock-bonus'),
  progress: $('pairs-progress'),
  status: $('pairs-status'),
  live: $('pairs-live'),
  overlay: $('pairs-overlay'),
  overlayText: $('pairs-overlay-text'),
  overlayActions: $('pairs-overlay-actions'),
};
const buttons = Object.fromEntries(
  [...document.querySelectorAll('.pairs-controls [data-action]')].map((b) => [b.dataset.action, b]),
);

/* ------------------------------------------------------------------ storage ----- */

function load(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode: the page still works, it just forgets */
  }
}

const prefs = (() => {
  const stored = load(KEY_PREFS, {});
  return {
    size: SIZES.includes(stored.size) ? stored.size : 'classic',
    mode: MODES.includes(stored.mode) ? stored.mode : 'calm',
    highlight: typeof stored.highlight === 'boolean' ? stored.highlight : null, // null: by size
  };
})();

function savePrefs() {
  save(KEY_PREFS, prefs);
}

/* ------------------------------------------------------------------ state ------- */

const game = {
  id: null,
  number: null,
  version: 0,
  view: null,
  status: null,
  daily: null,
  seat: null,
  serverMs: 0, // server_ms of the last answer …
  localMs: 0, // … and performance.now() when it arrived
};
let selected = null; // [r, c]
let cursor = null; // [r, c], the keyboard cursor
let keyboardMode = false;
let pairInFlight = false;
let deferredTap = null;
let refreshing = false;
let finalShown = false;
let tipsShown = 0;
let idleMs = 0;
let lastTick = performance.now();
let messageTimer = 0;
let records = [];
let lastScore = null;
let switching = false; // a new game is being created
let lockedUntil = 0; // taps wait while tiles are about to change under the finger

const board = new Board($('pairs-board'), { onDown });
const menu = new Menu($('pairs-menu'), {
  onSize: (size) => {
    prefs.size = size;
    savePrefs();
    create({ params: { size: prefs.size, mode: prefs.mode } });
  },
  onMode: (mode) => {
    prefs.mode = mode;
    prefs.size = game.view?.size ?? prefs.size; // the size the menu showed
    savePrefs();
    create({ params: { size: prefs.size, mode } });
  },
  onHighlight: (on) => {
    prefs.highlight = on;
    savePrefs();
    board.setTwins(highlightOn());
  },
  onCopy: () => copyBoardLink(),
  onNumber: (number) => startNumber(number),
  onNew: () => newGame(),
  onToggle: () => syncPause(),
});
const final = new FinalCard($('pairs-final'), {
  onCopy: () => copyBoardLink(),
  onShare: () => {
    if (game.number) shareLink(linkFor(game.number, game.view?.mode), `${t('games.pairs.title')} #${game.number}`);
  },
  onNew: () => newGame(),
  onCalm: () => create({ number: game.number, params: { mode: 'calm' } }),
  onToggle: () => {
    syncPause();
    renderControls();
  },
});

function serverNow() {
  return game.serverMs + (performance.now() - game.localMs);
}

function highlightOn() {
  const size = game.view?.size ?? prefs.size;
  return prefs.highlight ?? size === 'beginner';
}

function spectator() {
  return game.seat === null || game.seat === undefined;
}

function over() {
  return Boolean(game.view?.over);
}

/* ------------------------------------------------------------------ messages ---- */

function say(text, kind = 'info', ms = MESSAGE_MS[kind]) {
  clearTimeout(messageTimer);
  hud.status.textContent = text || '';
  hud.status.dataset.kind = text ? kind : '';
  if (text && ms) {
    messageTimer = setTimeout(() => {
      hud.status.textContent = '';
      hud.status.dataset.kind = '';
    }, ms);
  }
}

function errorText(error) {
  const key = `games.pairs.error.${error?.code}`;
  if (has(key)) return t(key);
  if (error?.status === 0) return t('common.error.network');
  return t('common.error.generic');
}

function announce(text) {
  hud.live.textContent = '';
  requestAnimationFrame(() => {
    hud.live.textContent = text;
  });
}

function describeCell(cell) {
  const picture = board.tileAt(cell);
  const where = t('games.pairs.cell', { row: cell[0] + 1, col: cell[1] + 1 });
  return picture === null ? `${where}: ${t('games.pairs.cell.empty')}` : `${where}: ${t(`games.pairs.picture.${pictureName(picture)}`)}`;
}

function showOverlay(text, actions = []) {
  hud.overlayText.textContent = text;
  hud.overlayActions.replaceChildren(
    ...actions.map(({ label, onClick, primary }) =>
      el('button', { type: 'button', class: `btn ${primary ? 'btn-primary' : 'btn-outline'}`, on: { click: onClick } }, label)),
  );
  hud.overlay.hidden = false;
}

function hideOverlay() {
  hud.overlay.hidden = true;
}

/* ------------------------------------------------------------------ rendering --- */

function clockMs() {
  const view = game.view;
  if (!view) return 0;
  if (view.clock) {
    const c = view.clock;
    return c.running ? c.remaining_ms - Math.max(0, serverNow() - c.as_of_ms) : c.remaining_ms;
  }
  if (view.over && view.time_ms !== null) return view.time_ms;
  const s = view.stopwatch;
  return s.running ? s.elapsed_ms + Math.max(0, serverNow() - s.as_of_ms) : s.elapsed_ms;
}

function renderClock() {
  const view = game.view;
  if (!view) return;
  const timed = Boolean(view.clock);
  let ms = clockMs();
  if (timed) ms = Math.max(0, ms);
  // A countdown shows whole seconds left (0:01 until it is really over).
  hud.clock.textContent = formatTime(timed ? Math.ceil(ms / 1000) * 1000 : ms);
  const low = timed && !view.over && ms < LOW_MS;
  hud.clockBox.classList.toggle('is-low', low);
  hud.clockBox.classList.toggle('is-paused', Boolean(view.paused) && !view.over);
  if (timed && view.clock.running && !view.over && ms <= 0) refresh();
  // The streak badge and its bar: the time left to extend the streak, from the server's
  // last removal and the expiry it gave.
  const expires = view.streak_expires_ms;
  const span = expires === null || expires === undefined ? 0 : expires - view.last_removal_ms;
  const left = span > 0 ? expires - serverNow() : 0;
  const showStreak = view.streak >= 2 && left > 0 && !view.over;
  hud.streak.hidden = !showStreak;
  if (showStreak) {
    hud.streak.querySelector('.pairs-streak__text').textContent = t('games.pairs.hud.streak', { n: view.streak });
    hud.streak.querySelector('.pairs-streak__bar').style.transform = `scaleX(${Math.min(1, left / span)})`;
  }
}

function renderHud() {
  const view = game.view;
  if (!view) return;
  const where = game.daily
    ? `${t('games.pairs.daily.title')} · ${t(`games.pairs.mode.${view.mode}`)}`
    : `${t(`games.pairs.size.${view.size}`)} · ${t(`games.pairs.mode.${view.mode}`)}`;
  hud.sub.textContent = where;
  hud.count.textContent = `${view.pairs_removed}/${view.pairs_total}`;
  if (lastScore !== null && view.score !== lastScore) {
    hud.score.classList.remove('is-bumped');
    void hud.score.offsetWidth; // restart the CSS animation
    hud.score.classList.add('is-bumped');
  }
  lastScore = view.score;
  hud.score.textContent = formatNumber(view.score);
  hud.clockLabel.textContent = view.clock ? t('games.pairs.hud.left') : t('common.time');
  hud.progress.style.transform = `scaleX(${view.pairs_total ? view.pairs_removed / view.pairs_total : 0})`;
  root.dataset.version = String(game.version);
  root.dataset.gameId = game.id || '';
  root.dataset.number = game.number || '';
  root.dataset.state = view.over ? 'over' : view.paused ? 'paused' : 'playing';
  $('pairs-side-number').textContent = game.number ? `#${game.number}` : '–';
  $('pairs-side-desc').textContent = where;
  renderClock();
  renderControls();
  renderRecords();
}

function renderControls() {
  const done = over();
  const watching = spectator();
  buttons.hint.hidden = done;
  buttons.shuffle.hidden = done;
  buttons.hint.disabled = watching || !game.view;
  buttons.shuffle.disabled = watching || !game.view;
  buttons.results.hidden = !done || final.open;
  buttons.new.hidden = !done && !watching;
}

function renderRecords() {
  const table = $('pairs-records');
  for (const row of table.querySelectorAll('tbody tr')) {
    for (const cell of row.querySelectorAll('td')) {
      const record = records.find((r) => r.key === `${row.dataset.size}/${cell.dataset.mode}`);
      cell.textContent = record ? formatNumber(record.score) : '–';
      cell.title = record ? `${formatNumber(record.score)} · ${formatTime(record.time_ms)}` : '';
      const current = game.view && row.dataset.size === game.view.size && cell.dataset.mode === game.view.mode;
      cell.classList.toggle('is-current', Boolean(current));
    }
  }
}

async function loadRecords() {
  try {
    const data = await api('GET', '/api/records?game=pairs');
    records = data.records || [];
    renderRecords();
  } catch {
    /* the records are a nicety */
  }
  return records;
}

/* ------------------------------------------------------------------ a game ------ */

function take(data) {
  game.id = data.id ?? game.id;
  game.number = data.number ?? game.number;
  game.version = data.version;
  game.view = data.view;
  game.status = data.status ?? game.status;
  if ('seat' in data) game.seat = data.seat;
  if ('daily' in data) game.daily = data.daily;
  game.serverMs = data.server_ms ?? 0;
  game.localMs = performance.now();
}

/** A game arrives (created or loaded): show it from scratch. */
function open(data, { daily = null } = {}) {
  hideOverlay();
  final.close();
  finalShown = false;
  lastScore = null;
  take(data);
  if (daily && !game.daily) game.daily = daily;
  selected = null;
  deferredTap = null;
  cursor = null;
  lockedUntil = 0;
  board.setTiles(game.view.tiles);
  board.select(null);
  board.setHint(game.view.hint);
  board.setTwins(highlightOn());
  board.setCursor(null, false);
  if (game.view.over) board.skipDeal();
  else board.deal();
  if (location.pathname !== `/g/${game.id}`) history.replaceState(null, '', `/g/${encodeURIComponent(game.id)}`);
  if (!spectator()) {
    save(KEY_CURRENT, game.id);
    if (game.daily) save(KEY_DAILY, { date: game.daily, id: game.id });
  }
  const tips = load(KEY_TIPS, {});
  tipsShown = tips.id === game.id ? tips.n : 0;
  idleMs = 0;
  say('');
  renderHud();
  if (spectator()) {
    say(t('games.pairs.watching'), 'info', 0);
    buttons.new.querySelector('.pairs-ctl__label').textContent = t('games.pairs.play_board');
  } else {
    buttons.new.querySelector('.pairs-ctl__label').textContent = t('common.new_game');
  }
  if (game.view.over) showFinal(0);
  else syncPause();
}

/** Creates a game and opens it. Resolves to null, or to the error (the game on screen, if
 *  any, stays; with none, the board shows the error and a retry button). */
async function create(body, { daily = null, quiet = false } = {}) {
  const previous = root.dataset.state;
  root.dataset.state = 'loading';
  switching = true; // the game on screen stays paused while we leave it
  try {
    const data = await api('POST', '/api/games', { game: 'pairs', ...body });
    switching = false;
    open(data, { daily });
    return null;
  } catch (error) {
    switching = false;
    if (game.view) {
      root.dataset.state = previous;
      if (!quiet) say(errorText(error), 'error');
      syncPause();
    } else {
      root.dataset.state = 'error';
      showOverlay(errorText(error), [{ label: t('common.retry'), primary: true, onClick: () => create(body, { daily }) }]);
    }
    return error;
  }
}

async function resume(id) {
  const data = await api('GET', `/api/games/${encodeURIComponent(id)}`);
  open(data);
  return data;
}

function newGame() {
  if (spectator() && game.number && game.view) {
    create({ number: game.number, params: { mode: game.view.mode } });
    return;
  }
  create({ params: { size: prefs.size, mode: prefs.mode } });
}

async function startNumber(number) {
  const error = await create({ number, params: { mode: prefs.mode } }, { quiet: true });
  if (!error) return '';
  return errorText(error);
}

async function startDaily() {
  const date = localDate();
  const stored = load(KEY_DAILY, null);
  // Resume today's board if this browser started it (the server says which day it is).
  if (stored && stored.date === date) {
    try {
      const data = await api('GET', `/api/games/${encodeURIComponent(stored.id)}`);
      if (data.seat !== null && data.seat !== undefined && data.daily === date) {
        open(data);
        return;
      }
    } catch {
      /* start it again below */
    }
  }
  await create({ daily: date, params: { mode: 'calm' } }, { daily: date });
}

/** Loads the game again (the countdown reached zero, or the server said we are out of date). */
async function refresh() {
  if (refreshing || !game.id) return;
  refreshing = true;
  const id = game.id;
  try {
    const data = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    if (game.id !== id) {
      refreshing = false;
      return;
    }
    adopt(data);
    if (!game.view.over && game.view.clock && clockMs() <= 0) {
      setTimeout(() => {
        refreshing = false;
        refresh();
      }, 400);
      return;
    }
  } catch {
    setTimeout(() => {
      refreshing = false;
      refresh();
    }, 2000);
    return;
  }
  refreshing = false;
}

/* ------------------------------------------------------------------ moves ------- */

let chain = Promise.resolve();

function enqueue(task) {
  const run = chain.then(task);
  chain = run.catch(() => {});
  return run;
}

/** POSTs one move at the current version; a stale version takes the server's current state
 *  and tries once more. Resolves to {ok, result} or {ok: false, error}; an answer about a
 *  game the page has left meanwhile resolves to {ok: false, gone: true} and changes nothing. */
async function post(move) {
  const id = game.id;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const result = await api('POST', `/api/games/${encodeURIComponent(id)}/moves`, {
        version: game.version,
        move,
      });
      if (game.id !== id) return { ok: false, gone: true, error: null };
      return { ok: true, result };
    } catch (error) {
      if (game.id !== id) return { ok: false, gone: true, error: null };
      if (error.code === 'stale_version' && error.body?.current && attempt === 0) {
        adopt(error.body.current);
        if (over()) return { ok: false, error };
        continue;
      }
      return { ok: false, error };
    }
  }
  return { ok: false, error: null };
}

/** Queues a move for the game on screen now (dropped if another game opens first). */
function send(move) {
  const id = game.id;
  return enqueue(() => (id && game.id === id ? post(move) : { ok: false, gone: true, error: null }));
}

/** The server's current state replaces ours (after a 409, or on a refresh). */
function adopt(current) {
  const tilesChanged = JSON.stringify(current.view.tiles) !== JSON.stringify(game.view?.tiles);
  const wasOver = over();
  take(current);
  if (tilesChanged) {
    board.setTiles(game.view.tiles);
    select(null);
  }
  board.setHint(game.view.hint);
  renderHud();
  if (game.view.over && !wasOver) showFinal(300);
}

/** Plays what a successful answer says happened. */
function play(result) {
  const before = board.tiles.map((row) => row.slice());
  const wasOver = over();
  const oldClock = game.view?.clock;
  take(result);
  const view = game.view;
  const events = result.events || [];
  const removed = events.find((e) => e.type === 'removed');
  const shuffled = events.find((e) => e.type === 'shuffled');
  const hint = events.find((e) => e.type === 'hint');
  let delay = 0;
  if (removed) {
    const afterRemoval = before.map((row) => row.slice());
    afterRemoval[removed.a[0]][removed.a[1]] = null;
    afterRemoval[removed.b[0]][removed.b[1]] = null;
    board.setTiles(afterRemoval);
    const held = board.removePair(removed);
    board.popup(`+${formatNumber(removed.points)}`, [removed.a, removed.b], removed.streak > 1 ? t('games.pairs.hud.streak', { n: removed.streak }) : '');
    delay = 800;
    if (shuffled) {
      selected = null;
      board.select(null);
      lockedUntil = performance.now() + 1100; // until the flip shows the new pictures
      held.then(() => {
        board.reshuffle(afterRemoval, view.tiles, 420);
        if (game.view === view) say(t('games.pairs.status.auto_shuffle'), 'info', 4200);
      });
    } else {
      board.setTiles(view.tiles);
    }
    if (selected && board.tileAt(selected) === null) select(null);
    idleMs = 0;
    if (hud.status.dataset.kind === 'tip') say('');
    if (view.clock && oldClock && !view.over) {
      // what the pair added to the countdown, as the server's two snapshots tell it
      const passed = oldClock.running ? view.clock.as_of_ms - oldClock.as_of_ms : 0;
      const added = view.clock.remaining_ms - (oldClock.remaining_ms - passed);
      if (added >= 500) bumpClock(Math.round(added / 1000));
    }
    announce(t('games.pairs.removed', { points: removed.points }));
  } else if (shuffled) {
    select(null);
    lockedUntil = performance.now() + 260;
    board.reshuffle(before, view.tiles, 0);
  } else {
    board.setTiles(view.tiles);
  }
  board.setHint(view.hint);
  if (shuffled && !removed) {
    say(shuffled.auto ? t('games.pairs.status.auto_shuffle') : paid('games.pairs.status.shuffled', shuffled.points), 'info', 3600);
  }
  if (hint) {
    const text = paid('games.pairs.status.hint', hint.points);
    say(text, 'info');
    announce(`${text} ${describeCell(hint.a)}; ${describeCell(hint.b)}`);
  }
  renderHud();
  if (view.over && !wasOver) showFinal(removed ? FINAL_DELAY_MS + delay : 300);
}

/** A message about something that may have cost points (the event's `points`, ≤ 0). */
function paid(key, points) {
  const cost = Math.abs(points || 0);
  return cost ? t(`${key}_paid`, { points: formatNumber(cost) }) : t(key);
}

function bumpClock(seconds) {
  const node = hud.clockBonus;
  node.textContent = t('games.pairs.hud.bonus', { n: seconds });
  node.classList.remove('is-on');
  void node.offsetWidth;
  node.classList.add('is-on');
}

async function tryPair(a, b) {
  pairInFlight = true;
  board.select(a, b);
  const outcome = await send({ type: 'pair', a, b });
  pairInFlight = false;
  if (outcome.gone) return;
  if (outcome.ok) {
    if (same(selected, a) || same(selected, b)) selected = null;
    play(outcome.result);
    board.select(selected);
  } else {
    refused(outcome.error, a, b);
  }
  const next = deferredTap;
  deferredTap = null;
  if (next && !over()) tapTile(next);
}

function refused(error, a, b) {
  const code = error?.code;
  switch (code) {
    case 'path_blocked':
    case 'no_path':
    case 'different_pictures':
      board.shake([a, b]);
      if (code === 'path_blocked' && error.details?.blocker) board.flashBlocker(error.details.blocker);
      say(errorText(error), 'error');
      announce(errorText(error));
      // The selection stays on the first tile; another picture takes the selection over.
      select(code === 'different_pictures' ? b : a);
      break;
    case 'paused':
      select(a);
      syncPause();
      break;
    case 'empty_cell':
    case 'game_over':
    case 'time_up':
      select(null);
      refresh();
      break;
    default:
      select(a);
      say(errorText(error), 'error');
  }
}

function select(cell) {
  selected = cell ? [cell[0], cell[1]] : null;
  board.select(selected);
}

function same(p, q) {
  return Boolean(p && q && p[0] === q[0] && p[1] === q[1]);
}

/* ------------------------------------------------------------------ input ------- */

function onDown({ cell }) {
  if (keyboardMode) {
    keyboardMode = false;
    board.setCursor(cursor, false);
  }
  if (!game.view) return;
  if (board.dealing) {
    board.skipDeal();
    return;
  }
  if (over() || spectator() || performance.now() < lockedUntil) return;
  if (!cell || board.tileAt(cell) === null) {
    if (!pairInFlight) select(null);
    return;
  }
  tapTile(cell);
}

function tapTile(cell) {
  if (pairInFlight) {
    deferredTap = cell;
    return;
  }
  if (board.tileAt(cell) === null) return;
  if (!selected) {
    select(cell);
    announce(t('games.pairs.selected', { tile: describeCell(cell) }));
    return;
  }
  if (same(selected, cell)) {
    select(null);
    announce(t('games.pairs.deselected'));
    return;
  }
  tryPair(selected, cell);
}

async function askHint() {
  if (!game.view || over() || spectator()) return;
  if (board.dealing) board.skipDeal();
  if (game.view.hint) {
    board.setHint(null);
    board.setHint(game.view.hint); // already paid for: outline it again
    say(t('games.pairs.status.hint_again'), 'info');
    return;
  }
  const outcome = await send({ type: 'hint' });
  if (outcome.ok) play(outcome.result);
  else if (!outcome.gone) say(errorText(outcome.error), 'error');
}

async function askShuffle() {
  if (!game.view || over() || spectator()) return;
  if (board.dealing) board.skipDeal();
  select(null);
  lockedUntil = Infinity; // no pair against tiles that are about to move
  const outcome = await send({ type: 'shuffle' });
  lockedUntil = 0;
  if (outcome.ok) play(outcome.result);
  else if (!outcome.gone) say(errorText(outcome.error), 'error');
}

function openMenu() {
  if (!game.view && root.dataset.state === 'loading') return;
  const view = game.view;
  menu.show({
    size: view?.size ?? prefs.size,
    mode: view?.mode ?? prefs.mode,
    highlight: highlightOn(),
    number: game.number,
    paused: Boolean(view && !view.over),
  });
}

function linkFor(number, mode) {
  const url = new URL(`/play/pairs/${encodeURIComponent(number)}`, location.origin);
  if (mode === 'timed') url.searchParams.set('mode', 'timed');
  return url.href;
}

function copyBoardLink() {
  if (!game.number) return;
  copyLink(linkFor(game.number, game.view?.mode));
}

function firstTile() {
  const rows = game.view?.tiles ?? [];
  for (let r = 0; r < rows.length; r += 1) {
    for (let c = 0; c < rows[r].length; c += 1) if (rows[r][c] !== null) return [r, c];
  }
  return [0, 0];
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (menu.open || final.open) return;
  const target = event.target;
  if (target.closest?.('input, select, textarea, [contenteditable="true"]')) return;
  const boardBox = $('pairs-board');
  const onBoard = target === boardBox || target === document.body || target === document.documentElement;
  const key = event.key;
  if (ARROWS[key] && (onBoard || !target.closest?.('button, a, dialog'))) {
    event.preventDefault();
    if (!game.view) return;
    if (board.dealing) board.skipDeal();
    const [dr, dc] = ARROWS[key];
    const rows = game.view.rows;
    const cols = game.view.cols;
    if (!cursor) cursor = selected ? [...selected] : firstTile();
    else cursor = [Math.max(0, Math.min(rows - 1, cursor[0] + dr)), Math.max(0, Math.min(cols - 1, cursor[1] + dc))];
    keyboardMode = true;
    if (document.activeElement !== boardBox) boardBox.focus({ preventScroll: true });
    board.setCursor(cursor, true);
    announce(describeCell(cursor));
    return;
  }
  if ((key === 'Enter' || key === ' ') && onBoard) {
    event.preventDefault();
    if (!game.view) return;
    if (board.dealing) {
      board.skipDeal();
      return;
    }
    if (!cursor) {
      cursor = selected ? [...selected] : firstTile();
      keyboardMode = true;
      board.setCursor(cursor, true);
      announce(describeCell(cursor));
      return;
    }
    if (!over() && !spectator() && performance.now() >= lockedUntil) {
      if (board.tileAt(cursor) === null) {
        select(null);
        announce(describeCell(cursor));
      } else {
        tapTile([...cursor]);
      }
    }
    return;
  }
  if (event.repeat) return;
  const lower = key.toLowerCase();
  if (lower === 'h') {
    event.preventDefault();
    askHint();
  } else if (lower === 's') {
    event.preventDefault();
    askShuffle();
  } else if (key === 'Escape') {
    event.preventDefault();
    openMenu();
  }
}

/* ------------------------------------------------------------------ pause ------- */

function wantRunning() {
  return document.visibilityState === 'visible' && !menu.open && !final.open;
}

/** Pauses or resumes the game on the server so that it matches the page (queued like any move). */
function syncPause() {
  menu.setPaused(Boolean(game.view && !game.view.over));
  return enqueue(async () => {
    const view = game.view;
    if (!view || view.over || spectator() || !game.id || switching) return;
    const want = wantRunning();
    if (want === !view.paused) return;
    const outcome = await post({ type: want ? 'resume' : 'pause' });
    if (outcome.gone) return;
    if (outcome.ok) {
      take(outcome.result);
      renderHud();
      if (game.view.over) showFinal(300);
    } else if (['already_paused', 'not_paused', 'game_over', 'time_up'].includes(outcome.error?.code)) {
      refresh();
    }
  });
}

function pauseOnLeave() {
  // The page is going away: tell the server with a beacon, which outlives the page.
  const view = game.view;
  if (!view || view.over || view.paused || spectator() || !game.id || !navigator.sendBeacon) return;
  const body = JSON.stringify({ version: game.version, move: { type: 'pause' } });
  navigator.sendBeacon(`/api/games/${encodeURIComponent(game.id)}/moves`, new Blob([body], { type: 'application/json' }));
}

/* ------------------------------------------------------------------ final ------- */

function showFinal(delay) {
  if (finalShown) return;
  finalShown = true;
  select(null);
  board.setHint(null);
  renderControls();
  setTimeout(async () => {
    if (!over()) {
      finalShown = false;
      return;
    }
    say('');
    menu.close();
    final.show({ view: game.view, number: game.number, daily: game.daily });
    renderControls();
    if (!spectator()) {
      const list = await loadRecords();
      const record = list.find((r) => r.key === `${game.view.size}/${game.view.mode}`) ?? null;
      final.setRecord(record, game.id);
      save(KEY_CURRENT, null);
    }
    if (game.daily) {
      try {
        const data = await api('GET', `/api/daily/pairs?date=${encodeURIComponent(game.daily)}`);
        final.setHonour(data.honour);
      } catch {
        /* no board of honour today */
      }
    }
  }, delay);
}

/* ------------------------------------------------------------------ tips & time - */

function tick() {
  const nowMs = performance.now();
  const dt = nowMs - lastTick;
  lastTick = nowMs;
  renderClock();
  const view = game.view;
  const running = view && !view.over && !view.paused && !spectator() && wantRunning() && !board.dealing;
  if (!running) return;
  idleMs += dt;
  if (idleMs >= TIP_AFTER_MS && tipsShown < MAX_TIPS) {
    tipsShown += 1;
    idleMs = 0;
    save(KEY_TIPS, { id: game.id, n: tipsShown });
    say(t(`games.pairs.tip.${tipsShown}`), 'tip');
  }
}

/* ------------------------------------------------------------------ wiring ------ */

buttons.menu.addEventListener('click', openMenu);
buttons.hint.addEventListener('click', askHint);
buttons.shuffle.addEventListener('click', askShuffle);
buttons.new.addEventListener('click', newGame);
buttons.results.addEventListener('click', () => {
  if (over()) final.show({ view: game.view, number: game.number, daily: game.daily }).then(() => renderControls());
  renderControls();
  loadRecords().then((list) => final.setRecord(list.find((r) => r.key === `${game.view.size}/${game.view.mode}`) ?? null, game.id));
});
for (const button of document.querySelectorAll('.pairs-side [data-action="copy"]')) {
  button.addEventListener('click', copyBoardLink);
}
document.addEventListener('keydown', onKey);
document.addEventListener('visibilitychange', () => {
  lastTick = performance.now();
  syncPause();
});
window.addEventListener('pagehide', pauseOnLeave);
$('pairs-board').addEventListener('focus', (event) => {
  // Reached with the keyboard (Tab): show the cursor at once, on the selection or the first tile.
  if (!keyboardMode && !event.target.matches(':focus-visible')) return;
  if (!game.view) return;
  keyboardMode = true;
  if (!cursor) cursor = selected ? [...selected] : firstTile();
  board.setCursor(cursor, true);
});
$('pairs-board').addEventListener('blur', () => board.setCursor(cursor, false));
setInterval(tick, 200);

async function loadSizes() {
  try {
    const data = await api('GET', '/api/catalog');
    const entry = (data.games || []).find((g) => g.name === 'pairs');
    menu.setSizes(entry?.sizes);
  } catch {
    /* the menu shows the names only */
  }
}

async function boot() {
  const config = pageConfig();
  const params = new URLSearchParams(location.search);
  const mode = MODES.includes(params.get('mode')) ? params.get('mode') : 'calm';
  if (config.game_id) {
    try {
      await resume(config.game_id);
    } catch (error) {
      showOverlay(errorText(error), [
        { label: t('common.retry'), onClick: () => location.reload() },
        { label: t('common.new_game'), primary: true, onClick: () => newGame() },
      ]);
    }
  } else if (config.daily) {
    await startDaily();
  } else if (config.number) {
    const error = await create({ number: config.number, params: { mode } });
    if (error && error.status && error.status < 500) {
      showOverlay(errorText(error), [{ label: t('common.new_game'), primary: true, onClick: () => newGame() }]);
    }
  } else {
    const current = load(KEY_CURRENT, null);
    let resumed = false;
    if (typeof current === 'string') {
      try {
        const data = await api('GET', `/api/games/${encodeURIComponent(current)}`);
        if (data.status === 'active' && data.seat !== null && data.seat !== undefined && !data.view.over) {
          open(data);
          resumed = true;
        }
      } catch {
        /* gone: start a new one */
      }
    }
    if (!resumed) await create({ params: { size: prefs.size, mode: prefs.mode } });
  }
  loadSizes();
  loadRecords();
}

boot();
