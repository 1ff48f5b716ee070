/**
 * main — the Pairs page: boots a game on the shared session (core/session.js), turns taps
 * and keys into moves and plays what the server answers on the board, the HUD, the menu and
 * the final card.
 *
 * The server decides everything (paths, blockers, hints, points, the clock, the record key);
 * this module keeps only the selection, pauses the game while the menu or the results are
 * open or the page is hidden, and shows at most two gentle tips per game. A tap on a tile
 * with another picture simply moves the selection there (no request).
 *
 * Pages: /play/pairs (resumes the unfinished game, or a new one), /play/pairs/<number>[?mode=],
 * /daily/pairs (today's board), /g/<id>; an open game's address becomes /g/<id>.
 */

import { localDate } from '../../core/daily.js';
import { errorText } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { Session } from '../../core/session.js';
import { feedback } from '../../core/sound.js';
import { copyLink, pageConfig } from '../../core/ui.js';
import { Board } from './board.js';
import { FinalCard } from './final.js';
import { playAnswer } from './answer.js';
import { Hud } from './hud.js';
import { attachKeys } from './keys.js';
import { Menu } from './menu.js';
import { attachPause, wantRunning } from './pause.js';
import { pictureName } from './pictures.js';

const TIP_AFTER_MS = 15_000;
const MAX_TIPS = 2;

const root = document.getElementById('pairs');
const boardBox = document.getElementById('pairs-board');
const session = new Session('pairs', { adopt });
const hud = new Hud(root, session);
const store = session.store;
const say = (...args) => hud.say(...args);
const err = (error) => errorText('pairs', error);

let catalog = null; // the pairs entry of /api/catalog: sizes and modes
const prefs = { size: 'classic', mode: 'calm', highlight: null, ...store.get('prefs', {}) };

let selected = null; // [r, c]
let pairInFlight = false;
let deferredTap = null;
let finalShown = false;
let tipsShown = 0;
let idleMs = 0;
let lastTick = performance.now();
let records = [];
let switching = false; // a new game is being created
let lockTimer = 0; // taps wait while tiles are about to change under the finger (data-locked)
function lockTaps(ms) {
  clearTimeout(lockTimer);
  boardBox.dataset.locked = String(ms > 0);
  if (ms > 0 && ms < Infinity) lockTimer = setTimeout(() => lockTaps(0), ms);
}
const tapsLocked = () => boardBox.dataset.locked === 'true';

const board = new Board(boardBox, { onDown });
const menu = new Menu(document.getElementById('pairs-menu'), {
  onSize: (size) => choose({ size }),
  onMode: (mode) => choose({ size: session.view?.size ?? prefs.size, mode }),
  onHighlight: (on) => {
    prefs.highlight = on;
    store.set('prefs', prefs);
    board.setTwins(highlightOn());
  },
  onCopy: () => copyBoardLink(),
  onNumber: (number) => startNumber(number),
  onNew: () => newGame(),
  onToggle: () => syncPause(),
});
const final = new FinalCard(document.getElementById('pairs-final'), {
  link: () => boardLink(),
  title: () => `${t('games.pairs.title')} #${session.number}`,
  onNew: () => newGame(),
  onCalm: () => create({ number: session.number, params: { mode: 'calm' } }),
  onToggle: () => {
    syncPause();
    render();
  },
});
const syncPause = attachPause({ session, menu, final, switching: () => switching, render, showFinal });
const keys = attachKeys(boardBox, board, {
  view: () => session.view,
  selected: () => selected,
  blocked: () => menu.open || final.open,
  canTap: () => !over() && !session.spectator && !tapsLocked(),
  tap: (cell) => tapTile(cell),
  clear: () => select(null),
  describe: describeCell,
  announce: (text) => hud.announce(text),
  hint: askHint,
  shuffle: askShuffle,
  menu: openMenu,
});

function choose(change) {
  Object.assign(prefs, change);
  store.set('prefs', prefs);
  create({ params: { size: prefs.size, mode: prefs.mode } });
}

function highlightOn() {
  const size = session.view?.size ?? prefs.size;
  return prefs.highlight ?? size === catalog?.params?.size?.choices?.[0];
}

const over = () => Boolean(session.view?.over);

function render() { hud.render({ finalOpen: final.open, records }); }

function describeCell(cell) {
  const picture = board.tileAt(cell);
  const where = t('games.pairs.cell', { row: cell[0] + 1, col: cell[1] + 1 });
  return picture === null ? `${where}: ${t('games.pairs.cell.empty')}` : `${where}: ${t(`games.pairs.picture.${pictureName(picture)}`)}`;
}

/* ------------------------------------------------------------------ a game ------ */

