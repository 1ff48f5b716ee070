/**
 * main — the Blocks page: its board, tray, HUD, menu and final card on the shared game page
 * (core/game-page.js: the boot, the address, the stored game, refusals, the connection).
 * Every rule (fits, ghosts, cleared lines, points, combos, tips, the end, which modes count
 * and what the record key is) comes from the catalog, the view and the events; the moves
 * are play.js, the end ending.js, which game /play/blocks opens start.js.
 *
 * Routes (templates/games/blocks.html, page-config {game, variant?, number?, daily?, game_id?}):
 *   /play/blocks                     → the last ruleset played (the catalog's default first)
 *   /play/blocks/<ruleset>[?mode=&rotation=1&new=1]
 *                                    resumes this ruleset/mode's unfinished game, else a new one
 *   /play/blocks/[<ruleset>/]<number> a shared board
 *   /daily/blocks                    today's board (the player's local date), once per day
 *   /g/<id>                          any game: resume, see its result, or watch it
 * A game's page moves to /g/<id> (history.replaceState) so a reload resumes it; the daily
 * board keeps /daily/blocks.
 */

import { GamePage } from '../../core/game-page.js';
import { t } from '../../core/i18n.js';
import { afterPaint, el, reducedMotion } from '../../core/ui.js';
import { Board } from './board.js';
import { createEnding } from './ending.js';
import { FinalCard } from './final.js';
import { Hud } from './hud.js';
import { Menu } from './menu.js';
import { createPlay } from './play.js';
import { blocksStart } from './start.js';
import { Tray } from './tray.js';
/** @import { BlocksMove, BlocksView } from '../../types/wire' */

const TICK_MS = 250;
const FINAL_AFTER_MS = 350;
const $ = (id) => document.getElementById(id);

/** @type {GamePage<BlocksView, BlocksMove>} */
const page = new GamePage('blocks', {
  opened,
  adopt,
  failed,
  notice: (text, kind) => hud.notice(text, kind),
  slot: () => start.slot(session.view),
  address: () => (page.config.daily ? null : `/g/${encodeURIComponent(session.id)}`),
});
const { session, catalog } = page;
const start = blocksStart(page);
const hud = new Hud(session);
hud.catalog = catalog;

const board = new Board($('blocks-board'));
const tray = new Tray($('blocks-tray'), board, {
  canMove: () => play.canPlay(),
  canRotate: () => play.canPlay() && Boolean(session.view?.can_rotate),
  onPlace: (slot, placement) => play.place(slot, placement),
  onRotate: (slot) => play.rotate(slot),
  // a ruleset that can turn pieces, in a game started without: say where to turn it on
  onRotateOff: () => catalog?.rulesets?.[session.view?.ruleset]?.rotation && !session.view.rotation && hud.notice(t('games.blocks.rotation.off')),
  onRefuse: (text) => hud.notice(text, 'error'),
  announce: (text) => hud.announce(text),
});
const menu = new Menu($('blocks-menu'), $('blocks-side'), {
  onNew: (choice) => newGame(choice),
  onCopy: () => page.copy(shareUrl()),
  onShare: () => page.share(shareUrl()),
});
const final = new FinalCard($('blocks-final'), {
  link: () => shareUrl(),
  onNew: () => again(),
  onContinue: () => play.continueGame(),
  onToggle: () => render(),
});
const ending = createEnding({ page, tray, hud, final, render });
const play = createPlay({
  page, board, tray, hud, menu, final, render, end: (events) => ending.end(events), continued: () => ending.reset(),
});
const records = ending.loadRecords().then(() => render());

