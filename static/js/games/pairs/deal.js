/**
 * deal — how a new Pairs board appears. The tiles' bitmaps are made first, a frame's budget
 * at a time, while the canvas is hidden (data-deal="prepare" on the container); then the
 * board is painted once and the canvas itself drops into place, an animation the compositor
 * runs without the main thread. (A per-tile cascade repainted the whole canvas in every
 * frame: up to 110 ms a frame on a throttled phone, see bench/pages.py.)
 *
 *   const deal = new Deal(board)   board: {container, view, art, tiles, layout(), kick()}
 *   deal.start() / deal.skip()     skip: the board at once (a tap, reduced motion, no rows)
 *   deal.preparing                 the bitmaps are being made: the board's frames call
 *   deal.prepare()                 this instead of drawing
 *   deal.active                    from start() until the drop has ended (data-dealing)
 *   deal.end()                     the drop has ended
 *   deal.mark()                    writes data-dealing (page state, for tests)
 */

import { reducedMotion } from '../../core/ui.js';

const REVEAL_MS = 380;
const PREPARE_BUDGET_MS = 16; // bitmaps made per frame while the canvas is hidden
const PREPARE_MAX_MS = 2500; // a hidden or frame-starved page shows the board without it
const DROP = [{ opacity: 0, transform: 'translateY(-18px) scale(0.96)' }, { opacity: 1, transform: 'none' }];

export class Deal {
  constructor(board) {
    this.board = board;
    this.preparing = false;
    this.active = false; // from start() until the drop has ended
    this.timer = 0;
    this.drop = null;
  }

  start() {
    const board = this.board;
    if (reducedMotion() || !board.rows) {
      this.skip();
      return;
    }
    this.drop?.cancel();
    this.preparing = true;
    this.active = true;
    board.container.dataset.deal = 'prepare';
    board.container.dataset.dealing = 'true';
    board.kick();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.skip(), PREPARE_MAX_MS);
  }

  /** A frame of the first part: makes bitmaps for its budget; once every picture has one
   *  (in a frame that made none), paints the board and lets the canvas drop in. */
  prepare() {
    const { view, art } = this.board;
    if (!view.width) return; // not sized yet: the observer's first call comes first
    const g = this.board.layout();
    const pictures = new Set(this.board.tiles.flat().filter((picture) => picture !== null));
    art.newFrame(PREPARE_BUDGET_MS);
    const ready = [...pictures].every((picture) => art.ready(picture, g, view.dpr || 1));
    if (!ready || art.made > 0) return;
    this.preparing = false;
    delete this.board.container.dataset.deal;
    view.drawNow();
    const drop = view.canvas.animate(DROP, { duration: REVEAL_MS, easing: 'cubic-bezier(0.2, 0.9, 0.3, 1.1)' });
    this.drop = drop;
    // The deal ends with the drop (whose first frame may come late on a busy page); the
    // timer ends it on a page that runs no animation (a hidden one).
    drop.finished.then(() => this.drop === drop && this.end(), () => {});
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.end(), REVEAL_MS + 1000);
  }

  end() {
    this.active = false;
    clearTimeout(this.timer);
    this.mark();
  }

  skip() {
    this.preparing = false;
    this.active = false;
    this.drop?.cancel();
    delete this.board.container.dataset.deal;
    clearTimeout(this.timer);
    this.mark();
    this.board.kick();
  }

  mark() {
    this.board.container.dataset.dealing = String(this.active);
  }
}
