/**
 * Triangles — the page controller. It loads or creates a game, shows the server's view,
 * sends the player's lines (REST against the computer and on one device, the socket in
 * online matches), and plays the server's events back in order. Legality, triangles,
 * scores, turns and the end all come from the server: views, events and error codes.
 *
 * It runs on the shared session (core/session.js: calls, storage, the connection state);
 * state.js holds what the page shows, hud.js draws it, end.js words the end card.
 *
 * Page config (templates via app/pages.py): {game: "triangles", game_id?, number?}
 *   /play/triangles            resumes the game in progress on this browser, or opens New game
 *   /play/triangles/<number>   New game on that board
 *   /g/<id>                    resume, join (an open online seat) or watch a game
 */

import { ApiError } from '../../core/api.js';
import { errorText } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { Session } from '../../core/session.js';
import { copyLink, pageConfig, shareLink, toast } from '../../core/ui.js';
import { createBoard } from './board.js';
import { finalModel } from './end.js';
import { FinalCard } from './final.js';
import { currentLook, loadStats, render, setLook, showNotice } from './hud.js';
import { attachInput } from './input.js';
import { askName, confirmResign, NewGameMenu } from './menu.js';
import { Online } from './online.js';
import { playEvents } from './play.js';
import { blocked, hideBubble, refuse } from './refusals.js';
import { canAct, computerSeat, ctx, mode, mySeat, nameOf, S } from './state.js';

const $ = (id) => document.getElementById(id);
const err = (error) => errorText('triangles', error);

const boardBox = $('tri-board');
const session = new Session('triangles', {
  adopt: (data, why) => {
    if (why !== 'stale') enqueue(() => applySnapshot(data)); // a stale move adopts in refuse()
  },
  connection: () => render(),
});

const board = createBoard(boardBox);
const menu = new NewGameMenu($('tri-new'), { onLook: setLook });
const final = new FinalCard($('tri-final'), {
  onAction: finalAction,
  onNew: () => newGame(),
  link: () => (mode() === 'online' ? gameUrl() : boardUrl()),
  title: () => t('games.triangles.title'),
  onToggle: () => render(),
});
const online = new Online({
  session,
  state: () => S,
  onState: (msg) => enqueue(() => applySnapshot(msg)),
  onMove: (msg) => { const at = performance.now(); enqueue(() => playMove(msg, at)); },
  onJoined,
  onRematch,
  onCancelled,
  onPresence: () => render(),
  onStatus: (status) => {
    S.socketStatus = status;
    render();
  },
  render: () => render(),
});

Object.assign(ctx, { session, board, online, final });

const input = attachInput(board, boardBox, {
  canAct,
  onLine: sendLine,
  onBlocked: blocked,
  onChange: () => {
    hideBubble();
    render();
  },
});

function enqueue(task) {
  S.chain = S.chain.then(task).catch((error) => {
    console.error(error); // eslint-disable-line no-console
  });
  return S.chain;
}

const remember = (id) => session.store.set('current', id || null);
const storedGame = () => session.store.get('current', null);

const gameUrl = () => `${location.origin}/g/${encodeURIComponent(S.id)}`;
const boardUrl = () => `${location.origin}/play/triangles/${encodeURIComponent(S.number)}`;

/* ---------------------------------------------------------------- state ---------- */

/** `receivedAt`: when the server's answer arrived (its server_ms is of that moment, not of
 *  the end of the animation that played it out). */
function applySnapshot(snap, receivedAt = performance.now()) {
  if (snap.id && S.id && snap.id !== S.id) return;
  session.take(snap, receivedAt);
  S.view = snap.view;
  S.version = snap.version;
  if (snap.status) S.status = snap.status;
  if (snap.params) S.params = snap.params;
  if (snap.number) S.number = snap.number;
  if (Array.isArray(snap.seats)) S.seats = snap.seats;
  if (snap.players) S.players = snap.players;
  // A pending offer survives a reload; an accepted one is only followed when it arrives live.
  if (snap.rematch && !snap.rematch.game_id) S.rematch = snap.rematch;
  if (snap.presence) {
    S.presence = snap.presence;
    S.presenceAt = performance.now();
  }
  S.display = null;
  S.thinking = false;
  board.setView(snap.view);
  afterChange();
}

function afterChange() {
  const view = S.view;
  if (S.status === 'waiting' && S.seats.length) online.showInvite(S.id, { isPublic: S.public });
  else online.hideInvite();
  showNotice();
  if (view && (view.over || S.status === 'cancelled')) {
    if (storedGame() === S.id) remember(null);
  } else if (S.seats.length && S.id) {
    remember(S.id);
  }
  render();
  if (view?.over && !S.finalShown) {
    S.finalShown = true;
    if (mode() === 'computer') loadStats().then(() => showFinal());
    else showFinal();
  }
}

