/**
 * tray — the three pieces under the board, and every way to move one onto it: a drag with
 * mouse, pen or finger (on touch the piece floats above the finger), or the keyboard
 * (choose with 1–3 or the arrows, move on the board with the arrows, Enter to place).
 *
 *   const tray = new Tray(box, board, handlers)
 *     handlers.canMove()            → whether pieces may be picked up now
 *     handlers.canRotate()          → whether a double tap / R turns a piece
 *     handlers.onPlace(slot, placement)   a drop on a legal cell (placement from the view)
 *     handlers.onRotate(slot)       a double tap, or R
 *     handlers.onRotateOff?()       a double tap while pieces do not turn
 *     handlers.onRefuse(text)       a keyboard Enter where the piece does not fit
 *     handlers.announce(text)       words for screen readers
 *   tray.setHand(hand, {maxExtent, dealt, rotated})   the view's hand; animates a deal / a turn
 *   tray.hide(slot) / tray.show(slot)   keep a slot empty while its placement is pending
 *   tray.cancel()                       drops whatever is held back into the tray
 *   tray.hold(slot)                     keyboard: pick a piece up onto the board
 *   tray.rotateTarget()                 the slot R should turn (dragged, held, hovered or chosen)
 *
 * The ghost snaps to the nearest cell of the piece's `placements` list (the server's); no
 * ghost where the nearest cell is not in it. Pressing anywhere in a third of the tray
 * grabs that third's piece.
 *
 * The tray owns the pointer drag; it shares the hand's state (tray-hand.js) with its
 * keyboard helper (tray-keys.js), which owns the piece held with the keys, and draws
 * through tray-paint.js.
 */

import { createBoardCanvas } from '../../core/canvas.js';
import { onPointer } from '../../core/pointer.js';
import { animate, easeOut, reducedMotion } from '../../core/ui.js';
import { drawPiece, kindColour, pieceSize } from './palette.js';
import { ghostOf, TrayHand } from './tray-hand.js';
import { TrayKeys } from './tray-keys.js';
import { drawTray } from './tray-paint.js';

const DEAL_MS = 280;
const TURN_MS = 200;
const RETURN_MS = 180;
const LIFT_MS = 110;
const DOUBLE_TAP_MS = 380;
const TOUCH_LIFT_PX = 72;

export class Tray {
  constructor(box, board, handlers) {
    this.box = box;
    this.board = board;
    this.handlers = handlers;
    this.hand = new TrayHand();
    this.maxExtent = 5;
    this.drag = null;
    this.lastTap = null;
    this.anim = new Map(); // slot → {type: "deal" | "turn", start, duration}
    this.frame = 0;
    this.canvas = createBoardCanvas(box, (ctx, w, h) => this.draw(ctx, w, h));
    board.onCell = () => this.canvas.drawNow();
    this.keys = new TrayKeys(this.hand, board, box, handlers, {
      redraw: () => this.canvas.requestDraw(),
      dragging: () => Boolean(this.drag),
    });
    this.float = document.createElement('canvas');
    this.float.className = 'blocks-float';
    this.float.hidden = true;
    document.body.append(this.float);

    onPointer(box, {
      down: (p) => this.onDown(p),
      move: (p) => this.onMove(p),
      up: (p) => this.onUp(p),
      cancel: () => this.cancel(),
      tap: (p) => this.onTap(p),
      hover: (p) => this.onHover(p),
    }, { tapSlop: 8, tapMs: 350 });
    box.addEventListener('pointerleave', () => {
      this.hand.hovered = null;
      box.classList.remove('is-grab');
    });
    box.addEventListener('keydown', (event) => this.keys.onTrayKey(event));
    box.addEventListener('focus', () => this.canvas.requestDraw());
    box.addEventListener('blur', () => this.canvas.requestDraw());
    board.box.addEventListener('keydown', (event) => this.keys.onBoardKey(event));
    board.box.addEventListener('blur', () => {
      // focus leaving the board puts a keyboard-held piece back
      setTimeout(() => {
        if (this.keys.held && document.activeElement !== board.box) this.keys.release();
      }, 0);
    });
  }

  /* ------------------------------------------------------------------ hand -- */

