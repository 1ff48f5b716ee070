/**
 * arena/words — what the lobby's card and the arena pages say of an arena (shared words:
 * arena.*, in every catalog but the game pages'), and the server's clock they count on.
 *
 *   arenaTitle(a)        "Hourly bullet arena" (a site-run arena's schedule) or "Arena · 3+2"
 *   clockWords(clock)    "3 min + 2 s" (the game's words for its time control)
 *   countdown(a, now)    "Starts in 4:12" | "12:03 left" | "Over"
 *   when(a, now)         the countdown, or "Starts Sat 18:00" for a start over an hour away
 *   arenaStatus(a, now)  "upcoming" | "running" | "over", as the clock has it now (the server's
 *                        word until a start or end passes between two frames)
 *   serverClock()        {take(server_ms), now()}: the server's epoch ms now, by the last
 *                        answer's server_ms and the local time since
 */

import { has, lang, t } from '../core/i18n.js';
import { formatTime } from '../core/ui.js';
/** @import { ArenaSummary } from '../types/wire' */

/** @param {ArenaSummary} arena */
export function arenaTitle(arena) {
  if (arena.schedule) return t(`arena.title.${arena.schedule}`);
  return t('arena.title.custom', { clock: arena.clock });
}

export function clockWords(clock, game = 'triangles') {
  const key = `games.${game}.clock.choice.${clock}`;
  return has(key) ? t(key) : clock;
}

/** @param {ArenaSummary} arena @param {number} now */
export function arenaStatus(arena, now) {
  if (arena.status === 'over' || now >= arena.ends_at) return 'over';
  if (now >= arena.starts_at) return 'running';
  return 'upcoming';
}

/** @param {ArenaSummary} arena @param {number} now */
export function countdown(arena, now) {
  const status = arenaStatus(arena, now);
  if (status === 'upcoming') return t('arena.starts_in', { time: formatTime(arena.starts_at - now) });
  if (status === 'running') return t('arena.ends_in', { time: formatTime(arena.ends_at - now) });
  return t('arena.over');
}

const HOUR = 3_600_000;
let dates = null;

/** @param {ArenaSummary} arena @param {number} now */
export function when(arena, now) {
  if (arenaStatus(arena, now) !== 'upcoming' || arena.starts_at - now < HOUR) return countdown(arena, now);
  dates ??= new Intl.DateTimeFormat(lang(), { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  return t('arena.starts_at', { when: dates.format(arena.starts_at) });
}

export function serverClock() {
  let skew = 0;
  return {
    /** @param {number | undefined} serverMs */
    take(serverMs) {
      if (typeof serverMs === 'number') skew = serverMs - Date.now();
    },
    now: () => Date.now() + skew,
  };
}
