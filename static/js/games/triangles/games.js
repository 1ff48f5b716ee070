/**
 * games — which game the Triangles page is on, on the shared game page (core/game-page.js
 * owns the boot, the address, the stored game and the session): New game (the menu), play
 * again, joining an open online seat, cancelling a waiting game. Every game that opens,
 * whichever way, arrives in opened(): the last game's page state goes, the computer's
 * opening line is played out, the game is shown, and a live game gets its socket.
 *
 *   newGame({number}?)   create(choice, number?)   opened(how)   failed(error)
 *   join()   cancelGame()   boot()
 */

import { t } from '../../core/i18n.js';
import { afterPaint, toast } from '../../core/ui.js';
import { currentLook, loadStats, render } from './hud.js';
import { askName } from './menu.js';
import { playEvents } from './play.js';
import { hideBubble } from './refusals.js';
import { show } from './screen.js';
import { ctx, mode, nameOf, S } from './state.js';

const $ = (id) => document.getElementById(id);
let postedPublic = false; // the game being created goes on the open list (its invite says so)

/** Forgets the page's part of the last game (the session forgets its own in start()). */
function reset() {
  ctx.online.close();
  ctx.online.snoozedUntil = 0;
  Object.assign(S, {
    presence: null, busy: false, thinking: false, animating: false, display: null, again: null,
    finalShown: false, rematch: null, public: false,
  });
  ctx.input.clearSelection();
  hideBubble();
}

let asking = false; // the New game dialog is up (or on its way): one ask at a time

export async function newGame({ number = null } = {}) {
  if (asking) return false;
  if (ctx.final.open) ctx.final.close();
  asking = true;
  let choice;
  try {
    choice = await ctx.menu.ask({ number, look: currentLook() });
  } finally {
    asking = false;
  }
  if (!choice) return false;
  return create(choice, number);
}

export async function create(choice, number = null) {
  if (choice.kind === 'online') {
    const name = await askName($('tri-name'), {
      title: t('games.triangles.name.title'),
      text: t('games.triangles.name.text_create'),
    });
    if (!name) return false;
  }
  const body = { params: choice.params };
  if (number) {
    body.number = number;
    body.params = { opponent: choice.params.opponent, again: choice.params.again };
  }
  if (choice.public) body.public = true;
  postedPublic = Boolean(choice.public);
  const error = await ctx.page.create(body);
  postedPublic = false;
  if (error) {
    toast(ctx.page.text(error), { kind: 'error' });
    return false;
  }
  if (S.keyboard) $('tri-board').focus({ preventScroll: true });
  return true;
}

/** A game is on the session (created, resumed, opened by its link): show it from scratch. */
export function opened(how) {
  const { session, board } = ctx;
  const data = session.data;
  reset();
  S.public = how === 'new' && postedPublic;
  if (how === 'new' && data.events?.length) {
    // The computer opened: its line grows on the empty field.
    board.setView({ ...session.view, lines: [], triangles: [], last: null });
    session.enqueue(async () => {
      await playEvents(data.events, { scores: [0, 0], turn: session.view.turn });
      show(data);
    });
  } else {
    show(data);
  }
  // an online game's socket brings its rematch too; another's game against the computer (or
  // hot-seat) is watched live until it ends, and then nothing more can happen to it
  if (mode() === 'online' || (session.spectator && !session.view?.over)) ctx.online.connect(session.id, session.version);
  if (session.status === 'waiting' && session.spectator) join(); // asks for a name first if needed
}

/** The boot could open no game: say why; the New game button stays. */
export function failed(error) {
  const { page, session } = ctx;
  session.start(null);
  render();
  toast(error.status === 404 ? t('games.triangles.error.game_not_found') : page.text(error), { kind: 'error' });
}

export async function join() {
  const { page, session, online } = ctx;
  const name = await askName($('tri-name'), {
    title: t('games.triangles.join.title', { name: nameOf(0) }),
    text: t('games.triangles.name.text_join'),
    button: t('games.triangles.join.button'),
  });
  if (!name) return;
  try {
    const snap = await session.post(`/api/games/${encodeURIComponent(session.id)}/join`);
    session.enqueue(() => show(session.take(snap)));
    // A new socket: the server sees a seated player now (presence, moves).
    online.close();
    online.connect(session.id, snap.version);
  } catch (error) {
    if (error.code === 'no_free_seat') {
      toast(t('games.triangles.error.no_free_seat'));
      session.refresh();
    } else {
      toast(page.text(error), { kind: 'error' });
    }
  }
}

export async function cancelGame() {
  const { page, session } = ctx;
  try {
    await session.post(`/api/games/${encodeURIComponent(session.id)}/cancel`);
  } catch (error) {
    toast(page.text(error), { kind: 'error' });
    return;
  }
  page.forget();
  reset();
  session.start(null);
  history.replaceState(null, '', '/play/triangles');
  render();
  newGame();
}

/** /g/<id> opens that game; /play/triangles/<number> asks New game on that board;
 *  /play/triangles resumes this browser's game, or asks New game. */
export function boot() {
  loadStats();
  render();
  return ctx.page.boot({
    choose: (number) => newGame({ number }),
    fresh: async () => {
      if (await ctx.page.resume()) return;
      render();
      await afterPaint(); // the page shows, then the New game dialog opens over it
      newGame();
    },
  });
}
