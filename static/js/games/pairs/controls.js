/**
 * controls — the Pairs page's inputs wired to the play: the keyboard (keys.js), the HUD's
 * buttons, the side's copy-link buttons, and the words a screen reader hears for a cell.
 *
 *   const keys = attachControls(ctx)
 *     ctx: {page, board, boardBox, hud, menu, final, play, ending, openMenu(), newGame(),
 *           copyLink()}
 *     → the keyboard (keys.pointer(), keys.reset())
 *   describeCell(board, cell)  → "row 2, column 3: cat" (or the empty cell's words)
 */

import { t } from '../../core/i18n.js';
import { attachKeys } from './keys.js';
import { pictureName } from './pictures.js';

export function describeCell(board, cell) {
  const picture = board.tileAt(cell);
  const [row, col] = board.shownAt(cell); // as drawn (a wide box may draw the board transposed)
  const where = t('games.pairs.cell', { row: row + 1, col: col + 1 });
  return picture === null ? `${where}: ${t('games.pairs.cell.empty')}` : `${where}: ${t(`games.pairs.picture.${pictureName(picture)}`)}`;
}

export function attachControls(ctx) {
  const { page, board, hud, menu, final, play, ending } = ctx;
  const session = page.session;
  const keys = attachKeys(ctx.boardBox, board, {
    view: () => session.view,
    selected: () => play.selected(),
    blocked: () => menu.open || final.open,
    canTap: () => !session.view?.over && !session.spectator && !play.locked(),
    tap: (cell) => play.tap(cell),
    clear: () => play.select(null),
    describe: (cell) => describeCell(board, cell),
    announce: (text) => hud.announce(text),
    hint: () => play.hint(),
    shuffle: () => play.shuffle(),
    menu: ctx.openMenu,
  });
  hud.buttons.menu.addEventListener('click', ctx.openMenu);
  hud.buttons.hint.addEventListener('click', () => play.hint());
  hud.buttons.shuffle.addEventListener('click', () => play.shuffle());
  hud.buttons.new.addEventListener('click', ctx.newGame);
  hud.buttons.results.addEventListener('click', () => ending.results());
  for (const button of document.querySelectorAll('.pairs-side [data-action="copy"]')) {
    button.addEventListener('click', ctx.copyLink);
  }
  return keys;
}
