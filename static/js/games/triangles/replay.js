/**
 * replay — the Triangles field as the replay page (static/js/replay.js) draws it: the
 * game's own board, each ply's lines and triangles from the server's view. The list entry
 * of a ply is its line (or resignation, claim) and the scores after it (the server's).
 *
 *   const replay = createReplayBoard(box)
 *   replay.show(view, events, forward)
 *   replay.score(view) → text            replay.entry(step) → {label, value, seat}
 */

import { formatNumber, t } from '../../core/i18n.js';
import { createBoard } from './board.js';

const scores = ([p1 = 0, p2 = 0]) => t('replay.scores', { p1: formatNumber(p1), p2: formatNumber(p2) });

export function createReplayBoard(box) {
  const board = createBoard(box);
  return {
    show(view) {
      board.setView(view);
    },
    score: (view) => scores(view.scores),
    entry(step) {
      const line = step.events.find((e) => e.type === 'line');
      const label = line ? t('replay.line', { a: line.a + 1, b: line.b + 1 }) : t(`replay.move.${step.move?.type ?? 'tick'}`);
      return { label, value: scores(step.scores), seat: step.seat };
    },
  };
}
