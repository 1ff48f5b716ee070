/**
 * input — turns taps, drags and keys on the field into "draw a line from star a to b".
 *
 *   attachInput(board, element, {canAct, onLine, onBlocked, onChange})
 *     canAct()          → true when the viewer may draw now (else onBlocked(star) is called)
 *     onLine(a, b)      the player asked for the line a–b (the server decides if it is legal)
 *     onBlocked(star)   a press while drawing is not possible (not your turn, watching…)
 *     onChange()        the selection changed (hide an old refusal, update hints)
 *
 * Pointer: tap a star, then another (tap the first again or empty space to let go); or
 * drag from a star: a rubber band follows the pointer and snaps to the nearest star within
 * SNAP px. A star counts as touched within HIT px (≥ 22 CSS px).
 * Keyboard on the focused field: arrows move a star cursor towards that direction, Page
 * Down / Page Up step through every star in reading order (an arrow may never reach a
 * star hidden behind others), Enter or Space picks the first star and then the second,
 * Esc lets go (of the first star, else of the cursor). Tab and Shift+Tab leave the field, as they leave any widget: a field of
 * up to 180 stars stepped through by Tab kept the focus in it for good.
 */

import { onPointer } from '../../core/pointer.js';

const HIT = 24;
const SNAP = 40;

export function attachInput(board, element, { canAct, onLine, onBlocked, onChange }) {
  let dragFrom = null;
  let dragging = false;

  function clearSelection() {
    board.select(null);
    board.setBand(null);
    dragFrom = null;
    dragging = false;
    onChange?.();
  }

  function finish(a, b) {
    clearSelection();
    if (a !== b) onLine(a, b);
  }

  onPointer(element, {
    down(p) {
      board.setCursor(board.cursor, false);
      const star = board.starAt(p.x, p.y, HIT);
      if (!canAct()) {
        dragFrom = null;
        return;
      }
      dragFrom = star;
      dragging = false;
    },
    move(p) {
      if (dragFrom == null) return;
      if (!dragging && Math.hypot(p.dx, p.dy) < 10) return;
      dragging = true;
      const snap = board.starAt(p.x, p.y, SNAP, dragFrom);
      board.setBand({ from: dragFrom, x: p.x, y: p.y, snap });
    },
    up(p) {
      if (!dragging || dragFrom == null) return;
      const snap = board.starAt(p.x, p.y, SNAP, dragFrom);
      const from = dragFrom;
      if (snap != null) {
        finish(from, snap);
      } else {
        board.setBand(null);
        dragFrom = null;
        dragging = false;
        board.select(from); // let go in empty space: keep the first star, finish by a tap
        onChange?.();
      }
    },
    cancel() {
      board.setBand(null);
      dragFrom = null;
      dragging = false;
    },
    tap(p) {
      const star = board.starAt(p.x, p.y, HIT);
      if (!canAct()) {
        if (star != null) onBlocked?.(star);
        return;
      }
      const first = board.selected;
      if (star == null) {
        if (first != null) clearSelection();
        return;
      }
      if (first == null) {
        board.select(star);
        onChange?.();
      } else if (first === star) {
        clearSelection();
      } else {
        finish(first, star);
      }
    },
    hover(p) {
      board.setHover(canAct() ? board.starAt(p.x, p.y, HIT) : null);
    },
  });
  element.addEventListener('pointerleave', () => board.setHover(null));

  /* ------------------------------------------------------------ keyboard ---------- */

  function readingOrder() { // as drawn: the field may be turned (a phone held sideways)
    return board.stars
      .map((_, i) => ({ i, ...board.point(i) }))
      .sort((p, q) => p.y - q.y || p.x - q.x)
      .map((p) => p.i);
  }

  function nearestToCentre() {
    const box = element.getBoundingClientRect();
    return board.starAt(box.width / 2, box.height / 2, Infinity);
  }

  function towards(from, dx, dy) {
    const origin = board.point(from);
    let best = null;
    let bestScore = Infinity;
    board.stars.forEach((_, i) => {
      if (i === from) return;
      const p = board.point(i);
      const vx = p.x - origin.x;
      const vy = p.y - origin.y;
      const along = vx * dx + vy * dy;
      if (along <= 0.5) return;
      const across = Math.abs(vx * dy - vy * dx);
      const score = along + across * 2.2;
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    });
    return best;
  }

  element.addEventListener('keydown', (event) => {
    if (!board.stars.length || event.altKey || event.ctrlKey || event.metaKey) return;
    const cursor = board.cursor;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key in arrows) {
      event.preventDefault();
      if (cursor == null) {
        board.setCursor(board.selected ?? nearestToCentre(), true);
        return;
      }
      const [dx, dy] = arrows[event.key];
      const next = towards(cursor, dx, dy);
      board.setCursor(next ?? cursor, true);
      return;
    }
    if (event.key === 'PageDown' || event.key === 'PageUp') {
      event.preventDefault();
      const order = readingOrder();
      const at = cursor == null ? -1 : order.indexOf(cursor);
      const step = event.key === 'PageDown' ? 1 : -1;
      const next = at === -1 ? (step > 0 ? 0 : order.length - 1) : (at + step + order.length) % order.length;
      board.setCursor(order[next], true);
      return;
    }
    if (event.key === 'Tab') {
      board.setCursor(cursor, false); // the browser moves the focus on; the cursor waits
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (cursor == null) {
        board.setCursor(board.selected ?? nearestToCentre(), true);
        return;
      }
      board.setCursor(cursor, true);
      if (!canAct()) {
        onBlocked?.(cursor);
        return;
      }
      const first = board.selected;
      if (first == null) {
        board.select(cursor);
        onChange?.();
      } else if (first === cursor) {
        clearSelection();
      } else {
        finish(first, cursor);
      }
      return;
    }
    if (event.key === 'Escape') {
      if (board.selected != null || dragFrom != null) {
        event.preventDefault();
        event.stopPropagation();
        clearSelection();
      } else if (cursor != null) {
        event.preventDefault();
        board.setCursor(null, false);
      }
    }
  });
  element.addEventListener('blur', () => board.setCursor(board.cursor, false));
  element.addEventListener('focus', () => {
    if (element.matches(':focus-visible') && board.cursor != null) board.setCursor(board.cursor, true);
  });

  return { clearSelection };
}
