/**
 * Blocks — the page controller on the shared session (core/session.js): boots a game, sends
 * the player's intents (place, rotate, new set, continue, finish) and plays what the server
 * answers. Every rule (fits, ghosts, cleared lines, points, combos, tips, the end, which
 * modes count and what the record key is) comes from the catalog, the view and the events.
 *
 * Routes (templates/games/blocks.html, page-config {game, variant?, number?, daily?, game_id?}):
 *   /play/blocks                     → the last ruleset played (the catalog's default first)
 *   /play/blocks/<ruleset>[?mode=&rotation=1&new=1]
 *                                    resumes this ruleset/mode's unfinished game, else a new one
 *   /play/blocks/[<ruleset>/]<number> a shared board
 *   /daily/blocks                    today's board (the player's local date), once per day
 *   /g/<id>                          any game: resume, see its result, or watch it
 * A game's page moves to /g/<id> (history.replaceState) so a reload resumes it.
 */

import { localDate } from '../../core/daily.js';
import { errorText } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { Session } from '../../core/session.js';
import { feedback } from '../../core/sound.js';
import { copyLink, el, pageConfig, reducedMotion, shareLink } from '../../core/ui.js';
import { Board } from './board.js';
import { FinalCard } from './final.js';
import { Hud } from './hud.js';
import { Menu, renderHonour, rulesetsOf } from './menu.js';
import { Tray } from './tray.js';

const CONFIRM_MS = 3000;
const $ = (id) => document.getElementById(id);
const err = (error) => errorText('blocks', error);

class Blocks {
  constructor() {
    this.config = pageConfig();
    this.query = new URLSearchParams(location.search);
    this.session = new Session('blocks', { adopt: (data, why) => this.adopt(data, why) });
    this.store = this.session.store;
    this.hud = new Hud(this.session);
    this.catalog = null;
    this.records = new Map();
    this.honour = null;
    this.confirming = null;
    this.playedBefore = false;

    this.board = new Board($('blocks-board'));
    this.tray = new Tray($('blocks-tray'), this.board, {
      canMove: () => this.canPlay(),
      canRotate: () => this.canPlay() && Boolean(this.session.view?.can_rotate),
      onPlace: (slot, placement) => this.place(slot, placement),
      onRotate: (slot) => this.rotate(slot),
      onRefuse: (text) => this.hud.notice(text, 'error'),
      announce: (text) => this.hud.announce(text),
    });
    this.menu = new Menu($('blocks-menu'), $('blocks-side'), {
      onNew: (choice) => this.newGame(choice),
      onCopy: () => copyLink(this.shareUrl()),
      onShare: () => shareLink(this.shareUrl(), document.title),
    });
    this.final = new FinalCard($('blocks-final'), {
      link: () => this.shareUrl(),
      onNew: () => this.again(),
      onContinue: () => this.continueGame(),
      onToggle: () => this.render(),
    });

    $('blocks-menu-btn').addEventListener('click', () => this.menu.show());
    $('blocks-newset').addEventListener('click', () => this.pressNewSet());
    $('blocks-finish').addEventListener('click', () => this.pressFinish());
    $('blocks-show-result').addEventListener('click', () => this.showFinal());
    $('blocks-again').addEventListener('click', () => this.again());
    document.addEventListener('keydown', (event) => this.onKey(event));
    setInterval(() => this.tick(), 250);
  }

  /* ------------------------------------------------------------------ start -- */

  async boot() {
    this.catalog = this.config.catalog ?? null; // the catalog entry came with the page
    this.hud.catalog = this.catalog;
    const recordsLoad = this.loadRecords();
    try {
      const data = await this.open();
      if (!data) return; // the catalog offers no ruleset
      await recordsLoad;
      this.start(data);
    } catch (error) {
      this.fail(error);
    }
  }

  get rulesets() {
    return rulesetsOf(this.catalog);
  }

