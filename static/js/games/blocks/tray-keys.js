/**
 * tray-keys — the Blocks tray with the keyboard: 1–3 or the arrows choose a piece, Enter
 * holds it over the board, the arrows move it, Enter places it where the server's
 * placements allow, Escape puts it back. The tray (tray.js) owns one and hands it what it
 * needs; the piece held with the keys is this helper's own state.
 *
 *   const keys = new TrayKeys(hand, board, trayBox, handlers, {redraw, dragging})
 *     hand       the tray's TrayHand (tray-hand.js), shared with the pointer
 *     handlers   the tray's handlers (canMove, onPlace, onRefuse, announce)
 *     redraw()   repaint the tray; dragging() → whether the pointer holds a piece
 *   keys.held                      {slot, entry, row, col, placement} or null
 *   keys.hold(slot) → bool         picks a piece up onto the board
 *   keys.refresh()                 after a new hand: follows the held piece (or puts it back)
 *   keys.release(focusTray?)       puts the held piece back
 *   keys.onTrayKey(e), keys.onBoardKey(e)   keydown on the tray / on the board
 */

import { t } from '../../core/i18n.js';
import { pieceSize } from './palette.js';
import { ghostOf } from './tray-hand.js';

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const plainKey = (event) => !(event.altKey || event.ctrlKey || event.metaKey);

export class TrayKeys {
  constructor(hand, board, trayBox, handlers, { redraw, dragging }) {
    this.hand = hand;
    this.board = board;
    this.trayBox = trayBox;
    this.handlers = handlers;
    this.redraw = redraw;
    this.dragging = dragging;
    this.held = null;
  }

  choose(delta) {
    const hand = this.hand;
    for (let i = 1; i <= 3; i += 1) {
      const slot = (hand.selected + delta * i + 3) % 3;
      if (hand.entries[slot]) {
        hand.selected = slot;
        break;
      }
    }
    if (hand.entries[hand.selected]) this.handlers.announce(this.describe(hand.selected));
    this.redraw();
  }

  describe(slot) {
    const entry = this.hand.entries[slot];
    if (!entry) return '';
    const state = !entry.placeable ? t('games.blocks.sr.nowhere') : !entry.fits ? t('games.blocks.sr.turn') : '';
    const { rows, cols } = pieceSize(entry.cells);
    return [t('games.blocks.sr.piece', { n: slot + 1, cells: entry.cells.length, rows, cols }), state].filter(Boolean).join(' ');
  }

  onTrayKey(event) {
    if (!plainKey(event)) return;
    const k = event.key;
    if (k === 'ArrowLeft' || k === 'ArrowRight') {
      event.preventDefault();
      this.choose(k === 'ArrowLeft' ? -1 : 1);
    } else if (k === 'Enter' || k === ' ' || k === 'ArrowUp') {
      event.preventDefault();
      this.hold(this.hand.selected);
    }
  }

  hold(slot) {
    const entry = this.hand.ready(slot);
    if (!this.handlers.canMove() || !entry || this.dragging()) return false;
    this.hand.selected = slot;
    const { rows, cols } = pieceSize(entry.cells);
    let row = Math.floor((this.board.rows - rows) / 2);
    let col = Math.floor((this.board.cols - cols) / 2);
    if (this.held && this.held.slot !== slot) {
      // another piece was held: the new one takes its place, the old one goes back
      row = this.held.row;
      col = this.held.col;
      this.hand.hidden.delete(this.held.slot);
    } else if (entry.placements.length) {
      // start on the legal cell nearest the middle
      let best = null;
      for (const p of entry.placements) {
        const d = Math.abs(p.row - row) + Math.abs(p.col - col);
        if (!best || d < best.d) best = { d, p };
      }
      row = best.p.row;
      col = best.p.col;
    }
    this.held = { slot, entry, row, col };
    this.clampHeld();
    this.hand.hidden.add(slot);
    this.redraw();
    this.board.box.focus({ preventScroll: true });
    this.handlers.announce(`${t('games.blocks.sr.held', { n: slot + 1 })} ${this.where()}`);
    this.showHeld();
    return true;
  }

  refresh() {
    if (!this.held) return;
    const entry = this.hand.entries[this.held.slot];
    if (!entry) {
      this.release();
      return;
    }
    this.held.entry = entry;
    this.clampHeld();
    this.showHeld();
  }

  clampHeld() {
    const held = this.held;
    const { rows, cols } = pieceSize(held.entry.cells);
    held.row = Math.max(0, Math.min(this.board.rows - rows, held.row));
    held.col = Math.max(0, Math.min(this.board.cols - cols, held.col));
  }

  showHeld() {
    const held = this.held;
    const placement = this.hand.placement(held.slot, held.row, held.col);
    held.placement = placement;
    this.board.setGhost(placement ? ghostOf(held.entry, placement) : null);
    this.board.setOutline(placement ? null : { cells: held.entry.cells, row: held.row, col: held.col });
  }

  where() {
    const held = this.held;
    const vars = { row: held.row + 1, col: held.col + 1 };
    const p = this.hand.placement(held.slot, held.row, held.col);
    if (!p) return t('games.blocks.sr.at_blocked', vars);
    const lines = p.clears.rows.length + p.clears.cols.length;
    return t(lines ? 'games.blocks.sr.at_clears' : 'games.blocks.sr.at_fits', { ...vars, points: p.points, lines });
  }

  release(focusTray = false) {
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.hand.hidden.delete(held.slot);
    this.board.setGhost(null);
    this.board.setOutline(null);
    this.redraw();
    if (focusTray) this.trayBox.focus({ preventScroll: true });
  }

  onBoardKey(event) {
    if (!plainKey(event)) return;
    const held = this.held;
    const k = event.key;
    if (!held) {
      if (k === 'Enter' || k === ' ') {
        event.preventDefault();
        this.hold(this.hand.selected);
      }
      return;
    }
    if (STEPS[k]) {
      event.preventDefault();
      held.row += STEPS[k][0];
      held.col += STEPS[k][1];
      this.clampHeld();
      this.showHeld();
      this.handlers.announce(this.where());
    } else if (k === 'Enter' || k === ' ') {
      event.preventDefault();
      if (!held.placement) {
        this.handlers.onRefuse(t('games.blocks.no_fit_here'));
        return;
      }
      const { slot, placement } = held;
      this.held = null;
      this.board.setGhost(null);
      this.board.setOutline(null);
      this.handlers.onPlace(slot, placement);
      this.trayBox.focus({ preventScroll: true });
    } else if (k === 'Escape') {
      event.preventDefault();
      this.release(true);
    }
  }
}
