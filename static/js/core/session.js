/**
 * session — the one game session every game page runs on: boot (new, resume, number, daily),
 * the move queue, one stale-version policy, the server clock, local storage, the socket and
 * the connection state. A game module never fetches or stores anything itself.
 *
 *   const session = new Session(game, hooks)
 *     hooks.adopt(data, why)   the server's state replaces the page's ("stale", "refresh",
 *                              "reconnect"); the game re-renders it whole
 *     hooks.connection(state)  "online" | "offline" (optional; <body data-connection> and the
 *                              banner are kept here)
 *     hooks.play(result)       (optional) plays a move's events out before the session takes
 *                              it; awaited in the queue, so the player's moves and the socket's
 *                              play in order. A game that gives it is then shown every move by
 *                              adopt(data, "move"); the socket's snapshots come as "sync".
 *   session.id, number, version, view, seat, seats, status, daily, params, players, data
 *   session.store             localStorage under "<game>.": get(key, fallback), set(key, value|null)
 *   session.take(data, receivedAt?)  keeps what a server answer says (id, version, view,
 *                             server_ms…); `receivedAt` (performance.now() when it arrived)
 *                             for an answer played out later, so the clock is not set back
 *   session.start(data)       another game: forgets the last one, then takes data
 *   session.create(body)      POST /api/games {game, ...body}; takes the answer
 *   session.load(id)          GET /api/games/{id}; takes the answer
 *   session.resumable(id)     the stored game if it can be played on (seated, active, not over)
 *   session.get(path) / session.post(path, body)   other calls, through the connection watch
 *   session.move(move, {retry}?) queued; through the live socket when one is open, else REST;
 *                             → {ok: true, result: {version, view, events, status, outcome,
 *                             server_ms}} | {ok: false, error: ApiError} | {ok: false, gone: true}
 *                             the same for both transports.
 *                             One stale-version policy for every game: on a 409 the server's
 *                             state is adopted (hooks.adopt) and the move is refused with
 *                             code "stale_version" (the player sees the board it was made
 *                             against had changed); `retry` (for moves that only restate the
 *                             page, such as a pause) sends it once more against that state.
 *   session.post1(move, {retry}?) the same move, not queued (for a task already in the queue)
 *   session.enqueue(task)     runs after every queued move (<body data-pending> counts them)
 *   (a snapshot of another build than the page's, `build` vs <html data-assets>, reloads
 *   the page once its moves in flight are answered: body[data-reloading])
 *   session.refresh()         loads the game again and adopts it
 *   session.serverNow()       the server's game clock now (frozen while offline)
 *   session.serverClockNow()  the server's clock by the last answer + local time since (runs
 *                             on while offline: the server keeps charging a chess clock)
 *   session.online            false while the server cannot be reached
 *   await session.connect(handlers) opens the GameSocket for live games (its status is the
 *                             connection; its state and move frames are taken in the queue, see
 *                             hooks); its module (core/socket.js) is loaded then, so a page
 *                             playing over REST never downloads it. → the socket, or null when
 *                             disconnect() or another connect() came while it loaded
 *
 * While the server cannot be reached the page says so (a banner, body[data-connection=
 * "offline"]) until it can again; the session probes it and, once back, adopts the server's
 * state, so play resumes by itself.
 */

import { ApiError, api, moveAnswer } from './api.js';
import { setConnection } from './connection.js';
import { reloadFor, shouldReload } from './deploy.js';
import { t } from './i18n.js';
import { storage } from './storage.js';
import { pageVersion } from './worker.js';

/** @import { GameAnswer, GameStatus, LoadedGame, MoveAnswer, MoveFrame, Received, SocketResult, StateFrame } from '../types/wire' */
/** @import { MoveOutcome, SessionHooks, SocketHandlers } from '../types/page' */
/** @import { GameSocket } from './socket.js' */

const PROBE_MS = [1000, 2000, 3000, 5000];
/** @type {MoveOutcome} */ const GONE = Object.freeze({ ok: false, gone: true, error: null });

