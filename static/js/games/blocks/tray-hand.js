/**
 * tray-hand — the state of the three pieces under the Blocks board that the pointer, the
 * keyboard and the drawing of the tray share: the view's hand, each piece's legal
 * placements by cell, the slots kept empty (a piece in the hand, on its way or pending),
 * the chosen slot and the hovered one.
 *
 *   const hand = new TrayHand()
 *   hand.set(entries)                the view's hand (three entries, null = used)
 *   hand.entries[slot], hand.hidden, hand.selected, hand.hovered
 *   hand.ready(slot)                 the slot's entry when it may be picked up (there, not hidden)
 *   hand.placement(slot, row, col)   the server's placement of that piece at that cell, or null
 *   ghostOf(entry, placement)        what board.setGhost draws for it
 */

const key = (r, c) => `${r},${c}`;

export class TrayHand {
  constructor() {
    this.entries = [null, null, null];
    this.lookup = [new Map(), new Map(), new Map()];
    this.hidden = new Set();
    this.selected = 0;
    this.hovered = null;
  }

  set(entries) {
    this.entries = entries.map((entry) => entry || null);
    this.lookup = this.entries.map((entry) => new Map((entry?.placements || []).map((p) => [key(p.row, p.col), p])));
    this.hidden = new Set([...this.hidden].filter((slot) => this.entries[slot]));
    if (!this.entries[this.selected]) this.selected = Math.max(0, this.entries.findIndex(Boolean));
  }

  ready(slot) {
    const entry = this.entries[slot];
    return entry && !this.hidden.has(slot) ? entry : null;
  }

  placement(slot, row, col) {
    return this.lookup[slot].get(key(row, col)) || null;
  }
}

export function ghostOf(entry, placement) {
  return { cells: entry.cells, kind: entry.kind, row: placement.row, col: placement.col, clears: placement.clears, points: placement.points };
}
