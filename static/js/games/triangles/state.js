/**
 * state — what the Triangles page holds between the server's answers, and the questions the
 * rest of the page asks about it. How a game is played and which seat the computer holds
 * come from the view (kind, computer_seat); nothing here restates a rule.
 *
 *   S            the page's state (the game as last shown, and what is being played out)
 *   ctx          {session, board, online, final}: filled in by main.js
 *   mode(), computerSeat(), mySeat(), isSpectator(), nameOf(seat), turnNow(), scoresNow(),
 *   canAct()
 */

import { t } from '../../core/i18n.js';

export const ctx = { session: null, board: null, online: null, final: null };

export const S = {
  id: null,
  number: null,
  params: null,
  view: null,
  version: 0,
  status: null,
  seats: [],
  players: null,
  presence: null,
  presenceAt: 0,
  busy: false,
  thinking: false,
  animating: false,
  display: null, // {scores, turn} while events are being played
  again: null, // the seat that closed a triangle and draws again
  finalShown: false,
  rematch: null,
  stats: null,
  chain: Promise.resolve(),
  socketStatus: 'closed',
  public: false,
  awaitVersion: 0,
};


/** How the game is played, as the view says: "computer" | "human" | "online" (null: none). */
export function mode() {
  return S.view?.kind ?? null;
}

/** The seat the computer holds (the view's), or null. */
export function computerSeat() {
  return S.view?.computer_seat ?? null;
}

export function mySeat() {
  return S.seats.length ? S.seats[0] : null;
}

export function isSpectator() {
  return Boolean(S.view) && !S.seats.length;
}

export function nameOf(seat) {
  const m = mode();
  if (m === 'computer') {
    if (seat === computerSeat()) return t('common.computer');
    return S.seats.length ? t('common.you') : S.players?.[0]?.name || t('common.player1');
  }
  if (m === 'human') return t(`common.player${seat + 1}`);
  const p = S.players?.[seat];
  if (p?.kind === 'open') return t('games.triangles.seat.open');
  return p?.name || t(`common.player${seat + 1}`);
}

export function turnNow() {
  if (S.thinking) return computerSeat(); // the computer is about to answer
  if (S.display) return S.display.turn;
  return S.view && !S.view.over ? S.view.turn : null;
}

export function scoresNow() {
  return S.display ? S.display.scores : S.view ? S.view.scores : [0, 0];
}

export function canAct() {
  return Boolean(
    S.view && !S.view.over && S.status === 'active' && !S.busy && !S.animating
      && S.version >= S.awaitVersion && S.seats.includes(S.view.turn),
  );
}