/** A game's session. `View`, `Move`: the game's own (types/wire.d.ts), as its page is typed.
 *  @template {{over?: unknown}} [View=any] @template [Move=any] */
export class Session {
  /** @param {string} game @param {SessionHooks} [hooks] */
  constructor(game, hooks = {}) {
    this.game = game;
    this.hooks = hooks;
    this.store = storage(`${game}.`);
    this.id = /** @type {string | null} */ (null);
    this.number = /** @type {string | null} */ (null);
    this.version = 0;
    this.view = /** @type {View | null} */ (null); // the engine's view for this page's seat
    this.seat = /** @type {number | null} */ (null);
    this.seats = /** @type {number[]} */ ([]);
    this.status = /** @type {GameStatus | null} */ (null);
    this.daily = /** @type {string | null} */ (null);
    this.params = /** @type {Record<string, any> | null} */ (null);
    this.players = /** @type {LoadedGame['players'] | null} */ (null);
    this.data = /** @type {GameAnswer | null} */ (null); // the last answer taken, whole
    this.serverMs = 0;
    this.localMs = performance.now();
    this.online = true;
    this.frozenMs = null;
    this.chain = Promise.resolve();
    this.pending = 0;
    document.body.dataset.pending = '0';
    this.socket = /** @type {GameSocket | null} */ (null);
    this.connecting = /** @type {object | null} */ (null); // a connect() loading the socket's module
    this.probeTimer = 0;
    this.probes = 0;
    setConnection('online');
    window.addEventListener('offline', () => this.lost());
    window.addEventListener('online', () => this.probe());
  }

  /* ------------------------------------------------------------------ state ---- */

  /** @param {GameAnswer} data */
  start(data) {
    Object.assign(this, {
      id: null, number: null, version: 0, view: null, seat: null, seats: [], status: null,
      daily: null, params: null, players: null, data: null,
    });
    return this.take(data);
  }

  /** @param {GameAnswer} data @param {number} [receivedAt] */
  take(data, receivedAt = performance.now()) {
    if (!data) return data;
    if (data.id) {
      this.id = data.id;
      document.body.dataset.gameId = data.id; // the end card's replay link
    }
    if (data.number) this.number = data.number;
    if (typeof data.version === 'number') this.version = data.version;
    if (data.view) this.view = /** @type {View} */ (/** @type {unknown} */ (data.view));
    if ('seat' in data) this.seat = data.seat;
    if (Array.isArray(data.seats)) this.seats = data.seats;
    else if ('seat' in data) this.seats = data.seat === null || data.seat === undefined ? [] : [data.seat];
    if (data.status) this.status = data.status;
    if (data.daily) this.daily = data.daily;
    if (data.params) this.params = data.params;
    if (data.players) this.players = data.players;
    if (typeof data.server_ms === 'number') {
      this.serverMs = data.server_ms;
      this.localMs = receivedAt;
      this.lastHeard = { serverMs: data.server_ms, localMs: receivedAt };
      if (!this.online) this.frozenMs = data.server_ms;
    }
    this.data = data;
    if (data.build && pageVersion && data.build !== pageVersion) this.outdated(data.build);
    return data;
  }

  /** The server serves another build (a deploy): the page loads itself again once the
   *  moves in flight are answered (core/deploy.js). */
  outdated(build) {
    if (this.reloading || !shouldReload(build)) return;
    this.reloading = true;
    this.enqueue(() => reloadFor(build));
  }

  get spectator() {
    return this.view !== null && this.seats.length === 0;
  }

  serverNow() {
    if (this.frozenMs !== null) return this.frozenMs;
    return this.serverMs + (performance.now() - this.localMs);
  }

  /** The server's clock now by the last answer heard and the local time since, running on
   *  while offline: a chess clock the server keeps charging through an outage. */
  serverClockNow() {
    const heard = this.lastHeard ?? { serverMs: this.serverMs, localMs: this.localMs };
    return heard.serverMs + (performance.now() - heard.localMs);
  }

  /* ------------------------------------------------------------------ calls ---- */

