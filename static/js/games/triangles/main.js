/**
 * Triangles — the page controller: it builds the page's parts and wires them. Legality,
 * triangles, scores, turns and the end all come from the server: views, events and error
 * codes. The game itself is the session's (core/session.js: the state, the one move call
 * through the socket or REST, the queue, the connection); this page plays its moves out
 * (moves.js: play) and shows what it takes (screen.js: show).
 *
 *   games.js    which game: new, again, open, join, cancel, boot
 *   moves.js    the player's lines, resignation, claim
 *   match.js    online match events and the end card's actions
 *   state.js    the page's own state and the questions asked about the game
 *   hud.js, end.js, final.js, online.js, play.js, refusals.js: see each
 *
 * Page config (templates via app/pages.py): {game: "triangles", game_id?, number?}
 *   /play/triangles            resumes the game in progress on this browser, or opens New game
 *   /play/triangles/<number>   New game on that board
 *   /g/<id>                    resume, join (an open online seat) or watch a game
 */

import { t } from '../../core/i18n.js';
import { Session } from '../../core/session.js';
import { copyLink, shareLink } from '../../core/ui.js';
import { createBoard } from './board.js';
import { FinalCard } from './final.js';
import { boot, cancelGame, join, newGame } from './games.js';
import { render, setLook } from './hud.js';
import { attachInput } from './input.js';
import { finalAction, onCancelled, onJoined, onRematch } from './match.js';
import { NewGameMenu } from './menu.js';
import { claim, play, resign, sendLine } from './moves.js';
import { Online } from './online.js';
import { blocked, hideBubble } from './refusals.js';
import { show, showFinal } from './screen.js';
import { canAct, ctx, mode, S } from './state.js';

const $ = (id) => document.getElementById(id);
const boardBox = $('tri-board');

const session = new Session('triangles', {
  play,
  // a refresh or a reconnect comes from outside the queue: shown after what is playing
  adopt: (data, why) => (why === 'refresh' || why === 'reconnect' ? session.enqueue(() => show(data)) : show(data)),
  connection: () => render(),
});
const gameUrl = () => `${location.origin}/g/${encodeURIComponent(session.id)}`;
const boardUrl = () => `${location.origin}/play/triangles/${encodeURIComponent(session.number)}`;

Object.assign(ctx, {
  session,
  board: createBoard(boardBox),
  menu: new NewGameMenu($('tri-new'), { onLook: setLook }),
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
  share: () => shareLink(gameUrl(), t('games.triangles.title')),
  'copy-board': () => session.number && copyLink(boardUrl()),
  'copy-game': () => session.id && copyLink(gameUrl()),
  claim,
  'keep-waiting': () => {
    ctx.online.snooze();
    render();
  },
  'cancel-game': cancelGame,
  join,
};

document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
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
