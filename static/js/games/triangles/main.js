/**
 * Triangles — the page controller: it builds the page's parts and wires them on the shared
 * game page (core/game-page.js: the boot, the address, the stored game, the session with its
 * one move call through the socket or REST, its queue and the connection). Legality,
 * triangles, scores, turns and the end all come from the server: views, events and error
 * codes. This page plays moves out (moves.js: play) and shows what the session takes
 * (screen.js: show).
 *
 *   games.js    which game: new, again, opened, join, cancel, boot
 *   new-game.js the New game dialog, loaded when first asked for (menu, below)
 *   moves.js    the player's lines, resignation, claim
 *   match.js    online match events and the end card's actions
 *   state.js    the page's own state and the questions asked about the game
 *   hud.js, end.js, final.js, online.js, play.js, refusals.js: see each
 *
 * Page config (templates via app/pages.py): {game: "triangles", game_id?, number?, catalog}
 *   /play/triangles            resumes the game in progress on this browser, or opens New game
 *   /play/triangles/<number>   New game on that board
 *   /g/<id>                    resume, join (an open online seat) or watch a game
 */

import { GamePage } from '../../core/game-page.js';
import { t } from '../../core/i18n.js';
import { closeDialog, el, openDialog, pageConfig, toast } from '../../core/ui.js';
import { createBoard } from './board.js';
import { FinalCard } from './final.js';
import { boot, cancelGame, failed, join, newGame, opened } from './games.js';
import { render, setLook } from './hud.js';
import { attachInput } from './input.js';
import { finalAction, onCancelled, onJoined, onRematch } from './match.js';
import { keepsOnlineGame } from './menu.js';
import { berserk, claim, play, resign, sendLine } from './moves.js';
import { Online } from './online.js';
import { blocked, hideBubble } from './refusals.js';
import { show, showFinal } from './screen.js';
import { canAct, ctx, mode, S } from './state.js';
/** @import { TrianglesMove, TrianglesView } from '../../types/wire' */

const $ = (id) => document.getElementById(id);
const boardBox = $('tri-board');

/** @type {GamePage<TrianglesView, TrianglesMove>} */
const page = new GamePage('triangles', {
  opened,
  failed,
  play,
  // a refresh or a reconnect comes from outside the queue: shown after what is playing
  adopt: (data, why) => (why === 'refresh' || why === 'reconnect' ? session.enqueue(() => show(data)) : show(data)),
  connection: () => render(),
  notice: (text, kind) => toast(text, { kind }),
});
const session = page.session;
const gameUrl = () => page.url(`/g/${encodeURIComponent(session.id)}`);
const boardUrl = () => page.url(`/play/triangles/${encodeURIComponent(session.number)}`);

/** New game: its module comes at the first ask (/play/triangles preloads it). One ask at a
 * time: a second tap while the first one's module loads gets nothing. A module that failed
 * to load stays failed in this document (the browser keeps the failure): that is said, and
 * the next ask reloads the page. */
let newGameMenu = null;
let asking = false;
let loadFailed = false;
const menu = {
  async ask(options) {
    if (asking) return null;
    if (loadFailed) {
      location.reload();
      return null;
    }
    asking = true;
    try {
      newGameMenu ??= import('./new-game.js').then((module) => module.newGameMenu($('tri-new'), {
        t, el, openDialog, closeDialog, catalog: pageConfig().catalog ?? {}, onLook: setLook, keepsOnlineGame,
        store: session.store,
      }));
      let dialog;
      try {
        dialog = await newGameMenu;
      } catch {
        loadFailed = true;
        toast(t('error.network'), { kind: 'error' });
        return null;
      }
      return await dialog.ask(options);
    } finally {
      asking = false;
    }
  },
};

Object.assign(ctx, {
  page,
  session,
  board: createBoard(boardBox),
  menu,
  final: new FinalCard($('tri-final'), {
    onAction: finalAction,
    onNew: () => newGame(),
    link: () => (mode() === 'online' ? gameUrl() : boardUrl()),
    title: () => t('games.triangles.title'),
    onToggle: () => render(),
  }),
  online: new Online({ session, onJoined, onRematch, onCancelled, render: () => render() }),
});
ctx.input = attachInput(ctx.board, boardBox, {
  canAct,
  onLine: sendLine,
  onBlocked: blocked,
  onChange: () => {
    hideBubble();
    render();
  },
});

const ACTIONS = {
  new: () => newGame(),
  resign,
  result: showFinal,
  share: () => page.share(gameUrl(), t('games.triangles.title')),
  'copy-board': () => session.number && page.copy(boardUrl()),
  'copy-game': () => session.id && page.copy(gameUrl()),
  claim,
  berserk,
  'keep-waiting': () => {
    ctx.online.snooze();
    render();
  },
  'cancel-game': cancelGame,
  join,
};

document.addEventListener('click', (event) => {
  const button = /** @type {Element} */ (event.target).closest('button[data-action]');
  if (!button || button.closest('#tri-final')) return;
  ACTIONS[button.dataset.action]?.();
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Tab' || event.key === 'Enter' || event.key.startsWith('Arrow')) S.keyboard = true;
}, true);
document.addEventListener('pointerdown', () => {
  S.keyboard = false;
}, true);

boot();