  /** @param {any[]} hand @param {{maxExtent?: number, dealt?: boolean, rotated?: any}} [options] */
  setHand(hand, { maxExtent, dealt = false, rotated = null } = {}) {
    if (maxExtent) this.maxExtent = maxExtent;
    this.hand.set(hand);
    const now = performance.now();
    if (!reducedMotion()) {
      if (dealt) {
        this.hand.entries.forEach((entry, slot) => {
          if (entry) this.anim.set(slot, { type: 'deal', start: now + slot * 70, duration: DEAL_MS });
        });
      }
      if (rotated !== null && rotated !== undefined) this.anim.set(rotated, { type: 'turn', start: now, duration: TURN_MS });
    }
    if (this.drag) {
      const entry = this.hand.entries[this.drag.slot];
      if (!entry) this.cancel();
      else {
        const turned = entry.cells !== this.drag.entry.cells && JSON.stringify(entry.cells) !== JSON.stringify(this.drag.entry.cells);
        this.drag.entry = entry;
        if (turned && this.drag.lifted) this.paintFloat();
        if (this.drag.lifted) this.follow(this.drag.clientX, this.drag.clientY);
      }
    }
    this.keys.refresh();
    this.canvas.requestDraw();
  }

  hide(slot) {
    this.hand.hidden.add(slot);
    this.canvas.requestDraw();
  }

  show(slot) {
    this.hand.hidden.delete(slot);
    this.canvas.requestDraw();
  }

  /** Keyboard: picks the piece in `slot` up onto the board. */
  hold(slot) {
    return this.keys.hold(slot);
  }

  /** The slot R should turn: the dragged piece, the held one, the hovered one, or the chosen one. */
  rotateTarget() {
    const hand = this.hand;
    if (this.drag) return this.drag.slot;
    if (this.keys.held) return this.keys.held.slot;
    if (hand.hovered !== null && hand.entries[hand.hovered]) return hand.hovered;
    return hand.entries[hand.selected] ? hand.selected : null;
  }

  /* ------------------------------------------------------------------ drawing -- */

  unit(w, h) {
    const slotW = w / 3;
    const fit = Math.min((slotW - 14) / this.maxExtent, (h - 14) / this.maxExtent);
    // The board's cells as it last drew them (it draws first and calls onCell when they
    // change): measuring the box here forced a layout in the middle of the frame.
    const boardCell = this.board.geo.cell || fit;
    return Math.max(6, Math.min(fit, boardCell * 0.62));
  }

  slotCentre(slot) {
    const rect = this.box.getBoundingClientRect();
    return { x: rect.left + (rect.width * (slot * 2 + 1)) / 6, y: rect.top + rect.height / 2 };
  }

  draw(ctx, w, h) {
    const unit = this.unit(w, h);
    this.trayUnit = unit;
    const focused = document.activeElement === this.box && this.box.matches(':focus-visible');
    if (drawTray(ctx, w, h, { hand: this.hand, anim: this.anim, unit, focused, now: performance.now() })) this.tick();
  }

