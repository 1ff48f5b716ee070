/**
 * play — the Pairs player's taps as moves: the selection, a pair sent to the server (a tap
 * made while it is on its way waits for the answer), hints and shuffles, and what a refusal
 * shows. A tap on a tile with another picture moves the selection there (no request), and
 * the status line says so.
 *
 *   const play = createPlay(ctx)
 *     ctx: {page, board, boardBox, hud, keys(), describe(cell), render(), showFinal(ms),
 *           syncPause(), idle()}
 *   play.onDown({cell})         a pointer went down on the board
 *   play.tap(cell)              a tile chosen (pointer or keyboard)
 *   play.select(cell | null), play.selected()
 *   play.hint(), play.shuffle()
 *   play.lock(ms), play.locked()  taps wait while tiles are about to change (data-locked)
 *   play.reset()                a new game: nothing selected, nothing waiting
 */

import { t } from '../../core/i18n.js';
import { feedback } from '../../core/sound.js';
import { playAnswer } from './answer.js';
/**
 * @import { GamePage } from '../../core/game-page.js'
 * @import { PairsMove, PairsView } from '../../types/wire'
 */

const same = (p, q) => Boolean(p && q && p[0] === q[0] && p[1] === q[1]);

/** @param {{page: GamePage<PairsView, PairsMove>} & Record<string, any>} ctx */
export function createPlay(ctx) {
  const { page, board, boardBox, hud } = ctx;
  const session = page.session;
  const say = (...args) => hud.say(...args);
  const over = () => Boolean(session.view?.over);
  let selected = null; // [r, c]
  let pairInFlight = false;
  let deferredTap = null;
  let lockTimer = 0;

  function lock(ms) {
    clearTimeout(lockTimer);
    boardBox.dataset.locked = String(ms > 0);
    if (ms > 0 && ms < Infinity) lockTimer = setTimeout(() => lock(0), ms);
  }
  const locked = () => boardBox.dataset.locked === 'true';

  function select(cell) {
    selected = cell ? [cell[0], cell[1]] : null;
    board.select(selected);
  }

  /** Sends a move; on success plays the answer against the view it replaced. */
  /** @param {PairsMove} move */
  async function send(move) {
    let outcome;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const before = { tiles: board.tiles.map((row) => row.slice()), clock: session.view?.clock, over: over() };
      outcome = await session.move(move);
      if (outcome.ok) {
        playAnswer(outcome.result, before, {
          session, board, hud, select, selected: () => selected, describe: ctx.describe, render: ctx.render,
          showFinal: ctx.showFinal, lock, idle: ctx.idle,
        });
      }
      if (outcome.ok || !(await pausedMeanwhile(outcome, before.tiles))) break;
    }
    return outcome;
  }

  /** A refusal that says nothing about the move: the server paused the game behind the
   *  page's back. The pagehide beacon of the page this one replaced (a reload) can land
   *  after this page loaded the game: the move is then refused as stale (the session adopts
   *  the paused game), then as paused. The tiles are still those the player chose from, so
   *  the game is resumed and the move sent again → true; a tap is never silently lost. */
  async function pausedMeanwhile(outcome, tiles) {
    const code = outcome.error?.code;
    if (outcome.gone || over() || JSON.stringify(tiles) !== JSON.stringify(board.tiles)) return false;
    if (code === 'stale_version') return true; // the session has adopted the server's state
    if (code !== 'paused') return false;
    await ctx.syncPause(); // resumes it when the page can be played
    return !session.view?.paused;
  }

  function refused(error, a, b) {
    const code = error?.code;
    switch (code) {
      case 'path_blocked':
      case 'no_path':
      case 'different_pictures':
        board.shake([a, b]);
        if (code === 'path_blocked' && error.details?.blocker) board.flashBlocker(error.details.blocker);
        hud.announce(page.refuse(error));
        select(code === 'different_pictures' ? b : a);
        break;
      case 'paused':
        select(a);
        ctx.syncPause();
        break;
      case 'stale_version': // the session adopted the server's board already
        select(null);
        say(page.text(error), 'error');
        break;
      case 'empty_cell':
      case 'game_over':
      case 'time_up':
        select(null);
        session.refresh();
        break;
      default:
        select(a);
        say(page.text(error), 'error');
    }
  }

  async function tryPair(a, b) {
    pairInFlight = true;
    board.select(a, b);
    const outcome = await send({ type: 'pair', a, b });
    pairInFlight = false;
    if (outcome.gone) return;
    if (outcome.ok) {
      if (same(selected, a) || same(selected, b)) selected = null;
      board.select(selected);
    } else {
      refused(outcome.error, a, b);
    }
    const next = deferredTap;
    deferredTap = null;
    if (next && !over()) tap(next);
  }

  function tap(cell) {
    if (pairInFlight) {
      deferredTap = cell;
      return;
    }
    if (board.tileAt(cell) === null) return;
    // the pictures as the server's view has them (the board may still be animating)
    const picture = (at) => session.view?.tiles?.[at[0]]?.[at[1]] ?? null;
    if (!selected || (!same(selected, cell) && picture(selected) !== picture(cell))) {
      // Nothing selected yet, or another picture: the selection moves there (said, once
      // a tile was picked: a silent move read as a tap that did nothing).
      if (selected) say(t('games.pairs.status.other_picture'), 'info');
      select(cell);
      feedback('select');
      hud.announce(t('games.pairs.selected', { tile: ctx.describe(cell) }));
      return;
    }
    if (same(selected, cell)) {
      select(null);
      hud.announce(t('games.pairs.deselected'));
      return;
    }
    tryPair(selected, cell);
  }

  function onDown({ cell }) {
    ctx.keys().pointer();
    if (!session.view) return;
    if (board.dealing) {
      board.skipDeal();
      return;
    }
    if (over() || session.spectator || locked()) return;
    if (!cell || board.tileAt(cell) === null) {
      if (!pairInFlight) select(null);
      return;
    }
    tap(cell);
  }

  const playable = () => session.view && !over() && !session.spectator;

  async function hint() {
    if (!playable()) return;
    if (board.dealing) board.skipDeal();
    if (session.view.hint) {
      board.setHint(null);
      board.setHint(session.view.hint); // already paid for: outline it again
      say(t('games.pairs.status.hint_again'), 'info');
      return;
    }
    const outcome = await send({ type: 'hint' });
    if (!outcome.ok && !outcome.gone) say(page.text(outcome.error), 'error');
  }

  async function shuffle() {
    if (!playable()) return;
    if (board.dealing) board.skipDeal();
    select(null);
    lock(Infinity); // no pair against tiles that are about to move
    const outcome = await send({ type: 'shuffle' });
    lock(0);
    if (!outcome.ok && !outcome.gone) say(page.text(outcome.error), 'error');
  }

  function reset() {
    selected = null;
    deferredTap = null;
    lock(0);
  }

  return { onDown, tap, select, selected: () => selected, hint, shuffle, lock, locked, reset };
}
