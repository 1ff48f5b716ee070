/**
 * play — plays the server's events back in order on the board (a line grows, triangles
 * fill, the turn passes), keeping the running scores and the turn on screen as the events
 * tell them (each triangle event carries the scores, each turn event whether the seat draws
 * again), with sounds and words for screen readers.
 *
 *   await playEvents(events, start?)   start: {scores, turn} on screen first (default: the
 *                                      session's view, the one the events were played on)
 */

import { t } from '../../core/i18n.js';
import { announce } from '../../core/ui.js';
import { feedback } from '../../core/sound.js';
import { render } from './hud.js';
import { computerSeat, ctx, mode, mySeat, nameOf, S } from './state.js';

const live = document.getElementById('tri-live');
const say = (text) => announce(live, text);

function onStep(event) {
  const display = S.display;
  if (event.type === 'line') {
    S.again = null;
    if (event.seat === computerSeat()) S.thinking = false;
    feedback('line');
    say(t('games.triangles.live.line', { name: nameOf(event.seat) }));
  } else if (event.type === 'triangle') {
    display.scores = event.scores.slice(); // the running score, as the server counted it
    feedback('triangle');
    say(t('games.triangles.live.triangle', { name: nameOf(event.seat) }));
  } else if (event.type === 'turn') {
    if (event.again) S.again = event.seat; // closed a triangle and draws again
    display.turn = event.seat;
    if (event.seat === computerSeat()) S.thinking = true;
  } else if (event.type === 'berserk') {
    say(t('games.triangles.arena.berserked', { name: nameOf(event.seat) }));
  } else if (event.type === 'over') {
    display.turn = null;
    const played = event.reason !== 'aborted'; // an aborted game is neither won nor lost
    if (played && mySeat() !== null && mode() !== 'human') feedback(event.winner === mySeat() ? 'win' : 'loss');
  }
  render();
}

export async function playEvents(events, start = null) {
  const view = ctx.session.view;
  S.animating = true;
  S.display = start ?? { scores: [...(view?.scores || [0, 0])], turn: view?.turn ?? null };
  render();
  try {
    await ctx.board.play(events || [], onStep);
  } finally {
    S.animating = false;
  }
}
