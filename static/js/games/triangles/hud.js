/**
 * hud — draws the Triangles page around the board from the state (state.js): the player
 * chips (names, scores, whose turn, presence, clocks: clock.js), the status line, the controls, the side
 * panel, the claim bar and the computer statistics. Words come from the catalog.
 *
 *   render()       everything
 *   loadStats()    the player's results against each computer level (first as the page
 *                  brought them, then GET /api/stats)
 *   statsRead()    once the stats last asked for have come
 *   showNotice()   the cancelled / join card;  currentLook(), setLook(look)  Nebula or paper
 */

import { formatNumber, plural, t } from '../../core/i18n.js';
import { announce, el, formatTime } from '../../core/ui.js';
import { renderArena } from './arena.js';
import { firstLineLeft, ratingOf, renderClocks } from './clock.js';
import { numberedSeat } from './names.js';
import { canAct, computerSeat, ctx, isSpectator, mode, mySeat, nameOf, S, scoresNow, turnNow } from './state.js';

const $ = (id) => document.getElementById(id);
const root = $('tri');
const boardBox = $('tri-board');
const statusLine = $('tri-status');
const live = $('tri-live');
let firstLineTimer = 0;
let firstLineSaid = '';

export function render() {
  const { board } = ctx;
  const view = ctx.session.view;
  root.dataset.state = !view ? (ctx.session.id ? 'loading' : 'empty') : view.over ? 'over' : ctx.session.status || 'active';
  root.dataset.mode = mode() || '';
  root.dataset.busy = String(Boolean(S.busy || S.animating));
  root.dataset.version = String(ctx.session.version);
  root.dataset.selected = String(board.selected ?? ''); // the first star picked (tests wait on it)
  root.classList.toggle('is-spectator', isSpectator());
  root.classList.toggle('is-thinking', S.thinking);
  if (view) boardBox.style.setProperty('--board-aspect', String(view.width / view.height));
  renderHud();
  renderClocks();
  renderStatus();
  renderControls();
  renderArena();
  renderClaim();
  board.setActiveSeat(turnNow() ?? mySeat() ?? 0);
  if (!canAct()) board.setHover(null);
}

function renderHud() {
  const turn = turnNow();
  const scores = scoresNow();
  for (const chip of document.querySelectorAll('.tri-player')) {
    const seat = Number(chip.dataset.seat);
    const name = ctx.session.view ? nameOf(seat) : numberedSeat(seat);
    chip.querySelector('[data-name]').textContent = name;
    // a span of its own: the name may be cut short on a phone, the rating never
    chip.querySelector('[data-rating]').textContent = ctx.session.view ? ratingOf(seat) : '';
    const score = chip.querySelector('[data-score]');
    score.textContent = formatNumber(scores[seat] ?? 0);
    score.setAttribute('aria-label', plural('games.triangles.hud.triangles', scores[seat] ?? 0));
    const isTurn = ctx.session.view && turn === seat && ctx.session.status === 'active';
    chip.classList.toggle('is-turn', Boolean(isTurn));
    chip.classList.toggle('is-winner', Boolean(ctx.session.view?.over && ctx.session.view.winner === seat));
    chip.classList.toggle('is-me', ctx.session.seats.includes(seat) && mode() === 'online');
    chip.classList.toggle('is-thinking', S.thinking && seat === computerSeat());
    chip.setAttribute('aria-current', isTurn ? 'true' : 'false');
    chip.querySelector('[data-sub]').textContent = chipSub(seat, isTurn);
    chip.dataset.presence = presenceOf(seat);
  }
}

function chipSub(seat, isTurn) {
  const { online } = ctx;
  // One short thing per chip (they are narrow on a phone): the winner, the side to move,
  // the computer's level or thinking, an online opponent's absence.
  if (!ctx.session.view) return '';
  const m = mode();
  if (ctx.session.view.over) return ctx.session.view.winner === seat ? t('games.triangles.hud.winner') : '';
  if (m === 'computer' && seat === computerSeat()) {
    return S.thinking ? t('games.triangles.hud.thinking') : t(`games.triangles.opponent.${ctx.session.params.opponent}`);
  }
  if (m === 'online' && !ctx.session.seats.includes(seat)) {
    const kind = ctx.session.players?.[seat]?.kind;
    if (kind === 'open') return t('common.waiting');
    if (kind === 'player' && !S.presence?.[seat]?.connected && online.hearing()) return online.presenceText(seat);
  }
  if (isTurn) return t('games.triangles.hud.to_move');
  if (m === 'online') return ctx.session.seats.includes(seat) ? t('common.you') : online.presenceText(seat);
  return '';
}

function presenceOf(seat) {
  if (mode() !== 'online' || ctx.session.players?.[seat]?.kind !== 'player' || !S.presence) return '';
  if (!ctx.online.hearing()) return 'unknown'; // this page hears no news: no green dot
  return S.presence[seat]?.connected ? 'online' : 'away';
}

/** The first line the seat to move has yet to draw, while the view awaits one (a clock
 *  starts with its seat's first line; the server aborts the game at the deadline):
 *  {seat, ms} on the server's clock now, or null. */
function firstLine() {
  const view = ctx.session.view;
  if (!view || view.over || ctx.session.status !== 'active' || S.display) return null;
  const session = ctx.session;
  const now = session.serverMs != null ? session.serverClockNow() : view.clock?.since_ms;
  const ms = firstLineLeft(view.clock, now);
  return ms == null ? null : { seat: view.turn, ms };
}