async function reload() {
  if (!S.id) return;
  try {
    const snap = await session.get(`/api/games/${encodeURIComponent(S.id)}`);
    enqueue(() => applySnapshot(snap));
  } catch {
    /* keep what we have */
  }
}

/* ---------------------------------------------------------------- moves ---------- */

async function playResult(result, receivedAt) {
  await playEvents(result.events);
  applySnapshot(result, receivedAt);
}

async function playMove(msg, receivedAt) {
  if (msg.version <= S.version) return;
  if (msg.from_version !== S.version) {
    applySnapshot({ ...msg, id: S.id }, receivedAt);
    return;
  }
  await playEvents(msg.events);
  applySnapshot({ id: S.id, view: msg.view, version: msg.version, status: msg.status, server_ms: msg.server_ms, outcome: msg.outcome }, receivedAt);
}


async function sendMove(move) {
  if (mode() === 'online' && online.ready) {
    const ack = await online.move(S.version, move);
    S.awaitVersion = ack.version; // the socket brings the move itself, maybe after the ack
    return null;
  }
  session.version = S.version; // the board the player sees is the one the move is made on
  const outcome = await session.move(move);
  if (outcome.gone) return null;
  if (!outcome.ok) throw outcome.error ?? new ApiError(0, 'network', '');
  return outcome.result;
}

async function sendLine(a, b) {
  if (!canAct()) return;
  hideBubble();
  const seat = S.view.turn;
  board.setPending({ a, b, seat });
  S.busy = true;
  if (computerSeat() !== null) S.thinking = true;
  render();
  let result;
  try {
    result = await sendMove({ type: 'line', a, b });
  } catch (error) {
    S.busy = false;
    S.thinking = false;
    board.setPending(null);
    render();
    refuse(error instanceof ApiError ? error : new ApiError(0, 'network', String(error)), a, b, { adopt: applySnapshot, reload });
    return;
  }
  S.busy = false;
  const receivedAt = performance.now();
  if (result) await enqueue(() => playResult(result, receivedAt));
  else render();
}

async function resign() {
  if (!S.view || S.view.over || !S.seats.length) return;
  const m = mode();
  const dialog = $('tri-confirm');
  $('tri-confirm-text').textContent = m === 'human'
    ? t('games.triangles.resign.text_named', { name: nameOf(S.view.turn), other: nameOf(1 - S.view.turn) })
    : t('games.triangles.resign.text');
  if (!(await confirmResign(dialog))) return;
  await sendAndPlay({ type: 'resign' });
}

function claim() {
  return sendAndPlay({ type: 'claim' });
}

/** Send a move that has no line to draw (resign, claim) and play out the answer. */
async function sendAndPlay(move) {
  S.busy = true;
  render();
  try {
    const result = await sendMove(move);
    const receivedAt = performance.now();
    S.busy = false;
    if (result) await enqueue(() => playResult(result, receivedAt));
  } catch (error) {
    S.busy = false;
    toast(err(error), { kind: 'error' });
  }
  render();
}

/* ---------------------------------------------------------------- online events -- */

function onJoined(msg) {
  S.players = msg.players;
  const wasWaiting = S.status === 'waiting';
  if (S.status === 'waiting') S.status = 'active';
  if (wasWaiting && S.seats.length) toast(t('games.triangles.joined', { name: nameOf(1 - mySeat()) }), { kind: 'success' });
  online.socket?.sync();
  afterChange();
}

function onCancelled() {
  S.status = 'cancelled';
  remember(null);
  afterChange();
}

function onRematch(rematch) {
  S.rematch = rematch;
  if (rematch?.game_id) {
    location.assign(`/g/${encodeURIComponent(rematch.game_id)}`);
    return;
  }
  if (S.view?.over) showFinal();
}

async function rematchAction(action) {
  try {
    S.rematch = await online.rematch(action);
    if (S.rematch?.game_id) {
      location.assign(`/g/${encodeURIComponent(S.rematch.game_id)}`);
      return;
    }
  } catch (error) {
    toast(err(error), { kind: 'error' });
  }
  if (final.open) final.update(finalModel());
}

function showFinal() {
  if (!S.view?.over) return;
  const shown = final.show(finalModel());
  render();
  shown.then(() => render());
}

async function finalAction(action) {
  if (action === 'new') {
    final.close();
    newGame();
  } else if (action === 'again') {
    final.close();
    create({ kind: mode(), params: { ...S.params }, public: false });
  } else if (action === 'rematch-offer') {
    rematchAction('offer');
  } else if (action === 'rematch-accept') {
    rematchAction('accept');
  } else if (action === 'rematch-decline') {
    rematchAction('decline');
  }
}

/* ---------------------------------------------------------------- games ---------- */

function reset() {
  online.close();
  online.snoozedUntil = 0;
  Object.assign(S, {
    id: null, number: null, params: null, view: null, version: 0, status: null,
    seats: [], players: null, presence: null, busy: false, thinking: false,
    animating: false, display: null, again: null, finalShown: false, rematch: null, public: false,
    awaitVersion: 0,
  });
  input.clearSelection();
  hideBubble();
}

