/**
 * game-page — a game page's life on the shared session (core/session.js): the boot (the
 * page's route), the page's address, the stored current game, the daily board, the words
 * of a refusal, the links an end card copies or shares, and the connection state. A game
 * module supplies its board, input, HUD and menu content and reacts to what arrives here.
 *
 *   const page = new GamePage(game, hooks)
 *     hooks.opened(how)        a game is on the session (started, the address and the stored
 *                              game set): draw it whole. how: "game" (/g/<id>), "daily",
 *                              "played" (today's board, played before), "number", "resume",
 *                              "new"
 *     hooks.failed(error, how) the boot could open no game: the page offers a way on
 *     hooks.notice(text, kind) a line for the player (a refusal's words, kind "error")
 *     hooks.adopt(data, why)   the server's state replaced ours (session.js)
 *     hooks.play?(result)      plays a move's events out before the session takes it (session.js)
 *     hooks.connection(state)  "online" | "offline" (optional; the banner is the session's)
 *     hooks.slot?()            the stored game's key for the choice on screen ("current")
 *     hooks.address?()         the open game's path (default /g/<id>; null keeps the page's)
 *   page.session, page.store, page.config (the page-config JSON), page.catalog, page.query
 *   page.online               false while the server cannot be reached
 *   page.playedBefore         the open game is a once-a-day board played before ("played")
 *   page.boot(routes)         opens the route's game; every route can be replaced:
 *     /g/<id>                   loads it
 *     /daily/<game>             today's board: resumed if this browser holds it, else created
 *                               with routes.daily?() → body extras; "daily_played" → that game
 *     /play/<game>/<number>     created with routes.number?() → body extras, or
 *                               routes.choose?(number) → Promise: the page asks first (its
 *                               New game dialog on that board) and creates what is chosen
 *     else                      routes.fresh?() → Promise, default: page.resume() or
 *                               page.create(routes.body?() ?? {}, "new")
 *   page.open(data, how)      another game on screen: session.start, stored game,
 *                             hooks.opened, then its address (→ Promise: settled once taken)
 *   page.create(body, how?)   POST /api/games {game, ...body} and opens it; → null, or the
 *                             error (the game on screen, if any, stays)
 *   page.resume(slot?)        opens the stored game of that slot if it can be played on
 *                             → true; else forgets it → false
 *   page.remember() / forget(id?)  keeps / drops the open game (or that id) as the stored one
 *                             of its slot; a /g/<id> the server does not know is dropped at boot
 *   page.refuse(error, {refresh?, sound?})  a refused move: its words through hooks.notice, the
 *                             "refused" sound, and the server's state again when the code
 *                             says the game moved on (game_over, time_up, or `refresh` codes)
 *   page.mine(key, path)      the player's `key` ("records", "stats"): the first time, as the
 *                             page's JSON brought it (the server read it for the page); after
 *                             that (a game has ended since), asked anew at `path`; → what
 *                             `path` answers, {[key]: value}
 *   page.text(error)          the words for an error (core/errors.js)
 *   page.url(path, query?)    the absolute address of a path on this site
 *   page.copy(url) / page.share(url, title?)  the end card's and the menu's link actions
 *
 * A live game (seats, a socket) opens the same way: hooks.opened connects the session's
 * socket (session.connect) when the view is an online one; joining a seat or cancelling a
 * waiting game are the game's own calls, after which page.open(answer) shows it again.
 */

import { localDate } from './daily.js';
import { errorText } from './errors.js';
import { Session } from './session.js';
import { feedback } from './sound.js';
import { copyLink, pageConfig, shareLink } from './ui.js';

/**
 * @import { CreatedGame, GameAnswer, LoadedGame } from '../types/wire'
 * @import { PageHooks } from '../types/page'
 */

const ENDED = ['game_over', 'time_up']; // the game moved on: the page loads it again

/** The page takes the game's address (a reload resumes it) in a task of its own, after the
 * one that put the game on screen: a same-document navigation costs a throttled phone
 * 20-35 ms (bench/long_tasks.py --profile), which that task could not spare.
 * @param {string | null | undefined} path @returns {Promise<void>} */
function takeAddress(path) {
  if (!path || location.pathname === path) return Promise.resolve();
  return new Promise((taken) => {
    setTimeout(() => {
      if (location.pathname !== path) history.replaceState(null, '', path);
      taken();
    });
  });
}

/**
 * A game's page: `View` and `Move` are the game's own (types/wire.d.ts), so its controller
 * reads `page.session.view` and sends `page.session.move(…)` as the server's schema says:
 *   const page = new GamePage('pairs', hooks), typed `@type {GamePage<PairsView, PairsMove>}`.
 * @template {{over?: unknown}} [View=any] @template [Move=any]
 */
export class GamePage {
  /** @param {string} game @param {PageHooks} hooks */
  constructor(game, hooks) {
    this.game = game;
    this.hooks = hooks;
    /** @type {Session<View, Move>} */
    this.session = new Session(game, {
      adopt: hooks.adopt, connection: (state) => this.connected(state), play: hooks.play,
    });
    this.store = this.session.store;
    this.config = pageConfig();
    this.catalog = this.config.catalog ?? null; // the catalog entry came with the page
    this.query = new URLSearchParams(location.search);
  }