/** A game arrives (created or loaded): show it from scratch. */
function open(data) {
  session.start(data);
  hud.hideOverlay();
  final.close();
  finalShown = false;
  hud.lastScore = null;
  selected = null;
  deferredTap = null;
  lockTaps(0);
  keys.reset();
  const view = session.view;
  board.setTiles(view.tiles);
  board.select(null);
  board.setHint(view.hint);
  board.setTwins(highlightOn());
  if (view.over) board.skipDeal();
  else board.deal();
  if (location.pathname !== `/g/${session.id}`) history.replaceState(null, '', `/g/${encodeURIComponent(session.id)}`);
  if (!session.spectator) {
    store.set('current', session.id);
    if (session.daily) store.set('daily', { date: session.daily, id: session.id });
  }
  const tips = store.get('tips', {});
  tipsShown = tips.id === session.id ? tips.n : 0;
  idleMs = 0;
  say('');
  render();
  if (session.spectator) say(t('games.pairs.watching'), 'info', 0);
  if (view.over) showFinal(0);
  else syncPause();
}

/** Creates a game and opens it. Resolves to null, or to the error (the game on screen, if
 *  any, stays; with none, the board shows the error and a retry button). */
async function create(body, { quiet = false } = {}) {
  const previous = root.dataset.state;
  root.dataset.state = 'loading';
  switching = true; // the game on screen stays paused while we leave it
  try {
    const data = await session.post('/api/games', { game: 'pairs', ...body });
    switching = false;
    open(data); // a new game: answers about the old one are dropped
    return null;
  } catch (error) {
    switching = false;
    if (session.view) {
      root.dataset.state = previous;
      if (!quiet) say(err(error), 'error');
      syncPause();
    } else {
      root.dataset.state = 'error';
      hud.overlay(err(error), [{ label: t('common.retry'), primary: true, onClick: () => create(body) }]);
    }
    return error;
  }
}

function newGame() {
  if (session.spectator && session.number && session.view) {
    create({ number: session.number, params: { mode: session.view.mode } });
    return;
  }
  create({ params: { size: prefs.size, mode: prefs.mode } });
}

async function startNumber(number) {
  const error = await create({ number, params: { mode: prefs.mode } }, { quiet: true });
  return error ? err(error) : '';
}

async function startDaily() {
  const date = localDate();
  const stored = store.get('daily', null);
  // Resume today's board if this browser started it (the server says which day it is).
  if (stored && stored.date === date) {
    const data = await session.resumable(stored.id);
    if (data && data.daily === date) {
      open(data);
      return;
    }
  }
  await create({ daily: date, params: { mode: 'calm' } });
}

/** The server's current state replaces ours (after a 409, a refresh, a reconnection). */
function adopt(current) {
  const tilesChanged = JSON.stringify(current.view.tiles) !== JSON.stringify(board.tiles);
  if (tilesChanged) {
    board.setTiles(session.view.tiles);
    select(null);
  }
  board.setHint(session.view.hint);
  render();
  if (session.view.over) showFinal(300);
}

/* ------------------------------------------------------------------ moves ------- */

/** Sends a move; on success plays the answer against the view it replaced. */
async function send(move) {
  const before = { tiles: board.tiles.map((row) => row.slice()), clock: session.view?.clock, over: over() };
  const outcome = await session.move(move);
  if (outcome.ok) {
    playAnswer(outcome.result, before, {
      session, board, hud, select, selected: () => selected, describe: describeCell, render, showFinal,
      lock: lockTaps,
      idle: () => {
        idleMs = 0;
      },
    });
  }
  return outcome;
}

