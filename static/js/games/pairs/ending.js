/**
 * ending — the end of a Pairs game on the page: the final card shown once (after the last
 * pair has played out), the player's records (the HUD's bests and the card's record) and
 * the daily board of honour.
 *
 *   const ending = createEnding(ctx)
 *     ctx: {page, board, hud, menu, final, select(cell), render()}
 *   ending.show(delayMs)      the final card once the game is over (once per game)
 *   ending.results()          the card again (the "results" button)
 *   ending.loadRecords()      → the records (and the HUD renders them)
 *   ending.records()          the records loaded last
 *   ending.reset()            a new game: the card may show again
 */

import { feedback } from '../../core/sound.js';
/** @import { DailyBoard, Records } from '../../types/wire' */

export function createEnding(ctx) {
  const { page, board, hud, menu, final } = ctx;
  const session = page.session;
  let shown = false;
  let records = [];

  async function loadRecords() {
    try {
      records = /** @type {Records} */ (await page.mine('records', '/api/records?game=pairs')).records || [];
      ctx.render();
    } catch {
      /* the records are a nicety */
    }
    return records;
  }

  const recordOf = (list) => list.find((r) => r.key === session.view.record_key) ?? null;
  // the server's mark on a daily played faster than a person can (kept, off the board of honour)
  const tooFast = () => Boolean(session.data?.outcome?.too_fast);

  async function loadHonour() {
    try {
      final.setHonour(/** @type {DailyBoard} */ (await session.get(`/api/daily/pairs?date=${encodeURIComponent(session.daily)}`)).honour);
    } catch {
      /* no board of honour today */
    }
  }

  function show(delay) {
    if (shown) return;
    shown = true;
    ctx.select(null);
    board.setHint(null);
    ctx.render();
    setTimeout(async () => {
      if (!session.view?.over) {
        shown = false;
        return;
      }
      hud.say('');
      menu.close();
      const view = session.view;
      if (!session.spectator) feedback(view.reason === 'cleared' ? 'win' : 'loss');
      final.show({ view, number: session.number, daily: session.daily, playedBefore: page.playedBefore, tooFast: tooFast() });
      ctx.render();
      if (!session.spectator) {
        final.setRecord(recordOf(await loadRecords()), session.id);
        page.forget();
      }
      if (session.daily) await loadHonour();
    }, delay);
  }

  function results() {
    if (!session.view?.over) return;
    final.show({ view: session.view, number: session.number, daily: session.daily, playedBefore: page.playedBefore, tooFast: tooFast() });
    ctx.render();
    loadRecords().then((list) => final.setRecord(recordOf(list), session.id));
  }

  function reset() {
    shown = false;
  }

  return { show, results, loadRecords, records: () => records, reset };
}
