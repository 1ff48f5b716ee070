/**
 * replay — the replay page (templates/replay.html): a game shown ply by ply with the game's
 * own board (static/js/games/<game>/replay.js: createReplayBoard(box) → {show, score,
 * entry}), so a new game adds its replay without a change here.
 *
 * Each ply's view and events come from GET /api/games/{id}/replay?ply=N (kept here once
 * fetched); the first answer also carries the timeline (every ply's move, events and
 * scores), which fills the list and the downloadable log ({game, number, params, log}, the
 * body POST /api/verify takes). Navigation: first / previous / play-pause / next / last,
 * ← → Home End, the slider, the list, and the URL hash `#ply=N` (read on load, kept as the
 * ply changes); without it, a game under way opens at its latest ply, a finished one at 0. The stage says where it is in data-state ("loading" | "ready" | "error"),
 * data-ply and data-plies, for tests and tools. A finished game of an engine that reviews
 * games has a review panel (static/js/review.js): its marks in the list, the better line
 * on the board; `?review=1` asks for the review at once (the end card's "Review").
 * Picking a ply in the list brings the board back into view when it is off screen (on a
 * phone the list sits under the board): the board and its dashed better line stay in sight.
 */

import { api } from './core/api.js';
import { errorText } from './core/errors.js';
import { t } from './core/i18n.js';
import { copyLink, el, pageConfig, reducedMotion } from './core/ui.js';
import { createReview } from './review.js';
/** @import { Replay, ReplayStep } from './types/wire' */

const AUTOPLAY_MS = 700;

const $ = (id) => document.getElementById(id);
const config = pageConfig();
const stage = $('replay');
const slider = $('replay-slider');
const list = $('replay-list');
const playButton = stage.querySelector('[data-action="play"]');
const views = /** @type {Map<number, Replay>} */ (new Map()); // ply → replay answer
/** @type {{board: any, review: any, ply: number | null, plies: number, token: number, playing: boolean, timer: any, timeline: ReplayStep[], placed: boolean}} */
const S = { board: null, review: null, ply: null, plies: 0, token: 0, playing: false, timer: 0, timeline: [], placed: false };

const path = (ply, timeline) =>
  `/api/games/${encodeURIComponent(config.game_id)}/replay?${ply === null ? '' : `ply=${ply}&`}timeline=${timeline}`;

/** @param {number} ply @returns {Promise<Replay>} */
async function fetchPly(ply) {
  if (!views.has(ply)) views.set(ply, await api('GET', path(ply, false)));
  return views.get(ply);
}