  /** Every call goes through here: a network failure turns the page offline. */
  async call(method, path, body) {
    try {
      const data = await api(method, path, body);
      if (!this.online) this.back();
      return data;
    } catch (error) {
      if (error.status === 0 && error.code === 'network') this.lost();
      else if (!this.online && error.status > 0) this.back();
      throw error;
    }
  }

  get(path) {
    return this.call('GET', path);
  }

  post(path, body) {
    return this.call('POST', path, body);
  }

  async create(body) {
    return this.take(await this.post('/api/games', { game: this.game, ...body }));
  }

  async load(id) {
    return this.take(await this.get(`/api/games/${encodeURIComponent(id)}`));
  }

  /** Fetches a stored game without taking it; null unless it can be played on. */
  async resumable(id) {
    if (typeof id !== 'string' || !id) return null;
    try {
      const data = await this.get(`/api/games/${encodeURIComponent(id)}`);
      const seated = Array.isArray(data.seats) ? data.seats.length > 0 : data.seat !== null && data.seat !== undefined;
      if (data.game === this.game && seated && ['active', 'waiting'].includes(data.status) && !data.view?.over) return data;
    } catch {
      /* gone */
    }
    return null;
  }

  /** Runs after every queued move; <body data-pending> counts what is queued (tests wait
   *  for "0" instead of sleeping).
   *  @template T @param {() => T | Promise<T>} task @returns {Promise<T>} */
  enqueue(task) {
    this.pending = (this.pending ?? 0) + 1;
    document.body.dataset.pending = String(this.pending);
    const run = this.chain.then(task);
    this.chain = run.catch(() => {}).then(() => {
      this.pending -= 1;
      document.body.dataset.pending = String(this.pending);
    });
    return run;
  }

  /** Queues a move for the game on screen now (dropped when another game opens first).
   *  @param {Move} move @param {{retry?: boolean}} [options] @returns {Promise<MoveOutcome>} */
  move(move, options = {}) {
    const id = this.id;
    return this.enqueue(() => (id && this.id === id ? this.post1(move, options) : GONE));
  }