async function newGame({ number = null } = {}) {
  if (final.open) final.close();
  const choice = await menu.ask({ number, look: currentLook() });
  if (!choice) return false;
  return create(choice, number);
}

async function create(choice, number = null) {
  if (choice.kind === 'online') {
    const name = await askName($('tri-name'), {
      title: t('games.triangles.name.title'),
      text: t('games.triangles.name.text_create'),
    });
    if (!name) return false;
  }
  const body = { game: 'triangles', params: choice.params };
  if (number) {
    body.number = number;
    body.params = { opponent: choice.params.opponent, again: choice.params.again };
  }
  if (choice.public) body.public = true;
  let game;
  try {
    game = await session.post('/api/games', body);
  } catch (error) {
    toast(err(error), { kind: 'error' });
    return false;
  }
  reset();
  session.start(game);
  S.id = game.id;
  history.replaceState(null, '', `/g/${encodeURIComponent(game.id)}`);
  const opening = game.events || [];
  S.params = game.params;
  S.number = game.number;
  S.seats = game.seats || [];
  S.status = game.status;
  S.players = game.players || null;
  S.public = Boolean(choice.public);
  if (opening.length) {
    // The computer opened: its line grows on the empty field.
    board.setView({ ...game.view, lines: [], triangles: [], last: null });
    S.view = { ...game.view, lines: [], triangles: [], scores: [0, 0] };
    await enqueue(() => playResult(game));
  } else {
    applySnapshot(game);
  }
  if (mode() === 'online') online.connect(game.id, game.version);
  if (keyboardUser) boardBox.focus({ preventScroll: true });
  return true;
}

async function join() {
  const name = await askName($('tri-name'), {
    title: t('games.triangles.join.title', { name: nameOf(0) }),
    text: t('games.triangles.name.text_join'),
    button: t('games.triangles.join.button'),
  });
  if (!name) return;
  try {
    const snap = await session.post(`/api/games/${encodeURIComponent(S.id)}/join`);
    enqueue(() => applySnapshot(snap));
    // A new socket: the server sees a seated player now (presence, moves).
    online.close();
    online.connect(S.id, snap.version);
  } catch (error) {
    if (error.code === 'no_free_seat') {
      toast(t('games.triangles.error.no_free_seat'));
      reload();
    } else {
      toast(err(error), { kind: 'error' });
    }
  }
}

async function open(id) {
  reset();
  S.id = id;
  render();
  let snap;
  try {
    snap = await session.get(`/api/games/${encodeURIComponent(id)}`);
  } catch (error) {
    if (storedGame() === id) remember(null);
    S.id = null;
    render();
    toast(error.status === 404 ? t('games.triangles.error.game_not_found') : err(error), { kind: 'error' });
    return false;
  }
  session.start(snap);
  if (snap.game !== 'triangles') {
    location.replace(`/g/${encodeURIComponent(id)}`);
    return false;
  }
  applySnapshot(snap);
  if (mode() === 'online' || !S.seats.length) online.connect(id, snap.version);
  if (S.status === 'waiting' && !S.seats.length) join(); // asks for a name first if needed
  return true;
}

async function cancelGame() {
  try {
    await session.post(`/api/games/${encodeURIComponent(S.id)}/cancel`);
  } catch (error) {
    toast(err(error), { kind: 'error' });
    return;
  }
  remember(null);
  reset();
  history.replaceState(null, '', '/play/triangles');
  render();
  newGame();
}

/* ---------------------------------------------------------------- wiring --------- */

document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button || button.closest('#tri-final')) return;
  switch (button.dataset.action) {
    case 'new':
      newGame();
      break;
    case 'resign':
      resign();
      break;
    case 'result':
      showFinal();
      break;
    case 'share':
      shareLink(gameUrl(), t('games.triangles.title'));
      break;
    case 'copy-board':
      if (S.number) copyLink(boardUrl());
      break;
    case 'copy-game':
      if (S.id) copyLink(gameUrl());
      break;
    case 'claim':
      claim();
      break;
    case 'keep-waiting':
      online.snooze();
      render();
      break;
    case 'cancel-game':
      cancelGame();
      break;
    case 'join':
      join();
      break;
    default:
      break;
  }
});

let keyboardUser = false;
document.addEventListener('keydown', (event) => {
  if (event.key === 'Tab' || event.key === 'Enter' || event.key.startsWith('Arrow')) keyboardUser = true;
}, true);
document.addEventListener('pointerdown', () => {
  keyboardUser = false;
}, true);

async function boot() {
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
  if (await session.resumable(stored)) {
    history.replaceState(null, '', `/g/${encodeURIComponent(stored)}`);
    await open(stored);
    return;
  }
  remember(null);
  render();
  newGame();
}

boot();
