/**
 * review — a finished game's review on the replay page (templates/replay.html shows its
 * panel when the game's engine reviews games and the game is over). "Review" asks for it
 * (POST /api/games/{id}/review: 202 pending, or 200 with it when stored); while pending the
 * page asks again every POLL_MS (GET), and a review the server forgot ({status: "none"}:
 * it restarted) is asked for again. A game nobody asked to review answers "none" too. Once done, each ply of the list is marked by its verdict
 * (a colour and a symbol, SYMBOLS, with the verdict's words for screen readers), the board
 * draws the better line of the current ply dashed (the game's replay board's optional
 * `hint(move, seat)`; `moveLabel(move)` and `lossLabel(loss)` word them, and its optional
 * `numberStars(on)` numbers what those words name), each seat gets its accuracy under its
 * name as the game gave it (the board's optional `seatName(seat)`), and a legend says what
 * each mark means. The note (the current ply's verdict and better line) sits under the
 * replay's controls, by the board. Everything shown is the server's: verdicts, better
 * lines, losses and accuracies (null: no line of that seat could lose anything). The panel
 * says where it is in data-review ("none" | "pending" | "done" | "error", and as the server
 * draws a page whose review is kept, "stored" until it has come), for tests and tools; the
 * note carries the same data-review.
 *
 *   const review = createReview({gameId, game, board, list, currentPly})
 *   review.start()      shows a stored review, or asks for one when the page was drawn
 *                       with it pending (?review=1; app/pages.py `review_state`)
 *   review.show(ply)    the verdict and the better line of that ply
 */

import { api } from './core/api.js';
import { errorText } from './core/errors.js';
import { formatNumber, t } from './core/i18n.js';
import { withIntl } from './core/intl.js';
import { el } from './core/ui.js';

const POLL_MS = 1500;
const MAX_REASKS = 3; // a review that keeps vanishing is an error, not a loop
export const SYMBOLS = { best: '!', good: '✓', inaccuracy: '?!', mistake: '?', blunder: '??' };
const SHOWN_COUNTS = ['blunder', 'mistake', 'inaccuracy'];

export function createReview({ gameId, game, board, list, currentPly }) {
  const $ = (id) => document.getElementById(id);
  const panel = $('review');
  const askButton = $('review-ask');
  const note = $('review-note');
  const path = `/api/games/${encodeURIComponent(gameId)}/review`;
  const plies = new Map(); // ply → {seat, played, best, loss, verdict}
  let timer = 0;
  let reasks = 0;

  function setState(state, text = '') {
    panel.dataset.review = state;
    note.dataset.review = state;
    askButton.hidden = state !== 'none' && state !== 'error';
    askButton.disabled = state === 'pending';
    note.textContent = text;
  }

  async function call(method) {
    clearTimeout(timer);
    let answer;
    try {
      answer = await withIntl(api(method, path)); // accuracies, with a number formatter
    } catch (error) {
      setState('error', errorText(game, error));
      return;
    }
    if (answer.status === 'none') {
      if (panel.dataset.review === 'pending' && reasks < MAX_REASKS) {
        reasks += 1; // forgotten (the server restarted, or the job failed): ask again, a few times
        return call('POST');
      }
      if (panel.dataset.review === 'pending') setState('error', errorText(game, { code: 'no_review' }));
      else setState('none');
      return;
    }
    if (answer.status === 'done') {
      apply(answer);
      return;
    }
    setState('pending', t('replay.review.pending'));
    timer = setTimeout(() => call('GET'), POLL_MS);
  }

  function apply(review) {
    for (const step of review.plies) plies.set(step.ply, step);
    for (const button of list.querySelectorAll('button[data-ply]')) {
      const step = plies.get(Number(button.dataset.ply));
      if (!step) continue;
      button.classList.add('review-step', `review-step--${step.verdict}`);
      button.append(
        el('span', { class: 'review-mark', 'aria-hidden': 'true' }, SYMBOLS[step.verdict]),
        el('span', { class: 'visually-hidden' }, t(`replay.review.verdict.${step.verdict}`)),
      );
    }
    $('review-summary').replaceChildren(...review.summary.map(seatSummary), legend());
    setState('done');
    show(currentPly());
    // the board numbers its stars in the frame after the one that lays the marks and the
    // summary out: together they were one long task on a slow phone
    requestAnimationFrame(() => board.numberStars?.(true));
  }

  /** What each mark means: every verdict's symbol and words, best first. */
  function legend() {
    return el(
      'div',
      { class: 'review-legend', id: 'review-legend' },
      el('span', { class: 'review-legend__title', id: 'review-legend-title' }, t('replay.review.legend')),
      el(
        'ul',
        { class: 'review-legend__marks', 'aria-labelledby': 'review-legend-title' },
        ...Object.entries(SYMBOLS).map(([verdict, symbol]) =>
          el(
            'li',
            { class: `review-legend__mark review-step--${verdict}`, 'data-verdict': verdict },
            el('span', { class: 'review-mark', 'aria-hidden': 'true' }, symbol),
            ` ${t(`replay.review.verdict.${verdict}`)}`,
          ),
        ),
      ),
    );
  }

  function seatSummary({ seat, accuracy, counts }) {
    const name = board.seatName?.(seat) ?? t('replay.review.seat', { n: seat + 1 });
    const judged = accuracy !== null && accuracy !== undefined;
    return el(
      'div',
      { class: 'review-seat', 'data-seat': String(seat) },
      el('span', { class: `replay-seat replay-seat--${seat}`, 'aria-hidden': 'true' }),
      el('span', { class: 'review-seat__name' }, name),
      judged
        ? el('b', { class: 'review-seat__accuracy', 'data-accuracy': String(accuracy) },
            t('replay.review.accuracy', { value: formatNumber(accuracy) }))
        : el('span', { class: 'review-seat__accuracy review-seat__accuracy--none', 'data-accuracy': 'null' },
            t('replay.review.unjudged')),
      el(
        'span',
        { class: 'review-seat__counts' },
        ...SHOWN_COUNTS.map((verdict) =>
          el(
            'span',
            { class: `review-count review-step--${verdict}`, title: t(`replay.review.verdict.${verdict}`) },
            el('span', { class: 'review-mark', 'aria-hidden': 'true' }, SYMBOLS[verdict]),
            el('span', { class: 'visually-hidden' }, t(`replay.review.verdict.${verdict}`)),
            ` ${formatNumber(counts[verdict])}`,
          ),
        ),
      ),
    );
  }

  function show(ply) {
    if (panel.dataset.review !== 'done') return;
    const step = plies.get(ply);
    const better = step && step.verdict !== 'best';
    board.hint?.(better ? step.best : null, step?.seat ?? null);
    if (!step) {
      note.textContent = '';
      return;
    }
    const verdict = t(`replay.review.verdict.${step.verdict}`);
    note.textContent = better
      ? t('replay.review.better', {
          verdict,
          loss: board.lossLabel?.(step.loss) ?? formatNumber(step.loss),
          line: board.moveLabel?.(step.best) ?? '',
        })
      : verdict;
  }

  askButton.addEventListener('click', () => call('POST'));

  return {
    start() {
      // the server drew the panel, its note and button as the review stands: "pending"
      // (?review=1) asks at once, "stored" and "none" read what is kept
      call(panel.dataset.review === 'pending' ? 'POST' : 'GET');
    },
    show,
  };
}
