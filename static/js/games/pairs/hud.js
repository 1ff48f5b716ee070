/**
 * hud — what Pairs shows around the board: the header (where, pairs, score, clock, streak),
 * the status line, the live region, the overlay, the controls and the records table.
 * Everything comes from the session's view; the clock runs on the session's server clock
 * (it stops while the server cannot be reached).
 *
 *   const hud = new Hud(root, session)
 *   hud.say(text, kind?, ms?)  hud.announce(text)  hud.overlay(text, actions) / hud.hideOverlay()
 *   hud.render({final, records})  hud.renderClock() → true when a countdown reached zero
 *   hud.bumpClock(seconds)  hud.where()
 */

import { formatNumber, t } from '../../core/i18n.js';
import { announce, el, formatTime } from '../../core/ui.js';

const LOW_MS = 10_000;
const TIP_SHOW_MS = 9_000;
const MESSAGE_MS = { error: 3600, info: 2600, tip: TIP_SHOW_MS };

export class Hud {
  constructor(root, session) {
    this.root = root;
    this.session = session;
    const $ = (id) => document.getElementById(id);
    this.$ = $;
    this.node = {
      sub: $('pairs-sub'),
      count: $('pairs-count'),
      score: $('pairs-score'),
      streak: $('pairs-streak'),
      clock: $('pairs-clock'),
      clockBox: $('pairs-clock-box'),
      clockLabel: $('pairs-clock-label'),
      clockBonus: $('pairs-clock-bonus'),
      progress: $('pairs-progress'),
      status: $('pairs-status'),
      live: $('pairs-live'),
      overlay: $('pairs-overlay'),
      overlayText: $('pairs-overlay-text'),
      overlayActions: $('pairs-overlay-actions'),
    };
    this.buttons = Object.fromEntries(
      [...document.querySelectorAll('.pairs-controls [data-action]')].map((b) => [b.dataset.action, b]),
    );
    this.messageTimer = 0;
    this.lastScore = null;
  }

  say(text, kind = 'info', ms = MESSAGE_MS[kind]) {
    const status = this.node.status;
    clearTimeout(this.messageTimer);
    status.textContent = text || '';
    status.dataset.kind = text ? kind : '';
    if (text && ms) {
      this.messageTimer = setTimeout(() => {
        status.textContent = '';
        status.dataset.kind = '';
      }, ms);
    }
  }

  get kind() {
    return this.node.status.dataset.kind;
  }

  announce(text) {
    announce(this.node.live, text);
  }

  overlay(text, actions = []) {
    this.node.overlayText.textContent = text;
    this.node.overlayActions.replaceChildren(
      ...actions.map(({ label, onClick, primary }) =>
        el('button', { type: 'button', class: `btn ${primary ? 'btn-primary' : 'btn-outline'}`, on: { click: onClick } }, label)),
    );
    this.node.overlay.hidden = false;
  }

  hideOverlay() {
    this.node.overlay.hidden = true;
  }

  where() {
    const view = this.session.view;
    return this.session.daily
      ? `${t('games.pairs.daily.title')} · ${t(`games.pairs.mode.${view.mode}`)}`
      : `${t(`games.pairs.size.${view.size}`)} · ${t(`games.pairs.mode.${view.mode}`)}`;
  }

  clockMs() {
    const view = this.session.view;
    if (!view) return 0;
    const now = this.session.serverNow();
    if (view.clock) {
      const c = view.clock;
      return c.running ? c.remaining_ms - Math.max(0, now - c.as_of_ms) : c.remaining_ms;
    }
    if (view.over && view.time_ms !== null) return view.time_ms;
    const s = view.stopwatch;
    return s.running ? s.elapsed_ms + Math.max(0, now - s.as_of_ms) : s.elapsed_ms;
  }

