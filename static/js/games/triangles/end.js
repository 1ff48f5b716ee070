/**
 * end — the words of the Triangles end card: who won and why, the tally against this
 * computer level, the rematch offer in online games. The actions are the shared ones
 * (core/endcard.js) and, outside online games, "play again"; "review" (the replay page,
 * which asks for the review of the game) unless the game was aborted: no line to review.
 */

import { plural, t } from '../../core/i18n.js';
import { arenaRunning } from './arena.js';
import { ratingChange } from './clock.js';
import { ctx, mode, mySeat, nameOf, S } from './state.js';
/** @import { TrianglesView } from '../../types/wire' */

/** The seat that drew no line: the one whose first line the aborted game waited for.
 *  @param {TrianglesView} view */
function silentSeat(view) {
  return [0, 1].find((seat) => !view.lines.some((line) => line[2] === seat)) ?? 0;
}

function reasonText() {
  const view = ctx.session.view;
  const m = mode();
  if (view.result === 'aborted') {
    const seat = silentSeat(view);
    return ctx.session.seats.includes(seat)
      ? t('games.triangles.final.reason.aborted_you')
      : t('games.triangles.final.reason.aborted', { name: nameOf(seat) });
  }
  const loser = view.winner == null ? null : 1 - view.winner;
  const mine = loser != null && ctx.session.seats.includes(loser) && m !== 'human';
  if (view.result === 'resigned') {
    return mine ? t('games.triangles.final.reason.resigned_you') : t('games.triangles.final.reason.resigned', { name: nameOf(loser) });
  }
  if (view.result === 'time') {
    return mine ? t('games.triangles.final.reason.time_you') : t('games.triangles.final.reason.time', { name: nameOf(loser) });
  }
  if (view.result === 'claimed') {
    return mine ? t('games.triangles.final.reason.claimed_you') : t('games.triangles.final.reason.claimed', { name: nameOf(loser) });
  }
  return t('games.triangles.final.reason.no_triangles');
}

function rematchModel() {
  const me = mySeat();
  const other = 1 - me;
  const r = S.rematch || {};
  const offer = { label: t('games.triangles.rematch.offer'), action: 'rematch-offer', primary: true };
  if (r.offered_by === me) return { text: t('games.triangles.rematch.offered', { name: nameOf(other) }), actions: [] };
  if (r.offered_by === other) {
    return {
      text: t('games.triangles.rematch.incoming', { name: nameOf(other) }),
      actions: [
        { label: t('games.triangles.rematch.decline'), action: 'rematch-decline' },
        { label: t('games.triangles.rematch.accept'), action: 'rematch-accept', primary: true },
      ],
    };
  }
  if (r.declined_by === other) return { text: t('games.triangles.rematch.declined', { name: nameOf(other) }), actions: [offer] };
  if (r.declined_by === me) return { text: t('games.triangles.rematch.you_declined'), actions: [offer] };
  return { text: t('games.triangles.rematch.ask'), actions: [offer] };
}

export function finalModel() {
  const view = ctx.session.view;
  const m = mode();
  const winner = view.winner;
  const me = mySeat();
  let title;
  let tone = 'neutral';
  if (view.result === 'aborted') { // ended before it began: nobody won, it counts for nothing
    title = t('games.triangles.final.aborted');
  } else if ((m === 'computer' || m === 'online') && me != null) {
    title = winner == null ? t('common.draw') : winner === me ? t('common.you_won') : t('common.you_lost');
    tone = winner == null ? 'draw' : winner === me ? 'win' : 'loss';
  } else {
    title = winner == null ? t('common.draw') : t('games.triangles.final.wins', { name: nameOf(winner) });
    tone = winner == null ? 'draw' : 'win';
  }
  let stats = null;
  if (m === 'computer' && me != null) { // a visitor's own tally is no part of this game
    const tally = S.stats?.[ctx.session.params.opponent] || { wins: 0, losses: 0, draws: 0 };
    stats = t('games.triangles.final.stats', {
      level: t(`games.triangles.opponent.${ctx.session.params.opponent}`),
      wins: plural('games.triangles.stats.n_wins', tally.wins),
      losses: plural('games.triangles.stats.n_losses', tally.losses),
      draws: plural('games.triangles.stats.n_draws', tally.draws),
    });
  }
  if (m === 'online') stats = ratingChange();
  // the game's own action before the shared ones: play again (not online: a rematch there)
  /** @type {{label: string, action: string, primary?: boolean}[]} */
  const actions = m === 'online' ? [] : [{ label: t('common.play_again'), action: 'again', primary: true }];
  if (view.result !== 'aborted') { // every line marked, on the replay page (an aborted game has none)
    actions.push({ label: t('games.triangles.review.open'), action: 'review' });
  }
  // an arena game while its arena runs: back to it (it pairs the player again), no rematch
  const arena = me != null && arenaRunning();
  if (arena) actions.unshift({ label: t('games.triangles.arena.back'), action: 'arena', primary: true });
  return {
    title,
    sub: arena ? `${reasonText()} ${t('games.triangles.arena.back.text')}` : reasonText(),
    tone,
    players: [0, 1].map((seat) => ({ seat, name: nameOf(seat), score: view.scores[seat], winner: winner === seat })),
    stats,
    rematch: m === 'online' && me != null && !S.arena ? rematchModel() : null,
    actions,
    primary: arena ? 'arena' : m === 'online' ? (me == null ? 'new' : null) : 'again',
  };
}