  async open() {
    const cfg = this.config;
    const session = this.session;
    if (cfg.game_id) return session.get(`/api/games/${encodeURIComponent(cfg.game_id)}`);
    if (cfg.daily) return this.openDaily();
    if (cfg.number) return session.post('/api/games', { game: 'blocks', number: cfg.number });
    let ruleset = cfg.variant;
    if (!ruleset || !this.rulesets.includes(ruleset)) {
      // The last ruleset played, else the catalog's default; the address says which.
      const last = this.store.get('ruleset');
      ruleset = this.rulesets.includes(last) ? last : this.catalog?.params?.ruleset?.default;
      if (!ruleset) return null;
      history.replaceState(null, '', `/play/blocks/${ruleset}${location.search}`);
      cfg.variant = ruleset;
    }
    const params = this.paramsFor(ruleset);
    const slot = `current.${params.ruleset}.${params.mode}.${params.rotation ? 1 : 0}`; // where this choice's game is kept
    if (!this.query.has('new')) {
      const data = await session.resumable(this.store.get(slot));
      if (data) {
        this.resumed = true;
        return data;
      }
      this.store.set(slot, null);
    }
    return session.post('/api/games', { game: 'blocks', params });
  }

  /** The options asked by the address or remembered, as far as the catalog offers them. */
  paramsFor(ruleset) {
    const spec = this.catalog?.rulesets?.[ruleset];
    const modes = spec?.modes ?? {};
    const fallback = this.catalog?.params?.mode?.default;
    const asked = this.query.get('mode') || this.store.get(`mode.${ruleset}`);
    const mode = modes[asked] && !modes[asked].daily_once ? asked : fallback;
    let rotation = false;
    if (spec?.rotation) {
      const q = this.query.get('rotation');
      rotation = q !== null ? q === '1' || q === 'true' : Boolean(this.store.get('rotation'));
    }
    return { ruleset, mode, rotation };
  }

  async openDaily() {
    const session = this.session;
    this.dailyDate = localDate();
    this.loadHonour(this.dailyDate);
    const known = await session.resumable(this.store.get(`daily.${this.dailyDate}`));
    if (known && known.daily === this.dailyDate) return known;
    const played = this.store.get(`daily.${this.dailyDate}`);
    try {
      const data = await session.post('/api/games', { game: 'blocks', daily: this.dailyDate });
      this.store.set(`daily.${this.dailyDate}`, data.id);
      return data;
    } catch (error) {
      const id = error.code === 'daily_played' ? error.body?.id ?? played : null;
      if (!id) throw error;
      this.playedBefore = true;
      this.store.set(`daily.${this.dailyDate}`, id);
      return session.get(`/api/games/${encodeURIComponent(id)}`);
    }
  }

  fail(error) {
    const variant = this.rulesets.includes(this.config.variant) ? this.config.variant : this.catalog?.params?.ruleset?.default ?? 'classic10';
    $('blocks').dataset.state = 'error';
    $('blocks-sub').textContent = err(error);
    const notice = $('blocks-notice');
    notice.hidden = false;
    notice.className = 'blocks-notice blocks-notice--error blocks-notice--failed';
    notice.replaceChildren(
      el('span', {}, err(error)),
      el('a', { class: 'btn btn-primary', href: `/play/blocks/${variant}?new=1` }, t('games.blocks.new_game')),
    );
    this.menu.setOptions({ catalog: this.catalog, ruleset: variant, mode: this.catalog?.params?.mode?.default, rotation: false, daily: false });
  }

  newGame({ ruleset, mode, rotation }) {
    const query = new URLSearchParams({ new: '1' });
    if (mode) query.set('mode', mode);
    if (this.catalog?.rulesets?.[ruleset]?.rotation) query.set('rotation', rotation ? '1' : '0');
    location.assign(`/play/blocks/${ruleset}?${query}`);
  }

  again() {
    if (this.session.spectator) {
      location.assign(this.boardUrl());
      return;
    }
    const { ruleset, mode, rotation } = this.session.view;
    const daily = this.catalog?.rulesets?.[ruleset]?.modes?.[mode]?.daily_once;
    this.newGame({ ruleset, mode: daily ? this.catalog?.params?.mode?.default : mode, rotation });
  }

  /* ------------------------------------------------------------------ state -- */

  slot() {
    const view = this.session.view;
    return `current.${view.ruleset}.${view.mode}.${view.rotation ? 1 : 0}`;
  }

