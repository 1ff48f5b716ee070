/**
 * match — what happens around an online match on the socket (the opponent joined, the game
 * was cancelled, a rematch was offered or accepted) and the end card's actions.
 *
 *   onJoined(msg)   onCancelled()   onRematch(rematch)   finalAction(action)
 */

import { errorText } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { toast } from '../../core/ui.js';
import { arenaUrl } from './arena.js';
import { finalModel } from './end.js';
import { create, newGame } from './games.js';
import { afterChange, showFinal } from './screen.js';
import { ctx, mode, mySeat, nameOf, S } from './state.js';
/** @import { JoinedFrame, Rematch } from '../../types/wire' */

const err = (error) => errorText('triangles', error);
const follow = (gameId) => location.assign(`/g/${encodeURIComponent(gameId)}`);

/** @param {JoinedFrame} msg */
export function onJoined(msg) {
  const { session } = ctx;
  const wasWaiting = session.status === 'waiting';
  // what the frame says, until the state asked for below follows
  session.players = msg.players;
  if (wasWaiting) session.status = 'active';
  if (wasWaiting && session.seats.length) toast(t('games.triangles.joined', { name: nameOf(1 - mySeat()) }), { kind: 'success' });
  session.socket?.sync();
  afterChange();
}

export function onCancelled() {
  ctx.session.status = 'cancelled';
  ctx.page.forget();
  afterChange();
}

/** @param {Rematch | null} rematch */
export function onRematch(rematch) {
  S.rematch = rematch;
  if (rematch?.game_id) {
    follow(rematch.game_id);
    return;
  }
  if (ctx.session.view?.over) showFinal();
}

async function rematchAction(action) {
  try {
    S.rematch = await ctx.online.rematch(action);
    if (S.rematch?.game_id) {
      follow(S.rematch.game_id);
      return;
    }
  } catch (error) {
    toast(err(error), { kind: 'error' });
  }
  if (ctx.final.open) ctx.final.update(finalModel());
}

export function finalAction(action) {
  const { final, session } = ctx;
  if (action === 'new') {
    final.close();
    newGame();
  } else if (action === 'again') {
    final.close();
    create({ kind: mode(), params: { ...session.params }, public: false });
  } else if (action === 'arena') {
    location.assign(arenaUrl()); // its page takes the player to their next game
  } else if (action === 'review') {
    location.assign(`/replay/${encodeURIComponent(session.id)}?review=1`); // the replay page asks for it
  } else if (action.startsWith('rematch-')) {
    rematchAction(action.slice('rematch-'.length)); // offer, accept, decline
  }
}
