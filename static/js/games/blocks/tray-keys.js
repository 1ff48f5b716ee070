/**
 * tray-keys — the Blocks tray with the keyboard: 1–3 or the arrows choose a piece, Enter
 * holds it over the board, the arrows move it, Enter places it where the server's
 * placements allow, Escape puts it back; R turns the chosen piece. Tray (tray.js) extends
 * this class.
 */

import { t } from '../../core/i18n.js';
import { pieceSize } from './palette.js';

export const key = (r, c) => `${r},${c}`;

export class TrayKeys {
  rotateTarget() {
    if (this.drag) return this.drag.slot;
    if (this.held) return this.held.slot;
    if (this.hovered !== null && this.hand[this.hovered]) return this.hovered;
    return this.hand[this.selected] ? this.selected : null;
  }

  /* ------------------------------------------------------------------ keyboard -- */

  select(delta) {
    for (let i = 1; i <= 3; i += 1) {
      const slot = (this.selected + delta * i + 3) % 3;
      if (this.hand[slot]) {
        this.selected = slot;
        break;
      }
    }
    const entry = this.hand[this.selected];
    if (entry) this.handlers.announce(this.describe(this.selected));
    this.canvas.requestDraw();
  }

  describe(slot) {
    const entry = this.hand[slot];
    if (!entry) return '';
    const state = !entry.placeable ? t('games.blocks.sr.nowhere') : !entry.fits ? t('games.blocks.sr.turn') : '';
    const { rows, cols } = pieceSize(entry.cells);
    return [t('games.blocks.sr.piece', { n: slot + 1, cells: entry.cells.length, rows, cols }), state].filter(Boolean).join(' ');
  }

  onTrayKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const k = event.key;
    if (k === 'ArrowLeft' || k === 'ArrowRight') {
      event.preventDefault();
      this.select(k === 'ArrowLeft' ? -1 : 1);
    } else if (k === 'Enter' || k === ' ' || k === 'ArrowUp') {
      event.preventDefault();
      this.hold(this.selected);
    }
  }

  hold(slot) {
    if (!this.handlers.canMove() || !this.hand[slot] || this.hidden.has(slot)) return false;
    if (this.drag) return false;
    const entry = this.hand[slot];
    this.selected = slot;
    const { rows, cols } = pieceSize(entry.cells);
    let row = Math.floor((this.board.rows - rows) / 2);
    let col = Math.floor((this.board.cols - cols) / 2);
    if (this.held && this.held.slot !== slot) {
      row = this.held.row;
      col = this.held.col;
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
    this.hidden.add(slot);
    this.canvas.requestDraw();
    this.board.box.focus({ preventScroll: true });
    this.handlers.announce(`${t('games.blocks.sr.held', { n: slot + 1 })} ${this.where()}`);
    this.showHeld();
    return true;
  }

  clampHeld() {
    const held = this.held;
    const { rows, cols } = pieceSize(held.entry.cells);
    held.row = Math.max(0, Math.min(this.board.rows - rows, held.row));
    held.col = Math.max(0, Math.min(this.board.cols - cols, held.col));
  }

  showHeld() {
    const held = this.held;
    const placement = this.lookup[held.slot].get(key(held.row, held.col));
    held.placement = placement || null;
    this.board.setGhost(placement ? this.ghostOf(held.entry, placement) : null);
    this.board.setOutline(placement ? null : { cells: held.entry.cells, row: held.row, col: held.col });
  }

  where() {
    const held = this.held;
    const vars = { row: held.row + 1, col: held.col + 1 };
    const p = this.lookup[held.slot].get(key(held.row, held.col));
    if (!p) return t('games.blocks.sr.at_blocked', vars);
    const lines = p.clears.rows.length + p.clears.cols.length;
    return t(lines ? 'games.blocks.sr.at_clears' : 'games.blocks.sr.at_fits', { ...vars, points: p.points, lines });
  }

  release(focusTray = false) {
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.hidden.delete(held.slot);
    this.board.setGhost(null);
    this.board.setOutline(null);
    this.canvas.requestDraw();
    if (focusTray) this.box.focus({ preventScroll: true });
  }

  onBoardKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const held = this.held;
    const k = event.key;
    if (!held) {
      if (k === 'Enter' || k === ' ') {
        event.preventDefault();
        this.hold(this.selected);
      }
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[k]) {
      event.preventDefault();
      held.row += moves[k][0];
      held.col += moves[k][1];
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
      this.box.focus({ preventScroll: true });
    } else if (k === 'Escape') {
      event.preventDefault();
      this.release(true);
    }
  }
}

