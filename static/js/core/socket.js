/**
 * socket — a live game's WebSocket. Only pages with a live game load it (Session.connect
 * imports it then): a game played over REST never downloads it. It imports nothing: what it
 * shares with the page's script (ApiError, the catalog's t) is handed to it, since a module
 * both imported would be split by the build into a chunk of its own, a request more for
 * every game page.
 *
 *   const socket = new GameSocket(gameId, {onState, onMove, onMessage, onStatus}, {since, ApiError, t})
 *       connects to ws(s)://<host>/ws/games/<id>?since=<last version>, reconnects with
 *       back-off (0.5 s … 15 s, and at once when the browser comes back online or the
 *       tab becomes visible), pings every 25 s (the server closes a socket silent for
 *       90 s, with 4408: it is reopened like any other).
 *     onState(msg)   {type:"state", version, view, status, outcome, players, missed?, ...}:
 *                    a full snapshot (on connect, on reconnect, after a sync); render it whole
 *     onMove(msg)    {type:"move", version, view, events, status, outcome}: the next move
 *     onMessage(msg) anything else: "joined", "cancelled", errors without a request id …
 *     onStatus(s)    "connecting" | "open" | "closed"
 *     socket.version           last version seen (-1 before the first state)
 *     socket.status            the current status
 *     socket.send(obj)         → true when sent
 *     socket.move(version, move) → Promise resolved with the move's result (what a REST move
 *                                  answers, with from_version and receivedAt; the server
 *                                  sends the move no other frame), or rejected with an
 *                                  ApiError (the server's error, or "offline"/"disconnected"/
 *                                  "timeout"). A result whose promise gave up already is
 *                                  handed to onMove like a move frame.
 *     socket.sync()            asks for a fresh state
 *     socket.close()           closes for good
 *   A move message whose version is not last+1 triggers a sync (the server also resends
 *   the state itself when it notices a gap), so a page may receive onMove and then onState.
 */

/**
 * @import { ApiError } from './api.js'
 * @import { t } from './i18n.js'
 * @import { ClientFrame, MoveFrame, MoveMessage, Received, ServerFrame, SocketResult } from '../types/wire'
 * @import { SocketHandlers } from '../types/page'
 */

const PING_MS = 25_000;
const MOVE_TIMEOUT_MS = 15_000;
const CLOSE_NOT_FOUND = 4404;

export class GameSocket {
  /** @param {string} gameId @param {SocketHandlers} handlers
   *  @param {{since?: number, ApiError: typeof ApiError, t: typeof t}} options */
  constructor(gameId, handlers, { since = -1, ApiError, t }) {
    this.ApiError = ApiError;
    this.t = t;
    this.gameId = gameId;
    this.handlers = handlers;
    this.version = since;
    this.status = 'closed';
    this.ws = null;
    this.pending = new Map(); // request id → {resolve, reject, timer}
    this.seq = 0;
    this.attempt = 0;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.closed = false;
    this.wake = () => {
      if (!this.closed && document.visibilityState === 'visible' && this.status === 'closed') this.connect();
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
    this.connect();
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.version >= 0 ? `?since=${this.version}` : '';
    return `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}${query}`;
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.handlers.onStatus?.(status);
  }

  connect() {
    clearTimeout(this.retryTimer);
    if (this.closed || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    this.setStatus('connecting');
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.attempt = 0;
      this.setStatus('open');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), PING_MS);
    });
    ws.addEventListener('message', (event) => this.receive(event.data));
    ws.addEventListener('close', (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      // A move whose result did not come may or may not have been played: the
      // reconnection's state (?since=) says which.
      this.failPending('disconnected', this.t('common.conn.closed'));
      this.setStatus('closed');
      if (this.closed || event.code === CLOSE_NOT_FOUND) return;
      const delay = Math.min(15_000, 500 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.retryTimer = setTimeout(() => {
        if (document.visibilityState === 'visible' && navigator.onLine !== false) this.connect();
      }, delay);
    });
  }

  /** @param {string} data */
  receive(data) {
    /** @type {Received<ServerFrame>} */
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    switch (msg.type) {
      case 'state':
        this.version = msg.version;
        msg.receivedAt = performance.now();
        this.handlers.onState?.(msg);
        break;
      case 'move':
        this.follow(msg, msg);
        break;
      case 'result': {
        /** @type {SocketResult} */
        const result = { ...msg.result, from_version: msg.from_version, receivedAt: performance.now() };
        if (this.pending.has(msg.id)) {
          this.follow(result, null);
          this.settle(msg.id, (p) => p.resolve(result));
        } else {
          this.follow(result, { ...result, type: 'move' }); // its promise gave up: a move like any other
        }
        break;
      }
      case 'pong':
        break;
      case 'error':
        if (msg.id != null && this.pending.has(msg.id)) {
          this.settle(msg.id, (p) => p.reject(this.ApiError.from(msg.status ?? 422, msg)));
        } else {
          this.handlers.onMessage?.(msg);
        }
        break;
      default:
        this.handlers.onMessage?.(msg);
    }
  }

  /** A move of the game (a frame, or a result): the version moves on, and a gap asks for
   * the state; `frame` (when given and new) goes to onMove.
   * @param {SocketResult | Received<MoveFrame>} move @param {Received<MoveFrame> | null} frame */
  follow(move, frame) {
    if (move.version <= this.version) return; // already have it
    const gap = this.version >= 0 && move.from_version !== this.version;
    this.version = move.version;
    if (frame) {
      frame.receivedAt ??= performance.now();
      this.handlers.onMove?.(frame);
    }
    if (gap) this.sync();
  }

  settle(id, fn) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    fn(entry);
  }

  failPending(code, message) {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, (p) => p.reject(new this.ApiError(0, code, message)));
    }
  }

  /** @param {ClientFrame} obj */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  sync() {
    return this.send({ type: 'sync', version: this.version });
  }

  /** @param {number} version @param {MoveMessage['move']} move @returns {Promise<SocketResult>} */
  move(version, move) {
    const id = `m${++this.seq}`;
    return new Promise((resolve, reject) => {
      if (!this.send({ type: 'move', version, move, id })) {
        reject(new this.ApiError(0, 'offline', this.t('common.error.network')));
        return;
      }
      const timer = setTimeout(
        () => this.settle(id, (p) => p.reject(new this.ApiError(0, 'timeout', this.t('common.error.timeout')))),
        MOVE_TIMEOUT_MS,
      );
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    this.failPending('disconnected', this.t('common.conn.closed'));
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
    this.setStatus('closed');
  }
}
