/**
 * state — what the Triangles page holds beside the session (core/session.js holds the game:
 * id, version, view, status, seats, players, params), and the questions the rest of the page
 * asks about both. How a game is played and which seat the computer holds come from the view
 * (kind, computer_seat); nothing here restates a rule.
 *
 *   S            the page's own state: what is being played out, sent, offered, shown
 *   ctx          {page, session, board, menu, online, final, input}: filled in by main.js
 *                (page: core/game-page.js, which keeps the stored game and the address)
 *   mode(), computerSeat(), mySeat(), isSpectator(), nameOf(seat), turnNow(), scoresNow(),
 *   canAct()
 */

import { seatName } from './names.js';
/**
 * @import { GamePage } from '../../core/game-page.js'
 * @import { Session } from '../../core/session.js'
 * @import { TrianglesMove, TrianglesView } from '../../types/wire'
 */

/** @type {{page: GamePage<TrianglesView, TrianglesMove>, session: Session<TrianglesView, TrianglesMove>} & Record<string, any>} */
export const ctx = { page: null, session: null, board: null, menu: null, online: null, final: null, input: null };

export const S = {
  presence: null,
  presenceAt: 0,
  busy: false, // a move of the player's is on its way
  thinking: false,
  animating: false,
  display: null, // {scores, turn} while events are being played
  again: null, // the seat that closed a triangle and draws again
  finalShown: false,
  playedOn: false, // a game under way was shown here: its end changes the stats the page read
  rematch: null,
  stats: null,
  public: false,
  keyboard: false, // the player uses the keyboard: the field takes the focus on a new game
  arena: null, // an arena game's arena: {id, endsAt} (endsAt on performance.now(), arena.js)
};

/** How the game is played, as the view says: "computer" | "human" | "online" (null: none). */
export function mode() {
  return ctx.session.view?.kind ?? null;
}

/** The seat the computer holds (the view's), or null. */
export function computerSeat() {
  return ctx.session.view?.computer_seat ?? null;
}

export function mySeat() {
  return ctx.session.seats.length ? ctx.session.seats[0] : null;
}

export function isSpectator() {
  return Boolean(ctx.session.view) && !ctx.session.seats.length;
}

export function nameOf(seat) {
  const { players, seats } = ctx.session;
  return seatName({ kind: mode(), computerSeat: computerSeat(), players, mine: seats }, seat);
}

export function turnNow() {
  if (S.thinking) return computerSeat(); // the computer is about to answer
  if (S.display) return S.display.turn;
  return ctx.session.view && !ctx.session.view.over ? ctx.session.view.turn : null;
}

export function scoresNow() {
  return S.display ? S.display.scores : ctx.session.view ? ctx.session.view.scores : [0, 0];
}

export function canAct() {
  return Boolean(
    ctx.session.view && !ctx.session.view.over && ctx.session.status === 'active' && !S.busy && !S.animating
      && ctx.session.seats.includes(ctx.session.view.turn),
  );
}