  /** One move now, not queued: through the live socket when one is open, else REST. Both
   *  answer {version, view, events, status, outcome, server_ms} and refuse with an ApiError
   *  (a stale one carries the server's state in error.body.current).
   *  @param {Move} move @param {{retry?: boolean}} [options] @returns {Promise<MoveOutcome>} */
  async post1(move, { retry = false } = {}) {
    const id = this.id;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const { data, result, receivedAt } = await this.transmit(id, move);
        if (this.id !== id) return GONE;
        await this.land(data, result, receivedAt);
        return { ok: true, result };
      } catch (error) {
        if (this.id !== id) return GONE;
        if (error.code === 'stale_version' && error.body?.current && attempt === 0) {
          this.take(error.body.current);
          this.hooks.adopt?.(error.body.current, 'stale');
          if (retry && !this.view?.over) continue;
          return { ok: false, error };
        }
        return { ok: false, error };
      }
    }
    return { ok: false, error: null };
  }

  /** @param {string} id @param {any} move @returns {Promise<{data: SocketResult | GameAnswer, result: MoveAnswer, receivedAt: number}>} */
  async transmit(id, move) {
    const socket = this.socket;
    if (socket && socket.gameId === id && socket.status === 'open') {
      const data = await socket.move(this.version, move);
      return { data, result: moveAnswer(data), receivedAt: data.receivedAt };
    }
    const data = await this.post(`/api/games/${encodeURIComponent(id)}/moves`, { version: this.version, move });
    return { data, result: moveAnswer(data), receivedAt: performance.now() };
  }

  /** A move the server answered: played out by the game (hooks.play, against the state it
   *  was made on), then taken; a game that plays moves out is shown the result by adopt. */
  /** @param {GameAnswer} data @param {MoveAnswer} result @param {number} receivedAt */
  async land(data, result, receivedAt) {
    if (this.hooks.play) await this.hooks.play(result);
    this.take(data, receivedAt);
    if (this.hooks.play) this.hooks.adopt?.(data, 'move');
  }

  /** @param {'refresh' | 'reconnect'} [why] */
  async refresh(why = 'refresh') {
    const id = this.id;
    if (!id) return null;
    try {
      const data = await this.get(`/api/games/${encodeURIComponent(id)}`);
      if (this.id !== id) return null;
      this.take(data);
      this.hooks.adopt?.(data, why);
      return data;
    } catch {
      return null;
    }
  }

  /* ------------------------------------------------------------------ socket --- */

  /** Opens the socket. Its state and move frames are queued behind the moves in flight and
   *  taken here (a move frame that does not follow the version on screen is adopted whole);
   *  the other handlers (onMessage, onStatus) are the page's. */
  /** @param {SocketHandlers} handlers @param {number} [since] @returns {Promise<GameSocket | null>} */
  async connect(handlers, since = this.version) {
    this.disconnect();
    const attempt = {};
    this.connecting = attempt;
    const { GameSocket } = await import('./socket.js');
    if (this.connecting !== attempt) return null; // given up, or another socket asked for
    this.connecting = null;
    let opened = false;
    const socket = new GameSocket(this.id, {
      ...handlers,
      onState: (msg) => this.frame(socket, msg, performance.now()),
      onMove: (msg) => this.frame(socket, msg, performance.now()),
      onStatus: (status) => {
        if (status === 'open') {
          opened = true;
          if (!this.online) this.back(false);
        } else if (status === 'closed' && opened && !this.socket?.closed) {
          this.lost();
        }
        handlers.onStatus?.(status);
      },
    }, { since, ApiError, t });
    this.socket = socket;
    return socket;
  }

  /** @param {GameSocket} socket @param {Received<StateFrame> | Received<MoveFrame>} msg @param {number} receivedAt */
  frame(socket, msg, receivedAt) {
    return this.enqueue(async () => {
      if (socket !== this.socket || socket.gameId !== this.id) return; // another game by now
      if (msg.type === 'move' && msg.version <= this.version) return; // already taken
      // a snapshot sent before a move of ours that has been answered since is older news
      if (msg.type === 'state' && msg.version < this.version) return;
      if (msg.type === 'move' && msg.from_version === this.version) {
        await this.land(msg, moveAnswer(msg), receivedAt);
        return;
      }
      this.take(msg, receivedAt);
      this.hooks.adopt?.(msg, 'sync');
    });
  }

  disconnect() {
    this.connecting = null;
    this.socket?.close();
    this.socket = null;
  }

  /* ------------------------------------------------------------------ connection */

  lost() {
    if (this.online) {
      this.online = false;
      this.frozenMs = this.serverNow();
      setConnection('offline');
      this.hooks.connection?.('offline');
    }
    if (!this.probeTimer) this.schedule();
  }

  schedule() {
    clearTimeout(this.probeTimer);
    const delay = PROBE_MS[Math.min(this.probes, PROBE_MS.length - 1)];
    this.probes += 1;
    this.probeTimer = setTimeout(() => this.probe(), delay);
  }

  async probe() {
    clearTimeout(this.probeTimer);
    this.probeTimer = 0;
    if (this.online) return;
    try {
      // the game itself when there is one: what it answers is adopted at once
      const data = await api('GET', this.id ? `/api/games/${encodeURIComponent(this.id)}` : '/api/catalog');
      this.back(false);
      if (this.id && data?.id === this.id) {
        this.take(data);
        this.hooks.adopt?.(data, 'reconnect');
      }
    } catch (error) {
      if (error.status > 0) this.back();
    }
    if (!this.online) this.schedule();
  }

  back(refresh = true) {
    // The browser knows when it has no network at all: an answer to a call sent before the
    // drop, or a socket that outlived it, does not make the page online again.
    if (this.online || navigator.onLine === false) return;
    this.online = true;
    this.probes = 0;
    clearTimeout(this.probeTimer);
    this.probeTimer = 0;
    this.localMs = performance.now();
    this.serverMs = this.frozenMs ?? this.serverMs;
    this.frozenMs = null;
    setConnection('online');
    this.hooks.connection?.('online');
    if (refresh && this.id) this.refresh('reconnect');
    if (this.socket && this.socket.status === 'closed') this.socket.connect();
  }
}