  /** A game arrives: show it from scratch. */
  start(data) {
    const session = this.session;
    session.start(data);
    if (this.config.daily && !session.daily) session.daily = this.dailyDate;
    const view = session.view;
    if (!session.spectator && !session.daily) {
      this.store.set('ruleset', view.ruleset);
      this.store.set(`mode.${view.ruleset}`, view.mode);
      if (view.rotation !== undefined && this.catalog?.rulesets?.[view.ruleset]?.rotation) this.store.set('rotation', view.rotation);
      if (!view.over) this.store.set(this.slot(), session.id);
    }
    if (!this.config.daily && location.pathname !== `/g/${session.id}`) {
      history.replaceState(null, '', `/g/${encodeURIComponent(session.id)}`);
    }
    if (session.daily && !this.honourLoad) this.loadHonour(session.daily);
    else this.honourLoad?.then(() => renderHonour(document, this.honour, session.id));
    this.board.setSize(view.rows, view.cols);
    this.board.setGrid(view.grid);
    this.tray.setHand(view.hand, { maxExtent: view.rows > 8 ? 5 : 4, dealt: true });
    this.hud.setScore(false);
    this.menu.setOptions({ catalog: this.catalog, ruleset: view.ruleset, mode: view.mode, rotation: view.rotation, daily: Boolean(session.daily) });
    this.menu.setNumber(t('games.blocks.number_line', { number: session.number }));
    this.hud.titles();
    if (this.resumed) this.hud.notice(t('games.blocks.resumed'), 'info');
    if (session.spectator) this.hud.notice(t('games.blocks.watching'), 'info');
    this.render();
    if (view.over) setTimeout(() => this.showFinal(), reducedMotion() ? 0 : 350);
  }

  /** The server's state replaces ours (a stale version, a refresh, the connection back). */
  adopt() {
    const view = this.session.view;
    const wasOver = this.ended;
    this.board.setPending(null);
    this.board.setGrid(view.grid);
    this.tray.setHand(view.hand);
    this.hud.setScore(false);
    this.render();
    if (view.over && !wasOver) this.end();
  }

  canPlay() {
    const view = this.session.view;
    return Boolean(view) && !this.session.spectator && !view.over && !this.final.open && !this.menu.open && this.session.online;
  }

  render() {
    if (!this.session.view) return;
    this.hud.render({ records: this.records, finalOpen: this.final.open });
    this.hud.clock();
    if (this.confirming && ($('blocks-newset').hidden || $('blocks-finish').hidden)) this.unconfirm();
  }

  tick() {
    if (this.hud.clock()) {
      this.tray.cancel();
      this.session.enqueue(() => this.session.refresh()); // the server ends the game on its own clock
    }
  }

  /* ------------------------------------------------------------------ moves -- */

  // Sends a move; `before` runs just before the answer is shown, `after` when refused.
  async act(move, { before, after } = {}) {
    const old = this.session.view;
    const outcome = await this.session.move(move);
    if (outcome.gone) return null;
    if (!outcome.ok) {
      after?.();
      this.refused(outcome.error);
      return null;
    }
    before?.();
    this.applyMove(outcome.result, old);
    return outcome.result;
  }

  refused(error) {
    this.hud.notice(err(error), 'error');
    feedback('refused');
    if (['game_over', 'time_up', 'not_over', 'continue_used', 'no_room', 'continue_not_allowed'].includes(error?.code)) this.session.refresh();
  }

  place(slot, placement) {
    const entry = this.session.view.hand[slot];
    if (!entry) return;
    this.tray.hide(slot);
    this.board.setPending({ cells: entry.cells, kind: entry.kind, row: placement.row, col: placement.col });
    this.act({ type: 'place', piece: slot, row: placement.row, col: placement.col }, {
      before: () => this.tray.show(slot),
      after: () => {
        this.board.setPending(null);
        this.tray.show(slot);
      },
    });
  }

  rotate(slot) {
    const view = this.session.view;
    if (slot === null || slot === undefined || !view?.can_rotate || !view.hand[slot]) return;
    this.act({ type: 'rotate', piece: slot });
  }

  pressNewSet() {
    const view = this.session.view;
    if (!view?.can_new_set || !this.canPlay()) return;
    if (view.stuck || this.confirming === 'newset') {
      this.unconfirm();
      this.tray.cancel();
      this.act({ type: 'new_set' });
      return;
    }
    this.confirm('newset', $('blocks-newset'), t('games.blocks.new_set.confirm'));
  }

  pressFinish() {
    if (!this.canPlay()) return;
    if (this.confirming === 'finish') {
      this.unconfirm();
      this.tray.cancel();
      this.act({ type: 'finish' });
      return;
    }
    this.confirm('finish', $('blocks-finish'), t('games.blocks.finish.confirm'));
  }

  confirm(name, button, text) {
    this.unconfirm();
    this.confirming = name;
    button.classList.add('is-confirm');
    const labelNode = button.querySelector('[data-label]');
    this.confirmRestore = [button, labelNode, labelNode.textContent];
    labelNode.textContent = text;
    this.hud.announce(text);
    this.confirmTimer = setTimeout(() => this.unconfirm(), CONFIRM_MS);
  }

