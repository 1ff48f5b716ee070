/**
 * keys — Pairs with the keyboard: arrows move a cursor over the board, Enter or Space taps
 * the tile under it, H asks for a hint, S shuffles, Escape opens the menu.
 *
 *   const keys = attachKeys(boardBox, board, ctx)
 *     ctx: {view(), selected(), blocked() → true while the page takes no key (a dialog is open),
 *           canTap() → true when a tap may be played, tap(cell), clear(), describe(cell),
 *           announce(text), hint(), shuffle(), menu()}
 *   keys.pointer()  a tap with the pointer hides the cursor
 *   keys.reset()    forgets the cursor (a new game)
 */

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export function attachKeys(boardBox, board, ctx) {
  let cursor = null;
  let keyboardMode = false;

  function firstTile() {
    const rows = ctx.view()?.tiles ?? [];
    for (let r = 0; r < rows.length; r += 1) {
      for (let c = 0; c < rows[r].length; c += 1) if (rows[r][c] !== null) return [r, c];
    }
    return [0, 0];
  }

  function showCursor() {
    const selected = ctx.selected();
    if (!cursor) cursor = selected ? [...selected] : firstTile();
    keyboardMode = true;
    board.setCursor(cursor, true);
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (ctx.blocked()) return;
    const target = event.target;
    if (target.closest?.('input, select, textarea, [contenteditable="true"]')) return;
    const onBoard = target === boardBox || target === document.body || target === document.documentElement;
    const key = event.key;
    const view = ctx.view();
    if (ARROWS[key] && (onBoard || !target.closest?.('button, a, dialog'))) {
      event.preventDefault();
      if (!view) return;
      if (board.dealing) board.skipDeal();
      // the arrows go where they point on screen: a board drawn transposed swaps them
      const [dr, dc] = board.transposed ? [...ARROWS[key]].reverse() : ARROWS[key];
      if (!cursor) cursor = ctx.selected() ? [...ctx.selected()] : firstTile();
      else cursor = [Math.max(0, Math.min(view.rows - 1, cursor[0] + dr)), Math.max(0, Math.min(view.cols - 1, cursor[1] + dc))];
      keyboardMode = true;
      if (document.activeElement !== boardBox) boardBox.focus({ preventScroll: true });
      board.setCursor(cursor, true);
      ctx.announce(ctx.describe(cursor));
      return;
    }
    if ((key === 'Enter' || key === ' ') && onBoard) {
      event.preventDefault();
      if (!view) return;
      if (board.dealing) {
        board.skipDeal();
        return;
      }
      if (!cursor) {
        showCursor();
        ctx.announce(ctx.describe(cursor));
        return;
      }
      if (ctx.canTap()) {
        if (board.tileAt(cursor) === null) {
          ctx.clear();
          ctx.announce(ctx.describe(cursor));
        } else {
          ctx.tap([...cursor]);
        }
      }
      return;
    }
    if (event.repeat) return;
    const lower = key.toLowerCase();
    if (lower === 'h') {
      event.preventDefault();
      ctx.hint();
    } else if (lower === 's') {
      event.preventDefault();
      ctx.shuffle();
    } else if (key === 'Escape') {
      event.preventDefault();
      ctx.menu();
    }
  }

  document.addEventListener('keydown', onKey);
  boardBox.addEventListener('focus', (event) => {
    // Reached with the keyboard (Tab): show the cursor at once, on the selection or the first tile.
    if (!keyboardMode && !event.target.matches(':focus-visible')) return;
    if (!ctx.view()) return;
    showCursor();
  });
  boardBox.addEventListener('blur', () => board.setCursor(cursor, false));

  return {
    pointer() {
      if (!keyboardMode) return;
      keyboardMode = false;
      board.setCursor(cursor, false);
    },
    reset() {
      cursor = null;
      board.setCursor(null, false);
    },
  };
}
