/**
 * tips — the Pairs clock tick and its gentle tips: the HUD clock is redrawn (the game is
 * loaded again when the server's clock has run out), and after a while without a pair, at
 * most two tips per game are shown (counted per game in the store, so a reload does not
 * repeat them).
 *
 *   const tips = startTips(ctx)   ctx: {page, hud, board, running()}; ticks every 200 ms
 *   tips.reset()                  a game opened: its tips so far, the idle time from zero
 *   tips.idle()                   a pair was made: the idle time from zero
 *   tips.wake()                   the page is visible again (hidden time is not idle time)
 */

import { t } from '../../core/i18n.js';

const TICK_MS = 200;
const TIP_AFTER_MS = 15_000;
const MAX_TIPS = 2;

export function startTips(ctx) {
  const { page, hud } = ctx;
  const session = page.session;
  let shownTips = 0;
  let idleMs = 0;
  let lastTick = performance.now();

  function tick() {
    const nowMs = performance.now();
    const dt = nowMs - lastTick;
    lastTick = nowMs;
    if (hud.renderClock()) session.refresh();
    if (!ctx.running()) return;
    idleMs += dt;
    if (idleMs >= TIP_AFTER_MS && shownTips < MAX_TIPS) {
      shownTips += 1;
      idleMs = 0;
      page.store.set('tips', { id: session.id, n: shownTips });
      hud.say(t(`games.pairs.tip.${shownTips}`), 'tip');
    }
  }

  setInterval(tick, TICK_MS);
  return {
    reset() {
      const stored = page.store.get('tips', {});
      shownTips = stored.id === session.id ? stored.n : 0;
      idleMs = 0;
    },
    idle() {
      idleMs = 0;
    },
    wake() {
      lastTick = performance.now();
    },
  };
}
