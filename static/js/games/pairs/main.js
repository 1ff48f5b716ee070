/**
 * main — the Pairs page: its board, HUD, menu and final card on the shared game page
 * (core/game-page.js: the boot, the address, the stored game, refusals, the connection).
 *
 * The server decides everything (paths, blockers, hints, points, the clock, the record key);
 * the page keeps only the selection (play.js), pauses the game while the menu or the results
 * are open or the page is hidden (pause.js), and shows at most two tips per game (tips.js).
 *
 * Pages: /play/pairs (resumes the unfinished game, or a new one), /play/pairs/<number>[?mode=],
 * /daily/pairs (today's board), /g/<id>; an open game's address becomes /g/<id>.
 */

import { GamePage } from '../../core/game-page.js';
import { t } from '../../core/i18n.js';
import { Board } from './board.js';
import { attachControls, describeCell } from './controls.js';
import { createEnding } from './ending.js';
import { FinalCard } from './final.js';
import { Hud } from './hud.js';
import { Menu } from './menu.js';
import { attachPause, wantRunning } from './pause.js';
import { createPlay } from './play.js';
import { startTips } from './tips.js';
/** @import { PairsMove, PairsView } from '../../types/wire' */

const root = document.getElementById('pairs');
const boardBox = document.getElementById('pairs-board');
/** @type {GamePage<PairsView, PairsMove>} */ const page = new GamePage('pairs', { opened, adopt, failed, notice: (text, kind) => hud.say(text, kind) });
const { session, store, catalog } = page;
const hud = new Hud(root, session);
const prefs = { size: 'classic', mode: 'calm', highlight: null, ...store.get('prefs', {}) };
let switching = false; // a new game is being created: the one on screen stays paused

const board = new Board(boardBox, { onDown: (hit) => play.onDown(hit) });
const menu = new Menu(document.getElementById('pairs-menu'), {
  onHighlight: (on) => {
    prefs.highlight = on;
    store.set('prefs', prefs);
    board.setTwins(highlightOn());
  },
  onCopy: () => page.copy(boardLink()),
  onNumber: (number) => startNumber(number),
  onNew: (choice) => choose(choice),
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
const render = () => hud.render({ finalOpen: final.open, records: ending.records() });
const ending = createEnding({ page, board, hud, menu, final, select: (cell) => play.select(cell), render });
const showFinal = (delay) => ending.show(delay);
const syncPause = attachPause({ session, menu, final, switching: () => switching, render, showFinal });
const tips = startTips({
  page, hud,
  running: () => {
    const view = session.view;
    return view && !view.over && !view.paused && !session.spectator && wantRunning({ menu, final }) && !board.dealing && page.online;
  },
});
const play = createPlay({
  page, board, boardBox, hud, describe: (cell) => describeCell(board, cell), render, showFinal, syncPause,
  keys: () => keys, idle: () => tips.idle(),
});
const keys = attachControls({
  page, board, boardBox, hud, menu, final, play, ending, openMenu, newGame, copyLink: () => page.copy(boardLink()),
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

/** A game arrives (created or loaded): show it from scratch. */
function opened() {
  switching = false; // before the new game's pause is matched to the page
  hud.hideOverlay();
  final.close();
  ending.reset();
  hud.lastScore = null;
  play.reset();
  keys.reset();
  const view = session.view;
  board.setTiles(view.tiles);
  board.select(null);
  board.setHint(view.hint);
  board.setTwins(highlightOn());
  if (view.over) board.skipDeal();
  else board.deal();
  tips.reset();
  // A full board (no pair removed yet) on a touch screen (a phone's page has no side panel
  // of keys): the status line says how to play, until it says more.
  const fresh = !view.over && !session.spectator && matchMedia('(pointer: coarse)').matches
    && view.tiles.every((row) => row.every((tile) => tile !== null));
  hud.say(fresh ? t('games.pairs.help.short') : '', 'info', 0);
  render();
  if (session.spectator) hud.say(t('games.pairs.watching'), 'info', 0);
  if (view.over) showFinal(0);
  else syncPause();
}

/** The server's current state replaces ours (after a 409, a refresh, a reconnection). */
function adopt(current) {
  if (JSON.stringify(current.view.tiles) !== JSON.stringify(board.tiles)) {
    board.setTiles(session.view.tiles);
    play.select(null);
  }
  board.setHint(session.view.hint);
  render();
  if (session.view.over) showFinal(300);
}

/** The boot opened no game: the board says why, with a way on. */
function failed(error, how) {
  if (how !== 'game') root.dataset.state = 'error';
  const fresh = { label: t('common.new_game'), primary: true, onClick: () => newGame() };
  if (how === 'game') hud.overlay(page.text(error), [{ label: t('common.retry'), onClick: () => location.reload() }, fresh]);
  else if (how === 'number' && error.code === 'daily_not_over') {
    hud.overlay(page.text(error), [{ label: t('games.pairs.daily.link'), primary: true, onClick: () => location.assign('/daily/pairs') }, { ...fresh, primary: false }]);
  } else if (how === 'number' && error.status && error.status < 500) hud.overlay(page.text(error), [fresh]);
  else hud.overlay(page.text(error), [{ label: t('common.retry'), primary: true, onClick: () => boot() }]);
}

/** Creates a game and opens it → null, or the error (the game on screen, if any, stays). */
async function create(body, { quiet = false } = {}) {
  const previous = root.dataset.state;
  root.dataset.state = 'loading';
  switching = true;
  const error = await page.create(body);
  switching = false;
  if (!error) return null;
  if (session.view) {
    root.dataset.state = previous;
    if (!quiet) hud.say(page.text(error), 'error');
    syncPause();
  } else {
    failed(error, 'new');
  }
  return error;
}

function newGame() {
  if (session.spectator && session.number && session.view) create({ number: session.number, params: { mode: session.view.mode } });
  else create({ params: { size: prefs.size, mode: prefs.mode } });
}

async function startNumber(number) {
  const error = await create({ number, params: { mode: prefs.mode } }, { quiet: true });
  return error ? page.text(error) : '';
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
  if (session.daily) return page.url('/daily/pairs'); // its number opens once the day is over
  const mode = session.view?.mode;
  return page.url(`/play/pairs/${encodeURIComponent(session.number)}`, mode && mode !== catalog?.params?.mode?.default ? { mode } : null);
}

document.addEventListener('visibilitychange', () => {
  tips.wake();
  syncPause();
});

function boot() {
  menu.setSizes(catalog?.sizes);
  const modes = catalog?.params?.mode?.choices ?? [];
  const asked = page.query.get('mode');
  const mode = modes.includes(asked) ? asked : catalog?.params?.mode?.default;
  return page.boot({
    daily: () => ({ params: { mode: 'calm' } }),
    number: () => ({ params: mode ? { mode } : {} }),
    body: () => ({ params: { size: prefs.size, mode: prefs.mode } }),
  }).then(() => ending.loadRecords());
}

boot();