  tick() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.canvas.drawNow();
    });
  }

  /* ------------------------------------------------------------------ dragging -- */

  slotAt(x) {
    const w = this.canvas.width || this.box.clientWidth;
    return Math.max(0, Math.min(2, Math.floor((x / w) * 3)));
  }

  onHover(p) {
    const slot = this.slotAt(p.x);
    this.hand.hovered = this.hand.entries[slot] ? slot : null;
    this.box.classList.toggle('is-grab', this.hand.hovered !== null && this.handlers.canMove());
  }

  onDown(p) {
    if (this.keys.held) this.keys.release();
    if (!this.handlers.canMove()) return;
    const slot = this.slotAt(p.x);
    const entry = this.hand.ready(slot);
    if (!entry) return;
    this.hand.selected = slot;
    this.drag = {
      slot,
      entry,
      type: p.type,
      lifted: false,
      clientX: p.event.clientX,
      clientY: p.event.clientY,
      placement: null,
      timer: setTimeout(() => this.drag && !this.drag.lifted && this.lift(), 160),
    };
  }

  onMove(p) {
    const drag = this.drag;
    if (!drag) return;
    drag.clientX = p.event.clientX;
    drag.clientY = p.event.clientY;
    if (!drag.lifted && Math.hypot(p.dx, p.dy) > 3) this.lift();
    if (drag.lifted) this.follow(drag.clientX, drag.clientY);
  }

  onUp(p) {
    const drag = this.drag;
    if (!drag) return;
    clearTimeout(drag.timer);
    drag.clientX = p.event.clientX;
    drag.clientY = p.event.clientY;
    if (!drag.lifted) {
      this.drag = null;
      return;
    }
    this.follow(drag.clientX, drag.clientY);
    this.drop();
  }

  onTap(p) {
    const slot = this.slotAt(p.x);
    const now = performance.now();
    const last = this.lastTap;
    this.lastTap = { slot, at: now };
    if (last && last.slot === slot && now - last.at < DOUBLE_TAP_MS && this.hand.entries[slot]) {
      this.lastTap = null;
      if (this.handlers.canRotate()) this.handlers.onRotate(slot);
      else this.handlers.onRotateOff?.(); // a double tap that turns nothing says why
    }
  }

  liftPx() {
    if (!this.drag || this.drag.type !== 'touch') return 0;
    const cell = this.board.cellSize;
    const { rows } = pieceSize(this.drag.entry.cells);
    return Math.max(TOUCH_LIFT_PX, (rows * cell) / 2 + 30);
  }

  paintFloat() {
    const drag = this.drag;
    const cell = this.board.cellSize;
    const { rows, cols } = pieceSize(drag.entry.cells);
    const margin = Math.ceil(cell * 0.3);
    const w = cols * cell + margin * 2;
    const h = rows * cell + margin * 2;
    const dpr = window.devicePixelRatio || 1;
    const f = this.float;
    f.width = Math.round(w * dpr);
    f.height = Math.round(h * dpr);
    f.style.width = `${w}px`;
    f.style.height = `${h}px`;
    drag.floatW = w;
    drag.floatH = h;
    const ctx = f.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    drawPiece(ctx, drag.entry.cells, margin, margin, cell, kindColour(drag.entry.kind));
  }

  lift() {
    const drag = this.drag;
    if (!drag || drag.lifted) return;
    clearTimeout(drag.timer);
    drag.lifted = true;
    this.paintFloat();
    this.hand.hidden.add(drag.slot);
    this.canvas.requestDraw();
    this.float.hidden = false;
    document.documentElement.classList.add('blocks-dragging');
    const from = (this.trayUnit || this.board.cellSize * 0.6) / this.board.cellSize;
    drag.scale = from;
    if (!reducedMotion()) {
      animate(LIFT_MS, (x) => {
        if (this.drag !== drag) return;
        drag.scale = from + (1 - from) * easeOut(x);
        this.place(drag);
      });
    } else {
      drag.scale = 1;
    }
    this.follow(drag.clientX, drag.clientY);
  }

  place(drag, x = drag.centreX, y = drag.centreY) {
    if (x === undefined) return;
    const s = drag.scale ?? 1;
    this.float.style.transform = `translate3d(${x - drag.floatW / 2}px, ${y - drag.floatH / 2}px, 0) scale(${s})`;
  }

  follow(clientX, clientY) {
    const drag = this.drag;
    if (!drag) return;
    drag.centreX = clientX;
    drag.centreY = clientY - this.liftPx();
    this.place(drag);
    const cell = this.board.cellSize;
    const { rows, cols } = pieceSize(drag.entry.cells);
    const at = this.board.toGrid(drag.centreX - (cols * cell) / 2, drag.centreY - (rows * cell) / 2);
    const row = Math.round(at.r);
    const col = Math.round(at.c);
    const placement = this.hand.placement(drag.slot, row, col);
    drag.placement = placement;
    this.board.setGhost(placement ? ghostOf(drag.entry, placement) : null);
  }

  drop() {
    const drag = this.drag;
    this.drag = null;
    document.documentElement.classList.remove('blocks-dragging');
    this.board.setGhost(null);
    if (drag.placement && this.handlers.canMove()) {
      this.float.hidden = true;
      this.handlers.onPlace(drag.slot, drag.placement);
      return;
    }
    this.flyBack(drag);
  }

  flyBack(drag) {
    const home = this.slotCentre(drag.slot);
    const fromX = drag.centreX ?? home.x;
    const fromY = drag.centreY ?? home.y;
    const fromS = drag.scale ?? 1;
    const toS = (this.trayUnit || this.board.cellSize * 0.6) / this.board.cellSize;
    const finish = () => {
      if (this.drag) return; // a new drag began meanwhile
      this.float.hidden = true;
      this.hand.hidden.delete(drag.slot);
      this.canvas.requestDraw();
    };
    if (reducedMotion()) {
      finish();
      return;
    }
    animate(RETURN_MS, (x) => {
      const k = easeOut(x);
      drag.scale = fromS + (toS - fromS) * k;
      this.place(drag, fromX + (home.x - fromX) * k, fromY + (home.y - fromY) * k);
    }).then(finish);
  }

  cancel() {
    const drag = this.drag;
    if (drag) {
      clearTimeout(drag.timer);
      this.drag = null;
      document.documentElement.classList.remove('blocks-dragging');
      this.board.setGhost(null);
      if (drag.lifted) this.flyBack(drag);
    }
    this.keys.release();
  }
}
