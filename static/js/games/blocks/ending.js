/**
 * ending — the end of a Blocks game on the page: the words for why it ended, the final
 * card once the last move has played out, the player's records (the HUD's best and the
 * card's record) and the daily board of honour (in the side panel and the menu).
 *
 *   const ending = createEnding(ctx)   ctx: {page, tray, hud, final, render()}
 *   ending.end(events?)                the game has just ended: words, records, then the card
 *   ending.showFinal()                 the card for a game that is over
 *   ending.loadRecords() → Promise, ending.records (a Map by record key)
 *   ending.loadHonour(date) → Promise  the daily board of honour of that date
 *   ending.ended / ending.reset()      whether the end has been shown for this game
 */

import { feedback } from '../../core/sound.js';
import { reducedMotion } from '../../core/ui.js';
import { t } from '../../core/i18n.js';
import { renderHonour } from './menu.js';
/** @import { DailyBoard, Records } from '../../types/wire' */

export function createEnding(ctx) {
  const { page, tray, hud, final } = ctx;
  const session = page.session;
  const ending = { ended: false, records: new Map(), honour: null, playedBefore: false };

  ending.reset = () => {
    ending.ended = false;
  };

  ending.loadRecords = async () => {
    try {
      const data = /** @type {Records} */ (await page.mine('records', '/api/records?game=blocks'));
      ending.records = new Map((data.records || []).map((r) => [r.key, r]));
    } catch {
      /* records are a nicety */
    }
  };

  ending.loadHonour = async (date) => {
    try {
      ending.honour = /** @type {DailyBoard} */ (await session.get(`/api/daily/blocks?date=${encodeURIComponent(date)}`)).honour || [];
    } catch {
      ending.honour = null;
    }
    renderHonour(document, ending.honour, session.id);
  };

  ending.end = (events = []) => {
    ending.ended = true;
    page.forget();
    tray.cancel();
    const reason = session.view.final?.reason;
    if (reason === 'stuck' && events.length) hud.notice(t('games.blocks.no_moves'), 'warn');
    if (reason === 'time_up') hud.notice(t('games.blocks.final.title.time_up'), 'warn');
    const wait = reducedMotion() ? 0 : events.some((e) => e.type === 'cleared') ? 1100 : 700;
    const honour = session.daily ? ending.loadHonour(session.daily) : null;
    Promise.all([ending.loadRecords(), honour, new Promise((r) => setTimeout(r, wait))]).then(() => {
      ctx.render();
      if (!session.view.over) return;
      if (!session.spectator) feedback(reason === 'finished' ? 'win' : 'loss');
      ending.showFinal();
    });
  };

  ending.showFinal = () => {
    const view = session.view;
    if (!view?.over) return;
    ending.ended = true;
    tray.cancel();
    const record = ending.records.get(view.record_key);
    const score = view.final?.score ?? view.score;
    // the player's record for this ruleset and mode is this very game
    const isNewRecord = view.counts_for_record && Boolean(record && record.game_id === session.id) && score > 0;
    final.show({
      view,
      record: record ? record.score : null,
      isNewRecord,
      daily: session.daily,
      playedBefore: ending.playedBefore,
      tooFast: Boolean(session.data?.outcome?.too_fast), // a daily off the board of honour
      again: !session.daily,
    });
    ctx.render();
  };

  return ending;
}
