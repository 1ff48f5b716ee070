/**
 * screen — shows the game the session holds: the board, the invite or join card, the
 * stored current game, the HUD, and the end card once the game is over. Called for every
 * state the session takes (a move played out, a snapshot, a stale refusal, a reconnect).
 *
 *   show(data)     the session has taken data (a snapshot or a move): show it whole
 *   afterChange()  the game's standing changed (joined, cancelled): invite, storage, HUD, end card
 *   showFinal()    opens the end card (a game over only)
 */

import { takeArena } from './arena.js';
import { finalModel } from './end.js';
import { loadStats, render, showNotice, statsRead } from './hud.js';
import { ctx, mode, S } from './state.js';

export function show(data) {
  // A pending offer survives a reload; an accepted one is only followed when it arrives live.
  if (data.rematch && !data.rematch.game_id) S.rematch = data.rematch;
  takeArena(data);
  if (data.presence) {
    S.presence = data.presence;
    S.presenceAt = performance.now();
  }
  S.display = null;
  S.thinking = false;
  ctx.board.setView(ctx.session.view);
  afterChange();
}

export function afterChange() {
  const { page, session, online } = ctx;
  const view = session.view;
  if (session.status === 'waiting' && session.seats.length) online.showInvite(session.id, { isPublic: S.public });
  else online.hideInvite();
  showNotice();
  if (view && (view.over || session.status === 'cancelled')) {
    page.forget();
  } else {
    page.remember(); // a seated player's game under way
  }
  render();
  if (view && !view.over) S.playedOn = true;
  if (view?.over && !S.finalShown) {
    S.finalShown = true;
    // against the computer the card shows the results per level: read again when the game
    // ended here, else the ones the page read at its start already count it
    if (mode() === 'computer') (S.playedOn ? loadStats() : statsRead()).then(() => showFinal());
    else showFinal();
  }
}

export function showFinal() {
  if (!ctx.session.view?.over) return;
  const shown = ctx.final.show(finalModel());
  render();
  shown.then(() => render());
}
