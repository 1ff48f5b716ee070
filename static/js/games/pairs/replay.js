/**
 * replay — the Pairs board as the replay page (static/js/replay.js) draws it: the game's
 * own Board, each ply's tiles from the server's view; a step forward plays the removed
 * pair along the path the server's event names. The list entry of a ply is its time on
 * the game's clock (the log's at_ms) and its points (the events').
 *
 *   const replay = createReplayBoard(box)
 *   replay.show(view, events, forward)   forward: one step on from the ply shown
 *   replay.score(view) → text            replay.entry(step) → {label, value}
 */

import { formatNumber, t } from '../../core/i18n.js';
import { formatTime } from '../../core/ui.js';
import { Board } from './board.js';
/** @import { PairsEvent, PairsView } from '../../types/wire' */

export function createReplayBoard(box) {
  const board = new Board(box);
  let first = true;
  return {
    /** @param {PairsView} view @param {PairsEvent[]} events @param {boolean} forward */
    show(view, events, forward) {
      const removed = forward && !first ? events.find((e) => e.type === 'removed') : null;
      if (removed && board.tiles.length) {
        const afterRemoval = board.tiles.map((row) => row.slice());
        afterRemoval[removed.a[0]][removed.a[1]] = null;
        afterRemoval[removed.b[0]][removed.b[1]] = null;
        board.setTiles(afterRemoval);
        board.removePair(removed);
        board.popup(t('games.pairs.replay.points', { points: formatNumber(removed.points) }), [removed.a, removed.b]);
      }
      board.setTiles(view.tiles);
      board.setHint(view.hint);
      if (first) board.skipDeal();
      first = false;
    },
    score: (/** @type {PairsView} */ view) => formatNumber(view.score),
    entry(step) {
      const removed = step.events.find((e) => e.type === 'removed');
      const points = step.events.reduce((sum, e) => sum + (typeof e.points === 'number' ? e.points : 0), 0);
      const label = removed ? formatTime(step.at_ms) : `${formatTime(step.at_ms)} · ${t(`games.pairs.replay.move.${step.move?.type ?? 'tick'}`)}`;
      return { label, value: points ? t('games.pairs.replay.points', { points: formatNumber(points) }) : '' };
    },
  };
}
