/**
 * replay — the Triangles field as the replay page (static/js/replay.js) draws it: the
 * game's own board, each ply's lines and triangles from the server's view. The list entry
 * of a ply is its line (or resignation, claim) and the scores after it (the server's). A
 * review (static/js/review.js) has the board draw its better line dashed (`hint`) and
 * number the stars (`numberStars`), and names the seats as the game did (`seatName`).
 *
 *   const replay = createReplayBoard(box)
 *   replay.show(view, events, forward)
 *   replay.setPlayers(players, seat, view)  the replay's first answer: who held each seat,
 *                                          the viewer's seat, how the game was played
 *   replay.seatName(seat) → text         replay.numberStars(on)
 *   replay.score(view) → text            replay.entry(step) → {label, value, seat}
 *   replay.hint({a, b}|null, seat)       replay.moveLabel({a, b}) → text
 *   replay.lossLabel(loss) → text        a review's loss, in triangles
 */

import { formatNumber, plural, t } from '../../core/i18n.js';
import { createBoard } from './board.js';
import { seatName } from './names.js';
/** @import { TrianglesView } from '../../types/wire' */

const lineLabel = ({ a, b }) => t('games.triangles.replay.line', { a: a + 1, b: b + 1 });
const scores = (/** @type {number[]} */ [p1 = 0, p2 = 0]) => t('games.triangles.replay.scores', { p1: formatNumber(p1), p2: formatNumber(p2) });

export function createReplayBoard(box) {
  const board = createBoard(box);
  const seats = { kind: null, computerSeat: null, players: [], mine: [] };
  return {
    /** @param {TrianglesView} view */
    show(view) {
      board.setView(view);
    },
    setPlayers(players, seat, view) {
      seats.kind = view.kind;
      seats.computerSeat = view.computer_seat ?? null;
      seats.players = players ?? [];
      seats.mine = typeof seat === 'number' ? [seat] : [];
    },
    seatName: (seat) => seatName(seats, seat),
    numberStars: (on) => board.setNumbers(on),
    score: (/** @type {TrianglesView} */ view) => scores(view.scores),
    entry(step) {
      const line = step.events.find((e) => e.type === 'line');
      const label = line ? lineLabel(line) : t(`games.triangles.replay.move.${step.move?.type ?? 'tick'}`);
      return { label, value: scores(step.scores), seat: step.seat };
    },
    hint(line, seat) {
      board.setHint(line ? { a: line.a, b: line.b, seat } : null);
    },
    moveLabel: lineLabel,
    lossLabel: (loss) => plural('games.triangles.review.loss', loss),
  };
}