function firstLineText(first) {
  const s = Math.ceil(first.ms / 1000);
  if (ctx.session.seats.includes(first.seat)) return t('games.triangles.first_line.you', { s });
  return t('games.triangles.first_line.them', { name: nameOf(first.seat), s });
}

function statusText(first) {
  const { board } = ctx;
  const view = ctx.session.view;
  if (!view) return ctx.session.id ? t('common.loading') : t('games.triangles.empty.status');
  if (ctx.session.status === 'cancelled') return t('games.triangles.cancelled.title');
  if (ctx.session.status === 'waiting') {
    return ctx.session.seats.length ? t('games.triangles.status.waiting_friend') : t('games.triangles.status.open_seat');
  }
  if (view.over) {
    if (view.result === 'aborted') return t('games.triangles.final.aborted');
    const [a, b] = view.scores;
    return t('games.triangles.status.over', { a, b });
  }
  if (S.thinking) return t('common.computer_thinking');
  if (first && !S.busy) return firstLineText(first);
  const turn = turnNow();
  const m = mode();
  if (isSpectator()) return t('games.triangles.status.watching', { name: nameOf(turn) });
  const mine = ctx.session.seats.includes(turn);
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
  clearTimeout(firstLineTimer);
  const first = firstLine();
  const text = statusText(first);
  if (statusLine.textContent !== text) statusLine.textContent = text;
  // The first-line countdown changes every second: said once a turn, not every second.
  statusLine.classList.toggle('is-first-line', Boolean(first));
  statusLine.classList.toggle('is-urgent', Boolean(first) && first.ms < 10_000 && ctx.session.seats.includes(first.seat));
  statusLine.setAttribute('aria-live', first ? 'off' : 'polite');
  if (first) {
    const turnKey = `${ctx.session.id}:${ctx.session.view.turn_started_ms}`;
    if (firstLineSaid !== turnKey) {
      firstLineSaid = turnKey;
      announce(live, text);
    }
    // again when the whole seconds shown change (and at zero, until the server's abort)
    if (first.ms > 0) firstLineTimer = setTimeout(renderStatus, (first.ms % 1000) + 1);
  }
  statusLine.classList.toggle('is-thinking', S.thinking);
  const conn = ctx.session.view && !ctx.session.view.over && ((mode() === 'online' && ctx.online.status !== 'open') || !ctx.session.online);
  statusLine.classList.toggle('is-offline', Boolean(conn));
  if (conn) statusLine.textContent = `${text} · ${t(ctx.online.status === 'connecting' ? 'common.conn.connecting' : 'common.conn.closed')}`;
}

function renderControls() {
  const { final } = ctx;
  const controls = $('tri-controls');
  const over = Boolean(ctx.session.view?.over);
  const playing = Boolean(ctx.session.view) && !over && ctx.session.status === 'active' && ctx.session.seats.length > 0;
  controls.querySelector('[data-action="resign"]').hidden = !playing;
  controls.querySelector('[data-action="new"]').hidden = playing && Boolean(S.arena); // the arena pairs the next one
  controls.querySelector('[data-action="resign"]').disabled = S.busy || S.animating;
  controls.querySelector('[data-action="share"]').hidden = !(ctx.session.id && mode() === 'online' && ctx.session.status !== 'waiting');
  controls.querySelector('[data-action="result"]').hidden = !(over && !final.open);
  $('tri-empty').hidden = Boolean(ctx.session.id);

  const side = document.querySelector('.tri-side');
  const desc = $('tri-side-desc');
  if (ctx.session.params) {
    const parts = [
      t(`games.triangles.field.${ctx.session.params.field}`),
      t('games.triangles.stars', { n: ctx.session.params.stars }),
      mode() === 'computer'
        ? t('games.triangles.side.vs', { level: t(`games.triangles.opponent.${ctx.session.params.opponent}`) })
        : t(`games.triangles.new.kind.${mode()}`),
    ];
    if (ctx.session.params.again) parts.push(t('games.triangles.side.again'));
    desc.textContent = parts.join(' · ');
    $('tri-side-number').textContent = t('common.game_number', { number: ctx.session.number });
  } else {
    desc.textContent = t('games.triangles.empty.status');
    $('tri-side-number').textContent = '';
  }
  side.querySelector('[data-action="copy-board"]').disabled = !ctx.session.number;
  side.querySelector('[data-action="copy-game"]').hidden = !(ctx.session.id && mode() === 'online');
  $('tri-stats-panel').hidden = Boolean(ctx.session.params) && mode() === 'online';
}

function renderClaim() {
  const { online } = ctx;
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

let statsLoading = Promise.resolve(); // the page's last request for them

/** Once the stats the page last asked for have come. */
export function statsRead() {
  return statsLoading;
}

export function loadStats() {
  statsLoading = (async () => {
    try {
      S.stats = (await ctx.page.mine('stats', '/api/stats/triangles')).stats || {};
    } catch {
      S.stats = S.stats || {};
    }
    renderStats();
  })();
  return statsLoading;
}

export function showNotice(kind = null) {
  const box = $('tri-notice');
  let title = '';
  let text = '';
  let actions = [];
  if (ctx.session.status === 'cancelled' || kind === 'cancelled') {
    title = t('games.triangles.cancelled.title');
    text = t('games.triangles.cancelled.text');
    actions = [el('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'new' } }, t('common.new_game'))];
  } else if (ctx.session.status === 'waiting' && !ctx.session.seats.length && ctx.session.view) {
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

export function currentLook() {
  return document.documentElement.classList.contains('theme-paper') ? 'paper' : 'nebula';
}

export function setLook(look) {
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
