/**
 * hud — what Blocks shows around its board and tray: titles, the record and score (counted up),
 * the combo badge, the chrono, the controls, the side panel, the notice line (in the controls
 * row: it never covers the board), the live region and the floating points over the board.
 * Everything comes from the session's view and events (the record key and whether a game
 * counts are the view's own).
 *
 *   const hud = new Hud(session); hud.catalog = the blocks entry of /api/catalog
 *   hud.titles()  hud.render({records, finalOpen})  hud.setScore(animated)
 *   hud.notice(text, kind?, hold?)  hud.hideNotice()  hud.announce(text)
 *   hud.rules(fresh)                 the short rules over the board of a new game (phones)
 *   hud.effects(events, before)   points, lines, combo, "board cleared" over the board
 *   hud.clock()                   draws the chrono; → true when it reached zero
 */

import { syncServerActions } from '../../core/connection.js';
import { formatNumber, plural, t } from '../../core/i18n.js';
import { dayText, intlReady } from '../../core/intl.js';
import { afterPaint, animate, announce, easeOut, el, formatTime, reducedMotion } from '../../core/ui.js';
import { modesOf } from './menu.js';

const NOTICE_MS = 2600;
const $ = (id) => document.getElementById(id);

export class Hud {
  constructor(session) {
    this.session = session;
    this.shownScore = 0;
    this.scoreRun = 0;
    this.noticeTimer = 0;
    this.catalog = null; // the blocks entry of /api/catalog
  }

  titles() {
    const { view, number, daily } = this.session;
    const title = daily ? t('games.blocks.daily.title') : t(`games.blocks.${view.ruleset}.title`);
    const parts = [];
    if (!daily) {
      if (modesOf(this.catalog, view.ruleset).length > 1) parts.push(t(`games.blocks.mode.${view.mode}`));
      if (view.rotation) parts.push(t('games.blocks.rotation'));
    }
    parts.push(`#${number}`);
    const sub = $('blocks-sub');
    const shown = parts.join(' · ');
    sub.textContent = shown;
    $('blocks-title').textContent = title;
    document.title = `${title} — ${t('site.name')}`;
    $('blocks-side').querySelector('[data-number]').textContent = number;
    if (!daily) return;
    // The daily's date, once a worker has loaded the formatters' data (core/intl.js): the
    // page's first date formatter loads it in one long task (195 ms on a phone 4× slower).
    afterPaint().then(intlReady).then(() => {
      if (sub.textContent !== shown) return; // since replaced (an error, another game)
      sub.textContent = `${dayText(daily)} · ${shown}`;
    });
  }

  render({ records, finalOpen }) {
    const session = this.session;
    const view = session.view;
    const stage = $('blocks');
    stage.dataset.state = session.spectator ? 'watching' : view.over ? 'over' : 'playing';
    stage.dataset.ruleset = view.ruleset;
    stage.dataset.mode = view.mode;
    stage.dataset.version = String(session.version);
    const record = records.get(view.record_key);
    const counts = view.counts_for_record;
    // the record box: hidden but keeping its place, so that the score stays centred
    const bestBox = $('blocks-best-box');
    bestBox.classList.toggle('is-off', !counts || session.spectator);
    const beaten = record ? view.score > record.score && !view.over : false;
    $('blocks-best').textContent = record || beaten ? formatNumber(beaten ? view.score : record.score) : '–';
    bestBox.classList.toggle('is-beaten', beaten);
    const combo = $('blocks-combo');
    combo.hidden = !(view.combo_label >= 2);
    if (view.combo_label >= 2) combo.textContent = t('games.blocks.combo', { n: view.combo_label });
    this.controls(finalOpen);
    this.side(record);
    if (view.stuck && !view.over && !session.spectator) this.notice(t('games.blocks.stuck'), 'warn', 'stuck');
    else if ($('blocks-notice').classList.contains('blocks-notice--stuck')) this.hideNotice();
    if (session.version > 0 || view.over) $('blocks-rules').classList.add('is-done'); // played: known
  }

  controls(finalOpen) {
    const session = this.session;
    const view = session.view;
    const mine = !session.spectator;
    const newSet = $('blocks-newset');
    newSet.hidden = !mine || view.over || view.tokens === null || view.tokens === undefined;
    newSet.disabled = !view.can_new_set;
    $('blocks-tokens').textContent = String(view.tokens ?? 0);
    // its name is the label it shows ("New set", or "Press again"); what it does, said aside
    $('blocks-newset-about').textContent = t('games.blocks.new_set.aria', { n: view.tokens ?? 0 });
    newSet.classList.toggle('is-urgent', Boolean(view.stuck && view.can_new_set));
    $('blocks-finish').hidden = !mine || view.over;
    $('blocks-rotate-hint').hidden = !mine || view.over || !view.can_rotate;
    $('blocks-overbar').hidden = !(view.over || !mine) || finalOpen;
    $('blocks-show-result').hidden = !view.over;
    const again = $('blocks-again');
    again.hidden = Boolean(session.daily) && mine;
    again.textContent = mine ? t('games.blocks.play_again') : t('games.blocks.play_this');
    syncServerActions($('blocks-overbar')); // offline: off, and its note shows while it does
  }

