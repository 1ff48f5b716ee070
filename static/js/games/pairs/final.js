/**
 * final — the Pairs final card (a modal <dialog> from the template): how the game ended,
 * time, points, best streak, hints, shuffles, the record for this size and mode, the
 * daily board of honour; the shared end actions (core/endcard.js) and, timed and out of
 * time, "replay this board in calm mode".
 *
 *   const card = new FinalCard(dialog, {onNew, link, title, onCalm, onToggle})
 *   card.show({view, number, daily, playedBefore, tooFast})  fills and opens it (from the
 *                                         server's view; tooFast: the daily is off the board of honour)
 *   card.setRecord(record | null, gameId) the player's record for this size and mode
 *   card.setHonour(entries)               the daily board of honour
 *   card.open / card.close()
 */

import { formatNumber, plural, t } from '../../core/i18n.js';
import { EndCard } from '../../core/endcard.js';
import { el, formatTime } from '../../core/ui.js';
/** @import { PairsView } from '../../types/wire' */

export class FinalCard {
  constructor(dialog, handlers) {
    this.dialog = dialog;
    this.card = new EndCard(dialog, {
      ...handlers,
      onAction: (action) => {
        if (action !== 'calm') return;
        this.close();
        handlers.onCalm();
      },
    });
  }

  get open() {
    return this.card.open;
  }

  close() {
    this.card.close();
  }

  /** @param {{view: PairsView} & Record<string, any>} shown */
  show({ view, number, daily, playedBefore = false, tooFast = false }) {
    const cleared = view.reason === 'cleared';
    const timed = Boolean(view.clock); // a countdown: the timed mode
    const q = (sel) => this.dialog.querySelector(sel);
    this.dialog.dataset.reason = view.reason || '';
    q('#pairs-final-title').textContent = t(cleared ? 'games.pairs.final.cleared' : 'games.pairs.final.time_up');
    const where = daily
      ? t('games.pairs.daily.title')
      : `${t(`games.pairs.size.${view.size}`)} · ${t(`games.pairs.mode.${view.mode}`)}`;
    q('#pairs-final-sub').replaceChildren(
      `${where} · `,
      el('span', { class: 'pairs-final__sub-number' }, t('common.game_number', { number })),
    );

    const stats = [
      { value: formatNumber(view.score), label: t('games.pairs.final.points'), highlight: true },
      { value: formatTime(view.time_ms ?? view.stopwatch?.elapsed_ms ?? 0), label: t('common.time') },
      { value: `${view.pairs_removed}/${view.pairs_total}`, label: t('games.pairs.hud.pairs') },
      { value: formatNumber(view.best_streak), label: t('common.best_streak') },
      { value: formatNumber(view.hints), label: t('games.pairs.final.hints') },
      { value: formatNumber(view.shuffles), label: t('games.pairs.final.shuffles') },
    ];
    q('#pairs-final-stats').replaceChildren(
      ...stats.map((s) =>
        el('div', { class: `stat${s.highlight ? ' stat--highlight' : ''}` },
          el('span', { class: 'stat__value' }, s.value),
          el('span', { class: 'stat__label' }, s.label)),
      ),
    );
    const notes = [];
    if (timed && cleared && view.bonus) notes.push(t('games.pairs.final.bonus', { points: formatNumber(view.bonus) }));
    if (!cleared) notes.push(plural('games.pairs.final.left', view.pairs_total - view.pairs_removed));
    // one attempt a day (the server refuses a second): say so, above all when it is back
    if (daily) notes.push(t(playedBefore ? 'common.daily.played' : 'common.daily.tomorrow'));
    if (daily && tooFast) notes.push(t('common.daily.too_fast'));
    const record = q('#pairs-final-record');
    record.replaceChildren(...notes.map((text) => el('span', { class: 'pairs-final__note' }, text)));
    record.dataset.notes = String(notes.length);
    q('#pairs-final-badge').hidden = true;
    q('#pairs-final-honour').hidden = true;
    // a daily board opens again by its number only once its day is over (daily_not_over)
    q('[data-action="calm"]').hidden = !(timed && !cleared) || Boolean(daily);
    this.view = view;
    return this.card.show();
  }

  setRecord(record, gameId) {
    const node = this.dialog.querySelector('#pairs-final-record');
    const view = this.view;
    if (!view) return;
    node.querySelector('.pairs-final__best')?.remove();
    const mine = Boolean(record && record.game_id === gameId);
    this.dialog.querySelector('#pairs-final-badge').hidden = !(mine && record.played > 1);
    if (!record) return;
    const where = `${t(`games.pairs.size.${view.size}`)} · ${t(`games.pairs.mode.${view.mode}`)}`;
    const text = mine
      ? record.played > 1
        ? t('games.pairs.final.record_new', { where })
        : t('games.pairs.final.record_first', { where })
      : t('games.pairs.final.record', { where, points: formatNumber(record.score), time: formatTime(record.time_ms) });
    node.prepend(el('span', { class: `pairs-final__best${mine ? ' is-mine' : ''}` }, text));
  }

  setHonour(entries) {
    const node = this.dialog.querySelector('#pairs-final-honour');
    if (!entries?.length) {
      node.hidden = true;
      return;
    }
    node.replaceChildren(
      el('h3', { class: 'pairs-final__honour-title' }, t('games.pairs.final.honour')),
      el('ol', { class: 'pairs-honour' },
        entries.slice(0, 5).map((entry) =>
          el('li', {},
            el('span', { class: 'pairs-honour__rank' }, formatNumber(entry.rank)),
            el('span', { class: 'pairs-honour__name' }, entry.name || t('games.pairs.final.anonymous')),
            el('span', { class: 'pairs-honour__score' }, formatNumber(entry.score)),
            el('span', { class: 'pairs-honour__time' }, formatTime(entry.time_ms))))),
    );
    node.hidden = false;
  }
}