  /** Draws the clock and the streak bar; true when a running countdown reached zero. */
  renderClock() {
    const view = this.session.view;
    if (!view) return false;
    const n = this.node;
    const timed = Boolean(view.clock);
    let ms = this.clockMs();
    if (timed) ms = Math.max(0, ms);
    // A countdown shows whole seconds left (0:01 until it is really over).
    // Written only when it changes: the tick runs five times a second, and a new text node
    // costs a style and layout pass that the deal's frames would otherwise share.
    const text = formatTime(timed ? Math.ceil(ms / 1000) * 1000 : ms);
    if (n.clock.textContent !== text) n.clock.textContent = text;
    n.clockBox.classList.toggle('is-low', timed && !view.over && ms < LOW_MS);
    n.clockBox.classList.toggle('is-paused', (Boolean(view.paused) || !this.session.online) && !view.over);
    // The streak badge and its bar: the time left to extend the streak, from the server's
    // last removal and the expiry it gave.
    const expires = view.streak_expires_ms;
    const span = expires === null || expires === undefined ? 0 : expires - view.last_removal_ms;
    const left = span > 0 ? expires - this.session.serverNow() : 0;
    const showStreak = view.streak >= 2 && left > 0 && !view.over;
    n.streak.hidden = !showStreak;
    if (showStreak) {
      n.streak.querySelector('.pairs-streak__text').textContent = t('games.pairs.hud.streak', { n: view.streak });
      n.streak.querySelector('.pairs-streak__bar').style.transform = `scaleX(${Math.min(1, left / span)})`;
    }
    return timed && view.clock.running && !view.over && ms <= 0 && this.session.online;
  }

  render({ finalOpen = false, records = [] } = {}) {
    const session = this.session;
    const view = session.view;
    if (!view) return;
    const n = this.node;
    const where = this.where();
    n.sub.textContent = where;
    n.count.textContent = `${view.pairs_removed}/${view.pairs_total}`;
    if (this.lastScore !== null && view.score !== this.lastScore) {
      n.score.classList.remove('is-bumped');
      void n.score.offsetWidth; // restart the CSS animation
      n.score.classList.add('is-bumped');
    }
    this.lastScore = view.score;
    n.score.textContent = formatNumber(view.score);
    n.clockLabel.textContent = view.clock ? t('games.pairs.hud.left') : t('common.time');
    n.progress.style.transform = `scaleX(${view.pairs_total ? view.pairs_removed / view.pairs_total : 0})`;
    this.root.dataset.version = String(session.version);
    this.root.dataset.gameId = session.id || '';
    this.root.dataset.number = session.number || '';
    this.root.dataset.state = view.over ? 'over' : view.paused ? 'paused' : 'playing';
    this.$('pairs-side-number').textContent = session.number ? `#${session.number}` : '–';
    this.$('pairs-side-desc').textContent = where;
    this.renderClock();
    this.renderControls(finalOpen);
    this.renderRecords(records);
  }

  renderControls(finalOpen) {
    const view = this.session.view;
    const done = Boolean(view?.over);
    const watching = this.session.spectator;
    const b = this.buttons;
    b.hint.hidden = done;
    b.shuffle.hidden = done;
    b.hint.disabled = watching || !view;
    b.shuffle.disabled = watching || !view;
    b.results.hidden = !done || finalOpen;
    b.new.hidden = !done && !watching;
    b.new.querySelector('.pairs-ctl__label').textContent = watching ? t('games.pairs.play_board') : t('common.new_game');
  }

  renderRecords(records) {
    const view = this.session.view;
    for (const cell of this.$('pairs-records').querySelectorAll('td[data-record-key]')) {
      const key = cell.dataset.recordKey; // the catalog's key for this size and mode
      const record = records.find((r) => r.key === key);
      cell.textContent = record ? formatNumber(record.score) : '–';
      cell.title = record ? `${formatNumber(record.score)} · ${formatTime(record.time_ms)}` : '';
      cell.classList.toggle('is-current', Boolean(view && view.record_key === key));
    }
  }

  bumpClock(seconds) {
    const node = this.node.clockBonus;
    node.textContent = t('games.pairs.hud.bonus', { n: seconds });
    node.classList.remove('is-on');
    void node.offsetWidth;
    node.classList.add('is-on');
  }
}