  side(record) {
    const side = $('blocks-side');
    const view = this.session.view;
    const counts = view.counts_for_record;
    side.querySelector('[data-record]').textContent = counts && record ? formatNumber(record.score) : '–';
    const meta = side.querySelector('[data-record-meta]');
    if (!counts) meta.textContent = t('games.blocks.record.not_counted');
    else if (!record) meta.textContent = t('games.blocks.record.none');
    else meta.textContent = plural('games.blocks.record.played', record.played);
    side.querySelector('[data-fact="tokens"]').hidden = view.tokens === null || view.tokens === undefined;
    side.querySelector('[data-tokens]').textContent = String(view.tokens ?? 0);
    side.querySelector('[data-lines]').textContent = formatNumber(view.lines_cleared);
    side.querySelector('[data-fact="combo"]').hidden = !view.shows_combo;
    side.querySelector('[data-best-combo]').textContent = `×${view.best_combo}`;
  }

  /** The score (the lines in a game that counts lines), counted up to the new value. */
  setScore(animated = true) {
    const view = this.session.view;
    const lines = view.counts_lines;
    const target = lines ? view.lines_cleared : view.score;
    const node = $('blocks-score');
    node.classList.toggle('is-lines', lines);
    node.parentElement.dataset.label = lines ? t('games.blocks.lines') : '';
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

  /** How to play, over the board of a new game on a touch screen (a phone's page has no
   *  side panel with the rules), until the first piece is placed: then its line keeps its
   *  room, empty, so the board does not move under the finger (render). */
  rules(fresh) {
    const line = $('blocks-rules');
    line.hidden = !fresh;
    line.classList.remove('is-done');
    if (fresh) line.textContent = t(`games.blocks.help.short.${this.session.view.ruleset}`);
  }

  // A notice in the controls row (never over the board); `hold`: stays until replaced
  // ("stuck": until the view is no longer stuck).
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
    announce($('blocks-live'), text);
  }

  pop(text, className, r, c) {
    const box = $('blocks-board');
    const data = box.dataset;
    const cell = Number(data.cell) || 0;
    const node = el('div', { class: `blocks-pop ${className}` }, text);
    if (r !== undefined) {
      node.style.left = `${Number(data.gridLeft) + (c + 0.5) * cell}px`;
      node.style.top = `${Number(data.gridTop) + (r + 0.5) * cell}px`;
    }
    $('blocks-fx').append(node);
    setTimeout(() => node.remove(), 1300);
    return node;
  }

  effects(events, before) {
    const view = this.session.view;
    const placed = events.find((e) => e.type === 'placed');
    const cleared = events.find((e) => e.type === 'cleared');
    const lines = cleared ? cleared.rows.length + cleared.cols.length : 0;
    if (placed && cleared && placed.points > 0) {
      const rs = placed.cells.map(([r]) => r);
      const cs = placed.cells.map(([, c]) => c);
      const centre = [(Math.min(...rs) + Math.max(...rs)) / 2, (Math.min(...cs) + Math.max(...cs)) / 2];
      this.pop(`+${formatNumber(placed.points)}`, `blocks-pop--points${lines > 1 ? ' is-big' : ''}`, centre[0], centre[1]);
      if (lines >= 2) this.pop(t(`games.blocks.lines_cleared.${Math.min(lines, 4)}`), 'blocks-pop--lines');
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
      this.announce(lines
        ? t('games.blocks.sr.placed_lines', { points: placed.points, lines })
        : t('games.blocks.sr.placed', { points: placed.points }));
    }
    if (events.some((e) => e.type === 'new_set')) this.announce(t('games.blocks.sr.new_set'));
    if (before && view.stuck && !before.stuck) this.announce(t('games.blocks.stuck'));
    return { placed: Boolean(placed), lines, combo: cleared && label >= 2 };
  }

  /** The chrono from the view's clock on the session's server clock (it stops offline). */
  clock() {
    const session = this.session;
    const clock = session.view?.clock;
    const box = $('blocks-timer');
    box.hidden = !clock;
    if (!clock) return false;
    const left = Math.max(0, clock.running ? clock.remaining_ms - Math.max(0, session.serverNow() - clock.as_of_ms) : clock.remaining_ms);
    $('blocks-timer-value').textContent = formatTime(Math.ceil(left / 1000) * 1000);
    box.classList.toggle('is-low', clock.running && left <= 20_000);
    return clock.running && left <= 0 && session.online;
  }
}