async function tryPair(a, b) {
  pairInFlight = true;
  board.select(a, b);
  const outcome = await send({ type: 'pair', a, b });
  pairInFlight = false;
  if (outcome.gone) return;
  if (outcome.ok) {
    if (same(selected, a) || same(selected, b)) selected = null;
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
      say(err(error), 'error');
      hud.announce(err(error));
      feedback('refused');
      select(code === 'different_pictures' ? b : a);
      break;
    case 'paused':
      select(a);
      syncPause();
      break;
    case 'stale_version': // the session adopted the server's board already
      select(null);
      say(err(error), 'error');
      break;
    case 'empty_cell':
    case 'game_over':
    case 'time_up':
      select(null);
      session.refresh();
      break;
    default:
      select(a);
      say(err(error), 'error');
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
  keys.pointer();
  if (!session.view) return;
  if (board.dealing) {
    board.skipDeal();
    return;
  }
  if (over() || session.spectator || tapsLocked()) return;
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
  // the pictures as the server's view has them (the board may still be animating)
  const picture = (at) => session.view?.tiles?.[at[0]]?.[at[1]] ?? null;
  if (!selected || (!same(selected, cell) && picture(selected) !== picture(cell))) {
    // Nothing selected yet, or another picture: the selection moves there, silently.
    select(cell);
    feedback('select');
    hud.announce(t('games.pairs.selected', { tile: describeCell(cell) }));
    return;
  }
  if (same(selected, cell)) {
    select(null);
    hud.announce(t('games.pairs.deselected'));
    return;
  }
  tryPair(selected, cell);
}

async function askHint() {
  if (!session.view || over() || session.spectator) return;
  if (board.dealing) board.skipDeal();
  if (session.view.hint) {
    board.setHint(null);
    board.setHint(session.view.hint); // already paid for: outline it again
    say(t('games.pairs.status.hint_again'), 'info');
    return;
  }
  const outcome = await send({ type: 'hint' });
  if (!outcome.ok && !outcome.gone) say(err(outcome.error), 'error');
}

async function askShuffle() {
  if (!session.view || over() || session.spectator) return;
  if (board.dealing) board.skipDeal();
  select(null);
  lockTaps(Infinity); // no pair against tiles that are about to move
  const outcome = await send({ type: 'shuffle' });
  lockTaps(0);
  if (!outcome.ok && !outcome.gone) say(err(outcome.error), 'error');
}

function openMenu() {
  if (!session.view && root.dataset.state === 'loading') return;
  const view = session.view;
  menu.show({
    size: view?.size ?? prefs.size,
    mode: view?.mode ?? prefs.mode,
    highlight: highlightOn(),
    number: session.number,
    paused: Boolean(view && !view.over),
  });
}

function boardLink() {
  if (!session.number) return null;
  const url = new URL(`/play/pairs/${encodeURIComponent(session.number)}`, location.origin);
  if (session.view?.mode && session.view.mode !== catalog?.params?.mode?.default) url.searchParams.set('mode', session.view.mode);
  return url.href;
}

function copyBoardLink() {
  const url = boardLink();
  if (url) copyLink(url);
}

/* ------------------------------------------------------------------ final ------- */

async function loadRecords() {
  try {
    records = (await session.get('/api/records?game=pairs')).records || [];
    render();
  } catch {
    /* the records are a nicety */
  }
  return records;
}

function showFinal(delay) {
  if (finalShown) return;
  finalShown = true;
  select(null);
  board.setHint(null);
  render();
  setTimeout(async () => {
    if (!over()) {
      finalShown = false;
      return;
    }
    say('');
    menu.close();
    const view = session.view;
    if (!session.spectator) feedback(view.reason === 'cleared' ? 'win' : 'loss');
    final.show({ view, number: session.number, daily: session.daily });
    render();
    if (!session.spectator) {
      const list = await loadRecords();
      final.setRecord(list.find((r) => r.key === view.record_key) ?? null, session.id);
      store.set('current', null);
    }
    if (session.daily) {
      try {
        final.setHonour((await session.get(`/api/daily/pairs?date=${encodeURIComponent(session.daily)}`)).honour);
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
  if (hud.renderClock()) session.refresh();
  const view = session.view;
  const running = view && !view.over && !view.paused && !session.spectator && wantRunning({ menu, final }) && !board.dealing && session.online;
  if (!running) return;
  idleMs += dt;
  if (idleMs >= TIP_AFTER_MS && tipsShown < MAX_TIPS) {
    tipsShown += 1;
    idleMs = 0;
    store.set('tips', { id: session.id, n: tipsShown });
    say(t(`games.pairs.tip.${tipsShown}`), 'tip');
  }
}

/* ------------------------------------------------------------------ wiring ------ */

hud.buttons.menu.addEventListener('click', openMenu);
hud.buttons.hint.addEventListener('click', askHint);
hud.buttons.shuffle.addEventListener('click', askShuffle);
hud.buttons.new.addEventListener('click', newGame);
hud.buttons.results.addEventListener('click', () => {
  if (!over()) return;
  final.show({ view: session.view, number: session.number, daily: session.daily });
  render();
  loadRecords().then((list) => final.setRecord(list.find((r) => r.key === session.view.record_key) ?? null, session.id));
});
for (const button of document.querySelectorAll('.pairs-side [data-action="copy"]')) {
  button.addEventListener('click', copyBoardLink);
}
document.addEventListener('visibilitychange', () => {
  lastTick = performance.now();
  syncPause();
});
setInterval(tick, 200);

async function boot() {
  const config = pageConfig();
  catalog = config.catalog ?? null; // the catalog entry came with the page
  menu.setSizes(catalog?.sizes);
  const modes = catalog?.params?.mode?.choices ?? [];
  const asked = new URLSearchParams(location.search).get('mode');
  const mode = modes.includes(asked) ? asked : catalog?.params?.mode?.default;
  if (config.game_id) {
    try {
      open(await session.load(config.game_id));
    } catch (error) {
      hud.overlay(err(error), [
        { label: t('common.retry'), onClick: () => location.reload() },
        { label: t('common.new_game'), primary: true, onClick: () => newGame() },
      ]);
    }
  } else if (config.daily) {
    await startDaily();
  } else if (config.number) {
    const error = await create({ number: config.number, params: mode ? { mode } : {} });
    if (error?.status && error.status < 500) {
      hud.overlay(err(error), [{ label: t('common.new_game'), primary: true, onClick: () => newGame() }]);
    }
  } else {
    const data = await session.resumable(store.get('current', null));
    if (data) open(data);
    else await create({ params: { size: prefs.size, mode: prefs.mode } });
  }
  loadRecords();
}

boot();
