/**
 * names — how a seat of a Triangles game is named, in play and in its replay: the computer
 * as "Computer", the viewer's own seat against the computer as "You", the seats of a game
 * on one device as "Player 1" / "Player 2", anyone else by their name, or "Player N" when
 * they have none. Who holds a seat is the server's (`players`: [{kind, name}]), as is how
 * the game is played (the view's kind, computer_seat).
 *
 *   seatName({kind, computerSeat, players, mine}, seat) → text
 *   numberedSeat(seat) → "Player 1" | "Player 2"
 *     kind: "computer" | "human" | "online"; mine: the seats the viewer holds
 */

import { t } from '../../core/i18n.js';

/** "Player 1", "Player 2" (each word named whole: build.mjs keeps in the page's words
 * the common ones its script names). */
export const numberedSeat = (seat) => t(seat === 0 ? 'common.player1' : 'common.player2');

export function seatName({ kind, computerSeat = null, players = [], mine = [] }, seat) {
  const numbered = numberedSeat(seat);
  if (kind === 'human') return numbered;
  const holder = players[seat];
  if (kind === 'computer') {
    if (seat === computerSeat || holder?.kind === 'computer') return t('common.computer');
    if (mine.includes(seat)) return t('common.you');
    return holder?.name || numbered;
  }
  if (holder?.kind === 'open') return t('games.triangles.seat.open');
  if (holder?.kind === 'computer') return t('common.computer');
  return holder?.name || numbered;
}
