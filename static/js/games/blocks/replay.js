/**
 * replay — the Blocks board as the replay page (static/js/replay.js) draws it: the game's
 * own Board, each ply's grid from the server's view, a step forward played with the
 * move's events; the list entry of a ply names the placement and its points (the
 * `placed` event's, from the server).
 *
 *   const replay = createReplayBoard(box)
 *   replay.show(view, events, forward)   forward: one step on from the ply shown
 *   replay.score(view) → text            replay.entry(step) → {label, value}
 */

import { formatNumber, t } from '../../core/i18n.js';
import { Board } from './board.js';
/** @import { BlocksEvent, BlocksView } from '../../types/wire' */

export function createReplayBoard(box) {
  const board = new Board(box);
  return {
    /** @param {BlocksView} view @param {BlocksEvent[]} events @param {boolean} forward */
    show(view, events, forward) {
      board.setSize(view.rows, view.cols);
      if (forward && events.some((e) => e.type === 'placed')) board.animate(events, view.grid);
      else board.setGrid(view.grid);
    },
    score: (/** @type {BlocksView} */ view) => formatNumber(view.score),
    entry(step) {
      const placed = step.events.find((e) => e.type === 'placed');
      if (placed) {
        const label = t('games.blocks.replay.piece', { row: placed.row + 1, col: placed.col + 1 });
        return { label, value: t('games.blocks.replay.points', { points: formatNumber(placed.points) }) };
      }
      const type = step.move?.type ?? 'tick';
      return { label: t(`games.blocks.replay.move.${type}`), value: formatNumber(step.scores[0] ?? 0) };
    },
  };
}