/** A game arrives: show it from scratch. */
function opened(how) {
  const view = session.view;
  ending.reset();
  ending.playedBefore = how === 'played';
  if (!session.spectator && !session.daily) start.keep(view);
  const honour = session.daily ? ending.loadHonour(session.daily) : null;
  board.setSize(view.rows, view.cols);
  board.setGrid(view.grid);
  tray.setHand(view.hand, { maxExtent: view.rows > 8 ? 5 : 4, dealt: true });
  hud.setScore(false);
  hud.titles();
  hud.rules(!view.over && !session.spectator && session.version === 0 && matchMedia('(pointer: coarse)').matches);
  if (how === 'resume') hud.notice(t('games.blocks.resumed'), 'info');
  if (session.spectator) hud.notice(t('games.blocks.watching'), 'info');
  render();
  // The menu's forms and the side panel are filled a frame later, in a task of their own:
  // the board shows first (one task did both: 137 ms on a phone 4x slower).
  const shown = session.id;
  afterPaint().then(() => {
    if (session.id !== shown) return; // another game opened meanwhile: its own call fills them
    menu.setOptions({ catalog, ruleset: view.ruleset, mode: view.mode, rotation: view.rotation, daily: Boolean(session.daily) });
    menu.setNumber(t('games.blocks.number_line', { number: session.number }));
    if (honour) honour.finally(sideReady); // the daily's board of honour sits in the panel
    else sideReady();
  });
  if (view.over) setTimeout(() => records.then(() => ending.showFinal()), reducedMotion() ? 0 : FINAL_AFTER_MS);
}

/** The side panel is shown once filled (options, facts, help): filled while on screen,
 *  it grew under the player's eyes about a second after load (a layout shift of 0.05). */
function sideReady() {
  $('blocks-side').dataset.ready = 'true';
}

/** The server's state replaces ours (a stale version, a refresh, the connection back). */
function adopt() {
  const view = session.view;
  const wasOver = ending.ended;
  board.setPending(null);
  board.setGrid(view.grid);
  tray.setHand(view.hand);
  hud.setScore(false);
  render();
  if (view.over && !wasOver) ending.end();
}

/** The boot opened no game: the notice says why, with a link to a new one (none offline:
 *  the server makes new games; the page opens its game by itself once it is back). */
function failed(error) {
  const ruleset = start.ruleset();
  $('blocks').dataset.state = 'error';
  $('blocks-sub').textContent = page.text(error);
  const notice = $('blocks-notice');
  notice.hidden = false;
  notice.className = 'blocks-notice blocks-notice--error blocks-notice--failed';
  const offline = error.status === 0;
  notice.replaceChildren(el('span', {}, page.text(error)));
  if (!offline) notice.append(el('a', { class: 'btn btn-primary', href: `/play/blocks/${ruleset}?new=1` }, t('games.blocks.new_game')));
  menu.setOptions({ catalog, ruleset, mode: catalog?.params?.mode?.default, rotation: false, daily: false });
  sideReady();
}

function render() {
  if (!session.view) return;
  hud.render({ records: ending.records, finalOpen: final.open });
  hud.clock();
  play.disarm($('blocks-newset').hidden || $('blocks-finish').hidden);
}

/** Another game is another page: the address says which. */
function newGame({ ruleset, mode, rotation }) {
  const query = new URLSearchParams({ new: '1' });
  if (mode) query.set('mode', mode);
  if (catalog?.rulesets?.[ruleset]?.rotation) query.set('rotation', rotation ? '1' : '0');
  location.assign(`/play/blocks/${ruleset}?${query}`);
}

function again() {
  if (session.spectator) {
    location.assign(boardUrl());
    return;
  }
  const { ruleset, mode, rotation } = session.view;
  const daily = catalog?.rulesets?.[ruleset]?.modes?.[mode]?.daily_once;
  newGame({ ruleset, mode: daily ? catalog?.params?.mode?.default : mode, rotation });
}

function boardUrl() {
  const { view, number } = session;
  return view ? `/play/blocks/${view.ruleset}/${number}` : location.pathname;
}

function shareUrl() {
  if (!session.view) return location.href;
  return page.url(session.daily ? '/daily/blocks' : boardUrl());
}

$('blocks-menu-btn').addEventListener('click', () => menu.show());
$('blocks-newset').addEventListener('click', () => play.newSet());
$('blocks-finish').addEventListener('click', () => play.finish());
$('blocks-show-result').addEventListener('click', () => ending.showFinal());
$('blocks-again').addEventListener('click', () => again());
document.addEventListener('keydown', (event) => play.onKey(event));
setInterval(() => {
  if (!hud.clock()) return;
  tray.cancel();
  session.enqueue(() => session.refresh()); // the server ends the game on its own clock
}, TICK_MS);

page.boot({ fresh: () => start.fresh(), daily: () => ({}) });
