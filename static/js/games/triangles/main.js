/**
 * Triangles — the page controller. It loads or creates a game, shows the server's view,
 * sends the player's lines (REST against the computer and on one device, the socket in
 * online matches), and plays the server's events back in order. Legality, triangles,
 * scores, turns and the end all come from the server: views, events and error codes.
 *
 * Page config (templates via app/pages.py): {game: "triangles", game_id?, number?}
 *   /play/triangles            resumes the game in progress on this browser, or opens New game
 *   /play/triangles/<number>   New game on that board
 *   /g/<id>                    resume, join (an open online seat) or watch a game
 */

import { api, ApiError } from '../../core/api.js';
import { formatNumber, has, plural, t } from '../../core/i18n.js';
import { copyLink, el, formatTime, pageConfig, shareLink, toast } from '../../core/ui.js';
import { createBoard } from './board.js';
import { FinalCard } from './final.js';
import { attachInput } from './input.js';
import { askName, confirmResign, NewGameMenu } from './menu.js';
import { Online } from './online.js';

const CURRENT = 'triangles.current';
const LEVELS = ['easy', 'medium', 'hard'];
const $ = (id) => document.getElementById(id);

const root = $('tri');
const boardBox = $('tri-board');
const bubble = $('tri-bubble');
const statusLine = $('tri-status');
const live = $('tri-live');

const S = {
  id: null,
  number: null,
  params: null,
  view: null,
  version: 0,
  status: null,
  seats: [],
  players: null,
  presence: null,
  presenceAt: 0,
  serverMs: null,
  serverAt: 0,
  busy: false,
  thinking: false,
  animating: false,
  display: null, // {scores, turn} while events are being played
  again: null, // the seat that closed a triangle and draws again
  finalShown: false,
  rematch: null,
  stats: null,
  chain: Promise.resolve(),
  socketStatus: 'closed',
  public: false,
  awaitVersion: 0,
};

