/**
 * clock — the players' clocks in their chips, ticking down between the server's views.
 *
 *   renderClocks()   called by hud.render(): shows view.clock (or hides the clocks when
 *                    the game has none) and keeps ticking while a clock runs
 *   timeLeft(clock, now) → [ms, ms]   each seat's time left at server game time `now`
 *   firstLineLeft(clock, now) → ms | null   the time the seat to move has left to draw its
 *                    first line (no clock runs before it; the server aborts the game at
 *                    zero), null when no first line is awaited
 *   formatClock(ms)  "4:59", "0:07.3" (under 10 s), "5 h 12 min", "2 d 23 h"
 *   shownRating(r, p) "1523", or "1523?" while provisional
 *   ratingOf(seat)   " · 1523" beside a name in a rated game ('' otherwise)
 *   ratingChange()   the end card's line: "Rating 1500 → 1662 (+162)" or "(−162)", the viewer's seat,
 *                    or why a rated game changed no rating (outcome.unrated)
 *                    (both seats for spectators), from outcome.ratings; null when unrated
 *
 * The server owns the clocks; the view says each seat's time left when the turn began
 * (`left_ms`), whose clock runs, and `deadline_ms`, when the server will flag it. The page
 * counts down to that deadline and never shows more than the turn began with (how the
 * server charges the time, lag allowance included, is the server's business), read
 * against the last server time heard plus the local time since (session.serverClockNow),
 * offline too: the server keeps charging, so the clock on screen runs on. The flag itself
 * comes from the server (a move frame with reason "time"); at zero the page only waits.
 * A seat's clock starts with its first line: until then no clock runs, and the view's
 * `first_line_deadline_ms` says when the server aborts the game (reason "aborted"); the
 * page counts down to it the same way, never above `first_line_ms`.
 */

import { t } from '../../core/i18n.js';
import { ctx, nameOf } from './state.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let timer = 0;

export function timeLeft(clock, now) {
  const left = [...clock.left_ms];
  if (clock.running != null) {
    left[clock.running] = Math.max(0, Math.min(left[clock.running], clock.deadline_ms - now));
  }
  return left;
}

export function firstLineLeft(clock, now) {
  if (clock?.first_line_deadline_ms == null) return null;
  return Math.max(0, Math.min(clock.first_line_ms, clock.first_line_deadline_ms - now));
}

export function formatClock(ms) {
  if (ms >= DAY) return t('games.triangles.clock.days', { d: Math.floor(ms / DAY), h: Math.floor((ms % DAY) / HOUR) });
  if (ms >= HOUR) return t('games.triangles.clock.hours', { h: Math.floor(ms / HOUR), m: Math.floor((ms % HOUR) / 60_000) });
  const seconds = Math.floor(ms / 1000);
  const mmss = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return ms < 10_000 ? `${mmss}.${Math.floor((ms % 1000) / 100)}` : mmss;
}

function running(clock) {
  return clock?.running != null && ctx.session.status === 'active' && !ctx.session.view?.over;
}

export function renderClocks() {
  clearTimeout(timer);
  timer = 0;
  const clock = ctx.session.view?.clock ?? null;
  const session = ctx.session;
  const live = running(clock) && session?.serverMs != null;
  // the last server state + local time since, online or not: the server charges on
  const left = clock ? timeLeft(clock, live ? session.serverClockNow() : clock.since_ms) : null;
  for (const chip of document.querySelectorAll('.tri-player')) {
    const seat = Number(chip.dataset.seat);
    const box = chip.querySelector('[data-clock]');
    if (!box) continue;
    box.hidden = !clock;
    if (!clock) continue;
    const ms = left[seat];
    box.textContent = formatClock(ms);
    box.dataset.leftMs = String(Math.round(ms));
    const berserk = Boolean(ctx.session.view.berserk?.[seat]); // half the clock: marked for both players
    box.classList.toggle('is-berserk', berserk);
    const said = t('games.triangles.clock.aria', { name: nameOf(seat), time: formatClock(ms) });
    box.setAttribute('aria-label', berserk ? `${said} · ${t('games.triangles.arena.berserk_mark')}` : said);
    box.classList.toggle('is-running', live && clock.running === seat);
    box.classList.toggle('is-low', ms < 10_000 && !clock.per_move);
  }
  // Tick again at the next change the player can see (tenths under 10 s), offline too.
  if (live) {
    const ms = left[clock.running];
    const step = ms < 10_000 ? 100 : 1000;
    timer = setTimeout(renderClocks, Math.max(20, (ms % step) + 1 || step));
  }
}

/** A rating as players read it: whole, with "?" while provisional (app/fair_play.py). */
export function shownRating(rating, provisional) {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

export function ratingOf(seat) {
  const holder = ctx.session.players?.[seat];
  return holder?.rating == null ? '' : ` · ${shownRating(holder.rating, holder.provisional)}`;
}

export function ratingChange() {
  const outcome = ctx.session?.data?.outcome;
  if (outcome?.unrated) return t(`games.triangles.clock.unrated.${outcome.unrated}`);
  const change = outcome?.ratings;
  if (!change) return null;
  const seats = ctx.session.seats.length ? ctx.session.seats.slice(0, 1) : [0, 1];
  return seats.map((seat) => {
    const line = change.seats[seat];
    const delta = Math.round(line.after) - Math.round(line.before);
    const text = t('games.triangles.clock.rating_change', {
      before: Math.round(line.before), after: shownRating(line.after, line.provisional), delta: delta >= 0 ? `+${delta}` : `−${-delta}`,
    });
    return ctx.session.seats.length ? text : `${nameOf(seat)}: ${text}`;
  }).join(' · ');
}
