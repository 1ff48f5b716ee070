/**
 * answer — plays a Pairs answer from the server: the removed pair along its path (and the
 * flip of an automatic shuffle), a shuffle, a hint, the points and the clock bonus, the
 * sounds, the words for screen readers. Everything comes from the answer's view and events.
 *
 *   playAnswer(result, before, ctx)
 *     ctx: {session, board, hud, select(cell), selected(), lock(ms), idle(), describe(cell),
 *           render(), showFinal(delayMs)}
 */

import { formatNumber, t } from '../../core/i18n.js';
import { feedback } from '../../core/sound.js';

const FINAL_DELAY_MS = 900;

/** Plays what a successful answer says happened (the session has taken it already);
 *  `before`: {tiles, clock, over} of the view it replaced. */
export function playAnswer(result, before, ctx) {
  const { session, board, hud } = ctx;
  const say = (...args) => hud.say(...args);
  const view = session.view;
  const events = result.events || [];
  const removed = events.find((e) => e.type === 'removed');
  const shuffled = events.find((e) => e.type === 'shuffled');
  const hint = events.find((e) => e.type === 'hint');
  let delay = 0;
  if (removed) {
    const afterRemoval = before.tiles.map((row) => row.slice());
    afterRemoval[removed.a[0]][removed.a[1]] = null;
    afterRemoval[removed.b[0]][removed.b[1]] = null;
    board.setTiles(afterRemoval);
    const held = board.removePair(removed);
    board.popup(`+${formatNumber(removed.points)}`, [removed.a, removed.b], removed.streak > 1 ? t('games.pairs.hud.streak', { n: removed.streak }) : '');
    feedback(removed.streak > 1 ? 'combo' : 'pair');
    delay = 800;
    if (shuffled) {
      ctx.select(null);
      ctx.lock(1100); // until the flip shows the new pictures
      held.then(() => {
        board.reshuffle(afterRemoval, view.tiles, 420);
        if (session.view === view) say(t('games.pairs.status.auto_shuffle'), 'info', 4200);
      });
    } else {
      board.setTiles(view.tiles);
    }
    if (ctx.selected() && board.tileAt(ctx.selected()) === null) ctx.select(null);
    ctx.idle();
    if (hud.kind === 'tip') say('');
    const oldClock = before.clock;
    if (view.clock && oldClock && !view.over) {
      // what the pair added to the countdown, as the server's two snapshots tell it
      const passed = oldClock.running ? view.clock.as_of_ms - oldClock.as_of_ms : 0;
      const added = view.clock.remaining_ms - (oldClock.remaining_ms - passed);
      if (added >= 500) hud.bumpClock(Math.round(added / 1000));
    }
    hud.announce(t('games.pairs.removed', { points: removed.points }));
  } else if (shuffled) {
    ctx.select(null);
    ctx.lock(260);
    board.reshuffle(before.tiles, view.tiles, 0);
  } else {
    board.setTiles(view.tiles);
  }
  board.setHint(view.hint);
  if (shuffled && !removed) {
    say(shuffled.auto ? t('games.pairs.status.auto_shuffle') : paid('games.pairs.status.shuffled', shuffled.points), 'info', 3600);
  }
  if (hint) {
    const text = paid('games.pairs.status.hint', hint.points);
    say(text, 'info');
    hud.announce(`${text} ${ctx.describe(hint.a)}; ${ctx.describe(hint.b)}`);
  }
  ctx.render();
  if (view.over && !before.over) ctx.showFinal(removed ? FINAL_DELAY_MS + delay : 300);
}

/** A message about something that may have cost points (the event's `points`, ≤ 0). */
function paid(key, points) {
  const cost = Math.abs(points || 0);
  return cost ? t(`${key}_paid`, { points: formatNumber(cost) }) : t(key);
}