  unconfirm() {
    clearTimeout(this.confirmTimer);
    if (this.confirmRestore) {
      const [button, labelNode, text] = this.confirmRestore;
      button.classList.remove('is-confirm');
      labelNode.textContent = text;
    }
    this.confirming = null;
    this.confirmRestore = null;
  }

  async continueGame() {
    this.final.close();
    const data = await this.act({ type: 'continue' });
    if (data) {
      this.ended = false;
      this.hud.notice(t('games.blocks.continued'), 'info');
    }
  }

  applyMove(data, before) {
    const view = this.session.view;
    const events = data.events || [];
    const rotated = events.find((e) => e.type === 'rotated');
    const dealt = events.some((e) => e.type === 'dealt' || e.type === 'new_set');
    this.board.animate(events, view.grid);
    this.tray.setHand(view.hand, { dealt, rotated: rotated ? rotated.piece : null });
    const fx = this.hud.effects(events, before);
    if (fx.combo) feedback('combo');
    else if (fx.lines) feedback('clear');
    else if (fx.placed) feedback('place');
    this.hud.setScore();
    this.render();
    if (view.over && !before.over) this.end(events);
    else if (!view.over && !this.session.spectator) this.store.set(this.slot(), this.session.id);
  }

  end(events = []) {
    this.ended = true;
    this.store.set(this.slot(), null);
    this.tray.cancel();
    const reason = this.session.view.final?.reason;
    if (reason === 'stuck' && events.length) this.hud.notice(t('games.blocks.no_moves'), 'warn');
    if (reason === 'time_up') this.hud.notice(t('games.blocks.final.title.time_up'), 'warn');
    const wait = reducedMotion() ? 0 : events.some((e) => e.type === 'cleared') ? 1100 : 700;
    Promise.all([this.loadRecords(), this.session.daily ? this.loadHonour(this.session.daily) : null, new Promise((r) => setTimeout(r, wait))])
      .then(() => {
        this.render();
        if (!this.session.view.over) return;
        if (!this.session.spectator) feedback(reason === 'finished' ? 'win' : 'loss');
        this.showFinal();
      });
  }

  showFinal() {
    const session = this.session;
    const view = session.view;
    if (!view?.over) return;
    this.ended = true;
    this.tray.cancel();
    const record = this.records.get(view.record_key);
    const score = view.final?.score ?? view.score;
    // the player's record for this ruleset and mode is this very game
    const isNewRecord = view.counts_for_record && Boolean(record && record.game_id === session.id) && score > 0;
    this.final.show({
      view,
      record: record ? record.score : null,
      isNewRecord,
      daily: session.daily,
      playedBefore: this.playedBefore,
      again: !session.daily,
    });
    this.render();
  }

  /* ------------------------------------------------------------------ records, honour -- */

  async loadRecords() {
    try {
      const data = await this.session.get('/api/records?game=blocks');
      this.records = new Map((data.records || []).map((r) => [r.key, r]));
    } catch {
      /* records are a nicety */
    }
  }

  loadHonour(date) {
    this.honourLoad = this.fetchHonour(date);
    return this.honourLoad;
  }

  async fetchHonour(date) {
    try {
      this.honour = (await this.session.get(`/api/daily/blocks?date=${encodeURIComponent(date)}`)).honour || [];
    } catch {
      this.honour = null;
    }
    renderHonour(document, this.honour, this.session.id);
  }

  /* ------------------------------------------------------------------ links, keys -- */

  boardUrl() {
    const { view, number } = this.session;
    return view ? `/play/blocks/${view.ruleset}/${number}` : location.pathname;
  }

  shareUrl() {
    if (!this.session.view) return location.href;
    return new URL(this.session.daily ? '/daily/blocks' : this.boardUrl(), location.origin).href;
  }

  onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (document.querySelector('dialog[open]')) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, select, textarea, [contenteditable]')) return;
    const k = event.key;
    if (k === 'Escape' && this.tray.drag) {
      this.tray.cancel();
      return;
    }
    if (!this.canPlay()) return;
    if (k === '1' || k === '2' || k === '3') {
      if (this.tray.hold(Number(k) - 1)) event.preventDefault();
    } else if ((k === 'r' || k === 'R') && this.session.view.can_rotate) {
      event.preventDefault();
      this.rotate(this.tray.rotateTarget());
    }
  }
}

new Blocks().boot();
