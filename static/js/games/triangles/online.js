/**
 * online — what only online matches have: the live socket, who is connected, the invite
 * card while the second seat is open, taking that seat, claiming the win from an absent
 * opponent, and the rematch.
 *
 *   const online = new Online(ctx)
 *     ctx: {session, onJoined(msg), onRematch(r), onCancelled(), render()}
 *   online.connect(gameId, since)   opens (or re-opens) the session's GameSocket (the session
 *                                    takes its states and moves; moves go through it)
 *   online.status                    "connecting" | "open" | "closed"
 *   online.hearing()                 the socket is open and the page online: presence is news
 *   online.close()
 *   online.awayMs(seat)              how long that seat has been away (null: unknown)
 *   online.claimable()               true when the viewer may claim the win now
 *   online.snooze()                  "keep waiting": ask again in a minute
 *   online.showInvite(gameId, {public}) / online.hideInvite()
 *   online.rematch(action)           POST /api/games/{id}/rematch → {rematch}
 */

import { t } from '../../core/i18n.js';
import { copyLink, formatTime, shareLink } from '../../core/ui.js';
import { S } from './state.js';
/** @import { RematchAnswer, ServerFrame } from '../../types/wire' */

export class Online {
  constructor(ctx) {
    this.ctx = ctx;
    this.gameId = null;
    this.snoozedUntil = 0;
    this.ticker = 0;
    this.inviteUrl = '';
    const waiting = document.getElementById('tri-waiting');
    waiting.querySelector('[data-action="invite-copy"]').addEventListener('click', () => copyLink(this.inviteUrl));
    const share = waiting.querySelector('[data-action="invite-share"]');
    share.hidden = typeof navigator.share !== 'function';
    share.addEventListener('click', () => shareLink(this.inviteUrl, t('games.triangles.invite.share_title')));
    const url = document.getElementById('tri-invite-url');
    url.addEventListener('focus', () => url.select());
  }

  connect(gameId, since = -1) {
    const session = this.ctx.session;
    if (this.gameId === gameId && (session.socket || session.connecting)) return;
    this.close();
    this.gameId = gameId;
    // through the session: its socket's status is the page's connection state
    session.connect({
      onMessage: (msg) => this.message(msg),
      onStatus: () => this.ctx.render(),
    }, since);
    this.ticker = setInterval(() => this.ctx.render(), 1000);
  }

  /** The session's socket, which only this page part opens: "connecting" too while its
   *  code loads. */
  get status() {
    const { socket, connecting } = this.ctx.session;
    if (socket) return socket.status;
    return connecting ? 'connecting' : 'closed';
  }

  close() {
    clearInterval(this.ticker);
    this.ctx.session.disconnect();
  }

  /** @param {ServerFrame} msg a frame the session leaves to the page */
  message(msg) {
    switch (msg.type) {
      case 'presence':
        S.presence = msg.presence;
        S.presenceAt = performance.now();
        this.ctx.render();
        break;
      case 'joined':
        this.ctx.onJoined(msg);
        break;
      case 'rematch':
        this.ctx.onRematch(msg.rematch);
        break;
      case 'cancelled':
        this.ctx.onCancelled();
        break;
      default:
        break;
    }
  }

  /* ------------------------------------------------------------ presence ---------- */

  awayMs(seat) {
    const p = S.presence?.[seat];
    if (!p) return null;
    if (p.connected) return 0;
    if (p.away_ms == null) return null;
    return p.away_ms + (performance.now() - (S.presenceAt || performance.now()));
  }

  /** Milliseconds since the current turn began, on the server's clock. */
  turnMs() {
    const { session } = this.ctx;
    if (!session.view) return 0;
    return session.serverNow() - (session.view.turn_started_ms || 0);
  }

  /** The page hears the game live: its socket is open and the server answers (a socket can
   *  outlive the network for a while: then the session already knows it is offline). */
  hearing() {
    return this.status === 'open' && this.ctx.session.online;
  }

  presenceText(seat) {
    const p = S.presence?.[seat];
    // offline, the last news is no news: no "online" / "away 0:12" (the status line says why)
    if (!p || this.ctx.session.players?.[seat]?.kind !== 'player' || !this.hearing()) return '';
    if (p.connected) return t('games.triangles.presence.online');
    const away = this.awayMs(seat);
    if (away == null) return t('games.triangles.presence.offline');
    return t('games.triangles.presence.away', { time: formatTime(away) });
  }

  /** The viewer holds a seat, the opponent is to move and has been gone as long as the
   *  server's view says a claim needs (claim_after_ms). */
  claimable() {
    const { session } = this.ctx;
    const view = session.view;
    if (!view || view.over || session.status !== 'active' || !session.seats.length) return null;
    const turn = view.turn;
    if (turn == null || session.seats.includes(turn)) return null;
    const p = S.presence?.[turn];
    if (!p || p.connected) return null;
    const sinceTurn = this.turnMs();
    const away = this.awayMs(turn) ?? sinceTurn;
    const waited = Math.min(away, sinceTurn);
    if (view.claim_after_ms == null || waited < view.claim_after_ms) return null;
    return { away, seat: turn };
  }

  snooze() {
    this.snoozedUntil = performance.now() + (this.ctx.session.view?.claim_after_ms ?? 0);
  }

  snoozed() {
    return performance.now() < this.snoozedUntil;
  }

  /* ------------------------------------------------------------ invite ------------ */

  showInvite(gameId, { isPublic = false } = {}) {
    this.inviteUrl = `${location.origin}/g/${encodeURIComponent(gameId)}`;
    const waiting = document.getElementById('tri-waiting');
    document.getElementById('tri-invite-url').value = this.inviteUrl;
    document.getElementById('tri-invite-public').hidden = !isPublic;
    waiting.hidden = false;
  }

  hideInvite() {
    document.getElementById('tri-waiting').hidden = true;
  }

  /* ------------------------------------------------------------ rematch ----------- */

  async rematch(action) {
    const { session } = this.ctx;
    const result = /** @type {RematchAnswer} */ (await session.post(`/api/games/${encodeURIComponent(session.id)}/rematch`, { action }));
    return result.rematch;
  }
}
