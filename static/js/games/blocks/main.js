/**
 * Blocks — the page controller: creates, resumes or loads a game over REST, sends the
 * player's intents (place, rotate, new set, continue, finish) and draws what the server
 * answers. Every rule (fits, ghosts, cleared lines, points, combos, tips, the end) comes
 * from the server's view and events; this file only shows them and keeps the time.
 *
 * Routes (templates/games/blocks.html, page-config {game, variant?, number?, daily?, game_id?}):
 *   /play/blocks                     → the last ruleset played (classic10 the first time)
 *   /play/blocks/<ruleset>[?mode=&rotation=1&new=1]
 *                                    resumes this ruleset/mode's unfinished game, else a new one
 *   /play/blocks/[<ruleset>/]<number> a shared board
 *   /daily/blocks                    today's board (the player's local date), once per day
 *   /g/<id>                          any game: resume, see its result, or watch it
 * A game's page moves to /g/<id> (history.replaceState) so a reload resumes it.
 */

import { api } from '../../core/api.js';
import { localDate } from '../../core/daily.js';
import { formatNumber, has, lang, plural, t } from '../../core/i18n.js';
import { animate, copyLink, easeOut, el, formatTime, pageConfig, reducedMotion, shareLink } from '../../core/ui.js';
import { Board } from './board.js';
import { FinalCard } from './final.js';
import { Menu, RULESETS, renderHonour } from './menu.js';
import { Tray } from './tray.js';

const STORE = 'blocks.';
const CONFIRM_MS = 3000;
const NOTICE_MS = 2600;

const $ = (id) => document.getElementById(id);

function store(key, value) {
  try {
    if (value === undefined) return localStorage.getItem(STORE + key);
    if (value === null) localStorage.removeItem(STORE + key);
    else localStorage.setItem(STORE + key, value);
  } catch {
    /* storage may be blocked: nothing is resumable then, everything else works */
  }
  return null;
}

function recordKey(params) {
  return `${params.ruleset}/${params.mode}${params.rotation ? '/rot' : ''}`;
}

function errorText(error) {
  const key = `games.blocks.error.${error?.code}`;
  return has(key) ? t(key) : t('common.error.generic');
}

