/**
 * pause — keeps the Pairs game paused on the server while the page cannot be played (hidden,
 * the menu or the results open), and resumes it when it can; a beacon pauses it when the page
 * goes away.
 *
 *   const sync = attachPause(ctx)   ctx: {session, menu, final, switching(), render(), showFinal(ms)}
 *   sync()                          matches the server to the page (queued like any move)
 *   wantRunning(ctx)                true when the page can be played
 */

export function wantRunning({ menu, final }) {
  return document.visibilityState === 'visible' && !menu.open && !final.open;
}

/** Pauses or resumes the game on the server so that it matches the page (queued like any move). */
function syncPause(ctx) {
  const { session, menu } = ctx;
  menu.setPaused(Boolean(session.view && !session.view.over));
  return session.enqueue(async () => {
    const view = session.view;
    if (!view || view.over || session.spectator || !session.id || ctx.switching()) return;
    const want = wantRunning(ctx);
    if (want === !view.paused) return;
    const outcome = await session.post1({ type: want ? 'resume' : 'pause' }, { retry: true });
    if (outcome.gone) return;
    if (outcome.ok) {
      ctx.render();
      if (session.view.over) ctx.showFinal(300);
    } else if (['already_paused', 'not_paused', 'game_over', 'time_up'].includes(outcome.error?.code)) {
      session.refresh();
    }
  });
}

function pauseOnLeave({ session }) {
  // The page is going away: tell the server with a beacon, which outlives the page.
  const view = session.view;
  if (!view || view.over || view.paused || session.spectator || !session.id || !navigator.sendBeacon) return;
  const body = JSON.stringify({ version: session.version, move: { type: 'pause' } });
  navigator.sendBeacon(`/api/games/${encodeURIComponent(session.id)}/moves`, new Blob([body], { type: 'application/json' }));
}


export function attachPause(ctx) {
  window.addEventListener('pagehide', () => pauseOnLeave(ctx));
  return () => syncPause(ctx);
}
