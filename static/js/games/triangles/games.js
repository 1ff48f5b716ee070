/**
 * games — which game the Triangles page is on: New game (the menu), play again, open a
 * game by its link (resume, join an open online seat, or watch), cancel a waiting one, and
 * the boot from the page's URL or the game stored on this browser. The session holds the
 * game (session.create / load / start); this module opens the socket for live games.
 *
 *   newGame({number}?)   create(choice, number?)   open(id)   join()   cancelGame()   boot()
 */

import { errorText } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { pageConfig, toast } from '../../core/ui.js';
import { currentLook, loadStats, render } from './hud.js';
import { askName } from './menu.js';
import { playEvents } from './play.js';
import { hideBubble } from './refusals.js';
import { show } from './screen.js';
import { ctx, mode, nameOf, remember, S, storedGame } from './state.js';

const $ = (id) => document.getElementById(id);
const err = (error) => errorText('triangles', error);

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

export async function newGame({ number = null } = {}) {
  if (ctx.final.open) ctx.final.close();
  const choice = await ctx.menu.ask({ number, look: currentLook() });
  if (!choice) return false;
  return create(choice, number);
}

export async function create(choice, number = null) {
  const { session, board } = ctx;
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
  let game;
  try {
    game = await session.create(body);
  } catch (error) {
    toast(err(error), { kind: 'error' });
    return false;
  }
  session.start(game); // create() took it over the last game: nothing of that one carries over
  reset();
  history.replaceState(null, '', `/g/${encodeURIComponent(game.id)}`);
  S.public = Boolean(choice.public);
  if (game.events?.length) {
    // The computer opened: its line grows on the empty field.
    board.setView({ ...game.view, lines: [], triangles: [], last: null });
    await session.enqueue(async () => {
      await playEvents(game.events, { scores: [0, 0], turn: game.view.turn });
      show(game);
    });
  } else {
    show(game);
  }
  if (mode() === 'online') ctx.online.connect(game.id, game.version);
  if (S.keyboard) $('tri-board').focus({ preventScroll: true });
  return true;
}

export async function join() {
  const { session, online } = ctx;
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
      toast(err(error), { kind: 'error' });
    }
  }
}

export async function open(id) {
  const { session, online } = ctx;
  reset();
  session.start({ id }); // the page says "loading" meanwhile
  render();
  let snap;
  try {
    snap = await session.load(id);
  } catch (error) {
    if (storedGame() === id) remember(null);
    session.start(null);
    render();
    toast(error.status === 404 ? t('games.triangles.error.game_not_found') : err(error), { kind: 'error' });
    return false;
  }
  if (snap.game !== 'triangles') {
    location.replace(`/g/${encodeURIComponent(id)}`);
    return false;
  }
  show(snap);
  if (mode() === 'online' || !session.seats.length) online.connect(id, snap.version);
  if (session.status === 'waiting' && !session.seats.length) join(); // asks for a name first if needed
  return true;
}

export async function cancelGame() {
  const { session } = ctx;
  try {
    await session.post(`/api/games/${encodeURIComponent(session.id)}/cancel`);
  } catch (error) {
    toast(err(error), { kind: 'error' });
    return;
  }
  remember(null);
  reset();
  session.start(null);
  history.replaceState(null, '', '/play/triangles');
  render();
  newGame();
}

export async function boot() {
  loadStats();
  render();
  const config = pageConfig();
  if (config.game_id) {
    await open(config.game_id);
    return;
  }
  if (config.number) {
    await newGame({ number: config.number });
    return;
  }
  const stored = storedGame();
  if (await ctx.session.resumable(stored)) {
    history.replaceState(null, '', `/g/${encodeURIComponent(stored)}`);
    await open(stored);
    return;
  }
  remember(null);
  render();
  newGame();
}
