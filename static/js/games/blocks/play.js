/**
 * play — the Blocks player's intents as moves: place a piece, rotate it, a new set and
 * finish (each asked twice: the first press only arms the button for a few seconds), continue
 * after the end, the keys 1–3 and R; and what the server answers, played on the board, the
 * tray and the HUD.
 *
 *   const play = createPlay(ctx)
 *     ctx: {page, board, tray, hud, menu, final, render(), end(events), continued()}
 *   play.canPlay()                   the player may move now
 *   play.place(slot, placement), play.rotate(slot), play.newSet(), play.finish()
 *   play.continueGame()              the "continue" action of the final card
 *   play.onKey(event)                the page's keys
 *   play.disarm(when?)               drops an armed button (when true, the default)
 */

import { t } from '../../core/i18n.js';
import { feedback } from '../../core/sound.js';
/**
 * @import { GamePage } from '../../core/game-page.js'
 * @import { BlocksMove, BlocksView } from '../../types/wire'
 */

const CONFIRM_MS = 3000;
const MOVED_ON = ['not_over', 'continue_used', 'no_room', 'continue_not_allowed']; // the page loads it again
const $ = (id) => document.getElementById(id);

/** @param {{page: GamePage<BlocksView, BlocksMove>} & Record<string, any>} ctx */
export function createPlay(ctx) {
  const { page, board, tray, hud } = ctx;
  const session = page.session;
  let armed = null; // {name, button, label, text}
  let armTimer = 0;

  const canPlay = () => {
    const view = session.view;
    return Boolean(view) && !session.spectator && !view.over && !ctx.final.open && !ctx.menu.open && page.online;
  };

  // Sends a move; `before` runs just before the answer is shown, `after` when refused.
  /** @param {BlocksMove} move @param {{before?: () => void, after?: () => void}} [hooks] */
  async function act(move, { before, after } = {}) {
    const old = session.view;
    const outcome = await session.move(move);
    if (outcome.gone) return null;
    if (!outcome.ok) {
      after?.();
      page.refuse(outcome.error, { refresh: MOVED_ON });
      return null;
    }
    before?.();
    applyMove(outcome.result, old);
    return outcome.result;
  }

  function applyMove(data, before) {
    const view = session.view;
    const events = data.events || [];
    const rotated = events.find((e) => e.type === 'rotated');
    const dealt = events.some((e) => e.type === 'dealt' || e.type === 'new_set');
    board.animate(events, view.grid);
    tray.setHand(view.hand, { dealt, rotated: rotated ? rotated.piece : null });
    const fx = hud.effects(events, before);
    if (fx.combo) feedback('combo');
    else if (fx.lines) feedback('clear');
    else if (fx.placed) feedback('place');
    hud.setScore();
    ctx.render();
    if (view.over && !before.over) ctx.end(events);
    else page.remember();
  }

  function place(slot, placement) {
    const entry = session.view.hand[slot];
    if (!entry) return;
    tray.hide(slot);
    board.setPending({ cells: entry.cells, kind: entry.kind, row: placement.row, col: placement.col });
    act({ type: 'place', piece: slot, row: placement.row, col: placement.col }, {
      before: () => tray.show(slot),
      after: () => {
        board.setPending(null);
        tray.show(slot);
      },
    });
  }

  function rotate(slot) {
    const view = session.view;
    if (slot === null || slot === undefined || !view?.can_rotate || !view.hand[slot]) return;
    act({ type: 'rotate', piece: slot });
  }

  /** The first press arms the button; the second (or an obvious one) sends the move. */
  function twice(name, move, words, now = false) {
    if (now || armed?.name === name) {
      disarm();
      tray.cancel();
      act(move);
      return;
    }
    disarm();
    const button = $(`blocks-${name}`);
    const label = button.querySelector('[data-label]');
    armed = { name, button, label, text: label.textContent };
    button.classList.add('is-confirm');
    label.textContent = t(words);
    hud.announce(t(words));
    armTimer = setTimeout(() => disarm(), CONFIRM_MS);
  }

  function disarm(when = true) {
    if (!armed || !when) return;
    clearTimeout(armTimer);
    armed.button.classList.remove('is-confirm');
    armed.label.textContent = armed.text;
    armed = null;
  }

  function newSet() {
    const view = session.view;
    if (view?.can_new_set && canPlay()) twice('newset', { type: 'new_set' }, 'games.blocks.new_set.confirm', view.stuck);
  }

  function finish() {
    if (canPlay()) twice('finish', { type: 'finish' }, 'games.blocks.finish.confirm');
  }

  async function continueGame() {
    ctx.final.close();
    if (!(await act({ type: 'continue' }))) return;
    ctx.continued();
    hud.notice(t('games.blocks.continued'), 'info');
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (document.querySelector('dialog[open]')) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, select, textarea, [contenteditable]')) return;
    const k = event.key;
    if (k === 'Escape' && tray.drag) {
      tray.cancel();
      return;
    }
    if (!canPlay()) return;
    if (k === '1' || k === '2' || k === '3') {
      if (tray.hold(Number(k) - 1)) event.preventDefault();
    } else if ((k === 'r' || k === 'R') && session.view.can_rotate) {
      event.preventDefault();
      rotate(tray.rotateTarget());
    }
  }

  return { canPlay, place, rotate, newSet, finish, continueGame, onKey, disarm };
}
