/**
 * moves — the player's moves: a line, a resignation, a claim. Each goes through the
 * session's one move call (the socket in a live online game, REST otherwise: the same
 * answer); the session plays the answer out (play() below, given to it as hooks.play) and
 * shows it, in order with the opponent's moves. A refusal is explained (refusals.js).
 *
 *   play(result)      plays a move's events out on the board (the session's hooks.play)
 *   sendLine(a, b)    the player drew a–b
 *   resign()          asks first
 *   claim()           the win from an absent opponent
 *   berserk()         half the player's clock (an arena game, before their first line)
 */

import { errorText } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { toast } from '../../core/ui.js';
import { render } from './hud.js';
import { confirmResign } from './menu.js';
import { playEvents } from './play.js';
import { hideBubble, refuse } from './refusals.js';
import { canAct, computerSeat, ctx, mode, nameOf, S } from './state.js';

const err = (error) => errorText('triangles', error);

export function play(result) {
  S.busy = false;
  return playEvents(result.events);
}

export async function sendLine(a, b) {
  const { board, session } = ctx;
  if (!canAct()) return;
  hideBubble();
  board.setPending({ a, b, seat: session.view.turn });
  S.busy = true;
  if (computerSeat() !== null) S.thinking = true;
  render();
  const outcome = await session.move({ type: 'line', a, b });
  S.busy = false;
  if (outcome.ok || outcome.gone) {
    render();
    return;
  }
  S.thinking = false;
  board.setPending(null);
  render();
  refuse(outcome.error, a, b);
}

export async function resign() {
  const { session } = ctx;
  if (!session.view || session.view.over || !session.seats.length) return;
  const turn = session.view.turn;
  document.getElementById('tri-confirm-text').textContent = mode() === 'human'
    ? t('games.triangles.resign.text_named', { name: nameOf(turn), other: nameOf(1 - turn) })
    : t('games.triangles.resign.text');
  if (!(await confirmResign(document.getElementById('tri-confirm')))) return;
  await sendAndPlay({ type: 'resign' });
}

export function claim() {
  return sendAndPlay({ type: 'claim' });
}

/** Half the player's clock, no increment (an arena game, before their first line). */
export function berserk() {
  return sendAndPlay({ type: 'berserk' });
}

/** A move with no line to draw (resign, claim): a refusal is a toast. */
async function sendAndPlay(move) {
  S.busy = true;
  render();
  const outcome = await ctx.session.move(move);
  S.busy = false;
  if (!outcome.ok && !outcome.gone) toast(err(outcome.error), { kind: 'error' });
  render();
}