class Blocks {
  constructor() {
    this.stage = $('blocks');
    this.config = pageConfig();
    this.query = new URLSearchParams(location.search);
    this.game = null; // {id, number, params, version, view, seat, status, daily}
    this.queue = Promise.resolve();
    this.records = new Map();
    this.catalog = null;
    this.honour = null;
    this.shownScore = 0;
    this.scoreRun = 0;
    this.clock = null;
    this.clockTimer = 0;
    this.noticeTimer = 0;
    this.confirming = null;
    this.playedBefore = false;

    this.board = new Board($('blocks-board'));
    this.tray = new Tray($('blocks-tray'), this.board, {
      canMove: () => this.canPlay(),
      canRotate: () => this.canPlay() && Boolean(this.game?.view.can_rotate),
      onPlace: (slot, placement) => this.place(slot, placement),
      onRotate: (slot) => this.rotate(slot),
      onRefuse: (text) => this.notice(text, 'error'),
      announce: (text) => this.announce(text),
    });
    this.menu = new Menu($('blocks-menu'), $('blocks-side'), {
      onNew: (choice) => this.newGame(choice),
      onCopy: () => copyLink(this.shareUrl()),
      onShare: () => shareLink(this.shareUrl(), document.title),
    });
    this.final = new FinalCard($('blocks-final'), {
      onContinue: () => this.continueGame(),
      onAgain: () => this.newGame(this.game.params),
      onCopy: () => copyLink(this.shareUrl()),
      onShare: () => shareLink(this.shareUrl(), document.title),
      onClose: () => this.renderControls(),
    });

    $('blocks-menu-btn').addEventListener('click', () => this.menu.open());
    $('blocks-newset').addEventListener('click', () => this.pressNewSet());
    $('blocks-finish').addEventListener('click', () => this.pressFinish());
    $('blocks-show-result').addEventListener('click', () => this.showFinal());
    $('blocks-again').addEventListener('click', () => this.again());
    document.addEventListener('keydown', (event) => this.onKey(event));
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && this.clock) this.tickClock();
    });
  }

  /* ------------------------------------------------------------------ start -- */

  async boot() {
    const catalogLoad = api('GET', '/api/catalog')
      .then((data) => {
        this.catalog = (data.games || []).find((g) => g.name === 'blocks') || null;
      })
      .catch(() => {});
    const recordsLoad = this.loadRecords();
    try {
      const data = await this.open();
      if (!data) return; // redirected
      await Promise.all([catalogLoad, recordsLoad]);
      this.adopt(data, { fresh: true });
    } catch (error) {
      await catalogLoad;
      this.fail(error);
    }
  }

  async open() {
    const cfg = this.config;
    if (cfg.game_id) return api('GET', `/api/games/${encodeURIComponent(cfg.game_id)}`);
    if (cfg.daily) return this.openDaily();
    if (cfg.number) {
      return api('POST', '/api/games', { game: 'blocks', number: cfg.number });
    }
    const ruleset = cfg.variant;
    if (!ruleset || !RULESETS.includes(ruleset)) {
      const last = store('ruleset');
      location.replace(`/play/blocks/${RULESETS.includes(last) ? last : 'classic10'}`);
      return null;
    }
    const params = this.paramsFor(ruleset);
    if (!this.query.has('new')) {
      const id = store(`current.${recordKey(params)}`);
      if (id) {
        try {
          const data = await api('GET', `/api/games/${encodeURIComponent(id)}`);
          if (data.seat !== null && data.status === 'active' && !data.view.over) {
            this.resumed = true;
            return data;
          }
        } catch {
          /* gone: start a new one */
        }
        store(`current.${recordKey(params)}`, null);
      }
    }
    return api('POST', '/api/games', { game: 'blocks', params });
  }

  paramsFor(ruleset) {
    const modes = this.catalog?.rulesets?.[ruleset]?.modes;
    let mode = this.query.get('mode') || store(`mode.${ruleset}`) || 'classic';
    if (ruleset !== 'shapes48' || mode === 'daily' || (modes && !modes[mode])) mode = 'classic';
    if (ruleset === 'shapes48' && !['classic', 'zen', 'chrono', 'hardcore'].includes(mode)) mode = 'classic';
    let rotation = false;
    if (ruleset === 'gravity8') {
      const asked = this.query.get('rotation');
      rotation = asked !== null ? asked === '1' || asked === 'true' : store('rotation') === '1';
    }
    return { ruleset, mode, rotation };
  }

  async openDaily() {
    this.dailyDate = localDate();
    this.loadHonour(this.dailyDate);
    const known = store(`daily.${this.dailyDate}`);
    if (known) {
      try {
        const data = await api('GET', `/api/games/${encodeURIComponent(known)}`);
        if (data.seat !== null && data.daily === this.dailyDate) {
          this.playedBefore = data.view.over;
          return data;
        }
      } catch {
        /* gone: ask the server */
      }
    }
    try {
      const data = await api('POST', '/api/games', { game: 'blocks', daily: this.dailyDate });
      store(`daily.${this.dailyDate}`, data.id);
      return data;
    } catch (error) {
      if (error.code === 'daily_played' && error.body?.id) {
        this.playedBefore = true;
        store(`daily.${this.dailyDate}`, error.body.id);
        return api('GET', `/api/games/${encodeURIComponent(error.body.id)}`);
      }
      throw error;
    }
  }

  fail(error) {
    this.stage.dataset.state = 'error';
    $('blocks-sub').textContent = errorText(error);
    const notice = $('blocks-notice');
    notice.hidden = false;
    notice.className = 'blocks-notice blocks-notice--error blocks-notice--failed';
    notice.replaceChildren(
      el('span', {}, errorText(error)),
      el('a', { class: 'btn btn-primary', href: `/play/blocks/${RULESETS.includes(this.config.variant) ? this.config.variant : 'classic10'}?new=1` }, t('games.blocks.new_game')),
    );
    this.menu.setOptions({ catalog: this.catalog, ruleset: RULESETS.includes(this.config.variant) ? this.config.variant : 'classic10', mode: 'classic', rotation: false, daily: false });
  }

  newGame({ ruleset, mode, rotation }) {
    const query = new URLSearchParams({ new: '1' });
    if (ruleset === 'shapes48' && mode && mode !== 'daily') query.set('mode', mode);
    if (ruleset === 'gravity8') query.set('rotation', rotation ? '1' : '0');
    location.assign(`/play/blocks/${ruleset}?${query}`);
  }

  again() {
    if (this.game?.seat === null) {
      location.assign(this.boardUrl());
      return;
    }
    this.newGame(this.game.params);
  }

  /* ------------------------------------------------------------------ state -- */

  adopt(data, { fresh = false } = {}) {
    const before = this.game;
    const params = data.params || before?.params;
    this.game = {
      id: data.id ?? before?.id,
      number: data.number ?? before?.number,
      params,
      version: data.version,
      view: data.view,
      seat: 'seat' in data ? data.seat : before?.seat ?? null,
      status: data.status,
      daily: data.daily ?? before?.daily ?? (this.config.daily ? this.dailyDate : null),
    };
    const game = this.game;
    if (fresh) {
      const mine = game.seat !== null;
      if (mine && !game.daily) {
        store('ruleset', params.ruleset);
        if (params.ruleset === 'shapes48') store(`mode.shapes48`, params.mode);
        if (params.ruleset === 'gravity8') store('rotation', params.rotation ? '1' : '0');
        if (!game.view.over) store(`current.${recordKey(params)}`, game.id);
      }
      if (!this.config.daily && location.pathname !== `/g/${game.id}`) {
        history.replaceState(null, '', `/g/${encodeURIComponent(game.id)}`);
      }
      if (game.daily && !this.honourLoad) this.loadHonour(game.daily);
      else if (this.honourLoad) this.honourLoad.then(() => renderHonour(document, this.honour, this.game.id));
      this.board.setSize(game.view.rows, game.view.cols);
      this.board.setGrid(game.view.grid);
      this.tray.setHand(game.view.hand, { maxExtent: game.view.rows > 8 ? 5 : 4, dealt: true });
      this.setScore(game.view, false);
      this.menu.setOptions({ catalog: this.catalog, ruleset: params.ruleset, mode: params.mode, rotation: params.rotation, daily: Boolean(game.daily) });
      this.renderTitles();
      if (this.resumed) this.notice(t('games.blocks.resumed'), 'info');
      if (game.seat === null) this.notice(t('games.blocks.watching'), 'info');
      if (game.view.over) setTimeout(() => this.showFinal(), reducedMotion() ? 0 : 350);
    } else {
      this.board.setGrid(game.view.grid);
      this.tray.setHand(game.view.hand);
      this.setScore(game.view, false);
    }
    this.setClock(data);
    this.render();
  }

  canPlay() {
    const game = this.game;
    return Boolean(game) && game.seat !== null && !game.view.over && !this.final.isOpen && !this.menu.isOpen;
  }

  countsForRecord() {
    const params = this.game?.params;
    if (!params) return false;
    const flag = this.catalog?.rulesets?.[params.ruleset]?.modes?.[params.mode]?.records;
    return flag ?? !['zen', 'chrono'].includes(params.mode);
  }

  /* ------------------------------------------------------------------ rendering -- */

  renderTitles() {
    const { params, number, daily } = this.game;
    const title = daily ? t('games.blocks.daily.title') : t(`games.blocks.${params.ruleset}.title`);
    const parts = [];
    if (daily) {
      const [y, m, d] = daily.split('-').map(Number);
      parts.push(new Intl.DateTimeFormat(lang(), { day: 'numeric', month: 'long' }).format(new Date(y, m - 1, d)));
    } else {
      if (params.ruleset === 'shapes48') parts.push(t(`games.blocks.mode.${params.mode}`));
      if (params.rotation) parts.push(t('games.blocks.rotation'));
    }
    parts.push(`#${number}`);
    $('blocks-title').textContent = title;
    $('blocks-sub').textContent = parts.join(' · ');
    document.title = `${title} — ${t('site.name')}`;
    this.menu.setNumber(t('games.blocks.number_line', { number }));
    const side = $('blocks-side');
    side.querySelector('[data-number]').textContent = number;
  }

  render() {
    const game = this.game;
    const view = game.view;
    this.stage.dataset.state = game.seat === null ? 'watching' : view.over ? 'over' : 'playing';
    this.stage.dataset.ruleset = game.params.ruleset;
    this.stage.dataset.mode = game.params.mode;
    this.stage.dataset.version = String(game.version);
    this.renderHud();
    this.renderControls();
    this.renderSide();
    if (view.stuck && !view.over && game.seat !== null) this.notice(t('games.blocks.stuck'), 'warn', 'stuck');
    else if ($('blocks-notice').classList.contains('blocks-notice--stuck')) this.hideNotice();
  }

  renderHud() {
    const view = this.game.view;
    const record = this.records.get(recordKey(this.game.params));
    const counts = this.countsForRecord();
    const best = $('blocks-best');
    const bestBox = $('blocks-best-box');
    // hidden but keeping its place, so that the score stays centred
    bestBox.classList.toggle('is-off', !counts || this.game.seat === null);
    const score = view.score;
    const beaten = record ? score > record.score && !view.over : false;
    best.textContent = record || beaten ? formatNumber(beaten ? score : record.score) : '–';
    bestBox.classList.toggle('is-beaten', beaten);
    const combo = $('blocks-combo');
    const label = view.combo_label;
    combo.hidden = !(label >= 2);
    if (label >= 2) combo.textContent = t('games.blocks.combo', { n: label });
  }

  setScore(view, animated = true) {
    const zen = this.game?.params.mode === 'zen';
    const target = zen ? view.lines_cleared : view.score;
    const node = $('blocks-score');
    node.classList.toggle('is-lines', zen);
    $('blocks-score').parentElement.dataset.label = zen ? t('games.blocks.lines') : '';
    const from = this.shownScore;
    this.shownScore = target;
    const run = ++this.scoreRun;
    if (!animated || reducedMotion() || from === target) {
      node.textContent = formatNumber(target);
      return;
    }
    node.classList.remove('is-bump');
    void node.offsetWidth;
    node.classList.add('is-bump');
    animate(Math.min(700, 280 + Math.abs(target - from) * 2), (x) => {
      if (run !== this.scoreRun) return;
      node.textContent = formatNumber(Math.round(from + (target - from) * easeOut(x)));
    });
  }

  renderControls() {
    const game = this.game;
    if (!game) return;
    const view = game.view;
    const mine = game.seat !== null;
    const newSet = $('blocks-newset');
    newSet.hidden = !mine || view.over || view.tokens === null || view.tokens === undefined;
    newSet.disabled = !view.can_new_set;
    $('blocks-tokens').textContent = String(view.tokens ?? 0);
    newSet.setAttribute('aria-label', t('games.blocks.new_set.aria', { n: view.tokens ?? 0 }));
    newSet.classList.toggle('is-urgent', Boolean(view.stuck && view.can_new_set));
    $('blocks-finish').hidden = !mine || view.over;
    $('blocks-rotate-hint').hidden = !mine || view.over || !view.can_rotate;
    const overbar = $('blocks-overbar');
    overbar.hidden = !(view.over || !mine) || this.final.isOpen;
    $('blocks-show-result').hidden = !view.over;
    const again = $('blocks-again');
    again.hidden = Boolean(game.daily) && mine;
    again.textContent = mine ? t('games.blocks.play_again') : t('games.blocks.play_this');
    if (this.confirming && (newSet.hidden || $('blocks-finish').hidden)) this.unconfirm();
  }

  renderSide() {
    const side = $('blocks-side');
    const view = this.game.view;
    const record = this.records.get(recordKey(this.game.params));
    const counts = this.countsForRecord();
    side.querySelector('[data-record]').textContent = counts ? (record ? formatNumber(record.score) : '–') : '–';
    const meta = side.querySelector('[data-record-meta]');
    if (!counts) meta.textContent = t('games.blocks.record.not_counted');
    else if (!record) meta.textContent = t('games.blocks.record.none');
    else meta.textContent = plural('games.blocks.record.played', record.played);
    const tokens = side.querySelector('[data-fact="tokens"]');
    tokens.hidden = view.tokens === null || view.tokens === undefined;
    side.querySelector('[data-tokens]').textContent = String(view.tokens ?? 0);
    side.querySelector('[data-lines]').textContent = formatNumber(view.lines_cleared);
    side.querySelector('[data-fact="combo"]').hidden = this.game.params.ruleset === 'gravity8' || this.game.params.mode === 'zen';
    side.querySelector('[data-best-combo]').textContent = `×${view.best_combo}`;
  }

  /* ------------------------------------------------------------------ notices -- */

  // A notice over the bottom of the board; `hold`: stays until replaced ("stuck": until the
  // view is no longer stuck).
  notice(text, kind = 'info', hold = null) {
    const node = $('blocks-notice');
    clearTimeout(this.noticeTimer);
    node.replaceChildren(text);
    node.className = `blocks-notice blocks-notice--${kind}${hold ? ` blocks-notice--${hold}` : ''}`;
    node.hidden = false;
    if (kind === 'error') {
      const box = $('blocks-board');
      box.classList.remove('is-refused');
      void box.offsetWidth;
      box.classList.add('is-refused');
    }
    if (!hold) this.noticeTimer = setTimeout(() => this.hideNotice(), NOTICE_MS);
  }

  hideNotice() {
    $('blocks-notice').hidden = true;
  }

  announce(text) {
    const live = $('blocks-live');
    live.textContent = '';
    requestAnimationFrame(() => {
      live.textContent = text;
    });
  }

  /* ------------------------------------------------------------------ moves -- */

  send(move) {
    const run = async () => {
      const game = this.game;
      try {
        return await api('POST', `/api/games/${encodeURIComponent(game.id)}/moves`, { version: game.version, move });
      } catch (error) {
        if (error.code === 'stale_version' && error.body?.current) this.adopt(error.body.current);
        throw error;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  // Sends a move; `before` runs just before the answer is shown, `after` when refused.
  async act(move, { before, after } = {}) {
    try {
      const data = await this.send(move);
      before?.();
      this.applyMove(data);
      return data;
    } catch (error) {
      after?.();
      this.refused(error);
      return null;
    }
  }

  refused(error) {
    this.notice(errorText(error), 'error');
    if (['game_over', 'time_up', 'not_over', 'continue_used', 'no_room', 'continue_not_allowed'].includes(error.code)) this.refresh();
  }

  async refresh() {
    try {
      const data = await api('GET', `/api/games/${encodeURIComponent(this.game.id)}`);
      const wasOver = this.game.view.over;
      this.adopt(data);
      if (data.view.over && !wasOver) this.ended();
    } catch (error) {
      this.notice(errorText(error), 'error');
    }
  }

  place(slot, placement) {
    const entry = this.game.view.hand[slot];
    if (!entry) return;
    this.tray.hide(slot);
    this.board.setPending({ cells: entry.cells, kind: entry.kind, row: placement.row, col: placement.col });
    this.act(
      { type: 'place', piece: slot, row: placement.row, col: placement.col },
      {
        before: () => this.tray.show(slot),
        after: () => {
          this.board.setPending(null);
          this.tray.show(slot);
        },
      },
    );
  }

  rotate(slot) {
    if (slot === null || slot === undefined || !this.game?.view.can_rotate || !this.game.view.hand[slot]) return;
    this.act({ type: 'rotate', piece: slot });
  }

  pressNewSet() {
    const view = this.game?.view;
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
    this.announce(text);
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
    if (data) this.notice(t('games.blocks.continued'), 'info');
  }

  applyMove(data) {
    const game = this.game;
    const before = game.view;
    game.version = data.version;
    game.view = data.view;
    game.status = data.status;
    const events = data.events || [];
    const rotated = events.find((e) => e.type === 'rotated');
    const dealt = events.some((e) => e.type === 'dealt' || e.type === 'new_set');
    this.board.animate(events, data.view.grid);
    this.tray.setHand(data.view.hand, { dealt, rotated: rotated ? rotated.piece : null });
    this.effects(events, before, data.view);
    this.setScore(data.view);
    this.setClock(data);
    this.render();
    if (data.view.over && !before.over) this.ended(events);
    else if (!data.view.over) store(`current.${recordKey(game.params)}`, game.id);
  }

  ended(events = []) {
    store(`current.${recordKey(this.game.params)}`, null);
    this.stopClock();
    const reason = this.game.view.final?.reason;
    if (reason === 'stuck' && events.length) this.notice(t('games.blocks.no_moves'), 'warn');
    if (reason === 'time_up') this.notice(t('games.blocks.final.title.time_up'), 'warn');
    const wait = reducedMotion() ? 0 : events.some((e) => e.type === 'cleared') ? 1100 : 700;
    Promise.all([this.loadRecords(), this.game.daily ? this.loadHonour(this.game.daily) : null, new Promise((r) => setTimeout(r, wait))])
      .then(() => {
        this.render();
        if (!this.game.view.over) return;
        this.showFinal();
      });
  }

  showFinal() {
    const game = this.game;
    if (!game?.view.over) return;
    this.tray.cancel();
    const record = this.records.get(recordKey(game.params));
    const score = game.view.final?.score ?? game.view.score;
    const holds = Boolean(record && record.game_id === game.id);
    // the player's record for this ruleset and mode is this very game
    const isNewRecord = this.countsForRecord() && holds && score > 0;
    this.final.show({
      view: game.view,
      ruleset: game.params.ruleset,
      mode: game.params.mode,
      record: record ? record.score : null,
      isNewRecord,
      countsForRecord: this.countsForRecord(),
      daily: game.daily,
      playedBefore: this.playedBefore,
    });
    this.renderControls();
  }

  /* ------------------------------------------------------------------ effects -- */

  pop(text, className, r, c) {
    const fx = $('blocks-fx');
    const box = $('blocks-board');
    const data = box.dataset;
    const cell = Number(data.cell) || 0;
    const node = el('div', { class: `blocks-pop ${className}` }, text);
    if (r !== undefined) {
      node.style.left = `${Number(data.gridLeft) + (c + 0.5) * cell}px`;
      node.style.top = `${Number(data.gridTop) + (r + 0.5) * cell}px`;
    }
    fx.append(node);
    setTimeout(() => node.remove(), 1300);
    return node;
  }

  effects(events, before, view) {
    const placed = events.find((e) => e.type === 'placed');
    let centre;
    if (placed) {
      const rs = placed.cells.map(([r]) => r);
      const cs = placed.cells.map(([, c]) => c);
      centre = [(Math.min(...rs) + Math.max(...rs)) / 2, (Math.min(...cs) + Math.max(...cs)) / 2];
    }
    const cleared = events.find((e) => e.type === 'cleared');
    if (placed && cleared && placed.points > 0) {
      const lines = cleared.rows.length + cleared.cols.length;
      this.pop(`+${formatNumber(placed.points)}`, `blocks-pop--points${lines > 1 ? ' is-big' : ''}`, centre[0], centre[1]);
      if (lines >= 2) this.pop(t(`games.blocks.lines_cleared.${Math.min(lines, 4)}`), 'blocks-pop--lines', undefined, undefined);
    }
    const label = view.combo_label;
    const emptied = events.find((e) => e.type === 'grid_cleared');
    if (cleared && label >= 2) {
      this.pop(t('games.blocks.combo', { n: label }), `blocks-pop--combo${emptied ? ' is-low' : ''}`);
      this.announce(t('games.blocks.combo', { n: label }));
    }
    if (emptied) {
      const node = this.pop('', 'blocks-pop--cleared');
      node.append(el('strong', {}, t('games.blocks.grid_cleared')), el('span', {}, `+${formatNumber(emptied.bonus)}`));
      if (emptied.tokens !== undefined) node.append(el('span', { class: 'blocks-pop__token' }, t('games.blocks.grid_cleared.token')));
    }
    if (events.some((e) => e.type === 'zen_cleared_row')) this.notice(t('games.blocks.zen_refill'), 'info');
    if (placed) {
      const lines = cleared ? cleared.rows.length + cleared.cols.length : 0;
      this.announce(lines
        ? t('games.blocks.sr.placed_lines', { points: placed.points, lines })
        : t('games.blocks.sr.placed', { points: placed.points }));
    }
    if (events.some((e) => e.type === 'new_set')) this.announce(t('games.blocks.sr.new_set'));
    if (before && view.stuck && !before.stuck) this.announce(t('games.blocks.stuck'));
  }

  /* ------------------------------------------------------------------ clock -- */

  setClock(data) {
    const clock = data.view.clock;
    const box = $('blocks-timer');
    if (!clock) {
      box.hidden = true;
      this.stopClock();
      return;
    }
    box.hidden = false;
    const serverMs = typeof data.server_ms === 'number' ? data.server_ms : clock.as_of_ms;
    const remaining = clock.running ? clock.remaining_ms - Math.max(0, serverMs - clock.as_of_ms) : clock.remaining_ms;
    this.clock = { remaining, at: performance.now(), running: clock.running };
    this.tickClock();
    clearInterval(this.clockTimer);
    if (clock.running) this.clockTimer = setInterval(() => this.tickClock(), 250);
  }

  remainingMs() {
    const clock = this.clock;
    if (!clock) return 0;
    return clock.running ? clock.remaining - (performance.now() - clock.at) : clock.remaining;
  }

  tickClock() {
    const left = Math.max(0, this.remainingMs());
    $('blocks-timer-value').textContent = formatTime(Math.ceil(left / 1000) * 1000);
    $('blocks-timer').classList.toggle('is-low', this.clock?.running && left <= 20_000);
    if (this.clock?.running && left <= 0) {
      this.stopClock();
      this.tray.cancel();
      // the server ends the game on its own clock; ask it
      this.queue.then(() => this.refresh());
    }
  }

  stopClock() {
    clearInterval(this.clockTimer);
    this.clockTimer = 0;
    if (this.clock) this.clock.running = false;
  }

  /* ------------------------------------------------------------------ records, honour -- */

  async loadRecords() {
    try {
      const data = await api('GET', '/api/records?game=blocks');
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
      const data = await api('GET', `/api/daily/blocks?date=${encodeURIComponent(date)}`);
      this.honour = data.honour || [];
    } catch {
      this.honour = null;
    }
    renderHonour(document, this.honour, this.game?.id);
  }

  /* ------------------------------------------------------------------ links, keys -- */

  boardUrl() {
    const game = this.game;
    if (!game) return location.href;
    return `/play/blocks/${game.params.ruleset}/${game.number}`;
  }

  shareUrl() {
    const game = this.game;
    if (!game) return location.href;
    return new URL(game.daily ? '/daily/blocks' : this.boardUrl(), location.origin).href;
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
    } else if ((k === 'r' || k === 'R') && this.game.view.can_rotate) {
      event.preventDefault();
      this.rotate(this.tray.rotateTarget());
    }
  }
}

new Blocks().boot();