  get online() {
    return this.session.online;
  }

  /** @param {'records' | 'stats'} key @param {string} path @returns {Promise<any>} */
  async mine(key, path) {
    if (key in this.config) {
      const value = this.config[key];
      delete this.config[key]; // read once: a later call wants what has changed since
      return { [key]: value };
    }
    return this.session.get(path);
  }

  connected(state) {
    this.hooks.connection?.(state);
    // A page opened without a network (from the service worker's copy) could open no
    // game: once the server answers again, the page loads afresh and opens it.
    if (state === 'online' && this.bootedOffline) location.reload();
  }

  /* ------------------------------------------------------------------ boot ----- */

  async boot(routes = {}) {
    const cfg = this.config;
    const how = cfg.game_id ? 'game' : cfg.daily ? 'daily' : cfg.number ? 'number' : 'new';
    try {
      if (how === 'game') await this.open(await this.session.load(cfg.game_id), how);
      else if (how === 'daily') await this.openDaily(routes.daily?.() ?? {});
      else if (how === 'number' && routes.choose) await routes.choose(cfg.number);
      else if (how === 'number') await this.createOrThrow({ number: cfg.number, ...routes.number?.() }, how);
      else if (routes.fresh) await routes.fresh();
      else if (!(await this.resume())) await this.createOrThrow(routes.body?.() ?? {}, how);
    } catch (error) {
      if (how === 'game' && error.status === 404) this.forget(cfg.game_id); // gone for good
      this.bootedOffline = error.status === 0 && error.code === 'network';
      this.hooks.failed(error, how);
    }
  }

  async openDaily(body) {
    const date = localDate();
    this.dailyDate = date;
    const stored = this.store.get('daily', null);
    const mine = stored?.date === date ? stored.id : null; // today's board, started here
    const known = await this.session.resumable(mine);
    if (known && known.daily === date) {
      await this.open(known, 'daily');
      return;
    }
    const played = mine ? await this.playedDaily(mine, date) : null;
    if (played) {
      await this.open(played, 'played'); // finished here today: no second attempt is asked for
      return;
    }
    let data;
    let how = 'daily';
    try {
      data = await this.session.create({ daily: date, ...body });
    } catch (error) {
      const id = error.code === 'daily_played' ? error.body?.id ?? mine : null;
      if (!id) throw error;
      data = await this.session.load(id);
      how = 'played';
    }
    await this.open(data, how);
  }

  /** The stored daily game when it is today's and this player's, finished → its data. */
  async playedDaily(id, date) {
    try {
      const data = await this.session.get(`/api/games/${encodeURIComponent(id)}`);
      const seated = Array.isArray(data.seats) ? data.seats.length > 0 : data.seat !== null && data.seat !== undefined;
      return data.game === this.game && data.daily === date && seated && data.view?.over ? this.session.take(data) : null;
    } catch {
      return null;
    }
  }

  /* ------------------------------------------------------------------ games ---- */

  /** @param {LoadedGame | CreatedGame | GameAnswer} data @param {string} how */
  open(data, how) {
    const session = this.session;
    session.start(data);
    this.playedBefore = how === 'played'; // a once-a-day board the server says was played
    // today's board, even when the server no longer calls the game the daily one
    if ((how === 'daily' || how === 'played') && !session.daily) session.daily = this.dailyDate;
    const path = this.hooks.address ? this.hooks.address() : `/g/${encodeURIComponent(session.id)}`;
    this.remember();
    this.rememberDaily();
    this.hooks.opened(how);
    return takeAddress(path);
  }

  async createOrThrow(body, how = 'new') {
    await this.open(await this.session.create(body), how);
  }

  async create(body, how = 'new') {
    try {
      await this.createOrThrow(body, how);
      return null;
    } catch (error) {
      return error;
    }
  }

  async resume(slot = this.slot()) {
    const data = await this.session.resumable(this.store.get(slot));
    if (!data) {
      this.store.set(slot, null);
      return false;
    }
    await this.open(data, 'resume');
    return true;
  }

  slot() {
    return this.hooks.slot?.() ?? 'current';
  }

  /** Only a seated player's unfinished game is worth coming back to. */
  remember() {
    const session = this.session;
    if (session.id && !session.spectator && !session.view?.over) this.store.set(this.slot(), session.id);
  }

  forget(id = this.session.id) {
    const slot = this.slot();
    if (this.store.get(slot) === id) this.store.set(slot, null);
  }

  rememberDaily() {
    const session = this.session;
    if (session.daily && !session.spectator) this.store.set('daily', { date: session.daily, id: session.id });
  }

  /* ------------------------------------------------------------------ words ---- */

  text(error) {
    return errorText(this.game, error);
  }

  refuse(error, { refresh = [], sound = true } = {}) {
    const text = this.text(error);
    this.hooks.notice(text, 'error');
    if (sound) feedback('refused');
    const code = error?.code;
    if (ENDED.includes(code) || refresh.includes(code)) this.session.refresh();
    return text;
  }

  url(path, query = null) {
    const url = new URL(path, location.origin);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    return url.href;
  }

  copy(url) {
    return url ? copyLink(url) : Promise.resolve(false);
  }

  share(url, title = document.title) {
    return url ? shareLink(url, title) : Promise.resolve(false);
  }
}
