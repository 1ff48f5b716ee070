/**
 * hud — draws the Triangles page around the board from the state (state.js): the player
 * chips (names, scores, whose turn, presence, clocks: clock.js), the status line, the controls, the side
 * panel, the claim bar and the computer statistics. Words come from the catalog.
 *
 *   render()       everything
 *   loadStats()    the player's results against each computer level (GET /api/stats)
 *   showNotice()   the cancelled / join card;  currentLook(), setLook(look)  Nebula or paper
 */

import { formatNumber, plural, t } from '../../core/i18n.js';
import { el, formatTime } from '../../core/ui.js';
import { ratingOf, renderClocks } from './clock.js';
import { canAct, computerSeat, ctx, isSpectator, mode, mySeat, nameOf, S, scoresNow, turnNow } from './state.js';

const $ = (id) => document.getElementById(id);
const root = $('tri');
const boardBox = $('tri-board');
const statusLine = $('tri-status');

export function render() {
  const { board } = ctx;
  const view = S.view;
  root.dataset.state = !view ? (S.id ? 'loading' : 'empty') : view.over ? 'over' : S.status || 'active';
  root.dataset.mode = mode() || '';
  root.dataset.busy = String(Boolean(S.busy || S.animating));
  root.dataset.version = String(S.version);
  root.classList.toggle('is-spectator', isSpectator());
  root.classList.toggle('is-thinking', S.thinking);
  if (view) boardBox.style.setProperty('--board-aspect', String(view.width / view.height));
  renderHud();
  renderClocks();
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
    chip.querySelector('[data-name]').textContent = name + (S.view ? ratingOf(seat) : '');
    const score = chip.querySelector('[data-score]');
    score.textContent = formatNumber(scores[seat] ?? 0);
    score.setAttribute('aria-label', plural('games.triangles.hud.triangles', scores[seat] ?? 0));
    const isTurn = S.view && turn === seat && S.status === 'active';
    chip.classList.toggle('is-turn', Boolean(isTurn));
    chip.classList.toggle('is-winner', Boolean(S.view?.over && S.view.winner === seat));
    chip.classList.toggle('is-me', S.seats.includes(seat) && mode() === 'online');
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
  if (!S.view) return '';
  const m = mode();
  if (S.view.over) return S.view.winner === seat ? t('games.triangles.hud.winner') : '';
  if (m === 'computer' && seat === computerSeat()) {
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
  const { board } = ctx;
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
  const conn = S.view && !S.view.over && ((mode() === 'online' && S.socketStatus !== 'open') || !ctx.session.online);
  statusLine.classList.toggle('is-offline', Boolean(conn));
  if (conn) statusLine.textContent = `${text} · ${t(S.socketStatus === 'connecting' ? 'common.conn.connecting' : 'common.conn.closed')}`;
}

function renderControls() {
  const { final } = ctx;
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

export async function loadStats() {
  try {
    S.stats = (await ctx.session.get('/api/stats/triangles')).stats || {};
  } catch {
    S.stats = S.stats || {};
  }
  renderStats();
}

export function showNotice(kind = null) {
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