const board = createBoard(boardBox);
const menu = new NewGameMenu($('tri-new'), { onLook: setLook });
const final = new FinalCard($('tri-final'), finalAction);
const online = new Online({
  state: () => S,
  onState: (msg) => enqueue(() => applySnapshot(msg)),
  onMove: (msg) => enqueue(() => playMove(msg)),
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

const input = attachInput(board, boardBox, {
  canAct,
  onLine: sendLine,
  onBlocked: blocked,
  onChange: () => {
    hideBubble();
    render();
  },
});

/* ---------------------------------------------------------------- helpers -------- */

function mode() {
  const opponent = S.params?.opponent;
  if (!opponent) return null;
  return LEVELS.includes(opponent) ? 'computer' : opponent;
}

function mySeat() {
  return S.seats.length ? S.seats[0] : null;
}

function isSpectator() {
  return Boolean(S.view) && !S.seats.length;
}

function nameOf(seat) {
  const m = mode();
  if (m === 'computer') {
    if (seat === 1) return t('common.computer');
    return S.seats.length ? t('common.you') : S.players?.[0]?.name || t('common.player1');
  }
  if (m === 'human') return t(`common.player${seat + 1}`);
  const p = S.players?.[seat];
  if (p?.kind === 'open') return t('games.triangles.seat.open');
  return p?.name || t(`common.player${seat + 1}`);
}

function turnNow() {
  if (S.thinking) return 1; // the computer holds seat 1 and is about to answer
  if (S.display) return S.display.turn;
  return S.view && !S.view.over ? S.view.turn : null;
}

function scoresNow() {
  return S.display ? S.display.scores : S.view ? S.view.scores : [0, 0];
}

function canAct() {
  return Boolean(
    S.view && !S.view.over && S.status === 'active' && !S.busy && !S.animating
      && S.version >= S.awaitVersion && S.seats.includes(S.view.turn),
  );
}

function enqueue(task) {
  S.chain = S.chain.then(task).catch((error) => {
    console.error(error); // eslint-disable-line no-console
  });
  return S.chain;
}

function announce(text) {
  live.textContent = '';
  live.textContent = text;
}

function remember(id) {
  try {
    if (id) localStorage.setItem(CURRENT, id);
    else localStorage.removeItem(CURRENT);
  } catch {
    /* storage may be blocked */
  }
}

function storedGame() {
  try {
    return localStorage.getItem(CURRENT);
  } catch {
    return null;
  }
}

function gameUrl() {
  return `${location.origin}/g/${encodeURIComponent(S.id)}`;
}

function boardUrl() {
  return `${location.origin}/play/triangles/${encodeURIComponent(S.number)}`;
}

/* ---------------------------------------------------------------- look ----------- */

function currentLook() {
  return document.documentElement.classList.contains('theme-paper') ? 'paper' : 'nebula';
}

function setLook(look) {
  const paper = look === 'paper';
  const html = document.documentElement;
  html.classList.toggle('theme-paper', paper);
  html.classList.toggle('theme-nebula', !paper);
  document.cookie = `tri_theme=${paper ? 'paper' : 'nebula'}; path=/; max-age=31536000; samesite=lax`;
  for (const input of document.querySelectorAll('input[data-look]')) input.checked = input.value === look;
  window.dispatchEvent(new CustomEvent('themechange', { detail: { theme: look } }));
}

for (const radio of document.querySelectorAll('.tri-side input[data-look]')) {
  radio.addEventListener('change', () => radio.checked && setLook(radio.value));
}
for (const radio of document.querySelectorAll('input[data-look]')) radio.checked = radio.value === currentLook();

/* ---------------------------------------------------------------- rendering ------ */

function render() {
  const view = S.view;
  root.dataset.state = !view ? (S.id ? 'loading' : 'empty') : view.over ? 'over' : S.status || 'active';
  root.dataset.mode = mode() || '';
  root.dataset.busy = String(Boolean(S.busy || S.animating));
  root.dataset.version = String(S.version);
  root.classList.toggle('is-spectator', isSpectator());
  root.classList.toggle('is-thinking', S.thinking);
  if (view) boardBox.style.setProperty('--board-aspect', String(view.width / view.height));
  renderHud();
  renderStatus();
  renderControls();
  renderClaim();
  board.setActiveSeat(turnNow() ?? mySeat() ?? 0);
  if (!canAct()) board.setHover(null);
}

function renderHud() {
  const turn = turnNow();
  const scores = scoresNow();
  for (const chip of document.querySelectorAll('.tri-player')) {
    const seat = Number(chip.dataset.seat);
    const name = S.view ? nameOf(seat) : t(`common.player${seat + 1}`);
    chip.querySelector('[data-name]').textContent = name;
    const score = chip.querySelector('[data-score]');
    score.textContent = formatNumber(scores[seat] ?? 0);
    score.setAttribute('aria-label', plural('games.triangles.hud.triangles', scores[seat] ?? 0));
    const isTurn = S.view && turn === seat && S.status === 'active';
    chip.classList.toggle('is-turn', Boolean(isTurn));
    chip.classList.toggle('is-winner', Boolean(S.view?.over && S.view.winner === seat));
    chip.classList.toggle('is-me', S.seats.includes(seat) && mode() === 'online');
    chip.classList.toggle('is-thinking', S.thinking && seat === 1 && mode() === 'computer');
    chip.setAttribute('aria-current', isTurn ? 'true' : 'false');
    chip.querySelector('[data-sub]').textContent = chipSub(seat, isTurn);
    chip.dataset.presence = presenceOf(seat);
  }
}

function chipSub(seat, isTurn) {
  // One short thing per chip (they are narrow on a phone): the winner, the side to move,
  // the computer's level or thinking, an online opponent's absence.
  if (!S.view) return '';
  const m = mode();
  if (S.view.over) return S.view.winner === seat ? t('games.triangles.hud.winner') : '';
  if (m === 'computer' && seat === 1) {
    return S.thinking ? t('games.triangles.hud.thinking') : t(`games.triangles.opponent.${S.params.opponent}`);
  }
  if (m === 'online' && !S.seats.includes(seat)) {
    const kind = S.players?.[seat]?.kind;
    if (kind === 'open') return t('common.waiting');
    if (kind === 'player' && !S.presence?.[seat]?.connected) return online.presenceText(seat);
  }
  if (isTurn) return t('games.triangles.hud.to_move');
  if (m === 'online') return S.seats.includes(seat) ? t('common.you') : online.presenceText(seat);
  return '';
}

function presenceOf(seat) {
  if (mode() !== 'online' || S.players?.[seat]?.kind !== 'player' || !S.presence) return '';
  return S.presence[seat]?.connected ? 'online' : 'away';
}

function statusText() {
  const view = S.view;
  if (!view) return S.id ? t('common.loading') : t('games.triangles.empty.status');
  if (S.status === 'cancelled') return t('games.triangles.cancelled.title');
  if (S.status === 'waiting') {
    return S.seats.length ? t('games.triangles.status.waiting_friend') : t('games.triangles.status.open_seat');
  }
  if (view.over) {
    const [a, b] = view.scores;
    return t('games.triangles.status.over', { a, b });
  }
  if (S.thinking) return t('common.computer_thinking');
  const turn = turnNow();
  const m = mode();
  if (isSpectator()) return t('games.triangles.status.watching', { name: nameOf(turn) });
  const mine = S.seats.includes(turn);
  if (S.again === turn && !S.animating) {
    if (m === 'human') return t('games.triangles.status.again_named', { name: nameOf(turn) });
    if (mine) return t('games.triangles.status.again');
  }
  if (m === 'human') {
    return board.selected != null
      ? t('games.triangles.status.second_named', { name: nameOf(turn) })
      : t('games.triangles.status.turn_named', { name: nameOf(turn) });
  }
  if (mine) {
    if (S.busy) return t('games.triangles.status.sending');
    return board.selected != null ? t('games.triangles.status.second') : t('games.triangles.status.your_turn');
  }
  return t('games.triangles.status.their_turn', { name: nameOf(turn) });
}

function renderStatus() {
  const text = statusText();
  if (statusLine.textContent !== text) statusLine.textContent = text;
  statusLine.classList.toggle('is-thinking', S.thinking);
  const conn = mode() === 'online' && S.view && !S.view.over && S.socketStatus !== 'open';
  statusLine.classList.toggle('is-offline', Boolean(conn));
  if (conn) statusLine.textContent = `${text} · ${t(S.socketStatus === 'connecting' ? 'common.conn.connecting' : 'common.conn.closed')}`;
}

function renderControls() {
  const controls = $('tri-controls');
  const over = Boolean(S.view?.over);
  const playing = Boolean(S.view) && !over && S.status === 'active' && S.seats.length > 0;
  controls.querySelector('[data-action="resign"]').hidden = !playing;
  controls.querySelector('[data-action="resign"]').disabled = S.busy || S.animating;
  controls.querySelector('[data-action="share"]').hidden = !(S.id && mode() === 'online' && S.status !== 'waiting');
  controls.querySelector('[data-action="result"]').hidden = !(over && !final.open);
  $('tri-empty').hidden = Boolean(S.id);

  const side = document.querySelector('.tri-side');
  const desc = $('tri-side-desc');
  if (S.params) {
    const parts = [
      t(`games.triangles.field.${S.params.field}`),
      t('games.triangles.stars', { n: S.params.stars }),
      mode() === 'computer'
        ? t('games.triangles.side.vs', { level: t(`games.triangles.opponent.${S.params.opponent}`) })
        : t(`games.triangles.new.kind.${mode()}`),
    ];
    if (S.params.again) parts.push(t('games.triangles.side.again'));
    desc.textContent = parts.join(' · ');
    $('tri-side-number').textContent = t('common.game_number', { number: S.number });
  } else {
    desc.textContent = t('games.triangles.empty.status');
    $('tri-side-number').textContent = '';
  }
  side.querySelector('[data-action="copy-board"]').disabled = !S.number;
  side.querySelector('[data-action="copy-game"]').hidden = !(S.id && mode() === 'online');
}

function renderClaim() {
  const bar = $('tri-claim');
  const claim = mode() === 'online' ? online.claimable() : null;
  const show = Boolean(claim) && !online.snoozed() && !S.busy;
  bar.hidden = !show;
  if (show) {
    $('tri-claim-text').textContent = t('games.triangles.claim.text', {
      name: nameOf(claim.seat),
      time: formatTime(claim.away),
    });
  }
}

function renderStats() {
  for (const row of document.querySelectorAll('#tri-stats tr[data-level]')) {
    const tally = S.stats?.[row.dataset.level] || { wins: 0, losses: 0, draws: 0 };
    for (const cell of row.querySelectorAll('td[data-k]')) cell.textContent = formatNumber(tally[cell.dataset.k] ?? 0);
  }
}

async function loadStats() {
  try {
    S.stats = (await api('GET', '/api/stats/triangles')).stats || {};
  } catch {
    S.stats = S.stats || {};
  }
  renderStats();
}

/* ---------------------------------------------------------------- refusals ------- */

function hideBubble() {
  bubble.hidden = true;
  board.clearRefused();
}

let bubbleTimer = 0;

function showBubble(at, text, kind = 'error') {
  clearTimeout(bubbleTimer);
  bubble.textContent = text;
  bubble.dataset.kind = kind;
  bubble.hidden = false;
  const width = boardBox.clientWidth;
  const half = Math.min(bubble.offsetWidth / 2, width / 2 - 4);
  const x = Math.max(half + 4, Math.min(width - half - 4, at.x));
  const below = at.y < bubble.offsetHeight + 28;
  bubble.classList.toggle('is-below', below);
  bubble.style.left = `${x}px`;
  bubble.style.top = `${at.y}px`;
  bubbleTimer = setTimeout(() => {
    bubble.hidden = true;
  }, 2800);
}

function refuse(error, a, b) {
  const code = error.code;
  if (code === 'stale_version' && error.body?.current) {
    applySnapshot(error.body.current);
    toast(t('games.triangles.error.stale_version'));
    return;
  }
  if (code === 'game_over' || code === 'waiting_for_opponent') {
    reload();
  }
  const key = `games.triangles.error.${code}`;
  if (!has(key)) {
    toast(error.status === 0 ? t('common.error.network') : error.message || t('common.error.generic'), { kind: 'error' });
    return;
  }
  const pa = board.point(a);
  const pb = board.point(b);
  board.refuse({ a, b, star: error.details?.star ?? null, line: error.details?.line ?? null });
  showBubble({ x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2 }, t(key));
}

function blocked(star) {
  if (!S.view) return;
  let key = null;
  if (isSpectator()) key = 'games.triangles.spectator.cannot';
  else if (S.view.over) key = 'games.triangles.error.game_over';
  else if (S.status === 'waiting') key = 'games.triangles.error.waiting_for_opponent';
  else if (S.thinking || S.busy || S.animating) key = null;
  else if (!S.seats.includes(S.view.turn)) key = 'games.triangles.error.not_your_turn';
  if (key) showBubble(board.point(star), t(key), 'info');
}

/* ---------------------------------------------------------------- state ---------- */

function applySnapshot(snap) {
  if (snap.id && S.id && snap.id !== S.id) return;
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
  if (snap.server_ms != null) {
    S.serverMs = snap.server_ms;
    S.serverAt = performance.now();
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

function showNotice(kind = null) {
  const box = $('tri-notice');
  let title = '';
  let text = '';
  let actions = [];
  if (S.status === 'cancelled' || kind === 'cancelled') {
    title = t('games.triangles.cancelled.title');
    text = t('games.triangles.cancelled.text');
    actions = [el('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'new' } }, t('common.new_game'))];
  } else if (S.status === 'waiting' && !S.seats.length && S.view) {
    title = t('games.triangles.join.title', { name: nameOf(0) });
    text = t('games.triangles.join.text');
    actions = [el('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'join' } }, t('games.triangles.join.button'))];
  }
  box.hidden = !title;
  if (!title) return;
  $('tri-notice-title').textContent = title;
  $('tri-notice-text').textContent = text;
  $('tri-notice-actions').replaceChildren(...actions);
}

async function reload() {
  if (!S.id) return;
  try {
    const snap = await api('GET', `/api/games/${encodeURIComponent(S.id)}`);
    enqueue(() => applySnapshot(snap));
  } catch {
    /* keep what we have */
  }
}

/* ---------------------------------------------------------------- events --------- */

function onStep(event) {
  const display = S.display;
  if (event.type === 'line') {
    S.again = null;
    if (mode() === 'computer' && event.seat === 1) S.thinking = false;
    announce(t('games.triangles.live.line', { name: nameOf(event.seat) }));
  } else if (event.type === 'triangle') {
    display.scores = display.scores.slice();
    display.scores[event.seat] += 1;
    display.closed = event.seat;
    announce(t('games.triangles.live.triangle', { name: nameOf(event.seat) }));
  } else if (event.type === 'turn') {
    if (display.closed === event.seat && S.view?.again) S.again = event.seat;
    display.closed = null;
    display.turn = event.seat;
    if (mode() === 'computer' && event.seat === 1) S.thinking = true;
  } else if (event.type === 'over') {
    display.turn = null;
  }
  render();
}

async function playEvents(events) {
  S.animating = true;
  S.display = { scores: [...(S.view?.scores || [0, 0])], turn: S.view?.turn ?? null, closed: null };
  render();
  try {
    await board.play(events || [], onStep);
  } finally {
    S.animating = false;
  }
}

async function playResult(result) {
  await playEvents(result.events);
  applySnapshot(result);
}

async function playMove(msg) {
  if (msg.version <= S.version) return;
  if (msg.from_version !== S.version) {
    applySnapshot({ ...msg, id: S.id });
    return;
  }
  await playEvents(msg.events);
  applySnapshot({ id: S.id, view: msg.view, version: msg.version, status: msg.status, server_ms: msg.server_ms });
}

/* ---------------------------------------------------------------- moves ---------- */

async function sendMove(move) {
  const path = `/api/games/${encodeURIComponent(S.id)}/moves`;
  if (mode() === 'online' && online.ready) {
    const ack = await online.move(S.version, move);
    S.awaitVersion = ack.version; // the socket brings the move itself, maybe after the ack
    return null;
  }
  return api('POST', path, { version: S.version, move });
}

async function sendLine(a, b) {
  if (!canAct()) return;
  hideBubble();
  const seat = S.view.turn;
  board.setPending({ a, b, seat });
  S.busy = true;
  if (mode() === 'computer') S.thinking = true;
  render();
  let result;
  try {
    result = await sendMove({ type: 'line', a, b });
  } catch (error) {
    S.busy = false;
    S.thinking = false;
    board.setPending(null);
    render();
    refuse(error instanceof ApiError ? error : new ApiError(0, 'network', String(error)), a, b);
    return;
  }
  S.busy = false;
  if (result) await enqueue(() => playResult(result));
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
    S.busy = false;
    if (result) await enqueue(() => playResult(result));
  } catch (error) {
    S.busy = false;
    toast(has(`games.triangles.error.${error.code}`) ? t(`games.triangles.error.${error.code}`) : error.message, { kind: 'error' });
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
    toast(has(`games.triangles.error.${error.code}`) ? t(`games.triangles.error.${error.code}`) : error.message, { kind: 'error' });
  }
  if (final.open) final.update(finalModel());
}

/* ---------------------------------------------------------------- the end -------- */

function reasonText() {
  const view = S.view;
  const m = mode();
  const loser = view.winner == null ? null : 1 - view.winner;
  const mine = loser != null && S.seats.includes(loser) && m !== 'human';
  if (view.result === 'resigned') {
    return mine ? t('games.triangles.final.reason.resigned_you') : t('games.triangles.final.reason.resigned', { name: nameOf(loser) });
  }
  if (view.result === 'claimed') {
    return mine ? t('games.triangles.final.reason.claimed_you') : t('games.triangles.final.reason.claimed', { name: nameOf(loser) });
  }
  return t('games.triangles.final.reason.no_triangles');
}

function rematchModel() {
  const me = mySeat();
  const other = 1 - me;
  const r = S.rematch || {};
  const offer = { label: t('games.triangles.rematch.offer'), action: 'rematch-offer', primary: true };
  if (r.offered_by === me) return { text: t('games.triangles.rematch.offered', { name: nameOf(other) }), actions: [] };
  if (r.offered_by === other) {
    return {
      text: t('games.triangles.rematch.incoming', { name: nameOf(other) }),
      actions: [
        { label: t('games.triangles.rematch.decline'), action: 'rematch-decline' },
        { label: t('games.triangles.rematch.accept'), action: 'rematch-accept', primary: true },
      ],
    };
  }
  if (r.declined_by === other) return { text: t('games.triangles.rematch.declined', { name: nameOf(other) }), actions: [offer] };
  if (r.declined_by === me) return { text: t('games.triangles.rematch.you_declined'), actions: [offer] };
  return { text: t('games.triangles.rematch.ask'), actions: [offer] };
}

function finalModel() {
  const view = S.view;
  const m = mode();
  const winner = view.winner;
  const me = mySeat();
  let title;
  let tone = 'neutral';
  if ((m === 'computer' || m === 'online') && me != null) {
    title = winner == null ? t('common.draw') : winner === me ? t('common.you_won') : t('common.you_lost');
    tone = winner == null ? 'draw' : winner === me ? 'win' : 'loss';
  } else {
    title = winner == null ? t('common.draw') : t('games.triangles.final.wins', { name: nameOf(winner) });
    tone = winner == null ? 'draw' : 'win';
  }
  let stats = null;
  if (m === 'computer') {
    const tally = S.stats?.[S.params.opponent] || { wins: 0, losses: 0, draws: 0 };
    stats = t('games.triangles.final.stats', {
      level: t(`games.triangles.opponent.${S.params.opponent}`),
      wins: plural('games.triangles.stats.n_wins', tally.wins),
      losses: plural('games.triangles.stats.n_losses', tally.losses),
      draws: plural('games.triangles.stats.n_draws', tally.draws),
    });
  }
  const actions = [];
  if (m === 'online') {
    actions.push({ label: t('common.new_game'), action: 'new', primary: me == null });
  } else {
    actions.push({ label: t('common.new_game'), action: 'new' });
    actions.push({ label: t('common.play_again'), action: 'again', primary: true });
  }
  return {
    title,
    sub: reasonText(),
    tone,
    players: [0, 1].map((seat) => ({ seat, name: nameOf(seat), score: view.scores[seat], winner: winner === seat })),
    stats,
    rematch: m === 'online' && me != null ? rematchModel() : null,
    actions,
  };
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
    seats: [], players: null, presence: null, serverMs: null, busy: false, thinking: false,
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
    game = await api('POST', '/api/games', body);
  } catch (error) {
    toast(error.code === 'bad_number' ? t('games.triangles.error.bad_number') : error.message || t('common.error.generic'), { kind: 'error' });
    return false;
  }
  reset();
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
    const snap = await api('POST', `/api/games/${encodeURIComponent(S.id)}/join`);
    enqueue(() => applySnapshot(snap));
    // A new socket: the server sees a seated player now (presence, moves).
    online.close();
    online.connect(S.id, snap.version);
  } catch (error) {
    if (error.code === 'no_free_seat') {
      toast(t('games.triangles.error.no_free_seat'));
      reload();
    } else {
      toast(error.message || t('common.error.generic'), { kind: 'error' });
    }
  }
}

async function open(id) {
  reset();
  S.id = id;
  render();
  let snap;
  try {
    snap = await api('GET', `/api/games/${encodeURIComponent(id)}`);
  } catch (error) {
    if (storedGame() === id) remember(null);
    S.id = null;
    render();
    toast(error.status === 404 ? t('games.triangles.error.game_not_found') : error.message, { kind: 'error' });
    return false;
  }
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
    await api('POST', `/api/games/${encodeURIComponent(S.id)}/cancel`);
  } catch (error) {
    toast(error.message || t('common.error.generic'), { kind: 'error' });
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

window.addEventListener('resize', () => {
  bubble.hidden = true;
});

async function resumable(id) {
  try {
    const snap = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    return snap.game === 'triangles' && snap.seats?.length > 0 && ['active', 'waiting'].includes(snap.status);
  } catch {
    return false;
  }
}

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
  if (stored && (await resumable(stored))) {
    history.replaceState(null, '', `/g/${encodeURIComponent(stored)}`);
    await open(stored);
    return;
  }
  remember(null);
  render();
  newGame();
}

boot();