function hashPly() {
  const match = /(?:^#|&)ply=(\d+)/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

const clamp = (ply) => Math.max(0, Math.min(S.plies, ply));

async function go(target, { forward = false } = {}) {
  const ply = clamp(target);
  const token = ++S.token;
  let data;
  try {
    data = await fetchPly(ply);
  } catch (error) {
    if (token === S.token) fail(error);
    return;
  }
  if (token !== S.token) return;
  S.board.show(data.view, data.events, forward && S.ply !== null && ply === S.ply + 1);
  S.ply = ply;
  render(data);
  S.review?.show(ply);
  if (S.playing) schedule();
}

function render(data) {
  const { ply, plies } = S;
  stage.dataset.ply = String(ply);
  stage.dataset.plies = String(plies);
  stage.dataset.state = 'ready';
  slider.max = String(plies);
  slider.value = String(ply);
  slider.disabled = plies === 0;
  $('replay-position').textContent = ply === 0 ? `${t('replay.start')} · ${t('replay.position', { ply, plies })}` : t('replay.position', { ply, plies });
  $('replay-score').textContent = S.board.score(data.view);
  for (const button of stage.querySelectorAll('.replay-controls [data-action]')) {
    const action = button.dataset.action;
    if (action === 'first' || action === 'prev') button.disabled = ply === 0;
    if (action === 'next' || action === 'last') button.disabled = ply === plies;
  }
  const link = `${location.pathname}#ply=${ply}`;
  $('replay-link').href = link;
  for (const item of list.querySelectorAll('[aria-current]')) item.removeAttribute('aria-current');
  list.querySelector(`[data-ply="${ply}"]`)?.setAttribute('aria-current', 'step');
  // The first ply shown keeps its place in a task of its own: with the board's first
  // draw, the address's change and the list's layout made one long task on a slow phone.
  if (S.placed) keepPlace(ply);
  else setTimeout(() => keepPlace(S.ply));
  S.placed = true;
}

/** The address and the list follow the ply shown. */
function keepPlace(ply) {
  // the address keeps its query (?review=1 opens the review again on a reload)
  if (location.hash !== `#ply=${ply}`) history.replaceState(history.state, '', `${location.pathname}${location.search}#ply=${ply}`);
  const current = list.querySelector(`[data-ply="${ply}"]`);
  // measured against the list itself (offsetTop counts from whatever ancestor is
  // positioned, which differs between the phone and the desktop layouts)
  if (current && list.scrollHeight > list.clientHeight) {
    const offset = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += offset - (list.clientHeight - current.offsetHeight) / 2;
  }
}

/** Nothing to replay: say why, and offer no control, link or log that would do nothing.
 *  A game still running that this visitor may not replay yet gets its own words. */
function fail(error) {
  stop();
  stage.dataset.state = 'error';
  const running = error?.code === 'replay_forbidden';
  stage.dataset.reason = running ? 'running' : 'error';
  for (const button of stage.querySelectorAll('.replay-controls button')) button.disabled = true;
  slider.disabled = true;
  $('replay-download').hidden = true;
  $('replay-link').hidden = true;
  $('replay-list').closest('.replay-panel').hidden = true; // no plies to list
  $('replay-position').textContent = '';
  const status = $('replay-status');
  status.textContent = running ? '' : errorText(config.game, error);
  status.hidden = running;
  if (running) {
    $('replay-board').replaceChildren(
      el('div', { class: 'replay-notice', id: 'replay-notice', role: 'status' },
        el('h2', { class: 'replay-notice__title' }, t('replay.running.title')),
        el('p', { class: 'replay-notice__text' }, t('replay.running.text'))),
    );
  }
}

/** Scrolls the page so the stage (the board, its controls and the review's note) sits under
 *  the sticky header, unless the board is already wholly on screen. */
function keepBoardInView() {
  const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
  const board = $('replay-board').getBoundingClientRect();
  if (board.top >= header && board.bottom <= window.innerHeight) return;
  const top = stage.getBoundingClientRect().top - header - 8;
  window.scrollBy({ top, behavior: reducedMotion() ? 'auto' : 'smooth' });
}

function schedule() {
  clearTimeout(S.timer);
  if (S.ply >= S.plies) {
    stop();
    return;
  }
  S.timer = setTimeout(() => go(S.ply + 1, { forward: true }), AUTOPLAY_MS);
}

function setPlaying(on) {
  S.playing = on;
  playButton.setAttribute('aria-pressed', String(on));
  const label = on ? playButton.dataset.labelPause : playButton.dataset.labelPlay;
  playButton.setAttribute('aria-label', label);
  playButton.title = label;
}

function stop() {
  clearTimeout(S.timer);
  setPlaying(false);
}

function act(action) {
  if (S.ply === null) return;
  if (action === 'play') {
    if (S.playing) {
      stop();
      return;
    }
    setPlaying(true);
    if (S.ply >= S.plies) go(0);
    else schedule();
    return;
  }
  stop();
  if (action === 'first') go(0);
  else if (action === 'prev') go(S.ply - 1);
  else if (action === 'next') go(S.ply + 1, { forward: true });
  else if (action === 'last') go(S.plies);
}

function fillList() {
  list.replaceChildren(
    ...S.timeline.map((step) => {
      const entry = S.board.entry(step);
      const seat = typeof entry.seat === 'number' ? el('span', { class: `replay-seat replay-seat--${entry.seat}`, 'aria-hidden': 'true' }) : null;
      const button = el(
        'button',
        { type: 'button', class: 'replay-list__step', 'data-ply': String(step.ply) },
        el('span', { class: 'replay-list__n' }, String(step.ply)),
        seat,
        el('span', { class: 'replay-list__label' }, entry.label),
        el('span', { class: 'replay-list__value' }, entry.value),
      );
      return el('li', {}, button);
    }),
  );
  $('replay-empty').hidden = S.timeline.length > 0;
}

/** The download link gets the log as a file once it is about to be followed (pressed,
 *  focused or clicked: a click's handlers run before the link is followed, and a context
 *  menu comes after the press): a blob and its URL cost round trips to the browser
 *  (20-25 ms on a throttled phone) that the page's load need not pay. */
function offerDownload(first) {
  const link = $('replay-download');
  const attach = () => {
    if (link.href.startsWith('blob:')) return;
    const log = S.timeline.map(({ ply, seat, move, at_ms }) => ({ ply, seat, move, at_ms }));
    const body = { game: first.game, number: first.number, params: first.params, log };
    const blob = new Blob([`${JSON.stringify(body, null, 1)}\n`], { type: 'application/json' });
    link.href = URL.createObjectURL(blob);
  };
  for (const type of ['pointerdown', 'focus', 'click']) link.addEventListener(type, attach);
}

async function boot() {
  /** @type {Replay} */
  let first;
  let module;
  try {
    // the ply it opens at, with the timeline: a finished game opened without a #ply= is
    // shown from its first answer (a game under way opens at its latest ply, the default)
    const opening = hashPly() === null && !config.running ? 0 : null;
    [first, module] = await Promise.all([api('GET', path(opening, true)), import(`./games/${config.game}/replay.js`)]);
  } catch (error) {
    fail(error);
    return;
  }
  S.board = module.createReplayBoard($('replay-board'));
  S.board.setPlayers?.(first.players, first.seat, first.view); // before the review names seats
  S.plies = first.plies;
  S.timeline = first.timeline || [];
  views.set(first.ply, { ...first, timeline: null });
  fillList();
  offerDownload(first);
  if (config.reviewable) {
    S.review = createReview({ gameId: config.game_id, game: config.game, board: S.board, list, currentPly: () => S.ply });
    S.review.start();
  }
  await go(hashPly() ?? (config.running ? S.plies : 0));
}

stage.addEventListener('click', (event) => {
  const button = event.target.closest('.replay-controls button[data-action]');
  if (button && !button.disabled) act(button.dataset.action);
});
list.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-ply]');
  if (!button) return;
  stop();
  go(Number(button.dataset.ply));
  keepBoardInView();
});
slider.addEventListener('input', () => {
  stop();
  go(slider.valueAsNumber);
});
$('replay-link').addEventListener('click', (event) => {
  event.preventDefault();
  copyLink(new URL($('replay-link').getAttribute('href'), location.href).href);
});
window.addEventListener('hashchange', () => {
  const ply = hashPly();
  if (ply !== null && ply !== S.ply) go(ply);
});
document.addEventListener('keydown', (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target === slider) return;
  if (/** @type {Element} */ (event.target).closest?.('input, textarea, select, dialog')) return;
  const action = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' }[event.key];
  if (!action) return;
  event.preventDefault();
  act(action);
});

boot();
